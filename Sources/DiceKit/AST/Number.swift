/// A value of the dice language: an exact 64-bit integer or a decimal.
///
/// Decimals that are whole and fit in 64 bits are always stored as integers, so
/// `7 / 2 * 2` equals `7` and prints as `7`, never `7.0`.
///
/// ```swift
/// Number(7) == Number(3.5 * 2)   // true
/// ```
public enum Number: Hashable, Sendable {
    /// A whole number that fits in 64 bits.
    case integer(Int)
    /// A finite decimal that is not a whole 64-bit integer.
    case decimal(Double)

    /// The integer `value`.
    public init(_ value: Int) { self = .integer(value) }

    /// The canonical number for `value`: an integer when it is whole and fits.
    public init(_ value: Double) {
        if value.rounded(.towardZero) == value,
           value >= -9_223_372_036_854_775_808.0, value < 9_223_372_036_854_775_808.0 {
            self = .integer(Int(value))
        } else {
            self = .decimal(value)
        }
    }

    /// The value as a `Double` (integers beyond 2^53 round).
    public var doubleValue: Double {
        switch self {
        case .integer(let value): return Double(value)
        case .decimal(let value): return value
        }
    }

    /// The value when it is a whole 64-bit integer.
    public var integerValue: Int? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// Whether the value is exactly zero.
    var isZero: Bool {
        switch self {
        case .integer(let value): return value == 0
        case .decimal(let value): return value == 0
        }
    }
}

extension Number: Comparable {
    /// Compares by value, exactly, across integers and decimals.
    public static func < (lhs: Number, rhs: Number) -> Bool {
        switch (lhs, rhs) {
        case (.integer(let a), .integer(let b)): return a < b
        case (.integer(let a), .decimal(let b)): return Number.compare(a, b) < 0
        case (.decimal(let a), .integer(let b)): return Number.compare(b, a) > 0
        case (.decimal(let a), .decimal(let b)): return a < b
        }
    }

    /// Compares an integer with a decimal exactly (no rounding of large integers).
    static func compare(_ a: Int, _ b: Double) -> Int {
        if b >= 9_223_372_036_854_775_808.0 { return -1 }
        if b < -9_223_372_036_854_775_808.0 { return 1 }
        let whole = b.rounded(.down)
        let wholeInt = Int(whole)
        if a < wholeInt { return -1 }
        if a > wholeInt { return 1 }
        return whole == b ? 0 : -1
    }
}

extension Number: CustomStringConvertible {
    /// The number as the language prints it: `3`, `-4`, `3.5`, `0.30000000000000004`.
    public var description: String {
        switch self {
        case .integer(let value): return String(value)
        case .decimal(let value): return Number.plainDecimal(value)
        }
    }

    /// The shortest text that reads back as `value`, without exponent notation.
    static func plainDecimal(_ value: Double) -> String {
        let text = "\(value)"
        guard let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) else { return text }
        guard let exponent = Int(text[text.index(after: e)...]) else { return text }
        var mantissa = String(text[..<e])
        var negative = false
        if mantissa.hasPrefix("-") {
            negative = true
            mantissa.removeFirst()
        }
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        let integerPart = parts.first.map(String.init) ?? "0"
        var fraction = parts.count > 1 ? String(parts[1]) : ""
        if fraction == "0" { fraction = "" }
        var digits = integerPart + fraction
        var point = integerPart.count + exponent
        while digits.count > 1 && digits.hasPrefix("0") {
            digits.removeFirst()
            point -= 1
        }
        var result: String
        if point <= 0 {
            result = "0." + String(repeating: "0", count: -point) + digits
        } else if point >= digits.count {
            result = digits + String(repeating: "0", count: point - digits.count)
        } else {
            let index = digits.index(digits.startIndex, offsetBy: point)
            result = digits[..<index] + "." + digits[index...]
        }
        return negative ? "-" + result : result
    }
}
