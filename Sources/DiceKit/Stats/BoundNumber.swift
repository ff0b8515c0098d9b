/// A number of the bounds' arithmetic (`ValueBounds`): exact, as the language's numbers are;
/// without end (±∞, what an explosion leaves); or undefined (an operation past 64 bits, or one
/// with no value, as ∞ − ∞). It reads like `Double`, whose rounding made ends past 2^53 wrong:
/// `1d999999999 * 1d999999999` said max 999999998000000000 (it is 999999998000000001).
///
/// Undefined compares false with everything, as NaN does, and the walker answers "unknown"
/// (`nil`) for an interval with an undefined end.
struct BoundNumber: Hashable, Sendable {
    private enum Kind: Hashable, Sendable {
        case finite(Number)
        case infinite(negative: Bool)
        case undefined
    }

    private let kind: Kind

    private init(kind: Kind) { self.kind = kind }

    init(_ number: Number) { kind = .finite(number) }

    init(_ value: Int) { kind = .finite(.integer(value)) }

    /// More than every number.
    static let infinity = BoundNumber(kind: .infinite(negative: false))

    /// No value: an overflow, or ∞ − ∞.
    static let nan = BoundNumber(kind: .undefined)

    var isFinite: Bool {
        if case .finite = kind { return true }
        return false
    }

    var isNaN: Bool { kind == .undefined }

    /// The number, when finite.
    var number: Number? {
        if case .finite(let value) = kind { return value }
        return nil
    }

    /// The whole number, when finite and whole.
    var whole: Int? { number?.integerValue }

    /// `try` an exact operation; undefined when it fails (past 64 bits).
    private static func exactly(_ operation: () throws(ArithmeticFault) -> Number) -> BoundNumber {
        do {
            return BoundNumber(try operation())
        } catch {
            return .nan
        }
    }

    /// The whole number next to the value by `rule`, as `Number.rounded(_:)`; ±∞ stays.
    func rounded(_ rule: FloatingPointRoundingRule) -> BoundNumber {
        guard case .finite(let value) = kind else { return self }
        return BoundNumber(value.rounded(rule))
    }

    /// `self ^ exponent` for a whole exponent of at least 0 (∞ to a positive power is ∞,
    /// −∞ to an even one too); undefined past 64 bits.
    func power(_ exponent: Int) -> BoundNumber {
        switch kind {
        case .undefined: return .nan
        case .finite(let value): return Self.exactly { () throws(ArithmeticFault) in try value.power(.integer(exponent)) }
        case .infinite(let negative):
            if exponent == 0 { return 1 }
            return negative && exponent % 2 == 1 ? -.infinity : .infinity
        }
    }
}

extension BoundNumber: ExpressibleByIntegerLiteral {
    init(integerLiteral value: Int) { self.init(value) }
}

extension BoundNumber {
    static prefix func - (x: BoundNumber) -> BoundNumber {
        switch x.kind {
        case .undefined: return .nan
        case .infinite(let negative): return BoundNumber(kind: .infinite(negative: !negative))
        case .finite(let value): return exactly { () throws(ArithmeticFault) in try value.negated() }
        }
    }

    static func + (a: BoundNumber, b: BoundNumber) -> BoundNumber {
        switch (a.kind, b.kind) {
        case (.finite(let x), .finite(let y)): return exactly { () throws(ArithmeticFault) in try x.adding(y) }
        case (.infinite(let x), .infinite(let y)): return x == y ? a : .nan
        case (.infinite, .finite): return a
        case (.finite, .infinite): return b
        default: return .nan
        }
    }

    static func - (a: BoundNumber, b: BoundNumber) -> BoundNumber { a + -b }

    static func * (a: BoundNumber, b: BoundNumber) -> BoundNumber {
        switch (a.kind, b.kind) {
        case (.finite(let x), .finite(let y)): return exactly { () throws(ArithmeticFault) in try x.multiplying(by: y) }
        case (.undefined, _), (_, .undefined): return .nan
        default:
            // ∞ × 0 has no value; otherwise the signs give the end.
            guard let sign = a.sign, let other = b.sign, sign != 0, other != 0 else { return .nan }
            return sign * other > 0 ? .infinity : -.infinity
        }
    }

    static func / (a: BoundNumber, b: BoundNumber) -> BoundNumber {
        switch (a.kind, b.kind) {
        case (.finite(let x), .finite(let y)): return exactly { () throws(ArithmeticFault) in try x.dividing(by: y) }
        case (.finite, .infinite): return 0
        case (.infinite, .finite):
            guard let sign = a.sign, let other = b.sign, other != 0 else { return .nan }
            return sign * other > 0 ? .infinity : -.infinity
        default: return .nan
        }
    }

    /// -1, 0 or 1; `nil` when undefined.
    private var sign: Int? {
        switch kind {
        case .undefined: return nil
        case .infinite(let negative): return negative ? -1 : 1
        case .finite(let value): return value.isZero ? 0 : value.numerator < 0 ? -1 : 1
        }
    }
}

extension BoundNumber: Comparable {
    /// False when either is undefined, as for NaN.
    static func < (a: BoundNumber, b: BoundNumber) -> Bool {
        switch (a.kind, b.kind) {
        case (.finite(let x), .finite(let y)): return x < y
        case (.infinite(let x), .infinite(let y)): return x && !y
        case (.infinite(let negative), .finite): return negative
        case (.finite, .infinite(let negative)): return !negative
        default: return false
        }
    }

    static func <= (a: BoundNumber, b: BoundNumber) -> Bool { !a.isNaN && !b.isNaN && !(b < a) }
    static func > (a: BoundNumber, b: BoundNumber) -> Bool { b < a }
    static func >= (a: BoundNumber, b: BoundNumber) -> Bool { b <= a }
}
