/// The one error type of DiceKit: what went wrong and where.
///
/// Every failure of lexing, parsing or evaluation is a `DiceError` whose `range`
/// points into the statement's source; `DiagnosticRenderer` prints it with a caret.
public struct DiceError: Error, Hashable, Sendable {
    /// What went wrong; compare kinds in tests, print `message` to people.
    public indirect enum Kind: Hashable, Sendable {
        // MARK: Lexing
        /// A character that starts no token, like `@` or `é`.
        case unexpectedCharacter(String)
        /// Bytes that are not UTF-8.
        case invalidUTF8
        /// An integer literal beyond 64 bits.
        case integerTooLarge
        /// `[fire` with no closing bracket.
        case unterminatedAnnotation

        // MARK: Parsing
        /// Input that does not follow the grammar; the text says what was expected.
        case syntax(String)
        /// More than `Limits.maxNesting` levels of parentheses, groups or operators.
        case nestingTooDeep(limit: Int)
        /// `1 < 2 < 3`.
        case chainedComparison
        /// A built-in function called with the wrong number of arguments.
        case wrongArgumentCount(function: String, expected: String, got: Int)

        // MARK: Evaluation
        /// A name that is no variable, parameter or macro; `suggestion` is the nearest known name.
        case unknownName(String, suggestion: String?)
        /// A macro called with the wrong number of arguments.
        case macroArity(name: String, expected: Int, got: Int)
        /// A 64-bit integer result out of range.
        case overflow
        /// Division or modulo by zero.
        case divisionByZero
        /// A decimal result that is infinite or not a number.
        case notFinite
        /// A dice count that is negative or not whole.
        case invalidCount(Number)
        /// A number of sides below 1 or not whole.
        case invalidSides(Number)
        /// `d{}`.
        case emptyFaces
        /// A modifier argument that is not a whole number in range (`kh(1.5)`, `kh(-1)`).
        case invalidModifierArgument(modifier: String, value: Number)
        /// Two modifiers that cannot go together (`cs` with `cf`, two explosions).
        case conflictingModifiers(String)
        /// More dice in one statement than `Limits.maxDice`.
        case tooManyDice(limit: Int)
        /// An explosion whose condition matches every face: it would never end.
        case explosionMatchesEveryFace
        /// A recursive reroll whose conditions match every face: it would never end.
        case rerollMatchesEveryFace
        /// Macro calls nested deeper than `Limits.maxMacroDepth`.
        case macroRecursion(limit: Int)
        /// Evaluation nested too deeply through macros.
        case evaluationTooDeep
        /// An error raised while evaluating the body of macro `name`.
        case inMacro(name: String, Kind)
        /// The host asked evaluation to stop (Ctrl-C).
        case interrupted
        /// A distribution that cannot be computed for this expression.
        case statsUnsupported(String)
        /// A broken invariant of DiceKit itself: a bug, never a fault of the input.
        case internalError(String)
    }

    public var kind: Kind
    /// Where in the statement's source the error is.
    public var range: SourceRange

    public init(_ kind: Kind, at range: SourceRange) {
        self.kind = kind
        self.range = range
    }

    /// The message for people, without position.
    public var message: String { kind.message }
}

extension DiceError: CustomStringConvertible {
    public var description: String { "\(range.lowerBound.offset): \(message)" }
}
