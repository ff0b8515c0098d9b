/// Reads the string fields at the top level of one JSON object; anything that is not a
/// whole, well-formed object gives nil. Nested values are checked and skipped.
struct JSONFields {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func topLevelStrings() -> [String: String]? {
        var reader = self
        var fields: [String: String] = [:]
        reader.skipSpace()
        guard reader.take(UInt8(ascii: "{")) else { return nil }
        reader.skipSpace()
        if reader.take(UInt8(ascii: "}")) { return reader.atEnd() ? fields : nil }
        while true {
            reader.skipSpace()
            guard let key = reader.string() else { return nil }
            reader.skipSpace()
            guard reader.take(UInt8(ascii: ":")) else { return nil }
            reader.skipSpace()
            if reader.peek() == UInt8(ascii: "\"") {
                guard let value = reader.string() else { return nil }
                fields[key] = value
            } else {
                guard reader.skipValue(depth: 0) else { return nil }
            }
            reader.skipSpace()
            if reader.take(UInt8(ascii: ",")) { continue }
            guard reader.take(UInt8(ascii: "}")) else { return nil }
            return reader.atEnd() ? fields : nil
        }
    }

    private func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard peek() == byte else { return false }
        position += 1
        return true
    }

    private mutating func skipSpace() {
        while let c = peek(), c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D { position += 1 }
    }

    private mutating func atEnd() -> Bool {
        skipSpace()
        return position == bytes.count
    }

    private mutating func string() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        var scalars = String.UnicodeScalarView()
        var start = position
        var pendingHigh: UInt32?
        func flush(_ end: Int) -> Bool {
            guard start < end else { return true }
            guard let text = String(validating: bytes[start..<end], as: UTF8.self) else { return false }
            scalars.append(contentsOf: text.unicodeScalars)
            return true
        }
        while let c = peek() {
            if c == UInt8(ascii: "\"") {
                guard flush(position) else { return nil }
                position += 1
                return String(scalars)
            }
            if c < 0x20 { return nil }
            if c != UInt8(ascii: "\\") {
                position += 1
                continue
            }
            guard flush(position) else { return nil }
            position += 1
            guard let escape = peek() else { return nil }
            position += 1
            switch escape {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{8}")
            case UInt8(ascii: "f"): scalars.append("\u{C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                guard position + 4 <= bytes.count,
                      let code = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16)
                else { return nil }
                position += 4
                if (0xD800..<0xDC00).contains(code) {
                    pendingHigh = code
                } else if (0xDC00..<0xE000).contains(code), let high = pendingHigh {
                    pendingHigh = nil
                    guard let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (code - 0xDC00)) else { return nil }
                    scalars.append(scalar)
                } else {
                    guard let scalar = Unicode.Scalar(code) else { return nil }
                    scalars.append(scalar)
                }
            default:
                return nil
            }
            start = position
        }
        return nil
    }

    /// Skips one value that is not a string; false if it is malformed or nested too deep.
    private mutating func skipValue(depth: Int) -> Bool {
        guard depth < 64, let c = peek() else { return false }
        switch c {
        case UInt8(ascii: "\""):
            return string() != nil
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            let close = c == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
            position += 1
            skipSpace()
            if take(close) { return true }
            while true {
                skipSpace()
                if c == UInt8(ascii: "{") {
                    guard string() != nil else { return false }
                    skipSpace()
                    guard take(UInt8(ascii: ":")) else { return false }
                    skipSpace()
                }
                guard skipValue(depth: depth + 1) else { return false }
                skipSpace()
                if take(UInt8(ascii: ",")) { continue }
                return take(close)
            }
        default:
            let start = position
            while let d = peek(), d == UInt8(ascii: "-") || d == UInt8(ascii: "+") || d == UInt8(ascii: ".")
                    || (d >= UInt8(ascii: "0") && d <= UInt8(ascii: "9")) || d == UInt8(ascii: "e")
                    || d == UInt8(ascii: "E") || (d >= UInt8(ascii: "a") && d <= UInt8(ascii: "z")) {
                position += 1
            }
            guard position > start else { return false }
            let word = String(decoding: bytes[start..<position], as: UTF8.self)
            return word == "true" || word == "false" || word == "null" || Double(word) != nil
        }
    }
}
