/// Which modifier, without its argument: what errors name (`'cs' and 'cf' exclude each
/// other`). The raw value is the modifier as written.
public enum ModifierKind: String, Hashable, Sendable {
    case keepHighest = "kh", keepLowest = "kl", dropHighest = "dh", dropLowest = "dl"
    case explode = "!", compound = "!!", penetrate = "!p", explodeOnce = "xo"
    case reroll = "r", rerollOnce = "ro"
    case minimum = "mi", maximum = "ma"
    case countSuccesses = "cs", countFailures = "cf", subtractFailures = "df"
    case sortAscending = "sa", sortDescending = "sd"
    case unique = "u"

    /// Whether the modifier works on single dice (their faces), so not on group members.
    var appliesToDiceOnly: Bool {
        switch self {
        case .explode, .compound, .penetrate, .explodeOnce, .reroll, .rerollOnce, .minimum, .maximum, .unique: return true
        default: return false
        }
    }
}

extension DiceModifier {
    /// Which modifier this is, without its argument.
    var modifierKind: ModifierKind {
        switch kind {
        case .keep(let extreme, _): return extreme == .highest ? .keepHighest : .keepLowest
        case .drop(let extreme, _): return extreme == .highest ? .dropHighest : .dropLowest
        case .explode(let explosion, _):
            switch explosion {
            case .explode: return .explode
            case .compound: return .compound
            case .penetrate: return .penetrate
            case .once: return .explodeOnce
            }
        case .reroll(let once, _): return once ? .rerollOnce : .reroll
        case .minimum: return .minimum
        case .maximum: return .maximum
        case .countSuccesses: return .countSuccesses
        case .countFailures: return .countFailures
        case .subtractFailures: return .subtractFailures
        case .sort(let ascending): return ascending ? .sortAscending : .sortDescending
        case .unique: return .unique
        }
    }
}
