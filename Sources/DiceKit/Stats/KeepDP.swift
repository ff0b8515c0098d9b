#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One keep or drop modifier with its resolved count: `kh3`, `dl1`.
struct KeepStep: Hashable {
    enum Kind: Hashable { case keepHighest, keepLowest, dropHighest, dropLowest }
    var kind: Kind
    var count: Int

    /// The positions kept, in ascending order of value, when `steps` apply in turn to `total` values.
    static func keptRange(_ steps: [KeepStep], total: Int) -> Range<Int> {
        var low = 0, high = total
        for step in steps {
            let size = high - low
            switch step.kind {
            case .keepHighest: low = high - Swift.min(step.count, size)
            case .keepLowest: high = low + Swift.min(step.count, size)
            case .dropHighest: high -= Swift.min(step.count, size)
            case .dropLowest: low += Swift.min(step.count, size)
            }
        }
        return low..<high
    }
}

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
    /// (value order ascending, probabilities summing to 1).
    ///
    /// - Complexity: O(*S* · *N* · *N'* · *W*) for *S* values, *N* dice, *N'* = `kept.upperBound`
    ///   states and *W* the width of the kept sum's distribution.
    static func keptSum(probabilities: [Double], contributions: [Number], dice: Int, kept: Range<Int>,
                        engine: StatsEngine) throws -> Distribution {
        precondition(probabilities.count == contributions.count && !probabilities.isEmpty)
        guard dice > 0, !kept.isEmpty else { return Distribution(constant: .integer(0)) }
        // The work grows with the positions before the end of the kept ones: count them from
        // whichever end is nearer (from the top, the values go in decreasing order).
        if dice - kept.lowerBound < kept.upperBound {
            return try ascendingKeptSum(probabilities: probabilities.reversed(), contributions: contributions.reversed(),
                                        dice: dice, kept: (dice - kept.upperBound)..<(dice - kept.lowerBound),
                                        engine: engine)
        }
        return try ascendingKeptSum(probabilities: probabilities, contributions: contributions, dice: dice,
                                    kept: kept, engine: engine)
    }

    private static func ascendingKeptSum(probabilities: [Double], contributions: [Number], dice: Int,
                                         kept: Range<Int>, engine: StatsEngine) throws -> Distribution {
        let zero = Distribution(constant: .integer(0))
        let m = probabilities.count
        // Up to kept.upperBound states, each spreading over the dice left, each a kept sum
        // as wide as the kept dice times the spread of the contributions.
        let spread = contributions.map { $0.doubleValue }.max()! - contributions.map { $0.doubleValue }.min()!
        let width = Swift.min(Double(kept.count) * spread + 1, Double(engine.budget.maxOutcomes))
        let estimate = Double(m) * Double(kept.upperBound) * Double(dice) * width / 2
        try engine.ensureAffordable(estimate < 9e18 ? Int(estimate) : Int.max)
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
                try engine.charge(StatsEngine.product(remaining + 1, state.storageSize))
                for k in 0...remaining {
                    let pmf: Double
                    if q >= 1 {
                        pmf = k == remaining ? 1 : 0
                    } else if q <= 0 {
                        pmf = k == 0 ? 1 : 0
                    } else {
                        pmf = exp(logFactorial[remaining] - logFactorial[k] - logFactorial[remaining - k]
                                  + Double(k) * logQ + Double(remaining - k) * logRest)
                    }
                    if pmf == 0 { continue }
                    let placed = j + k
                    let overlap = Swift.max(0, Swift.min(placed, kept.upperBound) - Swift.max(j, kept.lowerBound))
                    let shift = overlap == 0 ? Number.integer(0)
                        : try contributions[i].multiplying(by: .integer(overlap))
                    if placed >= kept.upperBound || placed == dice {
                        try final.add(state, shiftedBy: shift, times: pmf)
                    } else {
                        if next[placed] == nil { next[placed] = DistributionAccumulator() }
                        try next[placed]!.add(state, shiftedBy: shift, times: pmf)
                    }
                }
            }
            for j in 0...dice {
                states[j] = try next[j].map { try engine.checkSize($0.build()) }
            }
        }
        return try engine.checkSize(final.build())
    }
}
