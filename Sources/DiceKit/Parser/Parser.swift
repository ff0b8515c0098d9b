/// A recursive-descent parser for the dice language, one method per rule of
/// `grammar/dice.ebnf`, named as the rule, its doc comment quoting the rule
/// (`GrammarTests` checks that the two agree).
///
/// Statements are parsed one at a time (`nextStatement()`), so a script runs
/// each statement before the next is read and an error further down does not
/// stop what came before it.
///
/// ```swift
/// var parser = Parser(SourceFile(name: "<-e>", text: "x = 3; x + 1d6"))
/// while let statement = try parser.nextStatement() { ... }
/// ```
public struct Parser: Sendable {
    var lexer: Lexer
    var current: Token
    /// A token read past `current`, for the one place that looks two ahead (`name =`).
    var lookahead: Token?
    var depth = 0
    /// The end of the last token consumed: where the node being parsed ends.
    var previousEnd = SourceLocation(offset: 0)
    let maxNesting: Int
    /// Tokens consumed by the statement being parsed, against `maxTokens`.
    var tokens = 0
    let maxTokens: Int
    /// Asked every 4,096 tokens of a long statement; `true` abandons it with `.interrupted`.
    package var shouldStop: (@Sendable () -> Bool)?
    /// Expression statements are read as `stats` statements (`dice --stats`).
    let expressionsAreStats: Bool
    var pendingError: DiceError?
    /// Where a line break alone separates two entries of a `match` (its offset): `oneLine`
    /// writes a `,` there.
    var entryBreaks: [Int] = []

    /// A parser at the start of `source`, whose nesting is bounded by `limits.maxNesting`.
    /// A line break ends a statement only where it can end: after `=`, an operator, `,` or a
    /// word like `then`, and inside an open `(`, `{` or `[`, the statement goes on in the
    /// next line (`LineContinuation`). With `expressionsAreStats` (`dice --stats`), an
    /// expression statement asks for its distribution, as if it began with `stats`:
    /// `2d20kh1 + 5, 1d20 + 8` compares the two.
    public init(_ source: SourceFile, limits: Limits = .standard, expressionsAreStats: Bool = false) {
        lexer = Lexer(source)
        maxNesting = limits.maxNesting
        maxTokens = limits.maxStatementTokens
        self.expressionsAreStats = expressionsAreStats
        current = Token(.newline, SourceRange.at(0))
        do {
            current = try lexer.next()
        } catch {
            pendingError = error
        }
    }

    /// Parses a whole text as statements; throws the first error.
    public static func parseProgram(_ text: String, limits: Limits = .standard) throws(DiceError) -> [Stmt] {
        var parser = Parser(SourceFile(name: "<input>", text: text), limits: limits)
        return try parser.program()
    }

    /// Parses a text that must be exactly one expression.
    public static func parseExpression(_ text: String, limits: Limits = .standard) throws(DiceError) -> Expr {
        var parser = Parser(SourceFile(name: "<input>", text: text), limits: limits)
        try parser.checkPending()
        try parser.skipSeparators()
        let expr = try parser.expression()
        try parser.skipSeparators()
        guard parser.current.kind == .end else { throw parser.unexpected() }
        return expr
    }

    /// Whether `text` ends where its statement cannot: after `=`, an operator, `,`, `:`,
    /// `..` or a word like `then`, `else` or `in`, or inside a `(`, `{` or `[` it opened. A
    /// REPL then reads another line, and parses the lines together.
    ///
    /// ```swift
    /// Parser.needsAnotherLine("{1d20 + 5,")   // true
    /// Parser.needsAnotherLine("1d20 + 5 >=")  // true
    /// Parser.needsAnotherLine("{1d20 + 5}")   // false
    /// ```
    package static func needsAnotherLine(_ text: String) -> Bool {
        var lines = LineContinuation()
        lines.read(text.utf8)
        return lines.needsAnotherLine
    }

