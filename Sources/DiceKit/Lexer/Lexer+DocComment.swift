/// A doc comment: a line `#: description` right above a `def` gives its macro a one-line
/// description (`:defs`, `use` and `:save` show it), as the game systems' files do.
extension Lexer {
    /// The text of the `#:` line right above the line where `offset` starts a statement;
    /// `nil` when the statement does not start its line (blanks only before it) or the line
    /// above is no `#:` comment.
    ///
    /// - Complexity: O(*n*) for the *n* bytes of the line above: a statement after another on
    ///   the same line looks no further back than its own line's start.
    func docComment(above offset: SourceLocation) -> String? {
        var index = Swift.min(Swift.max(offset.offset, 0), bytes.count)
        // Blanks only between the line's start and the statement.
        while index > 0, Lexer.isBlank(bytes[index - 1]) { index -= 1 }
        guard index > 0, bytes[index - 1] == UInt8(ascii: "\n") else { return nil }
        return docComment(ofLineEndingAt: index - 1)
    }

    /// The text of the line that ends at the line break at `newline`, without the `#:` and
    /// the blanks around it, when the line is a doc comment (blanks, then `#:`), else `nil`.
    ///
    /// - Complexity: O(*n*) for the *n* bytes of that line.
    func docComment(ofLineEndingAt newline: Int) -> String? {
        var end = Swift.min(Swift.max(newline, 0), bytes.count)
        if end > 0, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        var start = end
        while start > 0, bytes[start - 1] != UInt8(ascii: "\n") { start -= 1 }
        let line = bytes[start..<end].drop(while: Lexer.isBlank)
        guard line.starts(with: [UInt8(ascii: "#"), UInt8(ascii: ":")]) else { return nil }
        var text = line.dropFirst(2).drop(while: Lexer.isBlank)
        while let last = text.last, Lexer.isBlank(last) { text = text.dropLast() }
        return String(decoding: text, as: UTF8.self)
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }
}
