import Testing
@testable import DiceKit

/// Every error kind's message, pinned once: the words people (and golden files) see.
/// Other tests compare kinds; this table is the one place their text is checked.
@Suite struct DiceErrorMessageTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var kind: DiceError.Kind
        var message: String
        init(_ kind: DiceError.Kind, _ message: String) {
            self.kind = kind
            self.message = message
        }
        var testDescription: String { message }
    }

    static let cases: [Case] = [
        // Lexing
        Case(.unexpectedCharacter("'@'"), "unexpected character '@'"),
        Case(.invalidUTF8, "the input is not valid UTF-8"),
        Case(.integerTooLarge, "integer literal is too large (the largest is 9223372036854775807)"),
        Case(.decimalTooLarge("1999.5"), "the number 1999.5 is too large or too precise (numbers are fractions of 64-bit integers)"),
        Case(.unterminatedAnnotation, "annotation has no closing ']'"),
        Case(.promptCommandInScript(":vars"), "':vars' is a command of the dice> prompt: it works there only, not in a script"),
        // Parsing: what was expected
        Case(.expected(.expression, found: .star), "expected an expression, found '*'"),
        Case(.expected(.condition, found: .keyword(.then)), "expected a condition after 'if', found 'then'"),
        Case(.expected(.thenWord, found: .integer(1)), "expected 'then' after the condition, found '1'"),
        Case(.expected(.thenBranch, found: .end), "expected an expression after 'then', found the end of the input"),
        Case(.expected(.elseWord, found: .end), "expected 'else' (every 'if' needs one), found the end of the input"),
        Case(.expected(.setSeparator, found: .integer(3)), "expected ')' or ',' in the set, found '3'"),
        Case(.expected(.updateValue(name: "hp", .subtract), found: .end),
             "expected an expression after 'hp -=', found the end of the input"),
        Case(.inlineRoll(roll: "1d20+5"),
             "'[[...]]' is an inline roll of a chat; here type the roll alone: did you mean '1d20+5'?"),
        Case(.updateWithoutVariable("hp", isMacro: false, suggestion: "hp = -5"),
             "'hp' has no value yet, so it cannot be changed; did you mean 'hp = -5'?"),
        Case(.updateWithoutVariable("atk", isMacro: true, suggestion: "atk = 1"),
             "'atk' is a macro, not a variable, so it cannot be changed; did you mean 'atk = 1'?"),
        Case(.expected(.elseBranch, found: .rightParen), "expected an expression after 'else', found ')'"),
        Case(.expected(.boundName, found: .integer(3)), "expected a name after 'let', found '3'"),
        Case(.expected(.bindingEquals(name: "x"), found: .dice), "expected '=' after 'let x', found 'd'"),
        Case(.expected(.boundValue(name: "x"), found: .keyword(.in)), "expected an expression after 'let x =', found 'in'"),
        Case(.expected(.inWord(name: "x"), found: .name("x")), "expected 'in' after the value of 'x', found 'x'"),
        Case(.expected(.bindingBody, found: .end), "expected an expression after 'in', found the end of the input"),
        Case(.reservedWord("in"), "'in' is a reserved word: it cannot name a variable, macro or parameter"),
        Case(.expected(.closingParenthesis, found: .end), "expected ')' to close '(', found the end of the input"),
        Case(.expected(.sides, found: .name("x")), "expected the number of sides after 'd', found 'x'"),
        Case(.expected(.face, found: .comma), "expected a whole number, a text or a tally as a face, found ','"),
        Case(.expected(.closingBraceAfterFaces, found: .integer(2)), "expected '}' after the faces, found '2'"),
        Case(.expected(.compareValue, found: .newline),
             "expected a number or a text in the compare point, found the end of the line"),
        Case(.expected(.argumentSeparator(function: "abs"), found: .integer(2)),
             "expected ')' or ',' in the arguments of abs, found '2'"),
        Case(.expected(.groupSeparator, found: .decimal(.ratio(5, 2))), "expected '}' or ',' in the group, found '2.5'"),
        Case(.expected(.macroName, found: .keywordStats), "expected a macro name after 'def', found 'stats'"),
        Case(.expected(.parameterName, found: .integer(1)), "expected a parameter name, found '1'"),
        Case(.expected(.closingParenthesisAfterParameters, found: .name("b")),
             "expected ')' after the parameters, found 'b'"),
        Case(.expected(.definitionEquals(name: "x", parameters: []), found: .end),
             "expected '=' after 'def x', found the end of the input"),
        Case(.expected(.definitionEquals(name: "f", parameters: ["a", "b"]), found: .integer(3)),
             "expected '=' after 'def f(a, b)', found '3'"),
        Case(.expected(.macroBody, found: .end), "expected the macro's expression after '=', found the end of the input"),
        Case(.expected(.assignedValue(name: "x"), found: .semicolon), "expected an expression after 'x =', found ';'"),
        Case(.expected(.comparedExpression, found: .comma), "expected an expression to compare after ',', found ','"),
        Case(.expected(.sweepName, found: .integer(3)), "expected a name to sweep after 'for', found '3'"),
        Case(.expected(.sweepIn(name: "ac"), found: .integer(1)), "expected 'in' after 'for ac', found '1'"),
        Case(.expected(.sweepStart(name: "ac"), found: .end),
             "expected the first value of 'ac' after 'in', found the end of the input"),
        Case(.expected(.sweepDots, found: .integer(20)), "expected '..' between the first and last values, found '20'"),
        Case(.expected(.comparisonEnd, found: .name("for")),
             "expected the end of the comparison (one expression is swept at a time: stats E for x in A..B), found 'for'"),
        Case(.expected(.sweepEnd, found: .end), "expected the last value after '..', found the end of the input"),
        Case(.unexpectedToken(.dotDot), "unexpected '..'"),
        Case(.expected(.expression, found: .keyword(.if)), "expected an expression, found 'if'; inside a larger "
             + "expression write (if ...), as in 1 + (if x >= 5 then 2 else 0)"),
        Case(.expected(.expression, found: .keyword(.let)), "expected an expression, found 'let'; inside a larger "
             + "expression write (let ...), as in 1 + (let r = 1d6 in r * r)"),
        Case(.expected(.expression, found: .keyword(.then)), "expected an expression, found 'then'"),
        // Parsing: the rest
        Case(.unexpectedToken(.rightParen), "unexpected ')'"),
        Case(.unexpectedEquals, "unexpected '='; to compare two values write '=='"),
        Case(.modifierAfterSpace("kh3"), "unexpected 'kh3': modifiers follow the dice with no space, as in 4d6kh3"),
        Case(.annotationWithoutTerm, "an annotation must follow a term, as in 2d6 [fire]"),
        Case(.chatCommand("roll", roll: "1d20 + 5"),
             "'/roll' is a chat command; here type the roll alone: did you mean '1d20 + 5'?"),
        Case(.chatCommand("r", roll: ""), "'/r' is a chat command; here type the roll alone: did you mean '1d20'?"),
        Case(.foreignModifier("x", suggestion: "1d20!"), "unexpected 'x'; did you mean '1d20!'?"),
        Case(.missingSeparator(.comma, suggestion: "1d20; 1d20"),
             "unexpected ','; separate statements with ';': did you mean '1d20; 1d20'?"),
        Case(.missingSeparator(.integer(1), suggestion: nil), "unexpected '1'; separate statements with ';'"),
        Case(.modifierNeedsCount(.minimum), "expected a number after 'mi', as in 3d6mi2"),
        Case(.modifierNeedsComparePoint(.subtractFailures), "expected a compare point after 'df', as in df>=8"),
        Case(.spaceInComparePoint(after: .greaterEqual), "expected a number right after '>='"),
        Case(.parameterNamedTwice("a"), "parameter 'a' is named twice"),
        Case(.functionNameAssigned("abs"), "'abs' is a function name and cannot be assigned"),
        Case(.functionNotCalled("repeat"), "'repeat' is a function: call it as repeat(...)"),
        Case(.nestingTooDeep(limit: 256), "expression is nested deeper than 256 levels"),
        Case(.chainedComparison, "comparisons do not chain: write (a < b) * (b < c)"),
        Case(.wrongArgumentCount(function: "min", minimum: 1, maximum: nil, got: 0),
             "min takes at least 1 argument, not 0"),
        Case(.wrongArgumentCount(function: "abs", minimum: 1, maximum: 1, got: 2), "abs takes 1 argument, not 2"),
        Case(.wrongArgumentCount(function: "repeat", minimum: 2, maximum: 2, got: 1),
             "repeat takes 2 arguments (count, expression), not 1"),
        // Texts, tables, tallies, logic, count, defaults, use (LANGUAGE.md §5b, §7, §8a)
        Case(.unterminatedText, "text has no closing '\"' on its line"),
        Case(.invalidEscape(#"\n"#), #"unknown escape '\n' in a text: only \" and \\ are escapes"#),
        Case(.textTooLong(limit: 1000), "text is longer than 1000 characters"),
        Case(.requiredParameterAfterDefault("b"),
             "parameter 'b' needs a default value: parameters with defaults come after those without"),
        Case(.defaultReadsParameter(parameter: "y", read: "x"),
             "the default of 'y' cannot read the parameter 'x': a default is worked out where the macro is used, "
                + "before its parameters are bound"),
        Case(.fieldNamedTwice("s"), "field 's' is written twice in the tally"),
        Case(.entryAfterElse, "the 'else' entry of a match comes last: no entry can follow it"),
        Case(.operatorAfterMatch(.keyword(.given)), "unexpected 'given': a match ends at its '}'; to go on, put it in "
             + "parentheses, as in (match 2d6 { 7+: 1, else: 0 }) + 1"),
        Case(.emptyRange(low: "3", high: "1"), "the range 3-1 is empty: write 1-3"),
        Case(.emptyRange(low: "-1", high: "-3"), "the range -1--3 is empty: write -3--1"),
        Case(.expected(.operand(after: "and"), found: .end), "expected an expression after 'and', found the end of the input"),
        Case(.expected(.matchBrace, found: .integer(7)),
             #"expected '{' after the value of 'match', as in match 2d6 { 6-: "miss", 7+: "hit" }, found '7'"#),
        Case(.expected(.pattern, found: .colon),
             #"expected a pattern (7, 7-9, 10+, 6-, >=15, "text") or 'else' in the match, found ':'"#),
        Case(.expected(.patternBound, found: .name("y")),
             "expected a whole number, a text or a parenthesised expression in the pattern, found 'y'"),
        Case(.expected(.entryColon, found: .text("hit")), #"expected ':' after the pattern, found '"hit"'"#),
        Case(.expected(.entryResult, found: .rightBrace), "expected an expression after ':', found '}'"),
        Case(.expected(.entrySeparator, found: .integer(3)),
             "expected ',' or a new line between the entries of the match, or '}' after them, found '3'"),
        Case(.expected(.tallyField, found: .integer(4)), "expected a field name in the tally, as in (hits: 3), found '4'"),
        Case(.expected(.tallyColon(field: "glitch"), found: .integer(1)), "expected ':' after the field name 'glitch', found '1'"),
        Case(.expected(.tallyValue(field: "hits"), found: .rightParen), "expected a value after 'hits:', found ')'"),
        Case(.expected(.tallySeparator, found: .name("a")), "expected ')' or ',' in the tally, found 'a'"),
        Case(.expected(.faceTallyField, found: .name("x")),
             "expected a field name, ':' and a whole number in the face's tally, as in (s: 1), found 'x'"),
        Case(.expected(.countPoint, found: .rightParen),
             "expected ',' and a compare point in count, as in count(p, >=5), found ')'"),
        Case(.expected(.closingParenthesisAfterCount, found: .integer(6)),
             "expected ')' after the compare point of count, found '6'"),
        Case(.expected(.defaultValue(parameter: "bonus"), found: .rightParen),
             "expected a default value after 'bonus =', found ')'"),
        Case(.expected(.systemName, found: .integer(3)),
             "expected the name of a game system after 'use' (or 'use' alone to list them), found '3'"),
        Case(.expected(.expression, found: .keyword(.match)), "expected an expression, found 'match'; inside a larger "
             + "expression write (match ...), as in 1 + (match 1d6 { 1: 0, else: 2 })"),
        Case(.expected(.expression, found: .text(String(repeating: "x", count: 30))),
             #"expected an expression, found '"xxxxxxxxxxxxxxxxxxxx…"'"#),
        Case(.expected(.expression, found: .field("hits")), "expected an expression, found '.hits'"),
        Case(.notANumber(.text("zap"), needed: "'*'"), #"text "zap" is not a number: '*' needs numbers"#),
        Case(.tallyOperation("'*' of two tallies"), "tallies add and subtract field by field, multiply by a number "
             + "and compare with == or !=; '*' of two tallies is not defined for them"),
        Case(.fieldOfNonTally(.integer(3), field: "hits"),
             "'.hits' reads a field of a tally, and 3 is a number other than 0 (the empty tally)"),
        Case(.fieldOfNonTally(.text("a"), field: "hits"), #"'.hits' reads a field of a tally, and "a" is a text"#),
        Case(.noMatchingEntry(.integer(11)), "no entry of the match holds for 11 (add 'else: ...' for the rest)"),
        Case(.textDiceOperation("'kh'"),
             #"'kh' needs numbered dice; text dice are counted with a compare point, as in cs="hit", "#
             + "and tally dice add up field by field"),
        Case(.tooFewFacesForUnique(dice: 4, faces: 3),
             "'u' needs as many faces as dice: 4 dice, but the die has 3 different faces"),
        Case(.countNeedsPool, "count(p, cp) counts the dice of a pool, group or repeat, or of a name bound to one by let"),
        Case(.conditionNeverHeld(tries: 1000), "the condition after 'given' did not hold in 1000 rolls"),
        Case(.conditionImpossible, "the condition after 'given' can never hold (its probability is 0)"),
        Case(.conditionImpossibleWhen(name: "t", value: .text("a")),
             #"the condition after 'given' can never hold when t is "a": rolling the 'given' again does not roll t again"#),
        Case(.unknownSystem("dnd", known: ["dnd5e", "pbta"]), "no game system named 'dnd'; the systems are dnd5e, pbta"),
        // Evaluation
        Case(.variableCalledAsMacro("x"), "'x' is a variable, not a macro: it takes no arguments"),
        Case(.unknownName("strenght", suggestion: "strength"), "unknown name 'strenght'; did you mean 'strength'?"),
        Case(.unknownName("zzz", suggestion: nil), "unknown name 'zzz'"),
        Case(.macroArity(name: "f", expected: 1, got: 0), "macro 'f' takes 1 argument, not 0"),
        Case(.macroArity(name: "f", expected: 2, got: 1), "macro 'f' takes 2 arguments, not 1"),
        Case(.overflow, "integer overflow (results must stay within ±9223372036854775807)"),
        Case(.divisionByZero, "division by zero"),
        Case(.notFinite, "the result is not a finite number"),
        Case(.irrationalPower, "the power has no exact result: it is not a fraction (like 2^0.5)"),
        Case(.invalidCount(.integer(-2)), "the number of dice must be a whole number of at least 0, not -2"),
        Case(.invalidRepeatCount(.ratio(5, 2)), "the count of repeat must be a whole number of at least 0, not 2.5"),
        Case(.invalidSides(.ratio(5, 2)), "the number of sides must be a whole number of at least 1, not 2.5"),
        Case(.emptyFaces, "a custom die needs at least one face"),
        Case(.invalidModifierArgument(.keepHighest, value: .ratio(3, 2)), "'kh' needs a whole number of at least 0, not 1.5"),
        Case(.invalidModifierArgument(.minimum, value: .ratio(1, 2)), "'mi' needs a whole number, not 0.5"),
        Case(.conflictingModifiers(.subtractFailures, .subtractFailures), "'df' may be given once"),
        Case(.conflictingModifiers(.explode, .compound), "only one of '!', '!!', '!p' and 'xo' may be given"),
        Case(.conflictingModifiers(.penetrate, .explode), "only one of '!', '!!', '!p' and 'xo' may be given"),
        Case(.conflictingModifiers(.countSuccesses, .countFailures), "'cs' and 'cf' exclude each other and may be given once"),
        Case(.conflictingModifiers(.countFailures, .countFailures), "'cs' and 'cf' exclude each other and may be given once"),
        Case(.conflictingModifiers(.keepHighest, .sortAscending), "'kh' and 'sa' cannot go together"),
        Case(.modifierAppliesToDice(.reroll), "'r' applies to dice, not to groups"),
        Case(.modifierAppliesToDice(.penetrate), "'!p' applies to dice, not to groups"),
        // The command adds how to raise the limit; the library does not name a flag.
        Case(.tooManyDice(limit: 10), "more than 10 dice in one statement"),
        Case(.statementTooLong(limit: 1000), "the statement is longer than 1000 tokens (numbers, names, operators and brackets)"),
        Case(.resultTooLarge(limit: 10),
             "the statement needs more than 10 parts of its breakdown in memory at once"),
        Case(.outputTooLarge(limit: 16 << 20), "the output of the statement is longer than 16 MiB, the output cap"),
        Case(.outputTooLarge(limit: 1000), "the output of the statement is longer than 1000 bytes, the output cap"),
        Case(.sweepBoundRolled, "a sweep's bounds must be fixed numbers, not rolls"),
        Case(.sweepBoundNotWhole(.ratio(3, 2)), "a sweep's bounds must be whole numbers, not 1.5"),
        Case(.sweepBackwards(from: 5, to: 1), "the sweep ends below its start: 5..1 has no values (write 1..5)"),
        Case(.sweepTooLong(from: 1, to: 5000, limit: 1_000), "the sweep 1..5000 has more than 1000 values"),
        Case(.sweepTooExpensive(seconds: 1),
             "the sweep is too expensive: its exact distributions need more than the 1 s allowed"),
        Case(.sweepTooLarge(limit: 2_000_000),
             "the sweep is too large: its distributions together have more than 2000000 outcomes"),
        Case(.inSweep(name: "ac", value: 3, .divisionByZero), "with ac = 3: division by zero"),
        Case(.statsRollTooLarge(limit: 10), "the distribution is too expensive: not exact, and one simulated roll "
             + "alone makes more than 10 parts (does a macro use itself more than once?)"),
        Case(.explosionMatchesEveryFace, "the explosion matches every face of the die, so it would never end"),
        Case(.rerollMatchesEveryFace, "the reroll matches every face of the die, so it would never end"),
        Case(.macroRecursion(limit: 100), "macro calls nested deeper than 100 (is a macro calling itself?)"),
        Case(.evaluationTooDeep, "evaluation nested too deeply through macros"),
        Case(.inMacro(name: "boom", .divisionByZero), "in macro 'boom': division by zero"),
        Case(.interrupted, "interrupted"),
        Case(.statsTooExpensive(seconds: 1, rolls: 1000, need: nil),
             "the distribution is too expensive: not exact, and not even 1000 simulated rolls fit in 1 s"),
        Case(.statsTooExpensive(seconds: 1, rolls: 1_000_000, need: 4),
             "the distribution is too expensive: not exact, and 1000000 simulated rolls need about 4 s, more than the 1 s allowed"),
        Case(.internalError("a kept sum outside its table"),
             "internal error: a kept sum outside its table (a bug in dice; please report it)"),
    ]

    @Test(arguments: cases)
    func message(_ c: Case) {
        #expect(c.kind.message == c.message)
        #expect(DiceError(c.kind, at: SourceRange.at(0)).message == c.message)
    }

    /// The table above holds every case of `Kind` and of `Expectation`, as declared in
    /// `DiceError.swift`: a new kind comes with its message pinned.
    @Test func everyKindHasItsMessagePinned() throws {
        let source = try PackageFiles.text("Sources/DiceKit/DiceError.swift")
        let declaredKinds = Self.caseNames(ofEnum: "Kind", in: source)
        let declaredExpectations = Self.caseNames(ofEnum: "Expectation", in: source)
        #expect(declaredKinds.count > 30 && declaredExpectations.count > 10, "the enums were not found")

        let pinnedKinds = Set(Self.cases.map { Self.caseName(of: $0.kind) })
        let pinnedExpectations = Set(Self.cases.compactMap { c -> String? in
            guard case .expected(let expectation, _) = c.kind else { return nil }
            return Self.caseName(of: expectation)
        })
        #expect(declaredKinds.subtracting(pinnedKinds).sorted() == [], "kinds without a pinned message")
        #expect(declaredExpectations.subtracting(pinnedExpectations).sorted() == [],
                "expectations without a pinned message")
        #expect(pinnedKinds.subtracting(declaredKinds).sorted() == [], "names not found in DiceError.swift")
    }

    /// The name of an enum value's case: `expected` for `.expected(.sides, found: .end)`.
    static func caseName(of value: Any) -> String {
        if let label = Mirror(reflecting: value).children.first?.label { return label }
        return String(describing: value)
    }

    /// The names declared in the body of `enum <name>`, one `case` a line as `DiceError.swift`
    /// writes them (up to the enum's closing brace at its own indentation).
    static func caseNames(ofEnum name: String, in source: String) -> Set<String> {
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0.contains("enum \(name):") }) else { return [] }
        let indent = lines[start].prefix(while: { $0 == " " })
        var names: Set<String> = []
        for line in lines[(start + 1)...] {
            if line == indent + "}" { break }
            let trimmed = line.drop(while: { $0 == " " })
            guard trimmed.hasPrefix("case ") else { continue }
            names.insert(String(trimmed.dropFirst(5).prefix(while: { $0.isLetter || $0.isNumber })))
        }
        return names
    }
}
