/// "At most" and the percentiles of `stats` (LANGUAGE.md §7).
extension Distribution {
    /// Each outcome with the probability of at most it, P(≤ outcome), in increasing order.
    ///
    /// - Complexity: O(*n*)
    var atMost: [Outcome] {
        var running = RunningSum()
        var result: [Outcome] = []
        result.reserveCapacity(storageSize)
        forEachOutcome { value, p in
            running.add(p)
            result.append(Outcome(value, running.total))
        }
        return result
    }

    /// Each outcome of any kind with the probability of it or any listed before it, in the
    /// order of `valueOutcomes`.
    ///
    /// - Complexity: O(*n*)
    var valueAtMost: [ValueOutcome] {
        var running = RunningSum()
        return valueOutcomes.map { outcome in
            running.add(outcome.probability)
            return ValueOutcome(outcome.value, running.total)
        }
    }

    /// The least outcome whose "at most" reaches `fraction` of the total probability: the
    /// median for 0.5, the 10th percentile for 0.1. `nil` when there is no outcome.
    ///
    /// Sums of probabilities that should reach `fraction` exactly may fall a rounding short
    /// of it (0.1 + 0.2 < 0.3 in doubles): a shortfall below 1e-12 counts as reaching it.
    /// The running sum carries its roundings (`RunningSum`): naively, 100,000 additions of
    /// 1/200,000 fell more than 1e-12 short of 0.5, and `1d200000` had the median 100001.
    ///
    /// - Complexity: O(*n*)
    func quantile(_ fraction: Double) -> Number? {
        var total = RunningSum()
        forEachOutcome { _, p in total.add(p) }
        total.add(symbolicOutcomes.totalProbability)
        let goal = fraction * total.total - 1e-12
        var running = RunningSum()
        var found: Number?
        forEachOutcome { value, p in
            guard found == nil else { return }
            running.add(p)
            if running.total >= goal { found = value }
        }
        return found ?? maximum
    }

    /// The median and the 10th and 90th percentiles, as `stats` reports them.
    var percentiles: (median: Number, p10: Number, p90: Number)? {
        guard !hasSymbolic, let median = quantile(0.5), let p10 = quantile(0.1), let p90 = quantile(0.9) else { return nil }
        return (median, p10, p90)
    }
}

extension Distribution {
    /// The sums of `probabilities` from the first to each: each entry's "at most", in order.
    static func sumsFromStart(_ probabilities: [Double]) -> [Double] {
        var running = RunningSum()
        return probabilities.map { p in
            running.add(p)
            return running.total
        }
    }

    /// The sums of `probabilities` from each to the last: each entry's "at least". Summed from
    /// the end, so never below the entry's own probability (the total less what came before
    /// printed 0.00% beside a P of <0.01% in a long tail).
    static func sumsFromEnd(_ probabilities: [Double]) -> [Double] {
        var running = RunningSum()
        var sums = [Double](repeating: 0, count: probabilities.count)
        for index in probabilities.indices.reversed() {
            running.add(probabilities[index])
            sums[index] = running.total
        }
        return sums
    }
}

/// A running sum of probabilities that carries the rounding of each addition (Neumaier), so
/// that the "at most" of a long distribution (a million outcomes of 1e-6) stays within a few
/// ulps of the exact sum instead of drifting by the number of additions.
struct RunningSum {
    private var sum = 0.0
    private var carry = 0.0

    /// The sum so far, its carried roundings included.
    var total: Double { sum + carry }

    mutating func add(_ value: Double) {
        let next = sum + value
        carry += abs(sum) >= abs(value) ? (sum - next) + value : (value - next) + sum
        sum = next
    }
}
