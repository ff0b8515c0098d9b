/// The distribution of a `stats` expression and how it was obtained.
public struct DistributionReport: Hashable, Sendable {
    /// One end of the range of values an expression can take.
    public enum Extreme: Hashable, Sendable {
        /// The least (or greatest) value.
        case value(Number)
        /// No end on that side: an explosion can go on and on.
        case unbounded
    }

    /// The outcomes and their probabilities.
    public package(set) var distribution: Distribution
    /// False when the distribution was estimated by simulation.
    public package(set) var exact: Bool
    /// The probability cut from the infinite tails of explosions and the far tails of large
    /// sums (0 when none was cut).
    public package(set) var truncatedMass: Double
    /// Whether the far tails of a large sum (`100000d6`) were cut, below `StatsBudget.sumTailCutoff`.
    package var sumTailsCut: Bool
    /// The cutoffs the tails were cut at, as the note states them: the budget's, or finer
    /// where a rare `given` was worked out again (`1d2 given 1d6! >= 90`, 1e-24).
    package var explosionCutoff = StatsBudget.standard.explosionCutoff
    package var sumTailCutoff = StatsBudget.standard.sumTailCutoff
    /// The number of simulated rolls, when estimated.
    public package(set) var sampleCount: Int?
    /// When estimated, the largest standard error of an outcome's probability, √(p(1−p)/n).
    public package(set) var standardError: Double?
    /// The least value the expression can take: the least outcome of an exact, uncut
    /// distribution; otherwise worked out from the expression (`ValueBounds`), and `nil` when
    /// that is not known (then only the sample's least outcome is known).
    public package(set) var minimum: Extreme?
    /// The greatest value the expression can take, like `minimum`.
    public package(set) var maximum: Extreme?
    /// Whether the expression is a test (`Stats.isTest`): its outcomes are 0 and 1, and it is
    /// shown as the probability of 1, `P = 55.00%`, rather than a table.
    package var isTest = false

    init(distribution: Distribution, exact: Bool, truncatedMass: Double = 0, sumTailsCut: Bool = false,
         sampleCount: Int? = nil, standardError: Double? = nil) {
        self.distribution = distribution
        self.exact = exact
        self.truncatedMass = truncatedMass
        self.sumTailsCut = sumTailsCut
        self.sampleCount = sampleCount
        self.standardError = standardError
        minimum = distribution.minimum.map { .value($0) }
        maximum = distribution.maximum.map { .value($0) }
    }

    /// Takes the true ends of the expression's range from `ends`, each where known, for a
    /// simulation or a distribution with cut tails; an end not known is a simulation's unknown
    /// and an exact distribution's least or greatest outcome.
    ///
    /// The outcomes listed are possible, so an end is never short of them: `ends` gives the
    /// ends that no sample or cut reaches (`1d6!kh20` has max 120, and `8d6!` none), and the
    /// outcomes the ends a loose bound would overstate.
    mutating func setEnds(_ ends: ValueBounds.Ends) {
        if let low = ends.low {
            minimum = Self.extreme(low, beyond: distribution.minimum, below: true)
        } else if !exact {
            minimum = nil
        }
        if let high = ends.high {
            maximum = Self.extreme(high, beyond: distribution.maximum, below: false)
        } else if !exact {
            maximum = nil
        }
    }

    /// The end `bound` (infinite when unbounded), unless `outcome` lies beyond it.
    private static func extreme(_ bound: BoundNumber, beyond outcome: Number?, below: Bool) -> Extreme {
        guard let bound = bound.number else { return .unbounded }
        guard let outcome else { return .value(bound) }
        return .value(below ? Swift.min(outcome, bound) : Swift.max(outcome, bound))
    }
}

/// Why an exact distribution was not computed; the caller falls back to simulation.
///
/// Only for what is beyond the exact engine's reach, never for its own bugs (a broken
/// invariant is thrown as another error, so that no caller simulates over it).
package enum StatsError: Error, Hashable, Sendable {
    /// The exact computation would exceed the work or size bound of `Limits.stats`, or the
    /// expression has a shape the exact engine leaves to simulation (keeping from both ends
    /// of an exploding pool).
    case tooExpensive(String)
}

