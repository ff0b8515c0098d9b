#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Sums of many independent copies of one whole-number distribution (`100000d6`,
/// `1000d20!`, `repeat(n, e)`): by repeated squaring, each product a flat convolution or,
/// when long, a Fourier one, with the far tails cut.
///
/// A sum of *n* copies spreads over about √*n* times one copy's width around its mean, and
/// the slots beyond that carry vanishing mass: each product drops the slots of each far tail
/// whose mass together is at most the budget's `sumTailCutoff` / (2 × `maxProducts`), so the
/// arrays stay about 20 standard deviations wide and one sum cuts less than `sumTailCutoff`
/// in all (each long `a ± b` of a chain cuts as one product more). The mass cut is noted on
/// the meter (`WorkMeter.noteCut`) and reported as `DistributionReport.truncatedMass`.
enum LargeSum {
    /// A whole-number distribution as a flat array: slot `i` is the value `offset + i`.
    struct Flat {
        var offset: Int
        var probabilities: [Double]

        init?(_ distribution: Distribution) {
            guard case .dense(let offset, let probabilities) = distribution.storage, !probabilities.isEmpty else {
                return nil
            }
            self.offset = offset
            self.probabilities = probabilities
        }

        init(offset: Int, probabilities: [Double]) {
            self.offset = offset
            self.probabilities = probabilities
        }

        var distribution: Distribution { Distribution.fromDense(offset: offset, probabilities: probabilities) }
    }

    /// Whole numbers spaced by a common step (`1d6 * 100`: 100, 200, ..., 600), as the flat
    /// array of `(value - offset) / step`: sparse outcomes summed like dense ones.
    struct Lattice {
        var offset: Int
        var step: Int
        var flat: Flat

        /// `nil` unless whole numbers in a lattice of at most `maxSlots` slots, more than 1 apart.
        init?(_ distribution: Distribution, maxSlots: Int) {
            guard case .sparse(let outcomes) = distribution.storage, outcomes.count > 1,
                  let low = outcomes.first?.value.integerValue, let high = outcomes.last?.value.integerValue else {
                return nil
            }
            var step = 0
            for outcome in outcomes {
                guard let value = outcome.value.integerValue else { return nil }
                let (difference, overflow) = value.subtractingReportingOverflow(low)
                guard !overflow else { return nil }
                step = Lattice.gcd(step, difference)
            }
            guard step > 1, (high - low) / step < maxSlots else { return nil }
            var slots = [Double](repeating: 0, count: (high - low) / step + 1)
            for outcome in outcomes {
                if let value = outcome.value.integerValue { slots[(value - low) / step] += outcome.probability }
            }
            self.offset = low
            self.step = step
            flat = Flat(offset: 0, probabilities: slots)
        }

        static func gcd(_ a: Int, _ b: Int) -> Int {
            var (x, y) = (a, b)
            while y != 0 { (x, y) = (y, x % y) }
            return x
        }

        /// The sum of `count` copies, back on the values' own scale: `count × offset + step × k`.
        func sum(count: Int, tailCutoff: Double, meter: inout WorkMeter,
                 at range: SourceRange) throws(StatsFailure) -> Distribution {
            let (shift, o1) = offset.multipliedReportingOverflow(by: count)
            let (top, o2) = (step * (flat.probabilities.count - 1)).multipliedReportingOverflow(by: count)
            let (_, o3) = shift.addingReportingOverflow(top)
            guard !o1, !o2, !o3 else { throw .dice(DiceError(.overflow, at: range)) }
            let total = try LargeSum.sum(of: flat, count: count, adding: nil, tailCutoff: tailCutoff,
                                         meter: &meter, at: range)
            var outcomes: [Distribution.Outcome] = []
            for (index, p) in total.probabilities.enumerated() where p != 0 {
                outcomes.append(Distribution.Outcome(.integer(shift + step * (total.offset + index)), p))
            }
            return Distribution.fromSorted(outcomes)
        }
    }

    /// The most products one sum takes: a squaring and a multiplication per bit of the count;
    /// each cuts at most 1/(2 × this) of the budget's `sumTailCutoff` from each end.
    static let maxProducts = 128

