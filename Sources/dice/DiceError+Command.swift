import DiceKit

extension DiceError {
    /// The library's message, plus how to change a limit this command sets: the library
    /// does not know the command's options. `limitHint` is the option (`--max-dice`) or,
    /// in the REPL, the command (`:max-dice N`).
    func commandMessage(limitHint: String = "--max-dice") -> String {
        switch kind {
        case .tooManyDice, .inMacro(_, .tooManyDice):
            return message + " (raise it with \(limitHint))"
        case .statsTooExpensive:
            return message + " (raise it with --stats-seconds)"
        default:
            return message
        }
    }
}
