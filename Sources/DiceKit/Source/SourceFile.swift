/// A named source text (a script, `<stdin>` or one `-e` statement) and the
/// mapping from byte offsets to 1-based lines and columns.
///
/// Columns count characters, not bytes, so a caret lines up under `é` or `🎲`.
public struct SourceFile: Sendable {
    /// The name printed before errors: a path, `<stdin>` or `<-e>`.
    public let name: String
    /// The text as UTF-8 bytes; it may contain invalid sequences (the lexer reports them).
    package let bytes: [UInt8]
    /// The number of the text's first line in the whole script: 1 unless the text is a part
    /// of a script read as it arrives (the lines from `firstLine` on).
    package let firstLine: Int

    /// A source named `name` whose text is `bytes`, starting at line `firstLine` of its script.
    package init(name: String, bytes: [UInt8], firstLine: Int = 1) {
        self.name = name
        self.bytes = bytes
        self.firstLine = firstLine
    }

    /// A source named `name` whose text is `text`.
    public init(name: String, text: String) {
        self.init(name: name, bytes: Array(text.utf8))
    }

    /// The 1-based line (counted from `firstLine`) and column of `location`.
    ///
    /// - Complexity: O(*k*) for *k* bytes before `location`.
    public func lineAndColumn(of location: SourceLocation) -> (line: Int, column: Int) {
        let offset = Swift.min(Swift.max(location.offset, 0), bytes.count)
        var line = firstLine
        var lineStart = 0
        var index = 0
        while index < offset {
            if bytes[index] == UInt8(ascii: "\n") {
                line += 1
                lineStart = index + 1
            }
            index += 1
        }
        let prefix = String(decoding: bytes[lineStart..<offset], as: UTF8.self)
        return (line, prefix.count + 1)
    }

    /// The text of the line containing `location`, without its line ending.
    package func lineText(containing location: SourceLocation) -> String {
        let offset = Swift.min(Swift.max(location.offset, 0), bytes.count)
        var start = offset
        while start > 0 && bytes[start - 1] != UInt8(ascii: "\n") { start -= 1 }
        var end = offset
        while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
        if end > start && bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return String(decoding: bytes[start..<Swift.max(start, end)], as: UTF8.self)
    }

    /// The source text covered by `range`.
    public func text(of range: SourceRange) -> String {
        let lower = Swift.min(Swift.max(range.lowerBound.offset, 0), bytes.count)
        let upper = Swift.min(Swift.max(range.upperBound.offset, lower), bytes.count)
        return String(decoding: bytes[lower..<upper], as: UTF8.self)
    }
}
