#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Keep/drop over independent, identically distributed values, without listing the
/// S^N outcomes of the pool.
///
/// The values go in increasing order; the state is how many dice have shown a value so
/// far (so which sorted positions they take) and the distribution of the kept sum. Given
/// that `j` dice are below value `v`, the number of the remaining `N - j` that show `v` is
/// binomial with `p(v) / P(>= v)`.
enum KeepDP {
    /// The distribution of the sum of `contributions[i]` over the dice at sorted positions
    /// `kept`, for `dice` independent values that are `i` with probability `probabilities[i]`
    /// (value order ascending, probabilities summing to 1); arithmetic faults are reported at `range`.
    ///
    /// - Complexity: O(*S* · *N* · *N'* · *W*) for *S* values, *N* dice, *N'* = `kept.upperBound`
    ///   states and *W* the width of the kept sum's distribution.
    static func keptSum(probabilities: [Double], contributions: [Number], dice: Int, kept: Range<Int>,
                        meter: inout WorkMeter, at range: SourceRange) throws(StatsFailure) -> Distribution {
        try checkValues(probabilities.count, contributions.count)
        guard dice > 0, !kept.isEmpty else { return Distribution(constant: .integer(0)) }
        // The work grows with the positions before the end of the kept ones: count them from
        // whichever end is nearer (from the top, the values go in decreasing order).
        if dice - kept.lowerBound < kept.upperBound {
            return try ascendingKeptSum(probabilities: probabilities.reversed(), contributions: contributions.reversed(),
                                        dice: dice, kept: (dice - kept.upperBound)..<(dice - kept.lowerBound),
                                        meter: &meter, at: range)
        }
        return try ascendingKeptSum(probabilities: probabilities, contributions: contributions, dice: dice,
                                    kept: kept, meter: &meter, at: range)
    }

    /// Throws unless there are as many probabilities as contributions, and some: a unit whose
    /// every outcome was cut (a very coarse `explosionCutoff`) has none, and is left to simulation.
    private static func checkValues(_ probabilities: Int, _ contributions: Int) throws(StatsFailure) {
        guard probabilities == contributions else {
            throw .invariant("\(probabilities) probabilities for \(contributions) contributions")
        }
        guard probabilities > 0 else { throw .tooExpensive("a pool without values") }
    }

    /// The kept sum of `dice` independent copies of `unit`, each value counted by
    /// `counting`, before scaling by the mass of `unit` (to the power `dice`); faults are
    /// reported at `range`.
    ///
    /// - Complexity: as `keptSum(probabilities:contributions:dice:kept:meter:at:)`.
    static func keptSum(of unit: Distribution, counting: PoolRules.Counting, dice: Int, kept: Range<Int>,
                        meter: inout WorkMeter, at range: SourceRange) throws(StatsFailure) -> Distribution {
        let mass = unit.totalProbability
        // Filled in place rather than appended to: see `FlatArray`.
        let count = unit.count
        var probabilities = [Double](repeating: 0, count: count)
        var wholeContributions = [Int](repeating: 0, count: count)
        // Only when some contribution is not a whole number (a group member of `1d6/2`).
        var contributions: [Number] = []
        var whole = true
        var index = 0
        try unit.forEachOutcome { (value, p) throws(StatsFailure) in
            defer { index += 1 }
            probabilities[index] = p / mass
            let contribution = try StatsFailure.arithmetic(at: range) { () throws(ArithmeticFault) in
                try counting.contribution(of: value)
            }
            if whole, case .integer(let n) = contribution {
                wholeContributions[index] = n
                return
            }
            if whole { contributions = wholeContributions[..<index].map { .integer($0) } }
            whole = false
            contributions.append(contribution)
        }
        return whole
            ? try keptSum(probabilities: probabilities, contributions: wholeContributions, dice: dice, kept: kept,
                          meter: &meter, at: range)
            : try keptSum(probabilities: probabilities, contributions: contributions, dice: dice, kept: kept,
                          meter: &meter, at: range)
    }

