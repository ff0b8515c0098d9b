/// A minimal JSON builder: objects with ordered keys, strings escaped, numbers
/// as JSON numbers (integers when whole).
struct JSONWriter: Sendable {
    /// The JSON so far, as UTF-8, made a `String` once, at the end. Appended to a `String`
    /// piece by piece, the 1 MB of Genesys' `check(0, 5, 0, 5, 2, 2)` --json (G5 of `make
    /// bench`, goal 50 ms) spent about a third of its instructions in the string's appends:
    /// with bytes (and the integers and escapes below), 340 M instructions became 192 M, and
    /// the whole process 42-49 ms became 26-34 ms (medians, release, 2026-12-03).
    private var bytes: [UInt8] = []
    private var needsComma: [Bool] = [false]
    /// The most bytes `text` may hold: a string past it is dropped and `isCut` set.
    var limit = Int.max
    /// Whether something was dropped for `limit`: `text` is then not the whole object.
    private(set) var isCut = false

    /// The JSON written.
    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The bytes left before `limit`.
    var room: Int { Swift.max(0, limit &- bytes.count) }

    /// Marks the text as cut short (a part of it did not fit in `room`).
    mutating func cut() { isCut = true }

    init() {}

    private mutating func write(_ piece: StaticString) {
        // Most pieces are one byte (`,` `:` `[` `]` `{` `}`): appended as such, not as a buffer.
        piece.withUTF8Buffer { buffer in
            if buffer.count == 1 { bytes.append(buffer[0]) } else { bytes.append(contentsOf: buffer) }
        }
    }

    private mutating func write(text piece: String) {
        bytes.append(contentsOf: piece.utf8)
    }

    private mutating func separate() {
        if needsComma[needsComma.count - 1] { write(",") }
        needsComma[needsComma.count - 1] = true
    }

    mutating func beginObject(_ key: String? = nil) {
        if let key { self.key(key) } else { separate() }
        write("{")
        needsComma.append(false)
    }

    mutating func endObject() {
        write("}")
        needsComma.removeLast()
    }

    mutating func beginArray(_ key: String? = nil) {
        if let key { self.key(key) } else { separate() }
        write("[")
        needsComma.append(false)
    }

    mutating func endArray() {
        write("]")
        needsComma.removeLast()
    }

    private mutating func key(_ key: String) {
        separate()
        JSONWriter.appendString(key, to: &bytes)
        write(":")
    }

    mutating func string(_ key: String?, _ value: String) {
        // An escaped string takes at least its own bytes.
        if value.utf8.count > room { return cut() }
        if let key { self.key(key) } else { separate() }
        JSONWriter.appendString(value, to: &bytes)
    }

    /// A value of the language: an integer as is, a fraction as the nearest double.
    mutating func number(_ key: String?, _ value: Number) {
        if let key { self.key(key) } else { separate() }
        if case .integer(let whole) = value { return write(whole) }
        write(text: JSONWriter.numberText(value))
    }

    /// A value of the language: a number, a string, or an object of a tally's fields.
    mutating func value(_ key: String?, _ value: Value) {
        switch value {
        case .number(let number): self.number(key, number)
        case .text(let text): string(key, text)
        case .tally(let tally):
            beginObject(key)
            for field in tally.fields { number(field.name, field.value) }
            endObject()
        }
    }

    mutating func number(_ key: String?, _ value: Int) {
        if let key { self.key(key) } else { separate() }
        write(value)
    }

    /// `value` in decimal, straight into the bytes, as `ByteWriter` writes it: through
    /// `String(value)`, the counts of G5's tallies took about 7% of its instructions.
    private mutating func write(_ value: Int) {
        ByteWriter.appending(to: &bytes) { $0.write(value) }
    }

    /// A statistic (a mean, a standard deviation, a mass cut from a tail) as every number of
    /// JSON that is not a value of the language: to 12 significant digits (`significantText`),
    /// `3`, not `2.9999999999999996`; non-finite values (never expected) become null.
    mutating func number(_ key: String?, _ value: Double) {
        if let key { self.key(key) } else { separate() }
        write(text: JSONWriter.significantText(value))
    }

    /// A probability, rounded to 12 significant digits (LANGUAGE.md §6: `0.98`, not
    /// `0.9800000000000004`); tiny ones in exponent form, `1.53131219268e-10`.
    mutating func probability(_ key: String?, _ value: Double) {
        if let key { self.key(key) } else { separate() }
        write(text: JSONWriter.probabilityText(value))
    }

