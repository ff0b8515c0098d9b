import DiceKit

/// The fuzz harness's own JSON reader: every JSON the library writes must parse, and hold
/// what the breakdown shows.
extension FuzzDice {
    // MARK: - JSON

    indirect enum JSON {
        case object([(key: String, value: JSON)])
        case array([JSON])
        case string(String)
        case number(String)
        case literal(String)
    }

    /// Parses `text` as one JSON value on one line; fails otherwise.
    @discardableResult
    static func checkJSONLine(_ text: String) -> JSON {
        if text.contains("\n") || text.contains("\r") { fail("JSON with a line break: \(text)") }
        var parser = JSONParser(bytes: Array(text.utf8))
        do throws(JSONParser.Invalid) {
            let value = try parser.value(depth: 0)
            parser.skipSpace()
            guard parser.position == parser.bytes.count else { throw JSONParser.Invalid(position: parser.position) }
            return value
        } catch {
            fail("invalid JSON at byte \(error.position): \(text.prefix(2000))")
        }
    }

    struct JSONParser {
        struct Invalid: Error { var position: Int }
        let bytes: [UInt8]
        var position = 0

        mutating func skipSpace() {
            while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
        }

        func invalid() -> Invalid { Invalid(position: position) }

        mutating func value(depth: Int) throws(Invalid) -> JSON {
            guard depth < 2000 else { throw invalid() }
            skipSpace()
            guard position < bytes.count else { throw invalid() }
            switch bytes[position] {
            case UInt8(ascii: "{"):
                position += 1
                var members: [(key: String, value: JSON)] = []
                skipSpace()
                if position < bytes.count, bytes[position] == UInt8(ascii: "}") { position += 1; return .object(members) }
                while true {
                    skipSpace()
                    let key = try string()
                    skipSpace()
                    try expect(":")
                    members.append((key, try value(depth: depth + 1)))
                    skipSpace()
                    if try take(",", or: "}") { continue }
                    return .object(members)
                }
            case UInt8(ascii: "["):
                position += 1
                var elements: [JSON] = []
                skipSpace()
                if position < bytes.count, bytes[position] == UInt8(ascii: "]") { position += 1; return .array(elements) }
                while true {
                    elements.append(try value(depth: depth + 1))
                    skipSpace()
                    if try take(",", or: "]") { continue }
                    return .array(elements)
                }
            case UInt8(ascii: "\""):
                return .string(try string())
            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                for word in ["true", "false", "null"] where bytes[position...].starts(with: word.utf8) {
                    position += word.utf8.count
                    return .literal(word)
                }
                throw invalid()
            default:
                return .number(try number())
            }
        }

        mutating func expect(_ character: Unicode.Scalar) throws(Invalid) {
            guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { throw invalid() }
            position += 1
        }

        /// Consumes `more` (returns true) or `end` (returns false).
        mutating func take(_ more: Unicode.Scalar, or end: Unicode.Scalar) throws(Invalid) -> Bool {
            guard position < bytes.count else { throw invalid() }
            if bytes[position] == UInt8(ascii: more) { position += 1; return true }
            if bytes[position] == UInt8(ascii: end) { position += 1; return false }
            throw invalid()
        }

        /// A string, its escapes decoded (`\u0010` is U+0010, a surrogate pair one scalar).
        mutating func string() throws(Invalid) -> String {
            try expect("\"")
            var decoded: [UInt8] = []
            while position < bytes.count {
                let byte = bytes[position]
                position += 1
                if byte == UInt8(ascii: "\"") { return String(decoding: decoded, as: UTF8.self) }
                if byte < 0x20 { throw invalid() }
                guard byte == UInt8(ascii: "\\") else {
                    decoded.append(byte)
                    continue
                }
                guard position < bytes.count else { throw invalid() }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escape)
                case UInt8(ascii: "b"): decoded.append(0x08)
                case UInt8(ascii: "f"): decoded.append(0x0C)
                case UInt8(ascii: "n"): decoded.append(0x0A)
                case UInt8(ascii: "r"): decoded.append(0x0D)
                case UInt8(ascii: "t"): decoded.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try hexQuad()
                    if (0xD800..<0xDC00).contains(code) {
                        // A high surrogate is followed by its low one.
                        try expect("\\")
                        try expect("u")
                        let low = try hexQuad()
                        guard (0xDC00..<0xE000).contains(low) else { throw invalid() }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw invalid() }
                    UTF8.encode(scalar) { decoded.append($0) }
                default:
                    throw invalid()
                }
            }
            throw invalid()
        }

        /// Four hex digits of a `\u` escape, as their number.
        mutating func hexQuad() throws(Invalid) -> UInt32 {
            var code: UInt32 = 0
            for _ in 0..<4 {
                guard position < bytes.count, isHexDigit(bytes[position]) else { throw invalid() }
                let byte = bytes[position]
                let digit = byte <= 0x39 ? byte - 0x30 : (byte | 0x20) - 0x61 + 10
                code = code * 16 + UInt32(digit)
                position += 1
            }
            return code
        }

        func isHexDigit(_ byte: UInt8) -> Bool {
            (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
        }

        func isDigit(_ index: Int) -> Bool { index < bytes.count && (0x30...0x39).contains(bytes[index]) }

        /// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
        mutating func number() throws(Invalid) -> String {
            let start = position
            if position < bytes.count, bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard isDigit(position) else { throw invalid() }
            if bytes[position] == UInt8(ascii: "0") {
                position += 1
            } else {
                while isDigit(position) { position += 1 }
            }
            if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
                position += 1
                guard isDigit(position) else { throw invalid() }
                while isDigit(position) { position += 1 }
            }
            if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
                position += 1
                if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                    position += 1
                }
                guard isDigit(position) else { throw invalid() }
                while isDigit(position) { position += 1 }
            }
            return String(decoding: bytes[start..<position], as: UTF8.self)
        }
    }
}