    /// `keptSum` for whole-number contributions (every pool of dice): the same steps on
    /// flat arrays of probabilities, one row per state, when the rows are small enough;
    /// otherwise the general form.
    ///
    /// - Complexity: as the general form.
    static func keptSum(probabilities: [Double], contributions: [Int], dice: Int, kept: Range<Int>,
                        meter: inout WorkMeter, at range: SourceRange) throws(StatsFailure) -> Distribution {
        try checkValues(probabilities.count, contributions.count)
        guard dice > 0, !kept.isEmpty else { return Distribution(constant: .integer(0)) }
        let fromTop = dice - kept.lowerBound < kept.upperBound
        let ascendingKept = fromTop ? (dice - kept.upperBound)..<(dice - kept.lowerBound) : kept
        let ascendingProbabilities = fromTop ? FlatArray.reversed(probabilities) : probabilities
        let ascendingContributions = fromTop ? FlatArray.reversed(contributions) : contributions
        if let table = FlatTable(contributions: ascendingContributions, dice: dice, kept: ascendingKept,
                                 maxOutcomes: meter.budget.maxOutcomes) {
            return try flatKeptSum(probabilities: ascendingProbabilities, contributions: ascendingContributions,
                                   dice: dice, kept: ascendingKept, table: table, meter: &meter)
        }
        return try ascendingKeptSum(probabilities: ascendingProbabilities,
                                    contributions: ascendingContributions.map { .integer($0) },
                                    dice: dice, kept: ascendingKept, meter: &meter, at: range)
    }

    /// The shape of the rows of `flatKeptSum`: every kept sum lies in `low ..< low + width`.
    private struct FlatTable {
        /// The most slots the rows may hold together (two megabytes).
        static let maxSlots = 1 << 18

        let low: Int
        let width: Int
        /// States `0 ..< rows` (dice placed so far) stay open.
        let rows: Int

        /// `nil` when the rows would be too large, or a sum could overflow.
        init?(contributions: [Int], dice: Int, kept: Range<Int>, maxOutcomes: Int) {
            guard let smallest = contributions.min(), let largest = contributions.max() else { return nil }
            let (lowest, o1) = smallest.multipliedReportingOverflow(by: kept.count)
            let (highest, o2) = largest.multipliedReportingOverflow(by: kept.count)
            guard !o1, !o2 else { return nil }
            low = Swift.min(0, lowest)
            let (span, o3) = Swift.max(0, highest).subtractingReportingOverflow(low)
            guard !o3, span < maxOutcomes else { return nil }
            width = span + 1
            rows = Swift.min(dice, kept.upperBound)
            // Two sets of rows and the final sums.
            let (slots, o4) = width.multipliedReportingOverflow(by: 2 * rows + 1)
            guard !o4, slots <= FlatTable.maxSlots else { return nil }
        }
    }

