/// The one error type of DiceKit: what went wrong and where.
///
/// Every failure of lexing, parsing or evaluation is a `DiceError` whose `range`
/// points into the statement's source; `DiagnosticRenderer` prints it with a caret.
public struct DiceError: Error, Hashable, Sendable {
    /// What went wrong, as data: compare kinds in tests, print `message` to people.
    /// The words of every kind are in `DiceError+Messages.swift`.
    public indirect enum Kind: Hashable, Sendable {
        // MARK: Lexing
        /// A character that starts no token, like `@` or `é`.
        case unexpectedCharacter(String)
        /// Bytes that are not UTF-8.
        case invalidUTF8
        /// An integer literal beyond 64 bits.
        case integerTooLarge
        /// A decimal literal whose exact fraction does not fit in 64 bits, with its text.
        case decimalTooLarge(String)
        /// `[fire` with no closing bracket.
        case unterminatedAnnotation
        /// A command of the `dice>` prompt in a script: `:vars`.
        case promptCommandInScript(String)
        /// `"weak hit` with no closing quote on its line.
        case unterminatedText
        /// A backslash in a text before anything but `"` or `\\`: the escape as written (`\n`).
        case invalidEscape(String)
        /// A text longer than `limit` characters.
        case textTooLong(limit: Int)

        // MARK: Parsing
        /// Something other than what the grammar needs at this point: `1 + * 2`.
        case expected(Expectation, found: TokenKind)
        /// A token that cannot continue the statement: `1 + 2)`.
        case unexpectedToken(TokenKind)
        /// An operator after the `}` that ends a `match`: `match 2d6 { … } + 1`.
        case operatorAfterMatch(TokenKind)
        /// `=` where only an expression may continue: `1 = 2` (a comparison is `==`).
        case unexpectedEquals
        /// A modifier word after a space, read as a name: `2d6 kh3`.
        case modifierAfterSpace(String)
        /// An annotation with no term before it: `[fire]`.
        case annotationWithoutTerm
        /// A chat command of another program, `/roll 1d20`: its name, and the statement
        /// without it (`1d20`), empty if none followed.
        case chatCommand(String, roll: String)
        /// Roll20's inline roll, `[[1d20+5]]`: the roll inside, to type alone.
        case inlineRoll(roll: String)
        /// Another roller's modifier touching a dice term, `1d20x` (Foundry's explode) or
        /// `4d6p1` (Avrae's drop): the word, and the statement written with this language's
        /// modifier (`1d20!`, `4d6dl1`).
        case foreignModifier(String, suggestion: String)
        /// A second statement on the line without a `;`: `1d20, 1d20` or `3d6 1d6`. The token
        /// found, and the line with `;` between the statements, when it is short enough to show.
        case missingSeparator(TokenKind, suggestion: String?)
        /// `mi` or `ma` without its number: `4d6mi`, as the modifier was spelled (`min`).
        case modifierNeedsCount(ModifierKeyword)
        /// `cs`, `cf`, `df` or d20's `e` without its compare point: `6d10cs`, as the
        /// modifier was spelled.
        case modifierNeedsComparePoint(ModifierKeyword)
        /// A compare point's operator not touching its value: `4d6!> 5`.
        case spaceInComparePoint(after: TokenKind)
        /// `def f(a, a) = 3`.
        case parameterNamedTwice(String)
        /// `abs = 3`.
        case functionNameAssigned(String)
        /// A function name used without parentheses: `abs`.
        case functionNotCalled(String)
        /// More than `Limits.maxNesting` levels of parentheses, groups or operators.
        case nestingTooDeep(limit: Int)
        /// More than `Limits.maxStatementTokens` tokens in one statement.
        case statementTooLong(limit: Int)
        /// `1 < 2 < 3`.
        case chainedComparison
        /// `if`, `then`, `else`, `let` or `in` where a name is bound: `let in = 2 in 3`, `else = 1`.
        case reservedWord(String)
        /// A built-in function called with the wrong number of arguments.
        case wrongArgumentCount(function: String, minimum: Int, maximum: Int?, got: Int)
        /// A parameter without a default after one with a default: `def f(a = 1, b) = a + b`.
        case requiredParameterAfterDefault(String)
        /// A default that reads a parameter of its macro: `def f(x, y = x) = x + y`.
        case defaultReadsParameter(parameter: String, read: String)
        /// A field written twice in one tally: `(s: 1, s: 2)`.
        case fieldNamedTwice(String)
        /// An entry of a `match` after its `else` entry, which must come last.
        case entryAfterElse
        /// A `match` range of literal ends whose low end is above its high end, which no value
        /// is in: `3-1`. The ends as written.
        case emptyRange(low: String, high: String)

        // MARK: Evaluation
        /// `hp -= 5` where `hp` is no variable (unknown, or a macro when `isMacro`): the
        /// assignment to write instead (`hp = -5`).
        case updateWithoutVariable(String, isMacro: Bool, suggestion: String)
        /// A variable used with arguments, as if it were a macro: `x = 1; x(2)`.
        case variableCalledAsMacro(String)
        /// A name that is no variable, parameter or macro; `suggestion` is the nearest known name.
        case unknownName(String, suggestion: String?)
        /// A macro called with the wrong number of arguments.
        case macroArity(name: String, expected: Int, got: Int)
        /// A 64-bit integer result out of range.
        case overflow
        /// Division or modulo by zero.
        case divisionByZero
        /// A result beyond any number at all (`10.0^400`).
        case notFinite
        /// A power whose exact result is no fraction (`2^0.5`).
        case irrationalPower
        /// A dice count that is negative or not whole.
        case invalidCount(Number)
        /// The count of `repeat(count, expr)` negative or not whole.
        case invalidRepeatCount(Number)
        /// A number of sides below 1 or not whole.
        case invalidSides(Number)
        /// `d{}`.
        case emptyFaces
        /// A modifier argument that is not a whole number in range (`kh(1.5)`, `kh(-1)`).
        case invalidModifierArgument(ModifierKind, value: Number)
        /// Two modifiers that cannot go together (`cs` with `cf`, two explosions, `df` twice):
        /// the one given first, then the one that conflicts with it.
        case conflictingModifiers(ModifierKind, ModifierKind)
        /// A modifier for dice (`!`, `r`, `mi`) on a group.
        case modifierAppliesToDice(ModifierKind)
        /// More dice in one statement than `Limits.maxDice`.
        case tooManyDice(limit: Int)
        /// A breakdown with more parts than `Limits.maxResultParts`, held in memory at once.
        case resultTooLarge(limit: Int)
        /// Output of one statement longer than `Limits.maxOutputBytes` bytes.
        case outputTooLarge(limit: Int)
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
        /// `stats`: the exact distribution is beyond reach and not even `rolls` simulated rolls
        /// fit in the time bound of `seconds` (`StatsBudget.seconds`); at the cost of the rolls
        /// made, they `need` about that bound (`nil` when not one roll was made).
        case statsTooExpensive(seconds: Double, rolls: Int, need: Double?)
        /// `stats`: the exact distribution is beyond reach, and one simulated roll alone needs
        /// more than `Limits.maxResultParts` parts (macros that use themselves more than once).
        case statsRollTooLarge(limit: Int)
        /// A text or tally where a number is needed (arithmetic, ordering, keep/drop, a count,
        /// sides or modifier argument, `and`/`or`/`not`): the value and what needed a number.
        case notANumber(Value, needed: String)
        /// A tally operation other than `+ -` field by field, `*` by a number, `==`, `!=`.
        case tallyOperation(String)
        /// `t.hits` where `t` is no tally: the value.
        case fieldOfNonTally(Value, field: String)
        /// A `match` with no entry that holds and no `else`: the value matched.
        case noMatchingEntry(Value)
        /// A sum, keep/drop, explosion or clamp on several text dice (`kh` on text dice).
        case textDiceOperation(String)
        /// `u` on more dice than the die has faces: `4d3u`.
        case tooFewFacesForUnique(dice: Int, faces: Int)
        /// `count(E, cp)` of something that is no pool, group, `repeat` or bound pool.
        case countNeedsPool
        /// Rolling `E given C`: C did not hold in `tries` rolls.
        case conditionNeverHeld(tries: Int)
        /// `stats E given C`: C has probability 0.
        case conditionImpossible
        /// `stats E given C` inside a `let` or macro: C has probability 0 when `name`, bound
        /// outside the `given`, is `value` (rolling the `given` again does not roll it again).
        case conditionImpossibleWhen(name: String, value: Value)
        /// `use NAME` of no built-in system: the name and the systems there are.
        case unknownSystem(String, known: [String])
        /// A sweep's bound (`for x in A..B`) that is a roll, not one fixed number.
        case sweepBoundRolled
        /// A sweep's bound that is not a whole number: `for x in 1.5..3`.
        case sweepBoundNotWhole(Number)
        /// A sweep whose last value is below its first: `for x in 5..1`.
        case sweepBackwards(from: Int, to: Int)
        /// A sweep of more than `limit` values.
        case sweepTooLong(from: Int, to: Int, limit: Int)
        /// A sweep whose exact distributions together need more work than the time bound of
        /// `seconds` allows (sweeps are never simulated).
        case sweepTooExpensive(seconds: Double)
        /// A sweep whose distributions together have more than `limit` outcomes
        /// (`StatsBudget.maxOutcomes`): all of them are kept to be shown.
        case sweepTooLarge(limit: Int)
        /// An error met while the sweep's `name` was `value`.
        case inSweep(name: String, value: Int, Kind)
        /// A broken invariant of DiceKit itself: a bug, never a fault of the input.
        case internalError(String)
    }

