/// Why an arithmetic operation has no result.
///
/// The operations on `Distribution` (`adding(_:)`, `mapped(_:)`, ...) throw it too; rolling and
/// `Stats` report it as a `DiceError` at the operator's range.
enum ArithmeticFault: Error, Hashable, Sendable {
    /// A numerator or denominator out of the 64-bit range.
    case overflow
    /// Division or modulo by zero.
    case divisionByZero
    /// A result beyond any number at all (`10.0^400`).
    case notFinite
    /// A power whose exact result is no fraction (`2^0.5`, `(-4)^0.5`).
    case irrational
    /// A text or tally where a number is needed, and what needed it.
    case notANumber(Value, needed: String)
    /// An operation tallies do not have.
    case tally(String)
    /// `.name` of a value that is no tally.
    case field(Value, name: String)

    var kind: DiceError.Kind {
        switch self {
        case .overflow: return .overflow
        case .divisionByZero: return .divisionByZero
        case .notFinite: return .notFinite
        case .irrational: return .irrationalPower
        case .notANumber(let value, let needed): return .notANumber(value, needed: needed)
        case .tally(let operation): return .tallyOperation(operation)
        case .field(let value, let name): return .fieldOfNonTally(value, field: name)
        }
    }
}

/// `a * b`, or `.overflow`.
@inline(__always)
func checkedProduct(_ a: Int, _ b: Int) throws(ArithmeticFault) -> Int {
    let (product, overflow) = a.multipliedReportingOverflow(by: b)
    guard !overflow else { throw .overflow }
    return product
}

/// `a + b`, or `.overflow`.
@inline(__always)
func checkedSum(_ a: Int, _ b: Int) throws(ArithmeticFault) -> Int {
    let (sum, overflow) = a.addingReportingOverflow(b)
    guard !overflow else { throw .overflow }
    return sum
}

extension Number {
    /// `a + b`, exact.
    func adding(_ other: Number) throws(ArithmeticFault) -> Number {
        if case .integer(let a) = self, case .integer(let b) = other { return .integer(try checkedSum(a, b)) }
        if let sum = try? narrowSum(other) { return sum }
        return try wideSum(other, sign: 1)
    }

    /// `a + b` of fractions within 64 bits, or `.overflow` when a step passes them.
    private func narrowSum(_ other: Number) throws(ArithmeticFault) -> Number {
        // a/b + c/d = (a·(d/g) + c·(b/g)) / (b/g·d), with g = gcd(b, d).
        let b = denominator, d = other.denominator
        let g = Number.gcd(b, d)
        let sum = try checkedSum(try checkedProduct(numerator, d / g), try checkedProduct(other.numerator, b / g))
        // Only a factor of g can be shared by the sum and the new denominator.
        let h = Number.gcd(sum, g)
        return try Number.reduced(sum / h, try checkedProduct(b / h, d / g))
    }

    /// `a + sign·b` worked out in 128 bits: a number when the result fits in 64 bits, though
    /// the steps do not (`N/2 + N/2` is `N`, for N the largest integer).
    private func wideSum(_ other: Number, sign: Int128) throws(ArithmeticFault) -> Number {
        // Each product is below 2^126 in magnitude, so the sum is within 128 bits.
        let sum = Int128(numerator) * Int128(other.denominator) + sign * Int128(other.numerator) * Int128(denominator)
        return try Number.reduced(wide: sum, Int128(denominator) * Int128(other.denominator))
    }

    /// `a - b`, exact.
    func subtracting(_ other: Number) throws(ArithmeticFault) -> Number {
        if case .integer(let a) = self, case .integer(let b) = other {
            let (difference, overflow) = a.subtractingReportingOverflow(b)
            guard !overflow else { throw .overflow }
            return .integer(difference)
        }
        if let negated = try? other.negated(), let difference = try? narrowSum(negated) { return difference }
        return try wideSum(other, sign: -1)
    }