    /// The flat convolution's work for arrays of `n` and `m` slots.
    static func flatWork(_ n: Int, _ m: Int) -> Int { WorkMeter.product(n, m) }

    /// Whether the sum of `count` copies of `single`, from `copies` copies already summed,
    /// is worth squaring rather than adding one copy at a time: whole numbers in a flat
    /// array, and one at a time would cost more than `threshold` steps.
    static func prefersSquaring(_ single: Distribution, count: Int, copies: Int,
                                threshold: Int = 1 << 22) -> Bool {
        guard case .dense(_, let probabilities) = single.storage, !probabilities.isEmpty else { return false }
        let steps = Double(count - copies), width = Double(probabilities.count)
        // The one-at-a-time cost: each step adds a copy to a sum of about count × width slots.
        return steps * Double(count) * width * width > Double(threshold)
    }

    /// The sum of `count` copies of `single` (dense, whole numbers) added to `base`, the sum
    /// of some copies already made (`nil`: none).
    ///
    /// Throws `.dice(.overflow)` at `range` when some sum could pass the integers' range, as
    /// a roll could.
    ///
    /// - Complexity: O(log *count*) products of arrays about √*count* × `single`'s width wide,
    ///   each O(*w* log *w*) by Fourier transform or O(*w*²) when short.
    static func sum(of single: Flat, count: Int, adding base: Flat?, tailCutoff: Double,
                    meter: inout WorkMeter, at range: SourceRange) throws(StatsFailure) -> Flat {
        precondition(count >= 1)
        // The extremes of the sum, with their positive probabilities, must fit.
        let low = single.offset, high = single.offset + (single.probabilities.count - 1)
        let (lowTotal, o1) = low.multipliedReportingOverflow(by: count)
        let (highTotal, o2) = high.multipliedReportingOverflow(by: count)
        var overflow = o1 || o2
        if let base, !overflow {
            let (_, o3) = lowTotal.addingReportingOverflow(base.offset)
            let (_, o4) = highTotal.addingReportingOverflow(base.offset + (base.probabilities.count - 1))
            overflow = o3 || o4
        }
        if overflow { throw .dice(DiceError(.overflow, at: range)) }

        // Each product cuts at most `cut` from each end.
        let cut = tailCutoff / Double(2 * maxProducts)
        var result = base
        var power = single
        var rest = count
        while rest > 0 {
            if rest & 1 == 1 {
                if let current = result {
                    result = try product(current, power, cut: cut, meter: &meter)
                } else {
                    result = power
                }
            }
            rest >>= 1
            if rest > 0 { power = try product(power, power, cut: cut, meter: &meter) }
        }
        guard var result else { throw .invariant("a sum of no copies") }
        // A die's probabilities total 1 only up to rounding (six times 1/6 is 1 − 3e-16 in
        // doubles), and that shortfall compounds: 1e-9 over ten million dice. A total that
        // strays from 1 by no more than rounding is taken as 1, and the sum scaled back.
        let excess = excessOverOne(single.probabilities)
        if excess != 0, abs(excess) <= Double(single.probabilities.count) * Double.ulpOfOne {
            let scale = exp(-Double(count) * log1p(excess))
            result.probabilities = FlatArray.mapped(result.probabilities) { $0 * scale }
        }
        return result
    }

    /// The sum of `values` less 1, the rounding of each addition carried (Neumaier), so that
    /// a shortfall below the spacing of doubles near 1 still shows.
    static func excessOverOne(_ values: [Double]) -> Double {
        var sum = -1.0, carry = 0.0
        for value in values {
            let next = sum + value
            carry += abs(sum) >= abs(value) ? (sum - next) + value : (value - next) + sum
            sum = next
        }
        return sum + carry
    }

