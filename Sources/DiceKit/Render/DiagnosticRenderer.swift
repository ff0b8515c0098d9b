/// Prints an error the way compilers do:
/// ```
/// <-e>:1:7: error: expected an expression, found '*'
/// 2d6 + * 3
///       ^
/// ```
public struct DiagnosticRenderer: Sendable {
    /// Whether to colour the header and the caret with ANSI escapes.
    package var colour: Bool

    /// A renderer, plain unless `colour`.
    public init(colour: Bool = false) { self.colour = colour }

    /// The header line, the source line and the caret line (no trailing newline).
    /// - Parameter message: the text to print in place of `error.message`, for a host
    ///   that adds its own advice (the `dice` command names its `--max-dice` option).
    public func render(_ error: DiceError, in source: SourceFile, message: String? = nil) -> String {
        let (line, column) = source.lineAndColumn(of: error.range.lowerBound)
        let label = colour ? "\u{1B}[1;31merror:\u{1B}[0m" : "error:"
        let header = colour ? "\u{1B}[1m\(source.name):\(line):\(column):\u{1B}[0m" : "\(source.name):\(line):\(column):"
        // The message quotes the user's text (names, the input): never as terminal control.
        let text = "\(header) \(label) \(TextEscaping.escapingControls(message ?? error.message))"
        let (shown, caretColumn) = DiagnosticRenderer.shownLine(in: source, at: error.range.lowerBound, column: column)
        var caret = ""
        for (index, character) in shown.enumerated() where index < caretColumn - 1 {
            caret.append(character == "\t" ? "\t" : " ")
        }
        caret += colour ? "\u{1B}[1;32m^\u{1B}[0m" : "^"
        return text + "\n" + shown + "\n" + caret
    }

    /// Columns of a long line shown on either side of the error.
    static let reach = 60

    /// The line of `location` as printed (control characters made printable), and the column
    /// of `location` in it: the whole line when it has at most 400 bytes; else `reach`
    /// columns or so either side, `…` where it is cut (a line of megabytes is not decoded).
    static func shownLine(in source: SourceFile, at location: SourceLocation, column: Int) -> (String, Int) {
        guard lineLength(in: source, at: location) > 400 else {
            return (printable(source.lineText(containing: location)), column)
        }
        let bytes = source.bytes
        let offset = Swift.min(Swift.max(location.offset, 0), bytes.count)
        let newline = UInt8(ascii: "\n")
        /// Whether a byte continues a UTF-8 sequence: a cut there would split a character.
        func continues(_ index: Int) -> Bool { index < bytes.count && bytes[index] & 0xC0 == 0x80 }
        var start = offset
        while start > 0 && bytes[start - 1] != newline && offset - start < reach { start -= 1 }
        while start < offset && continues(start) { start += 1 }
        var end = offset
        while end < bytes.count && bytes[end] != newline && end - offset < reach { end += 1 }
        while end > offset && continues(end) { end -= 1 }
        let cutBefore = start > 0 && bytes[start - 1] != newline
        let cutAfter = end < bytes.count && bytes[end] != newline && bytes[end] != UInt8(ascii: "\r")
        let before = printable(String(decoding: bytes[start..<offset], as: UTF8.self))
        let after = printable(String(decoding: bytes[offset..<end], as: UTF8.self))
        let line = (cutBefore ? "…" : "") + before + after + (cutAfter ? "…" : "")
        return (line, (cutBefore ? 1 : 0) + before.count + 1)
    }

    /// The length in bytes of the line containing `location`, counted no further than needed.
    static func lineLength(in source: SourceFile, at location: SourceLocation) -> Int {
        let bytes = source.bytes
        let offset = Swift.min(Swift.max(location.offset, 0), bytes.count)
        var start = offset
        while start > 0 && bytes[start - 1] != UInt8(ascii: "\n") && offset - start <= 4 * 400 { start -= 1 }
        var end = offset
        while end < bytes.count && bytes[end] != UInt8(ascii: "\n") && end - start <= 4 * 400 { end += 1 }
        return end - start
    }

    /// The line with control characters (C0 but tab, DEL, C1) shown as `�`, one column
    /// each so the caret stays under its column, and the terminal stays sane.
    static func printable(_ line: String) -> String {
        String(String.UnicodeScalarView(line.unicodeScalars.map {
            ($0.value < 0x20 && $0 != "\t") || (0x7F...0x9F).contains($0.value) ? "\u{FFFD}" : $0
        }))
    }
}
