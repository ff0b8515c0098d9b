/// The user's own words in the source: texts, annotations and field names.
extension Lexer {
    /// The most characters a text literal holds (LANGUAGE.md §5b).
    static let maxTextLength = 1_000

    /// `"weak hit"`: a text on one line, with `\"` and `\\` its only escapes.
    mutating func scanText() throws(DiceError) -> Token {
        let start = position
        position += 1
        var content: [UInt8] = []
        // A text already too long is that, whether or not its quote closes further on: read
        // in parts (`dice` reads a long script a megabyte at a time), a 2,000,000-character
        // text said it had no closing quote. Counted at each doubling, so in linear time.
        var nextCount = 4 * Lexer.maxTextLength
        while true {
            if content.count >= nextCount {
                nextCount *= 2
                if String(decoding: content, as: UTF8.self).count > Lexer.maxTextLength {
                    throw DiceError(.textTooLong(limit: Lexer.maxTextLength), at: SourceRange.at(start))
                }
            }
            guard let c = byte(), c != UInt8(ascii: "\n"), c != UInt8(ascii: "\r") else {
                throw DiceError(.unterminatedText, at: SourceRange.at(start))
            }
            if c == UInt8(ascii: "\"") { break }
            if c == UInt8(ascii: "\\") {
                guard let escaped = byte(1), escaped == UInt8(ascii: "\"") || escaped == UInt8(ascii: "\\") else {
                    throw invalidEscape(at: position)
                }
                content.append(escaped)
                position += 2
            } else {
                content.append(c)
                position += 1
            }
        }
        guard let text = String(validating: content, as: UTF8.self) else {
            throw DiceError(.invalidUTF8, at: SourceRange.at(start))
        }
        guard text.count <= Lexer.maxTextLength else {
            throw DiceError(.textTooLong(limit: Lexer.maxTextLength), at: SourceRange.at(start))
        }
        position += 1
        return token(.text(text), from: start)
    }

    /// The error for the backslash at `offset` that starts no escape: `\n` in `"a\nb"`.
    private func invalidEscape(at offset: Int) -> DiceError {
        var end = offset + 1
        // The escaped character whole, however many bytes it takes (none at a line's end).
        if end < bytes.count, bytes[end] != UInt8(ascii: "\n"), bytes[end] != UInt8(ascii: "\r") {
            end += 1
            while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
        }
        let range = SourceLocation(offset: offset)..<SourceLocation(offset: end)
        return DiceError(.invalidEscape(text(offset..<end)), at: range)
    }

    /// `.hits` touching a name, a field, a text, a `)` or a dice term with its modifiers before
    /// it (`4dF.s`, `2d{(s: 1)}kh1.s`) and a letter after it: a field (of a text or a number,
    /// an error that says so); `nil` (nothing consumed) anywhere else.
    mutating func scanField() -> Token? {
        switch previous {
        case .name, .field, .rightParen, .text: break
        default: guard afterModifiedTerm else { return nil }
        }
        guard previousEnd == position, let first = byte(1), isWordCharacter(first), !isDigit(first) else { return nil }
        let start = position
        position += 1
        while let c = byte(), isWordCharacter(c) { position += 1 }
        return token(.field(text((start + 1)..<position)), from: start)
    }

    /// `[fire]`: an annotation, its text trimmed; it may go on over lines, like any bracket.
    mutating func scanAnnotation() throws(DiceError) -> Token {
        let start = position
        position += 1
        while let c = byte(), c != UInt8(ascii: "]") { position += 1 }
        guard byte() == UInt8(ascii: "]") else {
            throw DiceError(.unterminatedAnnotation, at: SourceRange.at(start))
        }
        let content = bytes[(start + 1)..<position]
        position += 1
        guard let text = String(validating: content, as: UTF8.self) else {
            throw DiceError(.invalidUTF8, at: SourceRange.at(start))
        }
        // A label may go on over lines; it shows on one, a space for each break (`\n`, or
        // `\r\n`, which is one Character).
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            .map(Lexer.trimmed)
        return token(.annotation(lines.filter { !$0.isEmpty }.joined(separator: " ")), from: start)
    }

    private static func trimmed(_ text: Substring) -> String {
        var trimmed = text
        while trimmed.first?.isWhitespace == true { trimmed.removeFirst() }
        while trimmed.last?.isWhitespace == true { trimmed.removeLast() }
        return String(trimmed)
    }
}