    /// `a + b` (or `a - b`) for independent `a` and `b` when both are long flat arrays
    /// (`1000d20! + 1000d20!`): a product like the squarings', charged as it goes, the far
    /// tails cut; `nil` when short or not flat (the caller adds them pair by pair).
    static func add(_ a: Distribution, _ b: Distribution, subtracting: Bool,
                    meter: inout WorkMeter, at range: SourceRange) throws(StatsFailure) -> Distribution? {
        guard let x = Flat(a), var y = Flat(b),
              WorkMeter.product(x.probabilities.count, y.probabilities.count) > 1 << 20 else { return nil }
        let yHigh = y.offset + (y.probabilities.count - 1)
        if subtracting {
            guard y.offset != Int.min else { throw .dice(DiceError(.overflow, at: range)) }
            y = Flat(offset: -yHigh, probabilities: FlatArray.reversed(y.probabilities))
        }
        let (_, o1) = x.offset.addingReportingOverflow(y.offset)
        let (_, o2) = (x.offset + (x.probabilities.count - 1)).addingReportingOverflow(y.offset + (y.probabilities.count - 1))
        guard !o1, !o2 else { throw .dice(DiceError(.overflow, at: range)) }
        return try product(x, y, cut: meter.budget.sumTailCutoff / Double(2 * maxProducts), meter: &meter).distribution
    }

    /// `a + b` for independent `a` and `b`, the far tails cut.
    static func product(_ a: Flat, _ b: Flat, cut: Double, meter: inout WorkMeter) throws(StatsFailure) -> Flat {
        let n = a.probabilities.count, m = b.probabilities.count
        let flat = flatWork(n, m)
        let fourier = FourierConvolution.work(n, m)
        let size = n + m - 1
        if size > meter.budget.maxOutcomes {
            throw .tooExpensive("a distribution would have more than \(meter.budget.maxOutcomes) outcomes")
        }
        var probabilities: [Double]
        if Swift.min(n, m) > 64 && fourier < flat {
            try meter.ensureAffordable(fourier)
            probabilities = try FourierConvolution.convolve(a.probabilities, b.probabilities, meter: &meter)
        } else {
            try meter.ensureAffordable(flat)
            probabilities = try convolve(a.probabilities, b.probabilities, meter: &meter)
        }
        var result = Flat(offset: a.offset + b.offset, probabilities: probabilities)
        try trim(&result, below: cut, meter: &meter)
        return result
    }

    /// The flat convolution of nonempty `a` and `b`, charged row by row (so it polls).
    static func convolve(_ a: [Double], _ b: [Double], meter: inout WorkMeter) throws(StatsFailure) -> [Double] {
        let (short, long) = a.count <= b.count ? (a, b) : (b, a)
        var out = [Double](repeating: 0, count: a.count + b.count - 1)
        let width = long.count
        // Rows in blocks of about 2^16 steps: the meter is charged once a block.
        let rowsPerBlock = Swift.max(1, (1 << 16) / width)
        var start = 0
        while start < short.count {
            let end = Swift.min(short.count, start + rowsPerBlock)
            try meter.charge((end - start) * width)
            out.withUnsafeMutableBufferPointer { target in
                short.withUnsafeBufferPointer { s in
                    long.withUnsafeBufferPointer { l in
                        for i in start..<end {
                            let x = s[i]
                            if x == 0 { continue }
                            let row = UnsafeMutableBufferPointer(rebasing: target[i ..< i &+ width])
                            for j in 0..<width { row[j] += x * l[j] }
                        }
                    }
                }
            }
            start = end
        }
        return out
    }

    /// Drops the slots at each end whose mass together is at most `cut`, noting the mass.
    static func trim(_ flat: inout Flat, below cut: Double, meter: inout WorkMeter) throws(StatsFailure) {
        let slots = flat.probabilities
        try meter.charge(slots.count)
        var first = 0, last = slots.count - 1
        var lowMass = 0.0, highMass = 0.0
        while first < last && lowMass + slots[first] <= cut {
            lowMass += slots[first]
            first += 1
        }
        while last > first && highMass + slots[last] <= cut {
            highMass += slots[last]
            last -= 1
        }
        guard first > 0 || last < slots.count - 1 else { return }
        meter.noteCut(lowMass + highMass)
        flat = Flat(offset: flat.offset + first, probabilities: FlatArray.copy(slots, first ..< last + 1))
    }
}
