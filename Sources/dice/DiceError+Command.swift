import DiceKit

extension DiceError {
    /// The library's message, plus how to change a limit this command sets: the library
    /// does not know the command's options. `limitHint` is the option (`--max-dice`) or,
    /// in the REPL, the command (`:max-dice N`); `statsHint` the same for the time bound of
    /// `stats` (`--stats-seconds`, `:stats-seconds S`).
    func commandMessage(limitHint: String = "--max-dice", statsHint: String = "--stats-seconds") -> String {
        switch kind {
        case .tooManyDice, .inMacro(_, .tooManyDice):
            return message + " (raise it with \(limitHint))"
        case .statsTooExpensive, .inMacro(_, .statsTooExpensive), .sweepTooExpensive:
            return message + " (raise it with \(statsHint))"
        case .outputTooLarge, .inMacro(_, .outputTooLarge):
            // The REPL's hint is a command (`:max-dice N`), the command line's an option.
            return message + (limitHint.hasPrefix(":") ? " (raise it with :max-output N)"
                : " (raise it with --max-output N)")
        case .resultTooLarge, .inMacro(_, .resultTooLarge):
            return message + " (a fixed bound)"
        default:
            return message
        }
    }
}
