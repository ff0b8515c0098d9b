/// One token of the dice language and the source it covers.
struct Token: Hashable, Sendable {
    var kind: TokenKind
    var range: SourceRange

    init(_ kind: TokenKind, _ range: SourceRange) {
        self.kind = kind
        self.range = range
    }
}

/// The kinds of token; payloads live in the cases. Parse errors say which was found.
public enum TokenKind: Hashable, Sendable {
    case integer(Int)
    case decimal(Number)
    /// `"weak hit"`, its escapes resolved.
    case text(String)
    case name(String)
    /// `.hits` touching a name or `)`: a tally's field, `t.hits`, `(p).x`.
    case field(String)
    /// `def`
    case keywordDef
    /// `stats`
    case keywordStats
    /// `if`, `then`, `else`, `let`, `in`, `match`, `and`, `or`, `not`, `given`, `use`: the
    /// reserved words of the grammar.
    case keyword(Keyword)
    /// The `d` of a dice term: `4d6`, `d20`, `(1d4)d6`.
    case dice
    /// `%` right after a dice `d`: `d%`.
    case percentileSides
    /// `F` right after a dice `d`: `4dF`.
    case fateSides
    /// A modifier attached to a dice term or group: `kh`, `!!`, `ro`, `cs`...
    case modifier(ModifierKeyword)
    /// `[fire]`, with the text between the brackets, trimmed.
    case annotation(String)
    case plus, minus, star, slash, slashSlash, percent, caret
    /// `=`: assignment, definition, or a compare point in a modifier.
    case equal
    /// `+=`, `-=`, `*=`: a variable's update, `hp -= 5`.
    case update(BinaryOperator)
    case equalEqual, notEqual, less, lessEqual, greater, greaterEqual
    case leftParen, rightParen, leftBrace, rightBrace, comma
    /// `:` between a `match` pattern and its result, or a tally's field name and its value.
    case colon
    /// `..`: the range of a sweep, `for ac in 10..20`.
    case dotDot
    case semicolon, newline
    case end
}

/// The modifier words, read longest first (`!!` before `!`, `kh` before `k`).
public enum ModifierKeyword: String, Hashable, Sendable, CaseIterable {
    case keepHighest = "kh", keep = "k", keepLowest = "kl"
    case dropHighest = "dh", dropLowest = "dl", drop = "d"
    case explode = "!", compound = "!!", penetrate = "!p"
    case reroll = "r", rerollOnce = "ro"
    case minimum = "mi", maximum = "ma"
    case countSuccesses = "cs", countFailures = "cf", subtractFailures = "df"
    case sort = "s", sortAscending = "sa", sortDescending = "sd"
    /// `u`: unique dice, `3d8u`.
    case unique = "u"
    /// Other rollers' spellings (LANGUAGE.md §3a): `rr` is `r`, `x` and `e` are `!`, `xo`
    /// explodes once, `min` and `max` are `mi` and `ma`.
    case rerollUntil = "rr", explodeX = "x", explodeE = "e", explodeOnce = "xo"
    case minimumWord = "min", maximumWord = "max"

    /// The modifier this keyword writes: `k` is `kh`, `d` is `dl`, `s` is `sa`.
    var modifierKind: ModifierKind {
        switch self {
        case .keepHighest, .keep: return .keepHighest
        case .keepLowest: return .keepLowest
        case .dropHighest: return .dropHighest
        case .dropLowest, .drop: return .dropLowest
        case .explode, .explodeX, .explodeE: return .explode
        case .explodeOnce: return .explodeOnce
        case .compound: return .compound
        case .penetrate: return .penetrate
        case .reroll, .rerollUntil: return .reroll
        case .rerollOnce: return .rerollOnce
        case .minimum, .minimumWord: return .minimum
        case .maximum, .maximumWord: return .maximum
        case .countSuccesses: return .countSuccesses
        case .countFailures: return .countFailures
        case .subtractFailures: return .subtractFailures
        case .sort, .sortAscending: return .sortAscending
        case .sortDescending: return .sortDescending
        case .unique: return .unique
        }
    }

