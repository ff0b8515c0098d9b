extension DiceError.Kind {
    /// The message for people.
    public var message: String {
        switch self {
        case .unexpectedCharacter(let text):
            return "unexpected character \(text)"
        case .invalidUTF8:
            return "the input is not valid UTF-8"
        case .integerTooLarge:
            return "integer literal is too large (the largest is \(Int.max))"
        case .unterminatedAnnotation:
            return "annotation has no closing ']'"
        case .syntax(let text):
            return text
        case .nestingTooDeep(let limit):
            return "expression is nested deeper than \(limit) levels"
        case .chainedComparison:
            return "comparisons do not chain: write (a < b) * (b < c)"
        case .wrongArgumentCount(let function, let expected, let got):
            return "\(function) takes \(expected), not \(got)"
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
        case .invalidCount(let value):
            return "the number of dice must be a whole number of at least 0, not \(value)"
        case .invalidSides(let value):
            return "the number of sides must be a whole number of at least 1, not \(value)"
        case .emptyFaces:
            return "a custom die needs at least one face"
        case .invalidModifierArgument(let modifier, let value):
            return "'\(modifier)' needs a whole number of at least 0, not \(value)"
        case .conflictingModifiers(let text):
            return text
        case .tooManyDice(let limit):
            return "more than \(limit) dice in one statement (raise it with --max-dice)"
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
        case .statsUnsupported(let text):
            return text
        case .internalError(let text):
            return "internal error: \(text) (a bug in dice; please report it)"
        }
    }
}
