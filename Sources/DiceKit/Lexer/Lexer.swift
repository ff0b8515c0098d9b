/// Turns source bytes into tokens, one at a time, so a script's early statements
/// run before a bad byte further down is even read.
///
/// The lexer knows where dice modifiers may stand: right after a dice term's
/// sides (`4d6kh3`), a group (`{a, b}kh1`) or `repeat(...)`, with no space.
/// There a `d` means "drop" and `>=` starts a compare point; elsewhere `d` starts
/// a dice term and `>=` is a comparison.
struct Lexer: Sendable {
    let bytes: [UInt8]
    var position = 0
    var mode = Mode.normal
    /// The brackets open, innermost last (`LineContinuation` carries them from line to line).
    var brackets: [Bracket] = []
    /// The last token read before the end of the input.
    var previous: TokenKind = .newline
    private(set) var previousEnd = -1
    /// Whether the last `d` read followed a count (`4d`): only then may `f` be Fate sides.
    private var previousWasCountedDice = false
    /// Whether the token being read stands right after a dice term, group or `repeat(...)`
    /// and its modifiers, where a `.name` reads a field of its value (`4dF.s`).
    private(set) var afterModifiedTerm = false

    enum Mode: Sendable {
        case normal
        /// Right after the `d` of a dice term: sides come next.
        case sides
        /// Right after a dice term, a group or `repeat(...)`: modifiers may follow.
        case modifiers
        /// Right after a modifier word: its count or compare point may follow.
        case modifierArgument(ModifierKeyword)
        /// Right after a compare point's operator: its value comes next.
        case compareValue
    }

    enum Bracket: Sendable {
        case plain, sides, faces, group, modifierArgument, repeatCall
        /// The `(` of a call: `max(1, 2)`, `atk(3)`.
        case call
        /// A plain `(` with a comma inside: d20's set `(1d4, 2)kh1`, which takes modifiers.
        case set
        /// The `{` of a `match`: its entries end at line breaks, where a newline inside other
        /// brackets continues the statement.
        case matchBody
    }

    init(_ source: SourceFile) {
        self.bytes = source.bytes
    }

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Whether a newline here continues the statement (LANGUAGE.md §5): after a token the
    /// statement cannot end with (`+`, `=`, `then`...), and inside an open `(` or `{`, but not
    /// directly inside a `match`'s braces, where it separates entries.
    private var newlineContinues: Bool {
        previous.continuesStatement || (!brackets.isEmpty && brackets.last != .matchBody)
    }

    /// The `{` just read is a `match`'s: the parser says so before it reads past it.
    mutating func markMatchBody() {
        if brackets.last == .group { brackets[brackets.count - 1] = .matchBody }
    }

    /// The next token; `.end` (forever) at the end of the input.
    mutating func next() throws(DiceError) -> Token {
        let token = try scan()
        if token.kind != .end {
            previous = token.kind
            previousEnd = token.range.upperBound.offset
        }
        return token
    }

    // MARK: - Scanning

    func byte(_ offset: Int = 0) -> UInt8? {
        let index = position + offset
        return index < bytes.count ? bytes[index] : nil
    }

    func token(_ kind: TokenKind, from start: Int) -> Token {
        Token(kind, SourceLocation(offset: start)..<SourceLocation(offset: position))
    }

    private mutating func scan() throws(DiceError) -> Token {
        switch mode {
        case .modifiers, .modifierArgument: afterModifiedTerm = true
        default: afterModifiedTerm = false
        }
        switch mode {
        case .normal:
            break
        case .sides:
            mode = .normal
            if let token = try scanSides() { return token }
        case .modifiers:
            mode = .normal
            if let token = scanModifierKeyword() { return token }
        case .modifierArgument(let keyword):
            mode = .modifiers
            if let token = try scanModifierArgument(keyword) { return token }
            if let token = scanModifierKeyword() { return token }
            mode = .normal
        case .compareValue:
            mode = .normal
            if let token = try scanCompareValue() { return token }
        }
        return try scanNormal()
    }

