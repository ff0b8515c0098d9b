/// A value of the dice language: an exact fraction of 64-bit integers.
///
/// A whole number is always `.integer`, and a fraction is always in lowest terms with a
/// denominator above 1, so equal numbers are equal cases: `7 / 2 * 2` is `.integer(7)`,
/// and `0.1 + 0.2 == 0.3`.
///
/// ```swift
/// try Number.integer(1).dividing(by: .integer(3))   // .fraction(numerator: 1, denominator: 3)
/// ```
public enum Number: Hashable, Sendable {
    /// A whole number that fits in 64 bits.
    case integer(Int)
    /// `numerator / denominator` in lowest terms, with `denominator > 1`.
    case fraction(numerator: Int, denominator: Int)

    /// The integer `value`.
    package init(_ value: Int) { self = .integer(value) }

    /// `numerator / denominator` in lowest terms, or `nil` when the denominator is zero or the
    /// result does not fit in 64 bits (`Int.min / -1`).
    package init?(numerator: Int, denominator: Int) {
        guard let number = try? Number.reduced(numerator, denominator) else { return nil }
        self = number
    }

    /// The value of the decimal literal `whole.digits`, exactly (`0.10` is 1/10), `digits` being
    /// the ASCII digits after the point; `nil` when its digits or its power of ten do not fit
    /// in 64 bits. The lexer reads literals by it, and the printer writes a decimal only when
    /// it reads back by it.
    package init?(decimal whole: Int, fractionDigits digits: some BidirectionalCollection<UInt8>) {
        var significant = digits[...]
        while significant.last == UInt8(ascii: "0") { significant.removeLast() }
        var numerator = whole, denominator = 1
        for c in significant {
            let (n10, o1) = numerator.multipliedReportingOverflow(by: 10)
            let (n, o2) = n10.addingReportingOverflow(Int(c) - Int(UInt8(ascii: "0")))
            let (d, o3) = denominator.multipliedReportingOverflow(by: 10)
            guard !o1 && !o2 && !o3 else { return nil }
            (numerator, denominator) = (n, d)
        }
        self.init(numerator: numerator, denominator: denominator)
    }

    /// The numerator, in lowest terms (the value itself when whole).
    public var numerator: Int {
        switch self {
        case .integer(let value): return value
        case .fraction(let numerator, _): return numerator
        }
    }

    /// The denominator, in lowest terms: 1 when whole, else above 1.
    public var denominator: Int {
        switch self {
        case .integer: return 1
        case .fraction(_, let denominator): return denominator
        }
    }

    /// The nearest `Double` (integers beyond 2^53 round; so may a fraction whose parts do).
    public var doubleValue: Double {
        switch self {
        case .integer(let value): return Double(value)
        case .fraction(let numerator, let denominator): return Double(numerator) / Double(denominator)
        }
    }

    /// The value when it is a whole 64-bit integer.
    public var integerValue: Int? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// Whether the value is exactly zero.
    var isZero: Bool { self == .integer(0) }

    /// `numerator / denominator` in lowest terms, a positive denominator, and a whole result
    /// as `.integer`.
    static func reduced(_ numerator: Int, _ denominator: Int) throws(ArithmeticFault) -> Number {
        guard denominator != 0 else { throw .divisionByZero }
        var n = numerator, d = denominator
        if d < 0 {
            let (negatedN, o1) = 0.subtractingReportingOverflow(n)
            let (negatedD, o2) = 0.subtractingReportingOverflow(d)
            // Int.min / -2 is still a number: halve both first.
            if o1 || o2 {
                guard n.isMultiple(of: 2) && d.isMultiple(of: 2) else { throw .overflow }
                return try reduced(n / 2, d / 2)
            }
            n = negatedN
            d = negatedD
        }
        let common = Number.gcd(n, d)
        if common > 1 {
            n /= common
            d /= common
        }
        return d == 1 ? .integer(n) : .fraction(numerator: n, denominator: d)
    }

    /// `numerator / denominator` of 128-bit parts (each of magnitude below 2^127), in lowest
    /// terms, or `.overflow` when the result does not fit in 64 bits.
    static func reduced(wide numerator: Int128, _ denominator: Int128) throws(ArithmeticFault) -> Number {
        guard denominator != 0 else { throw .divisionByZero }
        var x = numerator.magnitude, y = denominator.magnitude
        while y != 0 { (x, y) = (y, x % y) }
        let common = Int128(x)
        var n = numerator / common, d = denominator / common
        if d < 0 { (n, d) = (-n, -d) }
        guard let whole = Int(exactly: n), let below = Int(exactly: d) else { throw .overflow }
        return below == 1 ? .integer(whole) : .fraction(numerator: whole, denominator: below)
    }

