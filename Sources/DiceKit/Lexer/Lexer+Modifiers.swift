extension Lexer {
    /// A modifier word at the current position, consumed, longest first (`!!` before `!`,
    /// `kh` before `k`, `rr` before `r`, `min` before `mi`); `nil` when none starts here.
    mutating func scanModifierKeyword() -> Token? {
        guard let c = byte() else { return nil }
        let start = position
        let next = byte(1)
        let keyword: ModifierKeyword
        var length = 2
        switch c {
        case UInt8(ascii: "k"):
            switch next {
            case UInt8(ascii: "h"): keyword = .keepHighest
            case UInt8(ascii: "l"): keyword = .keepLowest
            default: keyword = .keep; length = 1
            }
        case UInt8(ascii: "d"):
            switch next {
            case UInt8(ascii: "h"): keyword = .dropHighest
            case UInt8(ascii: "l"): keyword = .dropLowest
            case UInt8(ascii: "f"): keyword = .subtractFailures
            default: keyword = .drop; length = 1
            }
        case UInt8(ascii: "!"):
            switch next {
            case UInt8(ascii: "!"): keyword = .compound
            case UInt8(ascii: "p"): keyword = .penetrate
            default: keyword = .explode; length = 1
            }
        case UInt8(ascii: "r"):
            switch next {
            case UInt8(ascii: "o"): keyword = .rerollOnce
            case UInt8(ascii: "r") where byte(2) != UInt8(ascii: "o"): keyword = .rerollUntil
            default: keyword = .reroll; length = 1
            }
        case UInt8(ascii: "m"):
            switch (next, byte(2)) {
            case (UInt8(ascii: "i"), UInt8(ascii: "n")): keyword = .minimumWord; length = 3
            case (UInt8(ascii: "a"), UInt8(ascii: "x")): keyword = .maximumWord; length = 3
            case (UInt8(ascii: "i"), _): keyword = .minimum
            case (UInt8(ascii: "a"), _): keyword = .maximum
            default: return nil
            }
        case UInt8(ascii: "x"):
            if next == UInt8(ascii: "o") { keyword = .explodeOnce } else { keyword = .explodeX; length = 1 }
        case UInt8(ascii: "e"):
            // d20's `e` always has its compare point: `1d6e6`, `1d6e>=5` (the parser says so).
            keyword = .explodeE
            length = 1
        case UInt8(ascii: "c"):
            switch next {
            case UInt8(ascii: "s"): keyword = .countSuccesses
            case UInt8(ascii: "f"): keyword = .countFailures
            default: return nil
            }
        case UInt8(ascii: "s"):
            switch next {
            case UInt8(ascii: "a"): keyword = .sortAscending
            case UInt8(ascii: "d"): keyword = .sortDescending
            default: keyword = .sort; length = 1
            }
        case UInt8(ascii: "u"):
            keyword = .unique
            length = 1
        default:
            return nil
        }
        position += length
        mode = .modifierArgument(keyword)
        return token(.modifier(keyword), from: start)
    }
}