    /// Whether a compare point may follow (`!>=5`, `r<3`, `cs>=8`).
    var takesComparePoint: Bool {
        switch self {
        case .explode, .compound, .penetrate, .reroll, .rerollOnce,
             .countSuccesses, .countFailures, .subtractFailures,
             .rerollUntil, .explodeX, .explodeE, .explodeOnce:
            return true
        default:
            return false
        }
    }

    /// Whether a count may follow (`kh3`, `mi2`, `kh(n)`).
    var takesCount: Bool {
        switch self {
        case .keepHighest, .keep, .keepLowest, .dropHighest, .dropLowest, .drop, .minimum, .maximum,
             .minimumWord, .maximumWord:
            return true
        default:
            return false
        }
    }
}

extension TokenKind {
    /// Whether a statement cannot end right after this token, so that a line break after it
    /// continues the statement (LANGUAGE.md §5): `=`, an operator, `,`, `:`, `..`, and the
    /// words that need something after them (`then`, `else`, `in`, `and`, `given`, `def`...).
    /// `use` alone is a statement (it lists the systems), so it is not one of them.
    var continuesStatement: Bool {
        switch self {
        case .plus, .minus, .star, .slash, .slashSlash, .percent, .caret, .equal, .update,
             .equalEqual, .notEqual, .less, .lessEqual, .greater, .greaterEqual,
             .comma, .colon, .dotDot, .keywordDef, .keywordStats:
            return true
        case .keyword(let word):
            return word != .use
        case .integer, .decimal, .text, .name, .field, .dice, .percentileSides, .fateSides, .modifier,
             .annotation, .leftParen, .rightParen, .leftBrace, .rightBrace, .semicolon, .newline, .end:
            return false
        }
    }
}

extension TokenKind {
    /// How the token reads in an error message.
    var spelling: String {
        switch self {
        case .integer(let value): return "'\(value)'"
        case .decimal(let value): return "'\(value.exactDecimal ?? value.description)'"
        case .text(let text):
            let shown = text.count > 20 ? String(text.prefix(20)) + "…" : text
            return "'\(Value.quoted(shown))'"
        case .name(let name): return "'\(name)'"
        case .field(let name): return "'.\(name)'"
        case .keywordDef: return "'def'"
        case .keywordStats: return "'stats'"
        case .keyword(let word): return "'\(word.rawValue)'"
        case .dice: return "'d'"
        case .percentileSides: return "'%'"
        case .fateSides: return "'F'"
        case .modifier(let keyword): return "'\(keyword.rawValue)'"
        case .annotation(let text): return "'[\(text)]'"
        case .plus: return "'+'"
        case .minus: return "'-'"
        case .star: return "'*'"
        case .slash: return "'/'"
        case .slashSlash: return "'//'"
        case .percent: return "'%'"
        case .caret: return "'^'"
        case .equal: return "'='"
        case .update(let op): return "'\(op.rawValue)='"
        case .equalEqual: return "'=='"
        case .notEqual: return "'!='"
        case .less: return "'<'"
        case .lessEqual: return "'<='"
        case .greater: return "'>'"
        case .greaterEqual: return "'>='"
        case .leftParen: return "'('"
        case .rightParen: return "')'"
        case .leftBrace: return "'{'"
        case .rightBrace: return "'}'"
        case .comma: return "','"
        case .colon: return "':'"
        case .dotDot: return "'..'"
        case .semicolon: return "';'"
        case .newline: return "the end of the line"
        case .end: return "the end of the input"
        }
    }
}

/// The reserved words: `if C then A else B`, `let x = E in B`, `match E { P: R }`, `a and b`,
/// `a or b`, `not a`, `E given C`, `use NAME`.
public enum Keyword: String, Hashable, Sendable, CaseIterable {
    case `if`, then, `else`, `let`, `in`
    case match, and, or, not, given, use
}