    /// The greatest common divisor of `a` and `b`, where `b > 0`: so it fits, even for `Int.min`.
    static func gcd(_ a: Int, _ b: Int) -> Int {
        var x = a.magnitude, y = b.magnitude
        while y != 0 { (x, y) = (y, x % y) }
        return Int(truncatingIfNeeded: x)
    }
}

extension Number: Comparable {
    /// Compares by value, exactly: `a/b < c/d` as `a·d < c·b` in 128 bits.
    public static func < (lhs: Number, rhs: Number) -> Bool {
        if case .integer(let a) = lhs, case .integer(let b) = rhs { return a < b }
        let left = lhs.numerator.multipliedFullWidth(by: rhs.denominator)
        let right = rhs.numerator.multipliedFullWidth(by: lhs.denominator)
        return left.high != right.high ? left.high < right.high : left.low < right.low
    }
}

extension Number: CustomStringConvertible {
    /// The number as the language prints it: `3`, `-4`, `3.5`, and a fraction that needs more
    /// rounded to 10 significant digits (`1/3` is `0.3333333333`).
    public var description: String {
        switch self {
        case .integer(let value): return String(value)
        case .fraction: return decimalText(significantDigits: 10)
        }
    }

    /// The number as a decimal literal that reads back as itself (`0.125`), or `nil` when its
    /// decimal expansion does not end (`1/3`). It ends within 63 digits when it ends at all.
    var exactDecimal: String? {
        var d = denominator
        while d.isMultiple(of: 2) { d /= 2 }
        while d.isMultiple(of: 5) { d /= 5 }
        guard d == 1 else { return nil }
        return decimalText(significantDigits: nil)
    }

    /// The decimal digits of the number, rounded half away from zero to `significantDigits`
    /// when given, else all of them (the caller knows they end).
    private func decimalText(significantDigits: Int?) -> String {
        let denominator = UInt(denominator)
        let whole = numerator.magnitude / denominator
        var remainder = numerator.magnitude % denominator
        // The significant digits (none of them leading zeros), and where the point goes.
        var digits: [UInt8] = whole == 0 ? [] : String(whole).utf8.map { $0 - UInt8(ascii: "0") }
        var point = digits.count
        let wanted = significantDigits.map { $0 + 1 } ?? Int.max
        // Long division, to one digit more than wanted, for the rounding.
        while remainder != 0 && digits.count < wanted {
            let (digit, rest) = denominator.dividingFullWidth(remainder.multipliedFullWidth(by: 10))
            if digits.isEmpty && digit == 0 { point -= 1 } else { digits.append(UInt8(digit)) }
            remainder = rest
        }
        if let significantDigits, digits.count > significantDigits {
            var carry = digits[significantDigits] >= 5
            digits.removeSubrange(significantDigits...)
            var index = digits.count - 1
            while carry && index >= 0 {
                if digits[index] == 9 {
                    digits[index] = 0
                    index -= 1
                } else {
                    digits[index] += 1
                    carry = false
                }
            }
            if carry {
                digits.insert(1, at: 0)
                point += 1
            }
        }
        return Number.layOut(digits: digits, point: point, negative: numerator < 0)
    }

    /// `digits` with the decimal point after `point` of them (before them when negative:
    /// that many zeros between the point and the digits), trailing fractional zeros trimmed.
    private static func layOut(digits: [UInt8], point: Int, negative: Bool) -> String {
        var integerPart = ""
        var fractionPart = ""
        if point <= 0 {
            integerPart = "0"
            fractionPart = String(repeating: "0", count: -point)
            for digit in digits { fractionPart.append(Character(Unicode.Scalar(digit + UInt8(ascii: "0")))) }
        } else {
            for (index, digit) in digits.enumerated() {
                let character = Character(Unicode.Scalar(digit + UInt8(ascii: "0")))
                if index < point { integerPart.append(character) } else { fractionPart.append(character) }
            }
            if digits.count < point { integerPart += String(repeating: "0", count: point - digits.count) }
        }
        while fractionPart.hasSuffix("0") { fractionPart.removeLast() }
        let text = fractionPart.isEmpty ? integerPart : integerPart + "." + fractionPart
        return negative ? "-" + text : text
    }

    /// The shortest text that reads back as `value`, without exponent notation, and without
    /// `.0` when whole (`1`, `0.45`, `0.00012`): how probabilities and JSON values print.
    static func plainDecimal(_ value: Double) -> String {
        if value.rounded(.towardZero) == value, Swift.abs(value) < 9.0e15 { return String(Int(value)) }
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
