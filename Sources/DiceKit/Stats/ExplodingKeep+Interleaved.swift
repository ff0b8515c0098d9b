#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Keep/drop over groups whose values interleave (`!p`: the extra dice show one less, among
/// the first dice's values; `!=3`): for each latent, the order-statistics table of `KeepDP`
/// over several groups at once. The values go in order from the nearer end of the kept
/// ranks; the state is how many dice of each group have shown a value so far (so which
/// sorted positions they take) and the distribution of the kept sum. Given that, the number
/// of a group's remaining dice that show the next value is binomial, independently per group.
extension ExplodingKeep {
    /// The values of all groups, ascending, with each group's probability of each and what
    /// each contributes.
    struct ValueTable {
        var contributions: [Number] = []
        /// `probabilities[g][i]`: group `g` shows value `i`.
        var probabilities: [[Double]] = []
        /// The largest spread of the contributions, for estimates.
        var spread = 0.0

        init(_ groups: [Group]) {
            var all: [Int: Number] = [:]
            for group in groups {
                for (value, contribution) in zip(group.values, group.contributions) { all[value] = contribution }
            }
            let values = all.keys.sorted()
            var index: [Int: Int] = [:]
            for (i, value) in values.enumerated() {
                index[value] = i
                if let contribution = all[value] { contributions.append(contribution) }
            }
            for group in groups {
                var row = [Double](repeating: 0, count: values.count)
                for (value, p) in zip(group.values, group.probabilities) {
                    if let i = index[value] { row[i] += p }
                }
                probabilities.append(row)
            }
            let doubles = contributions.map(\.doubleValue)
            spread = (doubles.max() ?? 0) - (doubles.min() ?? 0)
        }
    }

    /// The work of `interleavedKeptSum`, before it starts (`Int.max` once past `limit`): per
    /// latent, per value, the open states (dice placed per group, fewer in all than the end
    /// of the kept ranks) times the counts each group present there may show (at most that
    /// end: more are one outcome), times the width of the kept sum.
    func interleavedEstimate(_ table: ValueTable, maxOutcomes: Int, limit: Int = Int.max) -> Int {
        // Per group, its values (indices into `table`), first and last.
        let spans = table.probabilities.map { row -> (first: Int, last: Int, count: Int) in
            let present = row.indices.filter { row[$0] > 0 }
            return (present.first ?? 0, present.last ?? 0, present.count)
        }
        var total = 0.0
        for latent in latents {
            let dice = latent.sizes.reduce(0, +)
            let kept = KeepDropStep.keptRange(keeps, total: dice)
            guard !kept.isEmpty else { continue }
            let upper = Swift.min(kept.upperBound, dice - kept.lowerBound)
            // States: vectors of placed dice, each at most its group's size (a group of one
            // value: none or all), fewer than `upper` in all.
            var product = 1.0, groups = 0
            for (g, size) in latent.sizes.enumerated() where size > 0 {
                product *= spans[g].count == 1 ? 2 : Double(size + 1)
                groups += 1
            }
            var vectors = 1.0  // C(upper - 1 + groups, groups)
            for i in stride(from: 1, through: groups, by: 1) { vectors = vectors * Double(upper - 1 + i) / Double(i) }
            let states = Swift.min(product, vectors)
            let width = Swift.min(Double(kept.count) * table.spread / 2 + 1, Double(maxOutcomes))
            // Values where each group has a say; the counts multiply where several do.
            var perValue = [Double](repeating: 1, count: table.contributions.count)
            for (g, size) in latent.sizes.enumerated() where size > 0 && spans[g].count > 1 {
                let options = Double(Swift.min(size, upper) + 1)
                for i in spans[g].first..<spans[g].last where table.probabilities[g][i] > 0 { perValue[i] *= options }
            }
            total += states * (perValue.reduce(0, +) * (width + 8) + Double(perValue.count) * ExplodingKeep.stateCost)
                + Double(perValue.count * latent.sizes.count) * ExplodingKeep.stateCost
            if total > Double(limit) || total > 9e18 { return Int.max }
        }
        return Int(total)
    }

    /// The kept sum over the latents, for groups whose values interleave.
    ///
    /// - Complexity: as `interleavedEstimate`.
    func interleavedKeptSum(_ table: ValueTable, meter: inout WorkMeter) throws(StatsFailure) -> Distribution {
        try meter.ensureAffordable(interleavedEstimate(table, maxOutcomes: meter.budget.maxOutcomes,
                                                       limit: meter.budget.maxWork))
        var logFactorial: [Double] = [0]
        var result = DistributionAccumulator()
        for latent in latents {
            let dice = latent.sizes.reduce(0, +)
            while logFactorial.count <= dice {
                logFactorial.append(logFactorial[logFactorial.count - 1] + log(Double(logFactorial.count)))
            }
            let kept = KeepDropStep.keptRange(keeps, total: dice)
            guard !kept.isEmpty else {
                result.add(0, latent.weight)
                continue
            }
            let keptSum = try latentKeptSum(table, sizes: latent.sizes, kept: kept, logFactorial: logFactorial,
                                            meter: &meter)
            try meter.charge(keptSum.storageSize)
            try StatsFailure.arithmetic(at: range) { () throws(ArithmeticFault) in
                try result.add(keptSum, shiftedBy: 0, times: latent.weight)
            }
        }
        return try meter.checkSize(result.build())
    }

