/// The bounds on one statement's work, so every statement ends, with a result or an error.
public struct Limits: Hashable, Sendable {
    /// Dice rolled in one statement, rerolls and explosions included (`--max-dice`).
    public var maxDice: Int
    /// Levels of parentheses, groups, calls and prefix operators in one expression.
    public var maxNesting: Int
    /// Nested evaluations at once, through macros too: enough for any realistic program
    /// (one expression nests at most `maxNesting` levels), small enough for an 8 MB stack
    /// even in a debug build.
    public var maxEvaluationDepth: Int
    /// The work and sizes of one exact distribution (`stats`) before it is estimated instead.
    public var stats: StatsBudget
    /// Macro calls in progress at once.
    public var maxMacroDepth: Int
    /// Dice of one pool listed in a result tree; the rest are counted, not kept.
    public var maxRecordedDice: Int
    /// Parts of one statement's breakdown held in memory at once: every evaluated part
    /// but a plain number, and one per 8 dice listed (a part takes about 130 bytes).
    /// Spent like dice, so macros that each use the last twice stop early, not in gigabytes.
    public var maxResultParts: Int

    /// Limits with these bounds; each defaults to the `dice` command's.
    public init(maxDice: Int = 10_000_000, maxNesting: Int = 256, maxMacroDepth: Int = 100,
                maxRecordedDice: Int = 10_000, maxEvaluationDepth: Int = 1000, stats: StatsBudget = .standard,
                maxResultParts: Int = 1_500_000) {
        self.maxDice = maxDice
        self.maxNesting = maxNesting
        self.maxEvaluationDepth = maxEvaluationDepth
        self.stats = stats
        self.maxMacroDepth = maxMacroDepth
        self.maxRecordedDice = maxRecordedDice
        self.maxResultParts = maxResultParts
    }

    /// The defaults of the `dice` command.
    public static let standard = Limits()
}

/// How much work one exact distribution may take before `Stats` gives up and
/// asks for a simulation instead.
public struct StatsBudget: Hashable, Sendable {
    /// Elementary steps (roughly, multiply-adds of probabilities).
    public var maxWork: Int
    /// Outcomes (or slots of a flat array) in any one intermediate distribution.
    public var maxOutcomes: Int
    /// Each die's explosion tail is cut where the mass left is below this, divided by the pool's dice.
    public var explosionCutoff: Double

    /// Bounds of `maxWork` steps and `maxOutcomes` outcomes, explosion tails cut at `explosionCutoff`.
    public init(maxWork: Int = 100_000_000, maxOutcomes: Int = 2_000_000, explosionCutoff: Double = 1e-12) {
        self.maxWork = maxWork
        self.maxOutcomes = maxOutcomes
        self.explosionCutoff = explosionCutoff
    }

    /// The bounds the `dice` command uses.
    public static let standard = StatsBudget()
}