    /// A probability as JSON (and CSV) write it: at most 12 significant digits, tiny ones in
    /// exponent form; `null` when not finite.
    static func probabilityText(_ value: Double) -> String {
        guard value.isFinite, value > 0 else { return value == 0 ? "0" : "null" }
        // The power of ten that brings the value to 12 digits before the point.
        var shift = 11 - Int(Number.log10(value).rounded(.down))
        // In two steps past 10^200, which alone would be beyond a Double for the tiniest.
        func scaled(_ shift: Int) -> Double {
            shift > 200 ? (value * 1e200 * Number.pow(10, Double(shift - 200))).rounded()
                : (value * Number.pow(10, Double(shift))).rounded()
        }
        var digits = scaled(shift)
        if digits >= 1e12 {
            shift -= 1
            digits = scaled(shift)
        }
        guard value < 1e-4, digits < 1e12 else {
            // `digits` has `shift` places after the point. While 10^shift is exact, the
            // shortest form of digits / 10^shift is these digits (two decimals of 12 digits
            // are never one double apart), so they are written as they are: `10000d100`'s
            // --json --stats (990,001 probabilities) took twice as long through the double's
            // description.
            guard (0...22).contains(shift) else { return Number.plainDecimal(digits / Number.pow(10, Double(shift))) }
            return decimal(Int(digits), places: shift)
        }
        // One digit before the point: `1.53131219268e-10`.
        return decimal(Int(digits), places: 11) + "e-" + String(shift - 11)
    }

    /// `digits` (not negative) with `places` places after the point, without trailing zeros
    /// after it: `decimal(450, places: 3)` is `0.45`.
    static func decimal(_ digits: Int, places: Int) -> String {
        var bytes = Array(String(digits).utf8)
        var places = places
        while places > 0, bytes.count > 1, bytes.last == UInt8(ascii: "0") {
            bytes.removeLast()
            places -= 1
        }
        guard places > 0 else { return String(decoding: bytes, as: UTF8.self) }
        if bytes.count <= places {
            bytes.insert(contentsOf: repeatElement(UInt8(ascii: "0"), count: places - bytes.count + 1), at: 0)
        }
        bytes.insert(UInt8(ascii: "."), at: bytes.count - places)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A number of either sign to at most 12 significant digits, as `probabilityText` writes a
    /// probability (means: `0.1`, not `0.09999999999999998`); `null` when not finite.
    static func significantText(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        // From 10^12 on, every whole digit counts: the nearest double, as a value is written.
        // Rounded to 12 digits, the mean of `9223372036854775807 - 1d2` was 9223372036850001000.
        if Swift.abs(value) >= 1e12 { return Number.plainDecimal(value) }
        return value < 0 ? "-" + probabilityText(-value) : probabilityText(value)
    }

    /// A value of the language as `number(_:_:)` writes it: an integer as is, a fraction as
    /// the nearest double.
    static func numberText(_ value: Number) -> String {
        if case .integer(let whole) = value { return String(whole) }
        return Number.plainDecimal(value.doubleValue)
    }

    mutating func null(_ key: String?) {
        if let key { self.key(key) } else { separate() }
        write("null")
    }

    mutating func bool(_ key: String?, _ value: Bool) {
        if let key { self.key(key) } else { separate() }
        write(value ? "true" : "false")
    }

    /// Appends `value` as a JSON string literal, in UTF-8.
    static func appendString(_ value: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Nothing to escape (the escaped characters are all ASCII, and no byte of a longer
        // UTF-8 sequence is): the string as it is. Scalar by scalar, the field names of
        // Genesys' check(0, 5, 0, 5, 2, 2) --json (60,000 of them) took two fifths of its time.
        let needsEscape = { (byte: UInt8) in byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F }
        // Through the string's own bytes where it has them: through its UTF-8 view, the
        // scan was about 8% of G5's instructions.
        let escaped = value.utf8.withContiguousStorageIfAvailable { $0.contains(where: needsEscape) }
            ?? value.utf8.contains(where: needsEscape)
        if !escaped {
            out.append(contentsOf: value.utf8)
            out.append(UInt8(ascii: "\""))
            return
        }
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
            case UInt8(ascii: "\n"): out.append(contentsOf: #"\n"#.utf8)
            case UInt8(ascii: "\r"): out.append(contentsOf: #"\r"#.utf8)
            case UInt8(ascii: "\t"): out.append(contentsOf: #"\t"#.utf8)
            case 0..<0x20, 0x7F:
                let hex = String(byte, radix: 16)
                out.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
            default:
                out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
