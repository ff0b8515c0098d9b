#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension Number {
    /// `a ^ b`, exact: `2 ^ -1` is `0.5`, `0 ^ 0` is `1`, `4 ^ 0.5` is `2`, `(1/8) ^ (1/3)` is
    /// `0.5`; `2 ^ 0.5` has no exact result (`.irrational`), and `10.0 ^ 400` none at all
    /// (`.notFinite`).
    func power(_ exponent: Number) throws(ArithmeticFault) -> Number {
        do {
            switch exponent {
            case .integer(let e):
                return try integerPower(e)
            case .fraction(let p, let q):
                // a ^ (p/q) = (the q-th root of a) ^ p.
                return try root(q).integerPower(p)
            }
        } catch .overflow where !Number.pow(doubleValue, exponent.doubleValue).isFinite {
            // Beyond any number at all, not just beyond 64 bits.
            throw .notFinite
        }
    }

    /// `a ^ e` for a whole `e`.
    private func integerPower(_ e: Int) throws(ArithmeticFault) -> Number {
        if e < 0 {
            guard !isZero else { throw .divisionByZero }
            return try reciprocal().raised(e.magnitude)
        }
        return try raised(e.magnitude)
    }

    /// `a ^ e` by squaring, numerator and denominator apart (they stay in lowest terms).
    private func raised(_ e: UInt) throws(ArithmeticFault) -> Number {
        var e = e
        var n = 1, d = 1
        var factorN = numerator, factorD = denominator
        while e > 0 {
            if e & 1 == 1 {
                n = try checkedProduct(n, factorN)
                d = try checkedProduct(d, factorD)
            }
            e >>= 1
            if e > 0 {
                factorN = try checkedProduct(factorN, factorN)
                factorD = try checkedProduct(factorD, factorD)
            }
        }
        return d == 1 ? .integer(n) : .fraction(numerator: n, denominator: d)
    }

    /// The `q`-th root (`q > 1`) when it is a fraction; the odd root of a negative number is
    /// negative, an even one is no number.
    private func root(_ q: Int) throws(ArithmeticFault) -> Number {
        let odd = !q.isMultiple(of: 2)
        guard numerator >= 0 || odd else { throw .irrational }
        guard let rootN = Number.integerRoot(numerator.magnitude, q),
              let rootD = Number.integerRoot(UInt(denominator), q) else { throw .irrational }
        let magnitude = try Number.reduced(Int(rootN), Int(rootD))
        return numerator < 0 ? try magnitude.negated() : magnitude
    }

    /// The whole `q`-th root of `x`, when there is one. Beyond `x < 2`, a root of at least 2
    /// needs `q < 64`, and the floating-point guess is within one of it.
    private static func integerRoot(_ x: UInt, _ q: Int) -> UInt? {
        if x < 2 { return x }
        guard q < 64 else { return nil }
        let guess = UInt(Number.pow(Double(x), 1 / Double(q)).rounded())
        for candidate in [guess &- 1, guess, guess &+ 1] where candidate >= 2 {
            var product: UInt = 1
            var fits = true
            for _ in 0..<q {
                let (next, overflow) = product.multipliedReportingOverflow(by: candidate)
                if overflow || next > x {
                    fits = false
                    break
                }
                product = next
            }
            if fits && product == x { return candidate }
        }
        return nil
    }

    /// The decimal logarithm through the C library.
    static func log10(_ value: Double) -> Double {
        #if canImport(Glibc)
        return Glibc.log10(value)
        #elseif canImport(Musl)
        return Musl.log10(value)
        #else
        return Darwin.log10(value)
        #endif
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
