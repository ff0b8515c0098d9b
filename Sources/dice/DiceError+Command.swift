import DiceKit

extension DiceError {
    /// The library's message, plus how to change a limit this command sets: the library
    /// does not know the command's options. `limitHint` is the option (`--max-dice`) or,
    /// in the REPL, the command (`:max-dice N`).
    func commandMessage(limitHint: String = "--max-dice") -> String {
        switch kind {
        case .tooManyDice, .inMacro(_, .tooManyDice):
            return message + " (raise it with \(limitHint))"
        case .statsTooExpensive, .inMacro(_, .statsTooExpensive):
            return message + " (raise it with --stats-seconds)"
        case .outputTooLarge, .inMacro(_, .outputTooLarge):
            // The REPL's hint is a command (`:max-dice N`), the command line's an option.
            return message + (limitHint.hasPrefix(":") ? " (raise it with :max-output N)"
                : " (raise it with --max-output N)")
        case .resultTooLarge, .inMacro(_, .resultTooLarge):
            return message + (limitHint.hasPrefix(":") ? " (a fixed bound)"
                : " (a fixed bound; --total prints values only and keeps no breakdown)")
        default:
            return message
        }
    }
}
