#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Why an arithmetic operation has no result.
///
/// The operations on `Distribution` (`adding(_:)`, `mapped(_:)`, ...) throw it too; rolling and
/// `Stats` report it as a `DiceError` at the operator's range.
enum ArithmeticFault: Error, Sendable {
    /// A 64-bit integer result out of range.
    case overflow
    /// Division or modulo by zero.
    case divisionByZero
    /// A decimal result that is infinite or not a number.
    case notFinite

    var kind: DiceError.Kind {
        switch self {
        case .overflow: return .overflow
        case .divisionByZero: return .divisionByZero
        case .notFinite: return .notFinite
        }
    }
}

extension Number {
    private static func finite(_ value: Double) throws(ArithmeticFault) -> Number {
        guard value.isFinite else { throw .notFinite }
        return Number(value)
    }

    /// `a + b`, exact for integers.
    func adding(_ other: Number) throws(ArithmeticFault) -> Number {
        if case .integer(let a) = self, case .integer(let b) = other {
            let (sum, overflow) = a.addingReportingOverflow(b)
            guard !overflow else { throw .overflow }
            return .integer(sum)
        }
        return try Number.finite(doubleValue + other.doubleValue)
    }

    /// `a - b`, exact for integers.
    func subtracting(_ other: Number) throws(ArithmeticFault) -> Number {
        if case .integer(let a) = self, case .integer(let b) = other {
            let (difference, overflow) = a.subtractingReportingOverflow(b)
            guard !overflow else { throw .overflow }
            return .integer(difference)
        }
        return try Number.finite(doubleValue - other.doubleValue)
    }

    /// `a * b`, exact for integers.
    func multiplying(by other: Number) throws(ArithmeticFault) -> Number {
        if case .integer(let a) = self, case .integer(let b) = other {
            let (product, overflow) = a.multipliedReportingOverflow(by: b)
            guard !overflow else { throw .overflow }
            return .integer(product)
        }
        return try Number.finite(doubleValue * other.doubleValue)
    }

    /// True division: `7 / 2` is `3.5`, `6 / 2` is `3`.
    func dividing(by other: Number) throws(ArithmeticFault) -> Number {
        guard !other.isZero else { throw .divisionByZero }
        if case .integer(let a) = self, case .integer(let b) = other {
            let (quotient, overflow) = a.dividedReportingOverflow(by: b)
            guard !overflow else { throw .overflow }
            if quotient.multipliedReportingOverflow(by: b) == (a, false) { return .integer(quotient) }
        }
        return try Number.finite(doubleValue / other.doubleValue)
    }

    /// Floor division: `-7 // 2` is `-4`.
    func floorDividing(by other: Number) throws(ArithmeticFault) -> Number {
        guard !other.isZero else { throw .divisionByZero }
        if case .integer(let a) = self, case .integer(let b) = other {
            let (quotient, overflow) = a.dividedReportingOverflow(by: b)
            guard !overflow else { throw .overflow }
            let remainder = a.remainderReportingOverflow(dividingBy: b).partialValue
            if remainder != 0 && (remainder < 0) != (b < 0) { return .integer(quotient - 1) }
            return .integer(quotient)
        }
        return try Number.finite((doubleValue / other.doubleValue).rounded(.down))
    }

    /// Modulo with the sign of the divisor: `-7 % 3` is `2`, `7 % -3` is `-2`.
    func modulo(_ other: Number) throws(ArithmeticFault) -> Number {
        guard !other.isZero else { throw .divisionByZero }
        if case .integer(let a) = self, case .integer(let b) = other {
            // Int.min % -1 overflows in hardware; its remainder is 0.
            let remainder = a.remainderReportingOverflow(dividingBy: b).partialValue
            if remainder != 0 && (remainder < 0) != (b < 0) { return .integer(remainder + b) }
            return .integer(remainder)
        }
        let a = doubleValue, b = other.doubleValue
        var remainder = a.truncatingRemainder(dividingBy: b)
        if remainder != 0 && (remainder < 0) != (b < 0) { remainder += b }
        return try Number.finite(remainder)
    }

    /// `a ^ b`: exact for integer bases and non-negative integer exponents; `0 ^ 0` is `1`.
    func power(_ exponent: Number) throws(ArithmeticFault) -> Number {
        do {
            return try exactPower(exponent)
        } catch .overflow where !Number.pow(doubleValue, exponent.doubleValue).isFinite {
            // Beyond any number at all (10.0^400), not just beyond 64 bits.
            throw .notFinite
        }
    }

    private func exactPower(_ exponent: Number) throws(ArithmeticFault) -> Number {
        if case .integer(let base) = self, case .integer(var e) = exponent, e >= 0 {
            var result = 1
            var factor = base
            while e > 0 {
                if e & 1 == 1 {
                    let (product, overflow) = result.multipliedReportingOverflow(by: factor)
                    guard !overflow else { throw .overflow }
                    result = product
                }
                e >>= 1
                if e > 0 {
                    let (square, overflow) = factor.multipliedReportingOverflow(by: factor)
                    guard !overflow else { throw .overflow }
                    factor = square
                }
            }
            return .integer(result)
        }
        if isZero && exponent < .integer(0) { throw .divisionByZero }
        return try Number.finite(Number.pow(doubleValue, exponent.doubleValue))
    }

    /// `-a`.
    func negated() throws(ArithmeticFault) -> Number {
        switch self {
        case .integer(let a):
            let (result, overflow) = 0.subtractingReportingOverflow(a)
            guard !overflow else { throw .overflow }
            return .integer(result)
        case .decimal(let a):
            return Number(-a)
        }
    }

    /// Real power through the C library.
    static func pow(_ base: Double, _ exponent: Double) -> Double {
        #if canImport(Glibc)
        return Glibc.pow(base, exponent)
        #elseif canImport(Musl)
        return Musl.pow(base, exponent)
        #else
        return Darwin.pow(base, exponent)
        #endif
    }
}
