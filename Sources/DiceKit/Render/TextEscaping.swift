/// Text the user wrote (annotations, names, texts) as data, never as terminal control or
/// markup (LANGUAGE.md §6): control characters (C0, DEL, C1) as `\u{1b}`-style escapes, and
/// for Markdown the user's `*`, `_`, `~`, the backquote, `|` and `\` escaped with a backslash.
package enum TextEscaping {
    /// `text` with its control characters escaped: `a\u{1b}[31m` for `a`, ESC, `[31m`.
    package static func escapingControls(_ text: String) -> String {
        escaped(text, markdown: false)
    }

    /// `text` escaped for Markdown as well: `**20**` as `\*\*20\*\*`.
    package static func escapingMarkdown(_ text: String) -> String {
        escaped(text, markdown: true)
    }

    /// Whether `text` needs no escape: one pass over its bytes (over its storage, where it
    /// has one: through the `utf8` view, the labels of a table of 7,584 tallies spent about
    /// 8% of bench G5's instructions here, callgrind, 2026-12-03).
    static func isPlain(_ text: String, markdown: Bool) -> Bool {
        func plain<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> Bool {
            var previous: UInt8 = 0
            for byte in bytes {
                if byte < 0x20 || byte == 0x7F || (previous == 0xC2 && byte < 0xA0) { return false }
                if markdown, isMarkdownMark(byte) { return false }
                previous = byte
            }
            return true
        }
        return text.utf8.withContiguousStorageIfAvailable(plain) ?? plain(text.utf8)
    }

    static func escaped(_ text: String, markdown: Bool) -> String {
        if isPlain(text, markdown: markdown) { return text }
        var result = ""
        result.unicodeScalars.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value < 0x20 || (0x7F...0x9F).contains(value) {
                result += "\\u{" + String(value, radix: 16) + "}"
            } else if markdown, value < 0x80, isMarkdownMark(UInt8(value)) {
                result.unicodeScalars.append("\\")
                result.unicodeScalars.append(scalar)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func isMarkdownMark(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "`"), UInt8(ascii: "|"),
             UInt8(ascii: "\\"):
            return true
        default:
            return false
        }
    }
}
