/// The moments of a distribution: its mean, variance and standard deviation, each measured
/// from the smallest outcome so that values past 2^53 keep their spread.
extension Distribution {
    /// The expected value (of the outcomes present, normalised by their total).
    ///
    /// - Complexity: O(*n*)
    public var mean: Double {
        let (anchor, center) = deviationCenter
        return anchor + center
    }

    /// An outcome to measure from, as a double, and the mean's distance from it: the smallest
    /// outcome, each outcome's distance from it worked out exactly before it is made a double.
    /// Past 2^53 doubles are further apart than the outcomes: `9223372036854775807 - 1d2`
    /// had a mean of ...808 and a stdev of 0 (it is 0.5).
    private var deviationCenter: (anchor: Double, center: Double) {
        var total = 0.0, weighted = 0.0
        forEachDeviation { deviation, p in
            total += p
            weighted += deviation * p
        }
        return (minimum?.doubleValue ?? 0, total > 0 ? weighted / total : 0)
    }

    /// Calls `body` with each outcome's distance from the smallest, and its probability.
    private func forEachDeviation(_ body: (Double, Double) -> Void) {
        switch storage {
        case .sparse(let outcomes):
            guard let anchor = outcomes.first?.value else { return }
            for outcome in outcomes {
                // A distance past 64 bits (from -2^63 to 2^63 - 1) is a double's difference.
                let exact = try? outcome.value.subtracting(anchor)
                body(exact?.doubleValue ?? outcome.value.doubleValue - anchor.doubleValue, outcome.probability)
            }
        case .dense(_, let probabilities):
            for index in probabilities.indices where probabilities[index] != 0 { body(Double(index), probabilities[index]) }
        }
    }

    /// The variance (normalised like `mean`).
    ///
    /// - Complexity: O(*n*)
    package var variance: Double {
        // One outcome does not vary, though `mean` (its value·p / p) may miss it by a rounding.
        guard count != 1 else { return 0 }
        let center = deviationCenter.center
        var total = 0.0, squares = 0.0
        forEachDeviation { deviation, p in
            let spread = deviation - center
            total += p
            squares += spread * spread * p
        }
        return total > 0 ? squares / total : 0
    }

    /// The standard deviation.
    ///
    /// - Complexity: O(*n*)
    public var standardDeviation: Double { variance.squareRoot() }
}
