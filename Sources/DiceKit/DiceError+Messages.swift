// The words of every error, in one place: kinds carry data, and this renders it.

extension DiceError.Kind {
    /// The message for people.
    package var message: String {
        switch self {
        case .unexpectedCharacter(let text):
            return "unexpected character \(text)"
        case .invalidUTF8:
            return "the input is not valid UTF-8"
        case .integerTooLarge:
            return "integer literal is too large (the largest is \(Int.max))"
        case .decimalTooLarge(let text):
            return "the number \(text) is too large or too precise (numbers are fractions of 64-bit integers)"
        case .unterminatedAnnotation:
            return "annotation has no closing ']'"
        case .promptCommandInScript(let command):
            return "'\(command)' is a command of the dice> prompt: it works there only, not in a script"
        case .unterminatedText:
            return "text has no closing '\"' on its line"
        case .invalidEscape(let escape):
            return "unknown escape '\(escape)' in a text: only \\\" and \\\\ are escapes"
        case .textTooLong(let limit):
            return "text is longer than \(limit) characters"
        case .expected(let expectation, let found):
            let message = "expected \(expectation.phrase), found \(found.spelling)"
            // `1 + if ...`: inside a larger expression `if` and `let` take parentheses.
            if case .expression = expectation, case .keyword(let word) = found, let example = Self.parenthesized[word] {
                return message + "; inside a larger expression write (\(word.rawValue) ...), as in " + example
            }
            return message
        case .unexpectedToken(let token):
            return "unexpected \(token.spelling)"
        case .operatorAfterMatch(let token):
            return "unexpected \(token.spelling): a match ends at its '}'; to go on, put it in parentheses, "
                + "as in (match 2d6 { 7+: 1, else: 0 }) + 1"
        case .unexpectedEquals:
            return "unexpected '='; to compare two values write '=='"
        case .modifierAfterSpace(let word):
            return "unexpected '\(word)': modifiers follow the dice with no space, as in 4d6kh3"
        case .annotationWithoutTerm:
            return "an annotation must follow a term, as in 2d6 [fire]"
        case .chatCommand(let name, let roll):
            let example = roll.isEmpty ? "1d20" : roll
            return "'/\(name)' is a chat command; here type the roll alone: did you mean '\(example)'?"
        case .inlineRoll(let roll):
            return "'[[...]]' is an inline roll of a chat; here type the roll alone: did you mean '\(roll)'?"
        case .foreignModifier(let word, let suggestion):
            return "unexpected '\(word)'; did you mean '\(suggestion)'?"
        case .missingSeparator(let token, let suggestion):
            let advice = "unexpected \(token.spelling); separate statements with ';'"
            guard let suggestion else { return advice }
            return advice + ": did you mean '\(suggestion)'?"
        case .modifierNeedsCount(let keyword):
            return "expected a number after '\(keyword.rawValue)', as in 3d6\(keyword.rawValue)2"
        case .modifierNeedsComparePoint(let keyword):
            return "expected a compare point after '\(keyword.rawValue)', as in \(keyword.rawValue)>=8"
        case .spaceInComparePoint(let op):
            return "expected a number right after \(op.spelling)"
        case .parameterNamedTwice(let name):
            return "parameter '\(name)' is named twice"
        case .functionNameAssigned(let name):
            return "'\(name)' is a function name and cannot be assigned"
        case .functionNotCalled(let name):
            return "'\(name)' is a function: call it as \(name)(...)"
        case .nestingTooDeep(let limit):
            return "expression is nested deeper than \(limit) levels"
        case .statementTooLong(let limit):
            return "the statement is longer than \(limit) tokens (numbers, names, operators and brackets)"
        case .reservedWord(let word):
            return "'\(word)' is a reserved word: it cannot name a variable, macro or parameter"
        case .requiredParameterAfterDefault(let name):
            return "parameter '\(name)' needs a default value: parameters with defaults come after those without"
        case .defaultReadsParameter(let parameter, let read):
            return "the default of '\(parameter)' cannot read the parameter '\(read)': a default is worked out "
                + "where the macro is used, before its parameters are bound"
        case .fieldNamedTwice(let name):
            return "field '\(name)' is written twice in the tally"
        case .entryAfterElse:
            return "the 'else' entry of a match comes last: no entry can follow it"
        case .emptyRange(let low, let high):
            return "the range \(low)-\(high) is empty: write \(high)-\(low)"
        case .chainedComparison:
            return "comparisons do not chain: write (a < b) * (b < c)"
        case .wrongArgumentCount(let function, let minimum, let maximum, let got):
            let expected: String
            switch (minimum, maximum) {
            case (2, 2) where function == "repeat": expected = "2 arguments (count, expression)"
            case (1, 1): expected = "1 argument"
            case (let low, let high?) where low == high: expected = "\(low) arguments"
            case (let low, let high?): expected = "\(low) to \(high) arguments"
            case (let low, nil): expected = "at least \(low) argument" + (low == 1 ? "" : "s")
            }
            return "\(function) takes \(expected), not \(got)"
        case .updateWithoutVariable(let name, let isMacro, let suggestion):
            let what = isMacro ? "'\(name)' is a macro, not a variable" : "'\(name)' has no value yet"
            return "\(what), so it cannot be changed; did you mean '\(suggestion)'?"
        case .variableCalledAsMacro(let name):
            return "'\(name)' is a variable, not a macro: it takes no arguments"
        case .unknownName(let name, let suggestion):
            if let suggestion { return "unknown name '\(name)'; did you mean '\(suggestion)'?" }
            return "unknown name '\(name)'"
        case .macroArity(let name, let expected, let got):
            let noun = expected == 1 ? "argument" : "arguments"
            return "macro '\(name)' takes \(expected) \(noun), not \(got)"
        case .overflow:
            return "integer overflow (results must stay within ±\(Int.max))"
        case .divisionByZero:
            return "division by zero"
        case .notFinite:
            return "the result is not a finite number"
        case .irrationalPower:
            return "the power has no exact result: it is not a fraction (like 2^0.5)"
        case .invalidRepeatCount(let value):
            return "the count of repeat must be a whole number of at least 0, not \(value)"
        case .invalidCount(let value):
            return "the number of dice must be a whole number of at least 0, not \(value)"
        case .invalidSides(let value):
            return "the number of sides must be a whole number of at least 1, not \(value)"
        case .emptyFaces:
            return "a custom die needs at least one face"
        case .invalidModifierArgument(let modifier, let value):
            // A clamp's bound may be negative (`mi(-1)`); a keep/drop count may not.
            let least = modifier == .minimum || modifier == .maximum ? "" : " of at least 0"
            return "'\(modifier.rawValue)' needs a whole number\(least), not \(value)"
        case .conflictingModifiers(let first, let second):
            switch (first, second) {
            case (.explode, _), (.compound, _), (.penetrate, _), (.explodeOnce, _):
                return "only one of '!', '!!', '!p' and 'xo' may be given"
            case (.countSuccesses, _), (.countFailures, _):
                return "'cs' and 'cf' exclude each other and may be given once"
            case (.subtractFailures, .subtractFailures):
                return "'df' may be given once"
            default:
                return "'\(first.rawValue)' and '\(second.rawValue)' cannot go together"
            }
        case .modifierAppliesToDice(let modifier):
            return "'\(modifier.rawValue)' applies to dice, not to groups"
        case .tooManyDice(let limit):
            return "more than \(limit) dice in one statement"
        case .resultTooLarge(let limit):
            return "the statement needs more than \(limit) parts of its breakdown in memory at once"
        case .outputTooLarge(let limit):
            let size = limit % (1 << 20) == 0 ? "\(limit >> 20) MiB" : "\(limit) bytes"
            return "the output of the statement is longer than \(size), the output cap"
        case .explosionMatchesEveryFace:
            return "the explosion matches every face of the die, so it would never end"
        case .rerollMatchesEveryFace:
            return "the reroll matches every face of the die, so it would never end"
        case .macroRecursion(let limit):
            return "macro calls nested deeper than \(limit) (is a macro calling itself?)"
        case .evaluationTooDeep:
            return "evaluation nested too deeply through macros"
        case .inMacro(let name, let inner):
            return "in macro '\(name)': \(inner.message)"
        case .interrupted:
            return "interrupted"
        case .statsTooExpensive(let seconds, let rolls, let need):
            if let need {
                return "the distribution is too expensive: not exact, and \(rolls) simulated rolls need about "
                    + "\(Number.plainDecimal(need)) s, more than the \(Number.plainDecimal(seconds)) s allowed"
            }
            return "the distribution is too expensive: not exact, and not even \(rolls) simulated rolls "
                + "fit in \(Number.plainDecimal(seconds)) s"
        case .statsRollTooLarge(let limit):
            return "the distribution is too expensive: not exact, and one simulated roll alone makes more than "
                + "\(limit) parts (does a macro use itself more than once?)"
        case .notANumber(let value, let needed):
            return "\(value.kindName) \(value.literal) is not a number: \(needed) needs numbers"
        case .tallyOperation(let operation):
            return "tallies add and subtract field by field, multiply by a number and compare with == or !=; "
                + "\(operation) is not defined for them"
        case .fieldOfNonTally(let value, let field):
            // 0 has fields (every one 0): it is the empty tally.
            let other = value.number == nil ? "" : " other than 0 (the empty tally)"
            return "'.\(field)' reads a field of a tally, and \(value.literal) is a \(value.kindName)" + other
        case .noMatchingEntry(let value):
            return "no entry of the match holds for \(value.literal) (add 'else: ...' for the rest)"
        case .textDiceOperation(let operation):
            return "\(operation) needs numbered dice; text dice are counted with a compare point, as in cs=\"hit\", "
                + "and tally dice add up field by field"
        case .tooFewFacesForUnique(let dice, let faces):
            return "'u' needs as many faces as dice: \(dice) dice, but the die has \(faces) different faces"
        case .countNeedsPool:
            return "count(p, cp) counts the dice of a pool, group or repeat, or of a name bound to one by let"
        case .conditionNeverHeld(let tries):
            return "the condition after 'given' did not hold in \(tries) rolls"
        case .conditionImpossible:
            return "the condition after 'given' can never hold (its probability is 0)"
        case .conditionImpossibleWhen(let name, let value):
            return "the condition after 'given' can never hold when \(name) is \(value.literal): "
                + "rolling the 'given' again does not roll \(name) again"
        case .unknownSystem(let name, let known):
            return "no game system named '\(name)'; the systems are \(known.joined(separator: ", "))"
        case .sweepBoundRolled:
            return "a sweep's bounds must be fixed numbers, not rolls"
        case .sweepBoundNotWhole(let value):
            return "a sweep's bounds must be whole numbers, not \(value)"
        case .sweepBackwards(let from, let to):
            return "the sweep ends below its start: \(from)..\(to) has no values (write \(to)..\(from))"
        case .sweepTooLong(let from, let to, let limit):
            return "the sweep \(from)..\(to) has more than \(limit) values"
        case .sweepTooExpensive(let seconds):
            return "the sweep is too expensive: its exact distributions need more than the "
                + "\(Number.plainDecimal(seconds)) s allowed"
        case .sweepTooLarge(let limit):
            return "the sweep is too large: its distributions together have more than \(limit) outcomes"
        case .inSweep(let name, let value, let inner):
            return "with \(name) = \(value): \(inner.message)"
        case .internalError(let text):
            return "internal error: \(text) (a bug in dice; please report it)"
        }
    }
}

