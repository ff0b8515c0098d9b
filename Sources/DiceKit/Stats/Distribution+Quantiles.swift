/// "At most" and the percentiles of `stats` (LANGUAGE.md §7).
extension Distribution {
    /// Each outcome with the probability of at most it, P(≤ outcome), in increasing order.
    ///
    /// - Complexity: O(*n*)
    var atMost: [Outcome] {
        var running = 0.0
        var result: [Outcome] = []
        result.reserveCapacity(storageSize)
        forEachOutcome { value, p in
            running += p
            result.append(Outcome(value, running))
        }
        return result
    }

    /// Each outcome of any kind with the probability of it or any listed before it, in the
    /// order of `valueOutcomes`.
    ///
    /// - Complexity: O(*n*)
    var valueAtMost: [ValueOutcome] {
        var running = 0.0
        return valueOutcomes.map { outcome in
            running += outcome.probability
            return ValueOutcome(outcome.value, running)
        }
    }

    /// The least outcome whose "at most" reaches `fraction` of the total probability: the
    /// median for 0.5, the 10th percentile for 0.1. `nil` when there is no outcome.
    ///
    /// Sums of probabilities that should reach `fraction` exactly may fall a rounding short
    /// of it (0.1 + 0.2 < 0.3 in doubles): a shortfall below 1e-12 counts as reaching it.
    ///
    /// - Complexity: O(*n*)
    func quantile(_ fraction: Double) -> Number? {
        let goal = fraction * totalProbability - 1e-12
        var running = 0.0
        var found: Number?
        forEachOutcome { value, p in
            guard found == nil else { return }
            running += p
            if running >= goal { found = value }
        }
        return found ?? maximum
    }

    /// The median and the 10th and 90th percentiles, as `stats` reports them.
    var percentiles: (median: Number, p10: Number, p90: Number)? {
        guard !hasSymbolic, let median = quantile(0.5), let p10 = quantile(0.1), let p90 = quantile(0.9) else { return nil }
        return (median, p10, p90)
    }
}