    /// `a * b`, exact, cancelling across before multiplying.
    func multiplying(by other: Number) throws(ArithmeticFault) -> Number {
        if case .integer(let a) = self, case .integer(let b) = other { return .integer(try checkedProduct(a, b)) }
        let g1 = Number.gcd(numerator, other.denominator)
        let g2 = Number.gcd(other.numerator, denominator)
        return try Number.reduced(try checkedProduct(numerator / g1, other.numerator / g2),
                                  try checkedProduct(denominator / g2, other.denominator / g1))
    }

    /// True division: `7 / 2` is `3.5`, `6 / 2` is `3`, `1 / 3` is a third.
    func dividing(by other: Number) throws(ArithmeticFault) -> Number {
        guard !other.isZero else { throw .divisionByZero }
        return try multiplying(by: try other.reciprocal())
    }

    /// `1 / a`, for `a` not zero.
    func reciprocal() throws(ArithmeticFault) -> Number {
        try Number.reduced(denominator, numerator)
    }

    /// Floor division: `-7 // 2` is `-4`, `3.5 // 1` is `3`.
    func floorDividing(by other: Number) throws(ArithmeticFault) -> Number {
        guard !other.isZero else { throw .divisionByZero }
        if case .integer(let a) = self, case .integer(let b) = other {
            let (quotient, overflow) = a.dividedReportingOverflow(by: b)
            guard !overflow else { throw .overflow }
            let remainder = a.remainderReportingOverflow(dividingBy: b).partialValue
            if remainder != 0 && (remainder < 0) != (b < 0) { return .integer(quotient - 1) }
            return .integer(quotient)
        }
        return try dividing(by: other).rounded(.down)
    }

    /// Modulo with the sign of the divisor: `-7 % 3` is `2`, `7 % -3` is `-2`, `3.5 % 2` is `1.5`.
    func modulo(_ other: Number) throws(ArithmeticFault) -> Number {
        guard !other.isZero else { throw .divisionByZero }
        // Over a common denominator L: (p/L) % (q/L) = (p % q) / L, in 128 bits (below 2^126
        // each), so that only a result past 64 bits overflows (`N % 2.5` is 2).
        let b = Int128(denominator), d = Int128(other.denominator)
        let common = b / Int128(Number.gcd(denominator, other.denominator)) * d
        let p = Int128(numerator) * (common / b)
        let q = Int128(other.numerator) * (common / d)
        var remainder = p % q
        if remainder != 0 && (remainder < 0) != (q < 0) { remainder += q }
        return try Number.reduced(wide: remainder, common)
    }

    /// `-a`.
    func negated() throws(ArithmeticFault) -> Number {
        let (result, overflow) = 0.subtractingReportingOverflow(numerator)
        guard !overflow else { throw .overflow }
        if case .fraction(_, let denominator) = self { return .fraction(numerator: result, denominator: denominator) }
        return .integer(result)
    }

    /// The whole number next to the value by `rule` (`.down`, `.up`, `.toNearestOrAwayFromZero`,
    /// `.towardZero`); a fraction's is always within 64 bits.
    func rounded(_ rule: FloatingPointRoundingRule) -> Number {
        guard case .fraction(let n, let d) = self else { return self }
        let truncated = n / d
        let remainder = n % d
        switch rule {
        case .down: return .integer(n < 0 ? truncated - 1 : truncated)
        case .up: return .integer(n < 0 ? truncated : truncated + 1)
        case .towardZero: return .integer(truncated)
        case .awayFromZero: return .integer(n < 0 ? truncated - 1 : truncated + 1)
        default:
            // Half away from zero: |remainder| ≥ d - |remainder| means the half or beyond.
            let beyondHalf = remainder.magnitude >= UInt(d) - remainder.magnitude
            guard beyondHalf else { return .integer(truncated) }
            return .integer(n < 0 ? truncated - 1 : truncated + 1)
        }
    }
}