extension DiceError.Kind {
    /// The words that take parentheses inside a larger expression, each with an example.
    static let parenthesized: [Keyword: String] = [
        .if: "1 + (if x >= 5 then 2 else 0)",
        .let: "1 + (let r = 1d6 in r * r)",
        .match: "1 + (match 1d6 { 1: 0, else: 2 })",
        .not: "1 + (not x)",
    ]
}

extension DiceError.Expectation {
    /// What was expected, as it reads after "expected" in a message: "an expression".
    package var phrase: String {
        switch self {
        case .expression:
            return "an expression"
        case .closingParenthesis:
            return "')' to close '('"
        case .sides:
            return "the number of sides after 'd'"
        case .face:
            return "a whole number, a text or a tally as a face"
        case .closingBraceAfterFaces:
            return "'}' after the faces"
        case .compareValue:
            return "a number or a text in the compare point"
        case .argumentSeparator(let function):
            return "')' or ',' in the arguments of \(function)"
        case .groupSeparator:
            return "'}' or ',' in the group"
        case .macroName:
            return "a macro name after 'def'"
        case .parameterName:
            return "a parameter name"
        case .closingParenthesisAfterParameters:
            return "')' after the parameters"
        case .definitionEquals(let name, let parameters):
            let signature = parameters.isEmpty ? name : "\(name)(\(parameters.joined(separator: ", ")))"
            return "'=' after 'def \(signature)'"
        case .macroBody:
            return "the macro's expression after '='"
        case .assignedValue(let name):
            return "an expression after '\(name) ='"
        case .updateValue(let name, let op):
            return "an expression after '\(name) \(op.rawValue)='"
        case .condition:
            return "a condition after 'if'"
        case .thenWord:
            return "'then' after the condition"
        case .thenBranch:
            return "an expression after 'then'"
        case .elseWord:
            return "'else' (every 'if' needs one)"
        case .elseBranch:
            return "an expression after 'else'"
        case .boundName:
            return "a name after 'let'"
        case .bindingEquals(let name):
            return "'=' after 'let \(name)'"
        case .boundValue(let name):
            return "an expression after 'let \(name) ='"
        case .inWord(let name):
            return "'in' after the value of '\(name)'"
        case .bindingBody:
            return "an expression after 'in'"
        case .comparedExpression:
            return "an expression to compare after ','"
        case .setSeparator:
            return "')' or ',' in the set"
        case .operand(let word):
            return "an expression after '\(word)'"
        case .matchBrace:
            return "'{' after the value of 'match', as in match 2d6 { 6-: \"miss\", 7+: \"hit\" }"
        case .pattern:
            return "a pattern (7, 7-9, 10+, 6-, >=15, \"text\") or 'else' in the match"
        case .patternBound:
            return "a whole number, a text or a parenthesised expression in the pattern"
        case .entryColon:
            return "':' after the pattern"
        case .entryResult:
            return "an expression after ':'"
        case .entrySeparator:
            return "',' or a new line between the entries of the match, or '}' after them"
        case .tallyField:
            return "a field name in the tally, as in (hits: 3)"
        case .tallyColon(let field):
            return "':' after the field name '\(field)'"
        case .tallyValue(let field):
            return "a value after '\(field):'"
        case .tallySeparator:
            return "')' or ',' in the tally"
        case .faceTallyField:
            return "a field name, ':' and a whole number in the face's tally, as in (s: 1)"
        case .countPoint:
            return "',' and a compare point in count, as in count(p, >=5)"
        case .closingParenthesisAfterCount:
            return "')' after the compare point of count"
        case .defaultValue(let parameter):
            return "a default value after '\(parameter) ='"
        case .systemName:
            return "the name of a game system after 'use' (or 'use' alone to list them)"
        case .sweepName:
            return "a name to sweep after 'for'"
        case .sweepIn(let name):
            return "'in' after 'for \(name)'"
        case .sweepStart(let name):
            return "the first value of '\(name)' after 'in'"
        case .sweepDots:
            return "'..' between the first and last values"
        case .sweepEnd:
            return "the last value after '..'"
        case .comparisonEnd:
            return "the end of the comparison (one expression is swept at a time: stats E for x in A..B)"
        }
    }
}
