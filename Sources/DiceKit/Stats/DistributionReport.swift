/// The distribution of a `stats` expression and how it was obtained.
public struct DistributionReport: Hashable, Sendable {
    /// The outcomes and their probabilities.
    public var distribution: Distribution
    /// False when the distribution was estimated by simulation.
    public var exact: Bool
    /// The probability cut from the infinite tails of explosions (0 when none was cut).
    public var truncatedMass: Double
    /// The number of simulated rolls, when estimated.
    public var sampleCount: Int?

    init(distribution: Distribution, exact: Bool, truncatedMass: Double = 0, sampleCount: Int? = nil) {
        self.distribution = distribution
        self.exact = exact
        self.truncatedMass = truncatedMass
        self.sampleCount = sampleCount
    }
}

/// Why an exact distribution was not computed; the caller falls back to simulation.
///
/// Only for what is beyond the exact engine's reach, never for its own bugs (a broken
/// invariant is thrown as another error, so that no caller simulates over it).
public enum StatsError: Error, Hashable, Sendable {
    /// The exact computation would exceed the work or size bound of `Limits.stats`, or the
    /// expression has a shape the exact engine leaves to simulation (keeping from both ends
    /// of an exploding pool).
    case tooExpensive(String)
}

