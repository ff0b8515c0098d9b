/// Where the statements of a text end when it comes a line at a time: lines typed at a
/// prompt, or a script read as it arrives.
///
/// A line break ends a statement unless the statement cannot end there: after `=`, an
/// operator, `,`, `:`, `..` or a word that needs more (`then`, `else`, `in`, `and`, `or`,
/// `not`, `given`...), or inside an open `(`, `{` or `[` (LANGUAGE.md §5). The lexer skips
/// those line breaks by the same rule, so the parser reads the lines as one statement; this
/// type tells, line by line, without parsing, whether another line is needed first. A `#:`
/// doc comment's line ends no statement either: it is read with the `def` below it.
///
/// ```swift
/// var lines = LineContinuation()
/// lines.read("x = 1d20 +\n".utf8)   // 0: no statement ends yet
/// lines.needsAnotherLine            // true
/// lines.read("5\n".utf8)            // 2: the statement ends with this line's break
/// ```
package struct LineContinuation: Sendable {
    /// The brackets open at the end of what was read, innermost last.
    private var brackets: [Lexer.Bracket] = []
    /// The last token read.
    private var previous: TokenKind = .newline
    /// Whether what was read ends inside an annotation, whose `]` is still to come.
    private var insideAnnotation = false

    /// Nothing read yet: the next line starts a statement.
    package init() {}

    /// Whether what was read so far ends inside a statement, which goes on in the next line.
    package var needsAnotherLine: Bool {
        insideAnnotation || !brackets.isEmpty || previous.continuesStatement
    }

    /// Reads the next part of the text (whole lines, but for the end of the text) and returns
    /// how many of its bytes come before the next statement: up to the last line break that
    /// ends a statement, 0 when none does.
    ///
    /// A mistake that no later line can mend (a character that starts no token, a text left
    /// open at the end of its line) ends the statement at the end of `text`: the parser then
    /// reports it where it is.
    ///
    /// - Complexity: O(*n*) for *n* bytes of `text`, whatever was read before.
    @discardableResult
    package mutating func read(_ text: some Collection<UInt8>) -> Int {
        let bytes = Array(text)
        var start = 0
        if insideAnnotation {
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]")) else { return 0 }
            insideAnnotation = false
            previous = .annotation("")
            start = close + 1
        }
        var lexer = Lexer(bytes: bytes)
        lexer.position = start
        lexer.brackets = brackets
        lexer.previous = previous
        var statementsEnd = 0
        while true {
            let token: Token
            do {
                token = try lexer.next()
            } catch {
                guard case .unterminatedAnnotation = error.kind else {
                    self = LineContinuation()
                    return bytes.count
                }
                insideAnnotation = true
                break
            }
            if token.kind == .end { break }
            // A doc comment's line belongs with the `def` under it: no statement ends there.
            if token.kind == .newline, lexer.brackets.isEmpty,
               lexer.docComment(ofLineEndingAt: token.range.lowerBound.offset) == nil {
                statementsEnd = token.range.upperBound.offset
            }
        }
        brackets = lexer.brackets
        previous = lexer.previous
        return statementsEnd
    }
}
