extension Lexer {
    /// The error for a byte that starts no token: the character named, or a prompt command.
    func unexpectedCharacter(at start: Int) -> DiceError {
        let range = SourceLocation(offset: start)..<SourceLocation(offset: start + 1)
        let lead = bytes[start]
        // `:vars` where a statement starts: a prompt command in a script.
        if lead == UInt8(ascii: ":"), previous == .newline || previous == .semicolon,
           let next = byte(1), isWordCharacter(next) {
            var end = start + 1
            while end < bytes.count, isWordCharacter(bytes[end]) || bytes[end] == UInt8(ascii: "-") { end += 1 }
            return DiceError(.promptCommandInScript(text(start..<end)),
                             at: SourceLocation(offset: start)..<SourceLocation(offset: end))
        }
        if lead < 0x80 {
            if lead >= 0x20 && lead < 0x7F {
                return DiceError(.unexpectedCharacter("'\(Character(Unicode.Scalar(lead)))'"), at: range)
            }
            return DiceError(.unexpectedCharacter(Lexer.codePoint(UInt32(lead))), at: range)
        }
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        let end = Swift.min(start + length, bytes.count)
        guard lead >= 0xC2, lead <= 0xF4,
              let text = String(validating: bytes[start..<end], as: UTF8.self),
              let scalar = text.unicodeScalars.first, text.unicodeScalars.count == 1 else {
            return DiceError(.invalidUTF8, at: range)
        }
        return DiceError(.unexpectedCharacter("'\(text)' (\(Lexer.codePoint(scalar.value)))"), at: range)
    }

    private static func codePoint(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: Swift.max(0, 4 - hex.count)) + hex
    }
}