    private mutating func scanSides() throws(DiceError) -> Token? {
        guard let c = byte() else { return nil }
        let start = position
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            let number = try scanNumber()
            mode = .modifiers
            return number
        case UInt8(ascii: "%"):
            position += 1
            mode = .modifiers
            return token(.percentileSides, from: start)
        case UInt8(ascii: "F"), UInt8(ascii: "f"):
            // `4df` as well as `4dF` (a lower-case `f` only after a count), and
            // rpg-dice-roller's `dF.2` and `dF.1` (LANGUAGE.md §3a).
            guard c == UInt8(ascii: "F") || previousWasCountedDice else { return nil }
            position += 1
            if byte() == UInt8(ascii: "."), let digit = byte(1), digit == UInt8(ascii: "1") || digit == UInt8(ascii: "2"),
               !(byte(2).map(isDigit) ?? false) {
                position += 2
            }
            mode = .modifiers
            return token(.fateSides, from: start)
        case UInt8(ascii: "{"):
            position += 1
            brackets.append(.faces)
            return token(.leftBrace, from: start)
        case UInt8(ascii: "("):
            position += 1
            brackets.append(.sides)
            return token(.leftParen, from: start)
        default:
            return nil
        }
    }

    private mutating func scanModifierArgument(_ keyword: ModifierKeyword) throws(DiceError) -> Token? {
        guard let c = byte() else { return nil }
        let start = position
        if keyword.takesComparePoint, let kind = scanComparisonOperator() {
            mode = .compareValue
            return token(kind, from: start)
        }
        guard keyword.takesComparePoint || keyword.takesCount else { return nil }
        if isDigit(c) { return try scanNumber() }
        if c == UInt8(ascii: "(") {
            position += 1
            brackets.append(.modifierArgument)
            mode = .normal
            return token(.leftParen, from: start)
        }
        return nil
    }

    private mutating func scanCompareValue() throws(DiceError) -> Token? {
        guard let c = byte() else { return nil }
        let start = position
        if (c == UInt8(ascii: "-") || c == UInt8(ascii: "+")), let d = byte(1), isDigit(d) {
            position += 1
            mode = .compareValue
            return token(c == UInt8(ascii: "-") ? .minus : .plus, from: start)
        }
        if isDigit(c) {
            let number = try scanNumber()
            mode = .modifiers
            return number
        }
        if c == UInt8(ascii: "(") {
            position += 1
            brackets.append(.modifierArgument)
            return token(.leftParen, from: start)
        }
        if c == UInt8(ascii: "\"") {
            // A text dice's compare point: `cs="hit"`.
            let text = try scanText()
            mode = .modifiers
            return text
        }
        return nil
    }

    /// `=`, `==`, `!=`, `<>`, `<`, `<=`, `>`, `>=` at the current position, consumed.
    private mutating func scanComparisonOperator() -> TokenKind? {
        guard let c = byte() else { return nil }
        let next = byte(1)
        switch c {
        case UInt8(ascii: "="):
            if next == UInt8(ascii: "=") { position += 2; return .equalEqual }
            position += 1
            return .equal
        case UInt8(ascii: "!"):
            guard next == UInt8(ascii: "=") else { return nil }
            position += 2
            return .notEqual
        case UInt8(ascii: "<"):
            if next == UInt8(ascii: "=") { position += 2; return .lessEqual }
            if next == UInt8(ascii: ">") { position += 2; return .notEqual }
            position += 1
            return .less
        case UInt8(ascii: ">"):
            if next == UInt8(ascii: "=") { position += 2; return .greaterEqual }
            position += 1
            return .greater
        default:
            return nil
        }
    }

    private mutating func scanNormal() throws(DiceError) -> Token {
        skipBlanks()
        let start = position
        guard let c = byte() else { return endToken() }
        switch c {
        case UInt8(ascii: "\n"):
            position += 1
            return token(.newline, from: start)
        case UInt8(ascii: "\r"):
            position += 2
            return token(.newline, from: start)
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try scanNumber()
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"):
            return scanWord()
        case UInt8(ascii: "["):
            return try scanAnnotation()
        case UInt8(ascii: "\""):
            return try scanText()
        case UInt8(ascii: ".") where byte(1) == UInt8(ascii: "."):
            position += 2
            return token(.dotDot, from: start)
        case UInt8(ascii: "."):
            if let field = scanField() { return field }
            throw unexpectedCharacter(at: start)
        case UInt8(ascii: ":"):
            // `:vars` where a statement starts is a prompt command (an error of its own).
            if previous == .newline || previous == .semicolon, let next = byte(1), isWordCharacter(next) {
                throw unexpectedCharacter(at: start)
            }
            position += 1
            return token(.colon, from: start)
        case UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "*"):
            position += 1
            let op: BinaryOperator = c == UInt8(ascii: "+") ? .add : c == UInt8(ascii: "-") ? .subtract : .multiply
            if byte() == UInt8(ascii: "=") {
                position += 1
                return token(.update(op), from: start)
            }
            return token(op == .add ? .plus : op == .subtract ? .minus : .star, from: start)
        case UInt8(ascii: "^"): position += 1; return token(.caret, from: start)
        case UInt8(ascii: "%"): position += 1; return token(.percent, from: start)
        case UInt8(ascii: ","):
            position += 1
            if brackets.last == .plain { brackets[brackets.count - 1] = .set }
            return token(.comma, from: start)
        case UInt8(ascii: ";"): position += 1; return token(.semicolon, from: start)
        case UInt8(ascii: "/"):
            if byte(1) == UInt8(ascii: "/") {
                position += 2
                return token(.slashSlash, from: start)
            }
            position += 1
            return token(.slash, from: start)
        case UInt8(ascii: "("):
            position += 1
            switch previous {
            case .name("repeat"): brackets.append(.repeatCall)
            case .name: brackets.append(.call)
            default: brackets.append(.plain)
            }
            return token(.leftParen, from: start)
        case UInt8(ascii: ")"):
            position += 1
            if let bracket = brackets.popLast(), bracket != .plain, bracket != .call {
                mode = .modifiers
            }
            return token(.rightParen, from: start)
        case UInt8(ascii: "{"):
            position += 1
            brackets.append(.group)
            return token(.leftBrace, from: start)
        case UInt8(ascii: "}"):
            position += 1
            // A match takes no modifiers; a group, faces and `repeat` do.
            if let bracket = brackets.popLast(), bracket != .matchBody { mode = .modifiers }
            return token(.rightBrace, from: start)
        default:
            if let kind = scanComparisonOperator() { return token(kind, from: start) }
            throw unexpectedCharacter(at: start)
        }
    }

    /// Skips spaces, tabs and comments, and the line breaks where `newlineContinues`, so a
    /// statement goes on over lines while it cannot end or a bracket is open (but not between
    /// a `match`'s entries, which line breaks separate).
    private mutating func skipBlanks() {
        while let c = byte() {
            switch c {
            case UInt8(ascii: " "), UInt8(ascii: "\t"):
                position += 1
            case UInt8(ascii: "\r") where byte(1) != UInt8(ascii: "\n") || newlineContinues:
                position += 1
            case UInt8(ascii: "\n") where newlineContinues:
                position += 1
            case UInt8(ascii: "#"):
                while let c = byte(), c != UInt8(ascii: "\n") { position += 1 }
            default:
                return
            }
        }
    }

    /// `.end`, at the end of the input, or right after the last token when the statement it
    /// ends goes on over lines to there: a script that stops in the middle of a statement is
    /// an error shown on the statement's last line, not on an empty one after it.
    private func endToken() -> Token {
        if previous.continuesStatement || !brackets.isEmpty, previousEnd >= 0,
           bytes[previousEnd..<position].contains(UInt8(ascii: "\n")) {
            return Token(.end, SourceRange.at(previousEnd))
        }
        return token(.end, from: position)
    }

    private mutating func scanNumber() throws(DiceError) -> Token {
        let start = position
        var value = 0
        var overflow = false
        while let c = byte(), isDigit(c) {
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(Int(c - UInt8(ascii: "0")))
            overflow = overflow || o1 || o2
            value = sum
            position += 1
        }
        if byte() == UInt8(ascii: "."), let d = byte(1), isDigit(d) {
            position += 1
            let fractionStart = position
            while let c = byte(), isDigit(c) { position += 1 }
            guard !overflow, let decimal = Number(decimal: value, fractionDigits: bytes[fractionStart..<position]) else {
                let text = String(decoding: bytes[start..<position], as: UTF8.self)
                throw DiceError(.decimalTooLarge(text), at: token(.end, from: start).range)
            }
            return token(.decimal(decimal), from: start)
        }
        if overflow {
            throw DiceError(.integerTooLarge, at: token(.end, from: start).range)
        }
        return token(.integer(value), from: start)
    }

    private mutating func scanWord() -> Token {
        let start = position
        let first = bytes[start]
        if first == UInt8(ascii: "d") || first == UInt8(ascii: "D") {
            // `d` right after a number or `)` is the dice operator: `4d6`, `(1d4)d6`; so is
            // a capital `D`, other rollers' spelling (§3a: `1D20`).
            let adjacent = previousEnd == start
            let afterCount: Bool
            switch previous {
            case .integer, .decimal, .rightParen: afterCount = adjacent
            default: afterCount = false
            }
            // Without a count, `d6`, `d%`, `dF`, `d(n)` and `d{...}` are dice, never names (§2),
            // and so are `D6`, `D%`, `DF` and `D{...}`: as names, `def h() = D%` then `1` (two
            // `-e`s, one program) read as `D % 1`. `D(` is left to a macro named `D`.
            let startsSides = byte(1).map {
                isDigit($0) || $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "F") || $0 == UInt8(ascii: "{")
                    || ($0 == UInt8(ascii: "(") && first == UInt8(ascii: "d"))
            } ?? false
            if afterCount || startsSides {
                position += 1
                mode = .sides
                previousWasCountedDice = afterCount
                return token(.dice, from: start)
            }
        }
        while let c = byte(), isWordCharacter(c) { position += 1 }
        let word = String(decoding: bytes[start..<position], as: UTF8.self)
        switch word {
        case "def": return token(.keywordDef, from: start)
        case "stats": return token(.keywordStats, from: start)
        default:
            if let keyword = Keyword(rawValue: word) { return token(.keyword(keyword), from: start) }
            return token(.name(word), from: start)
        }
    }

    /// The text of `range` of the input (clamped to it).
    func text(_ range: Range<Int>) -> String {
        let lower = Swift.min(Swift.max(range.lowerBound, 0), bytes.count)
        let upper = Swift.min(Swift.max(range.upperBound, lower), bytes.count)
        return String(decoding: bytes[lower..<upper], as: UTF8.self)
    }

    /// Where the line holding `offset` ends (its newline, or the end of the input).
    func lineEnd(from offset: Int) -> Int {
        var end = Swift.max(0, offset)
        while end < bytes.count, bytes[end] != UInt8(ascii: "\n"), bytes[end] != UInt8(ascii: "\r") { end += 1 }
        return end
    }
}

@inline(__always) func isDigit(_ c: UInt8) -> Bool {
    c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")
}

@inline(__always) func isWordCharacter(_ c: UInt8) -> Bool {
    (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z"))
        || isDigit(c) || c == UInt8(ascii: "_")
}
