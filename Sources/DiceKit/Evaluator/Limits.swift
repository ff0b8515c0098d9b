/// The bounds on one statement's work, so every statement ends, with a result or an error.
public struct Limits: Hashable, Sendable {
    /// Dice rolled in one statement, rerolls and explosions included (`--max-dice`).
    public var maxDice: Int
    /// Levels of parentheses, groups, calls and prefix operators in one expression.
    package var maxNesting: Int
    /// Tokens (numbers, names, operators, brackets) in one statement: its syntax tree takes
    /// about 50 bytes a token, so the default bounds it near 50 MB.
    package var maxStatementTokens: Int
    /// Nested evaluations at once, through macros too: enough for any realistic program
    /// (one expression nests at most `maxNesting` levels), small enough for an 8 MB stack
    /// in an optimized build. In a debug build rolling fits 8 MB too, but the exact
    /// distribution of the deepest nesting through macros with arguments needs more (run
    /// such a build's work on a larger stack, as `dice` does).
    package var maxEvaluationDepth: Int
    /// The work and sizes of one exact distribution (`stats`) before it is estimated instead.
    public var stats: StatsBudget
    /// Macro calls in progress at once.
    package var maxMacroDepth: Int
    /// Dice of one pool listed in a result tree; the rest are counted, not kept.
    package var maxRecordedDice: Int
    /// Parts of one statement's breakdown held in memory at once: every evaluated part
    /// but a plain number, and one per 8 dice listed (a part takes about 130 bytes).
    /// Spent like dice, so macros that each use the last twice stop early, not in gigabytes.
    package var maxResultParts: Int
    /// Bytes one statement may print, all members and annotations together (`--max-output`):
    /// a renderer stops there, and the statement fails with `.outputTooLarge`.
    public var maxOutputBytes = 16 << 20
    /// For tests: keep every die of a pool and every member value of a repeat, as the
    /// reference the bounded paths (`rollLargePool`, `BoundedRepeat`) are checked against.
    var keepsEveryValue = false
    /// Dice of a pool with rerolls or explosions kept, when more than `maxRecordedDice`,
    /// before the pool is counted as `rollLargePool` counts it (internal: tests lower it).
    var poolEntriesKept = 1 << 16

    /// Limits with these bounds; each defaults to the `dice` command's.
    public init(maxDice: Int = 10_000_000, maxNesting: Int = 256, maxMacroDepth: Int = 100,
                maxRecordedDice: Int = 10_000, maxEvaluationDepth: Int = 1000, stats: StatsBudget = .standard,
                maxResultParts: Int = 1_500_000, maxStatementTokens: Int = 1_000_000) {
        self.maxDice = maxDice
        self.maxNesting = maxNesting
        self.maxStatementTokens = maxStatementTokens
        self.maxEvaluationDepth = maxEvaluationDepth
        self.stats = stats
        self.maxMacroDepth = maxMacroDepth
        self.maxRecordedDice = maxRecordedDice
        self.maxResultParts = maxResultParts
    }

    /// The defaults of the `dice` command.
    public static let standard = Limits()
}

/// How much time and work one `stats` may take: first the exact distribution, then, when
/// that is beyond reach, a simulation; both bounded in the engine's own units of work.
///
/// `seconds` sets both bounds: the exact attempt gets `maxWork` steps (about half the time:
/// a step is measured at a few nanoseconds), the simulation `maxSimulationWork` units (the
/// rest). Past them, the exact engine simulates instead, `Stats.simulationRolls` rolls; when
/// they do not fit, `stats` fails with `.statsTooExpensive`.
public struct StatsBudget: Hashable, Sendable {
    /// Elementary steps of the exact engine (roughly, multiply-adds of probabilities).
    package var maxWork: Int
    /// Outcomes (or slots of a flat array) in any one intermediate distribution.
    public var maxOutcomes: Int
    /// Each die's explosion tail is cut where the mass left is below this, divided by the pool's dice.
    package var explosionCutoff: Double
    /// The mass a sum of many copies (`100000d6`, `repeat(n, e)`) may cut from its far tails, in all.
    package var sumTailCutoff: Double
    /// The simulation's work: each roll costs its expression's steps plus its dice (rerolls,
    /// explosions and `repeat` members counted) times `Stats.simulatedDieCost`.
    package var maxSimulationWork: Int
    /// The time the bounds stand for, in seconds (`--stats-seconds`).
    public var seconds: Double

    /// Steps of the exact engine per second, as measured (release build, one core).
    package static let exactStepsPerSecond = 200_000_000.0
    /// Units of simulation work per second, as measured (release build, one core).
    package static let simulationWorkPerSecond = 40_000_000.0

    /// Bounds for about `seconds` seconds (`--stats-seconds`): half for the exact attempt, half
    /// for the simulation; at most `maxOutcomes` outcomes in any one distribution.
    public init(seconds: Double = 1, maxOutcomes: Int = 2_000_000) {
        self.init(seconds: seconds, maxWork: nil, maxOutcomes: maxOutcomes)
    }

    /// Bounds for about `seconds` seconds: `maxWork` and `maxSimulationWork` override the
    /// share each gets; the cutoffs of explosion tails and far tails of sums (for tests).
    package init(seconds: Double = 1, maxWork: Int?, maxOutcomes: Int = 2_000_000,
                 explosionCutoff: Double = 1e-12, sumTailCutoff: Double = 1e-15, maxSimulationWork: Int? = nil) {
        let time = seconds.isFinite ? Swift.max(0, seconds) : 1e6
        self.seconds = time
        self.maxWork = maxWork ?? Int(Swift.min(9e18, time / 2 * StatsBudget.exactStepsPerSecond))
        self.maxOutcomes = maxOutcomes
        self.explosionCutoff = explosionCutoff
        self.sumTailCutoff = sumTailCutoff
        self.maxSimulationWork = maxSimulationWork
            ?? Int(Swift.min(9e18, time / 2 * StatsBudget.simulationWorkPerSecond))
    }

    /// The bounds the `dice` command uses: about one second.
    public static let standard = StatsBudget()
}
