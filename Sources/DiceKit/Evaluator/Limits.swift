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
    /// Macro calls in progress at once.
    public var maxMacroDepth: Int
    /// Dice of one pool listed in a result tree; the rest are counted, not kept.
    public var maxRecordedDice: Int

    /// Limits with these bounds; each defaults to the `dice` command's.
    public init(maxDice: Int = 10_000_000, maxNesting: Int = 256, maxMacroDepth: Int = 100,
                maxRecordedDice: Int = 10_000, maxEvaluationDepth: Int = 1000) {
        self.maxDice = maxDice
        self.maxNesting = maxNesting
        self.maxEvaluationDepth = maxEvaluationDepth
        self.maxMacroDepth = maxMacroDepth
        self.maxRecordedDice = maxRecordedDice
    }

    /// The defaults of the `dice` command.
    public static let standard = Limits()
}