    /// What the parser needed where it found something else, in `Kind.expected`.
    public enum Expectation: Hashable, Sendable {
        /// Any expression: `1 + * 2`, `()`, `{1,,2}`.
        case expression
        /// The `)` of a parenthesized expression: `(1 + 2`.
        case closingParenthesis
        /// The sides of a die, touching the `d`: `2d`, `2d x`.
        case sides
        /// A whole number in a custom die's faces: `d{1,,2}`.
        case face
        /// The `}` after a custom die's faces: `d{1 2}`.
        case closingBraceAfterFaces
        /// The number of a compare point: `4d6!>x`.
        case compareValue
        /// The `)` or `,` after an argument of a call: `abs(1 2)`.
        case argumentSeparator(function: String)
        /// The `}` or `,` after a member of a group: `{1 2}`.
        case groupSeparator
        /// The name after `def`: `def = 3`, `def abs = 1`.
        case macroName
        /// A parameter's name: `def f(1) = 3`.
        case parameterName
        /// The `)` after a definition's parameters: `def f(a b) = 1`.
        case closingParenthesisAfterParameters
        /// The `=` of a definition: `def f(a) 3`.
        case definitionEquals(name: String, parameters: [String])
        /// A definition's body: `def x =`.
        case macroBody
        /// The value of an assignment: `x =`.
        case assignedValue(name: String)
        /// The value of an update: `hp -=`.
        case updateValue(name: String, BinaryOperator)
        /// The condition after `if`: `if then 1 else 2`.
        case condition
        /// The `then` after a condition: `if 1d6 > 3 1`.
        case thenWord
        /// The branch after `then`: `if x then`.
        case thenBranch
        /// The `else` every `if` needs: `if 1d6 > 3 then 1`.
        case elseWord
        /// The branch after `else`: `if x then 1 else`.
        case elseBranch
        /// The name after `let`: `let 3 = 1 in 2`.
        case boundName
        /// The `=` after `let name`: `let x 1d20 in x`.
        case bindingEquals(name: String)
        /// The bound expression: `let x = in x`.
        case boundValue(name: String)
        /// The `in` after the bound expression: `let x = 1d20 x + 1`.
        case inWord(name: String)
        /// The body after `in`: `let x = 1d20 in`.
        case bindingBody
        /// An expression after a `stats` comparison's comma: `stats 1d6,`.
        case comparedExpression
        /// The `)` or `,` after a member of a parenthesised set: `(1d4, 2 3)`.
        case setSeparator
        /// An expression after `and`, `or`, `not` or `given` (the word): `1 and`.
        case operand(after: String)
        /// The `{` of a `match` after its value: `match 2d6 7: 1`.
        case matchBrace
        /// A pattern or `else` to start an entry of a `match`: `match x { : 1 }`.
        case pattern
        /// A whole number, a text or a parenthesised expression in a pattern: `match x { 1-y: 2 }`.
        case patternBound
        /// The `:` after a pattern: `match x { 7-9 "hit" }`.
        case entryColon
        /// An entry's result after its `:`: `match x { 1: }`.
        case entryResult
        /// A `,`, a new line or the closing `}` after an entry: `match x { 1: 2 3: 4 }`.
        case entrySeparator
        /// A field name after `,` in a tally: `(s: 1, 2)`.
        case tallyField
        /// The `:` after a field name in a tally: `(s: 1, a 2)`.
        case tallyColon(field: String)
        /// The value of a tally's field: `(s: )`.
        case tallyValue(field: String)
        /// The `)` or `,` after a field of a tally: `(s: 1 a: 2)`.
        case tallySeparator
        /// A field name and a whole number in a face's tally: `d{(s: x)}`.
        case faceTallyField
        /// The `,` and compare point of `count`: `count(p)`.
        case countPoint
        /// The `)` after the compare point of `count`: `count(p, >=5 6)`.
        case closingParenthesisAfterCount
        /// A parameter's default value after its `=`: `def f(a = ) = a`.
        case defaultValue(parameter: String)
        /// A game system's name after `use`, or nothing: `use 3`.
        case systemName
        /// The name swept after `for`: `stats 1d20 >= dc for 3 in 1..2`.
        case sweepName
        /// The `in` after a sweep's name: `stats 1d20 >= dc for dc 10..20`.
        case sweepIn(name: String)
        /// A sweep's first value: `stats 1d20 >= dc for dc in`.
        case sweepStart(name: String)
        /// The `..` between a sweep's first and last values: `stats 1d20 >= dc for dc in 10 20`.
        case sweepDots
        /// A sweep's last value: `stats 1d20 >= dc for dc in 10..`.
        case sweepEnd
        /// The end of a comparison, where a sweep was written: `stats 1d6 + x, 1d4 for x in 1..3`.
        case comparisonEnd
    }

