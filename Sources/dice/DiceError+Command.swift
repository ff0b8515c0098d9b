import DiceKit

extension DiceError {
    /// The library's message, plus how to change a limit this command sets: the
    /// library does not know the command's options.
    var commandMessage: String {
        switch kind {
        case .tooManyDice, .inMacro(_, .tooManyDice):
            return message + " (raise it with --max-dice)"
        case .statsTooExpensive:
            return message + " (raise it with --stats-seconds)"
        default:
            return message
        }
    }
}