    /// A statement typed over several lines as one line, for a history file: its comments
    /// dropped and each line break a space, so it reads back as the same statement.
    ///
    /// ```swift
    /// Parser.oneLine("{1d20 + 5,  # first\n1d20 + 5}kh1")   // "{1d20 + 5, 1d20 + 5}kh1"
    /// ```
    ///
    /// The entries of a `match` on lines of their own are joined with `,` where no `,` ends
    /// the line, since a space alone does not separate them.
    package static func oneLine(_ text: String) -> String {
        var lines: [Substring] = []
        var insideAnnotation = false
        let entryLines = Parser.linesEndingEntries(of: text)
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var end = line.endIndex
            // A text is one line: it never spans a break, and a `#` or `[` inside it is its own.
            var insideText = false, escaped = false
            for index in line.indices {
                let character = line[index]
                if insideText {
                    if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" {
                        insideText = false
                    }
                    continue
                }
                switch character {
                case "\"" where !insideAnnotation: insideText = true
                case "[": insideAnnotation = true
                case "]": insideAnnotation = false
                case "#" where !insideAnnotation: end = index
                default: continue
                }
                if end != line.endIndex { break }
            }
            var kept = line[..<end]
            while kept.first?.isWhitespace == true { kept.removeFirst() }
            while kept.last?.isWhitespace == true { kept.removeLast() }
            if entryLines.contains(number) { kept += "," }
            if !kept.isEmpty { lines.append(kept) }
        }
        return lines.joined(separator: " ")
    }

    /// The numbers (from 0) of the lines of `text` whose break alone separates two entries
    /// of a `match`, as the REPL reads it.
    private static func linesEndingEntries(of text: String) -> Set<Int> {
        var parser = Parser(SourceFile(name: "<input>", text: text))
        while (try? parser.nextStatement()) != nil {}
        var lines: Set<Int> = []
        var line = 0, offset = 0
        for breakOffset in parser.entryBreaks.sorted() {
            for byte in text.utf8.dropFirst(offset).prefix(breakOffset - offset) where byte == UInt8(ascii: "\n") {
                line += 1
            }
            offset = breakOffset
            lines.insert(line)
        }
        return lines
    }

    // MARK: - Tokens

    mutating func checkPending() throws(DiceError) {
        if let error = pendingError { throw error }
    }

    /// Moves to the next token and returns the one it leaves.
    @discardableResult
    mutating func advance() throws(DiceError) -> Token {
        let token = current
        tokens &+= 1
        guard tokens <= maxTokens else {
            throw DiceError(.statementTooLong(limit: maxTokens), at: token.range)
        }
        if tokens & 0xFFF == 0, let shouldStop, shouldStop() { throw DiceError(.interrupted, at: token.range) }
        previousEnd = token.range.upperBound
        if let next = lookahead {
            current = next
            lookahead = nil
        } else {
            current = try lexer.next()
        }
        return token
    }

    mutating func peekSecond() throws(DiceError) -> Token {
        if let token = lookahead { return token }
        let token = try lexer.next()
        lookahead = token
        return token
    }

    /// Consumes `kind` or throws `expected(what, found:)`.
    @discardableResult
    mutating func expect(_ kind: TokenKind, _ what: DiceError.Expectation) throws(DiceError) -> Token {
        guard current.kind == kind else { throw expected(what) }
        return try advance()
    }

    /// The error for finding the current token where `what` should be.
    func expected(_ what: DiceError.Expectation) -> DiceError {
        DiceError(.expected(what, found: current.kind), at: current.range)
    }

    func unexpected() -> DiceError {
        switch current.kind {
        case .equal:
            return DiceError(.unexpectedEquals, at: current.range)
        case .name(let name) where Parser.looksLikeModifier(name):
            return DiceError(.modifierAfterSpace(name), at: current.range)
        case .annotation(let text):
            return inlineRollHint(text) ?? DiceError(.annotationWithoutTerm, at: current.range)
        default:
            return DiceError(.unexpectedToken(current.kind), at: current.range)
        }
    }

    /// Whether a word is a modifier keyword with at most a count after it (`kh3`, `ro`, `sa`),
    /// as a modifier written after a space reads: `dog` and `dmg` are just names.
    static func looksLikeModifier(_ word: String) -> Bool {
        // Not the one-letter words of other rollers (`x`, `e`): those are names more often.
        ModifierKeyword.allCases.contains { keyword in
            keyword != .explodeX && keyword != .explodeE && keyword != .explodeOnce
                && word.hasPrefix(keyword.rawValue)
                && word.utf8.dropFirst(keyword.rawValue.utf8.count).allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        }
    }

    /// Runs `body` one nesting level deeper, refusing to go past the limit.
    mutating func nested<T>(_ body: (inout Parser) throws(DiceError) -> T) throws(DiceError) -> T {
        guard depth < maxNesting else {
            throw DiceError(.nestingTooDeep(limit: maxNesting), at: current.range)
        }
        depth += 1
        defer { depth -= 1 }
        return try body(&self)
    }

    /// From the start of `start` to the end of the last token consumed.
    func range(from start: SourceRange) -> SourceRange {
        start.lowerBound..<Swift.max(start.upperBound, previousEnd)
    }
}