    /// What went wrong.
    public package(set) var kind: Kind
    /// Where in the statement's source the error is.
    public package(set) var range: SourceRange

    /// An error of `kind` at `range`.
    package init(_ kind: Kind, at range: SourceRange) {
        self.kind = kind
        self.range = range
    }

    /// The message for people, without position.
    public var message: String { kind.message }
}

extension DiceError: CustomStringConvertible {
    /// The offset of the error and its message: `7: division by zero`.
    public var description: String { "\(range.lowerBound.offset): \(message)" }
}

extension DiceError.Kind {
    /// The error inside every `in macro '…'` around it: what went wrong, however deep the
    /// macros it happened in.
    var innermost: DiceError.Kind {
        if case .inMacro(_, let inner) = self { return inner.innermost }
        return self
    }
}

extension DiceError {
    /// This error, raised in the body or a default of macro `name`, as the macro's use at
    /// `range` reports it: `in macro 'name': …`, unless it is about the whole statement
    /// (recursion, a stop, the statement's dice or parts) or already names its macro.
    /// Rolled and in `stats` alike.
    func atMacroUse(_ name: String, at range: SourceRange) -> DiceError {
        switch kind {
        case .macroRecursion, .interrupted, .tooManyDice, .resultTooLarge, .inMacro:
            return DiceError(kind, at: range)
        default:
            return DiceError(.inMacro(name: name, kind), at: range)
        }
    }
}