    /// `ascendingKeptSum` on flat rows: row `j` holds the distribution of the kept sum when
    /// `j` dice have shown the values so far, slot `s` for the sum `table.low + s`, and
    /// `lowest[j]...highest[j]` the slots it uses (none when `lowest[j] > highest[j]`). The
    /// probabilities are added in the same order as there, so the results are the same.
    ///
    /// One array holds two sets of rows (the states before and after a value) and the final
    /// sums: `current` and `next` are where the two sets start, swapped after each value.
    private static func flatKeptSum(probabilities: [Double], contributions: [Int], dice: Int, kept: Range<Int>,
                                    table: FlatTable, meter: inout WorkMeter) throws(StatsFailure) -> Distribution {
        let m = probabilities.count
        let width = table.width, rows = table.rows
        let spread = Double(contributions.max() ?? 0) - Double(contributions.min() ?? 0)
        let estimate = Double(m) * Double(kept.upperBound) * Double(dice)
            * Swift.min(Double(kept.count) * spread + 1, Double(meter.budget.maxOutcomes)) / 2
        try meter.ensureAffordable(estimate < 9e18 ? Int(estimate) : Int.max)
        var tail = [Double](repeating: 0, count: m + 1)
        for i in stride(from: m - 1, through: 0, by: -1) { tail[i] = tail[i + 1] + probabilities[i] }
        var logFactorial = [Double](repeating: 0, count: dice + 1)
        for n in stride(from: 2, through: dice, by: 1) { logFactorial[n] = logFactorial[n - 1] + log(Double(n)) }

        // A state whose dice pass the kept positions goes to the final sums, so every open
        // state has fewer than `rows` dice placed.
        var current = 0, next = rows * width
        let final = 2 * rows * width
        var slab = [Double](repeating: 0, count: final + width)
        var lowest = [Int](repeating: width, count: rows), highest = [Int](repeating: -1, count: rows)
        var nextLowest = [Int](repeating: width, count: rows), nextHighest = [Int](repeating: -1, count: rows)
        // Nothing placed yet: the kept sum is 0.
        slab[-table.low] = 1
        lowest[0] = -table.low
        highest[0] = -table.low
        for i in 0..<m {
            let q = i == m - 1 ? 1.0 : Swift.min(1, probabilities[i] / tail[i])
            let logQ = log(q), logRest = log1p(-q)
            try slab.withUnsafeMutableBufferPointer { (slab) throws(StatsFailure) in
                for j in 0..<rows where lowest[j] <= highest[j] {
                    let remaining = dice - j
                    let from = lowest[j], to = highest[j]
                    try meter.charge(WorkMeter.product(remaining + 1, to - from + 1))
                    for k in 0...remaining {
                        let pmf = KeepDP.binomial(k, of: remaining, q: q, logQ: logQ, logRest: logRest,
                                                  logFactorial: logFactorial)
                        if pmf == 0 { continue }
                        let placed = j + k
                        let overlap = Swift.max(0, Swift.min(placed, kept.upperBound) - Swift.max(j, kept.lowerBound))
                        // `overlap` is at most `kept.count`, so the sums stay within the table.
                        let shift = contributions[i] * overlap
                        let source = current + j * width + from
                        if placed >= kept.upperBound || placed == dice {
                            try addRow(slab, from: source, to: final + from + shift, count: to - from + 1, times: pmf)
                        } else {
                            try addRow(slab, from: source, to: next + placed * width + from + shift,
                                       count: to - from + 1, times: pmf)
                            nextLowest[placed] = Swift.min(nextLowest[placed], from + shift)
                            nextHighest[placed] = Swift.max(nextHighest[placed], to + shift)
                        }
                    }
                }
                // Clear the rows of the value done, which take the next value's states.
                for j in 0..<rows where lowest[j] <= highest[j] {
                    for slot in lowest[j]...highest[j] { slab[current + j * width + slot] = 0 }
                }
            }
            swap(&current, &next)
            swap(&lowest, &nextLowest)
            swap(&highest, &nextHighest)
            for j in 0..<rows {
                nextLowest[j] = width
                nextHighest[j] = -1
            }
        }
        return try meter.checkSize(Distribution.fromDense(offset: table.low,
                                                          probabilities: FlatArray.copy(slab, final ..< slab.count)))
    }

    /// `slab[target ..< target + count] += slab[source ..< source + count] * weight`, slot
    /// by slot (a loop that vectorizes), the two ranges being apart.
    private static func addRow(_ slab: UnsafeMutableBufferPointer<Double>, from source: Int, to target: Int,
                               count: Int, times weight: Double) throws(StatsFailure) {
        guard count >= 0, source >= 0, target >= 0, source <= slab.count - count, target <= slab.count - count else {
            throw .invariant("a kept sum outside its table")
        }
        for index in 0..<count { slab[target &+ index] += slab[source &+ index] * weight }
    }

