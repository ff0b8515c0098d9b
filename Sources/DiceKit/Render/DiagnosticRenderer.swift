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
        var text = "\(header) \(label) \(TextEscaping.escapingControls(message ?? error.message))"
        // A line of megabytes gets no caret: decoding it would take seconds and gigabytes.
        guard DiagnosticRenderer.lineLength(in: source, at: error.range.lowerBound) <= 4 * 400 else { return text }
        let sourceLine = DiagnosticRenderer.printable(source.lineText(containing: error.range.lowerBound))
        if sourceLine.count <= 400 {
            var caret = ""
            for (index, character) in sourceLine.enumerated() where index < column - 1 {
                caret.append(character == "\t" ? "\t" : " ")
            }
            caret += colour ? "\u{1B}[1;32m^\u{1B}[0m" : "^"
            text += "\n" + sourceLine + "\n" + caret
        }
        return text
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