    /// The kept sum of ranks `kept` (ascending) for one latent's group sizes.
    private func latentKeptSum(_ table: ValueTable, sizes: [Int], kept: Range<Int>, logFactorial: [Double],
                               meter: inout WorkMeter) throws(StatsFailure) -> Distribution {
        let dice = sizes.reduce(0, +)
        // Count from the nearer end of the kept ranks: from the top, the values go descending.
        let fromTop = dice - kept.lowerBound < kept.upperBound
        let window = fromTop ? (dice - kept.upperBound)..<(dice - kept.lowerBound) : kept
        let order = fromTop ? Array(table.contributions.indices.reversed()) : Array(table.contributions.indices)
        let groups = sizes.indices.filter { sizes[$0] > 0 }
        // What is left of each group's mass at each step, in `order`.
        var tails = [[Double]](repeating: [], count: sizes.count)
        for g in groups {
            var tail = [Double](repeating: 0, count: order.count + 1)
            for step in stride(from: order.count - 1, through: 0, by: -1) {
                tail[step] = tail[step + 1] + table.probabilities[g][order[step]]
            }
            tails[g] = tail
        }
        // A state's key: the dice placed per group, in mixed radix.
        var radix: [Int] = []
        var scale = 1
        for g in groups {
            radix.append(scale)
            scale = WorkMeter.product(scale, sizes[g] + 1)
        }
        guard scale < Int.max else { throw .tooExpensive("too many ways to place the dice of an exploding pool") }

        try meter.charge(WorkMeter.product(order.count * sizes.count, Int(ExplodingKeep.stateCost)))
        var states: [Int: Distribution] = [0: Distribution(constant: .integer(0))]
        var final = DistributionAccumulator()
        for (step, i) in order.enumerated() {
            var next: [Int: DistributionAccumulator] = [:]
            // Each present group's chance that one of its remaining dice shows this value.
            var present: [(slot: Int, group: Int, q: Double)] = []
            for (slot, g) in groups.enumerated() where table.probabilities[g][i] > 0 {
                // At the group's last value, its remaining dice all show it.
                let last = tails[g][step + 1] <= 0
                present.append((slot, g, last ? 1 : Swift.min(1, table.probabilities[g][i] / tails[g][step])))
            }
            if present.isEmpty { continue }
            let contribution = table.contributions[i]
            for (key, totals) in states {
                // Decode the placed dice per group.
                var placed = [Int](repeating: 0, count: groups.count)
                var rest = key, j = 0
                for (slot, g) in groups.enumerated() {
                    placed[slot] = rest % (sizes[g] + 1)
                    rest /= sizes[g] + 1
                    j += placed[slot]
                }
                // Every combination of counts of the present groups, with its probability. From
                // `cap` dice on the kept ranks are settled: those counts are one outcome.
                let cap = window.upperBound - j
                var combos: [(key: Int, count: Int, p: Double)] = [(key, 0, 1)]
                for entry in present {
                    let remaining = sizes[entry.group] - placed[entry.slot]
                    var grown: [(key: Int, count: Int, p: Double)] = []
                    var below = 0.0
                    for c in 0...Swift.min(remaining, cap - 1) {
                        let pmf = ExplodingKeep.binomial(c, of: remaining, q: entry.q, logFactorial: logFactorial)
                        if pmf == 0 { continue }
                        below += pmf
                        for combo in combos {
                            grown.append((combo.key + c * radix[entry.slot], combo.count + c, combo.p * pmf))
                        }
                    }
                    // The counts from `cap` on: summed directly when they are few, else what is left.
                    var settled = 0.0
                    if remaining >= cap {
                        if remaining - cap < cap {
                            for c in cap...remaining {
                                settled += ExplodingKeep.binomial(c, of: remaining, q: entry.q, logFactorial: logFactorial)
                            }
                        } else {
                            settled = Swift.max(0, 1 - below)
                        }
                    }
                    if settled > 0 {
                        for combo in combos { grown.append((0, cap + combo.count, combo.p * settled)) }
                    }
                    combos = grown
                }
                try meter.charge(WorkMeter.product(combos.count, totals.storageSize + 8) + Int(ExplodingKeep.stateCost))
                for combo in combos {
                    let reached = j + combo.count
                    let overlap = Swift.max(0, Swift.min(reached, window.upperBound) - Swift.max(j, window.lowerBound))
                    let shift = try StatsFailure.arithmetic(at: range) { () throws(ArithmeticFault) in
                        overlap == 0 ? Number.integer(0) : try contribution.multiplying(by: .integer(overlap))
                    }
                    if reached >= window.upperBound || reached == dice {
                        try StatsFailure.arithmetic(at: range) { () throws(ArithmeticFault) in
                            try final.add(totals, shiftedBy: shift, times: combo.p)
                        }
                    } else {
                        try StatsFailure.arithmetic(at: range) { () throws(ArithmeticFault) in
                            try next[combo.key, default: DistributionAccumulator()].add(totals, shiftedBy: shift,
                                                                                     times: combo.p)
                        }
                    }
                }
            }
            states = try MultisetKeep.build(next, meter: &meter)
            if states.isEmpty { break }
        }
        return try meter.checkSize(final.build())
    }

    /// The work charged for each state at each value besides its sums (decoding it, listing
    /// the counts, hashing the next states), and for each group at each value of a latent.
    static let stateCost = 64.0

    /// P(`k` of `n` dice show a value each shows with probability `q`), exact 0 and 1 at the ends.
    static func binomial(_ k: Int, of n: Int, q: Double, logFactorial: [Double]) -> Double {
        if q >= 1 { return k == n ? 1 : 0 }
        if q <= 0 { return k == 0 ? 1 : 0 }
        return exp(logFactorial[n] - logFactorial[k] - logFactorial[n - k] + Double(k) * log(q)
                   + Double(n - k) * log1p(-q))
    }
}