    private static func ascendingKeptSum(
        probabilities: [Double], contributions: [Number], dice: Int, kept: Range<Int>, meter: inout WorkMeter,
        at range: SourceRange
    ) throws(StatsFailure) -> Distribution {
        let zero = Distribution(constant: .integer(0))
        let m = probabilities.count
        // Up to kept.upperBound states, each spreading over the dice left, each a kept sum
        // as wide as the kept dice times the spread of the contributions.
        var spread = 0.0
        if let first = contributions.first?.doubleValue {
            var smallest = first, largest = first
            for contribution in contributions {
                smallest = Swift.min(smallest, contribution.doubleValue)
                largest = Swift.max(largest, contribution.doubleValue)
            }
            spread = largest - smallest
        }
        let width = Swift.min(Double(kept.count) * spread + 1, Double(meter.budget.maxOutcomes))
        let estimate = Double(m) * Double(kept.upperBound) * Double(dice) * width / 2
        try meter.ensureAffordable(estimate < 9e18 ? Int(estimate) : Int.max)
        var tail = [Double](repeating: 0, count: m + 1)
        for i in stride(from: m - 1, through: 0, by: -1) { tail[i] = tail[i + 1] + probabilities[i] }
        var logFactorial = [Double](repeating: 0, count: dice + 1)
        for n in stride(from: 2, through: dice, by: 1) { logFactorial[n] = logFactorial[n - 1] + log(Double(n)) }

        var states = [Distribution?](repeating: nil, count: dice + 1)
        states[0] = zero
        var final = DistributionAccumulator()
        for i in 0..<m {
            let q = i == m - 1 ? 1.0 : Swift.min(1, probabilities[i] / tail[i])
            let logQ = log(q), logRest = log1p(-q)
            var next = [DistributionAccumulator?](repeating: nil, count: dice + 1)
            for j in 0..<dice {
                guard let state = states[j] else { continue }
                let remaining = dice - j
                try meter.charge(WorkMeter.product(remaining + 1, state.storageSize))
                for k in 0...remaining {
                    let pmf = KeepDP.binomial(k, of: remaining, q: q, logQ: logQ, logRest: logRest,
                                              logFactorial: logFactorial)
                    if pmf == 0 { continue }
                    let placed = j + k
                    let overlap = Swift.max(0, Swift.min(placed, kept.upperBound) - Swift.max(j, kept.lowerBound))
                    // Not through `StatsFailure.arithmetic`: its closure would capture `state`, 2% more
                    // instructions for the whole sum.
                    do throws(ArithmeticFault) {
                        let shift = overlap == 0 ? Number.integer(0)
                            : try contributions[i].multiplying(by: .integer(overlap))
                        if placed >= kept.upperBound || placed == dice {
                            try final.add(state, shiftedBy: shift, times: pmf)
                        } else {
                            if next[placed] == nil { next[placed] = DistributionAccumulator() }
                            try next[placed]?.add(state, shiftedBy: shift, times: pmf)
                        }
                    } catch {
                        throw .dice(DiceError(error.kind, at: range))
                    }
                }
            }
            for j in 0...dice {
                if let accumulator = next[j] {
                    states[j] = try meter.checkSize(accumulator.build())
                } else {
                    states[j] = nil
                }
            }
        }
        return try meter.checkSize(final.build())
    }

    /// P(`k` of `n` dice take the face) when each does with probability `q`: the binomial
    /// term from log factorials, exact 0 and 1 at the ends.
    @inline(__always)
    private static func binomial(_ k: Int, of n: Int, q: Double, logQ: Double, logRest: Double,
                                 logFactorial: [Double]) -> Double {
        if q >= 1 { return k == n ? 1 : 0 }
        if q <= 0 { return k == 0 ? 1 : 0 }
        return exp(logFactorial[n] - logFactorial[k] - logFactorial[n - k] + Double(k) * logQ + Double(n - k) * logRest)
    }
}
