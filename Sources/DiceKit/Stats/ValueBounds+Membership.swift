#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether an expression may take one whole value, for `==` and `!=` with a constant, where
/// its values are not known as a set (`WholeSet`): a power's or a product's values are no set
/// that repeats, but `(1d6!)^2 == 13` never holds (13 is no square) and `2d6xo * 2d4! == 11`
/// never does (11 is no product of two values of at least 2). Each said max 1.
extension ValueBounds.Walker {
    /// `false` when `expr` never takes the whole value `k`; `true` when it may, or when that
    /// is not known. A power by a whole constant takes `k` only at a whole root of `k`, and a
    /// product of two whole values only at two factors of `k` (at most a million).
    mutating func mayTake(_ expr: Expr, _ k: Int, depth: Int = 0) -> Bool {
        let expr = Self.unannotated(expr)
        guard k != Int.min else { return true }
        if depth < 4, case .power(let base, let exponent) = expr.kind, bounds(of: base)?.wholeValues != nil,
           let e = bounds(of: exponent), e.low == e.high, let n = e.low.whole, n >= 1, n <= 64 {
            return Self.roots(of: k, n).contains { mayTake(base, $0, depth: depth + 1) }
        }
        if depth < 4, case .chain(let a, let rest) = expr.kind, rest.count == 1, rest[0].op == .multiply,
           k.magnitude <= 1_000_000, bounds(of: a)?.wholeValues != nil, bounds(of: rest[0].operand)?.wholeValues != nil {
            let b = rest[0].operand
            if k == 0 { return mayTake(a, 0, depth: depth + 1) || mayTake(b, 0, depth: depth + 1) }
            // Each factor pair once, from the factors up to the square root: at most a thousand steps.
            let magnitude = Int(k.magnitude)
            var d = 1
            while d * d <= magnitude {
                defer { d += 1 }
                guard magnitude % d == 0 else { continue }
                for x in [d, -d, magnitude / d, -(magnitude / d)]
                where mayTake(a, x, depth: depth + 1) && mayTake(b, k / x, depth: depth + 1) {
                    return true
                }
            }
            return false
        }
        guard let bound = deciding(expr) else { return true }
        if BoundNumber(k) < bound.low || BoundNumber(k) > bound.high { return false }
        return bound.wholeValues?.contains(k) ?? true
    }

    /// The whole numbers whose `n`-th power is `k`.
    private static func roots(of k: Int, _ n: Int) -> [Int] {
        if k == 0 { return [0] }
        if n == 1 { return [k] }
        guard k != Int.min else { return [] }
        guard k > 0 || n % 2 == 1 else { return [] }
        // The root's magnitude, rounded from floating point and checked exactly around it.
        let guess = Int(pow(Double(k.magnitude), 1 / Double(n)).rounded())
        var result: [Int] = []
        for magnitude in Swift.max(0, guess - 1)...(guess + 1) {
            var power = 1, overflow = false
            for _ in 0..<n where !overflow { (power, overflow) = power.multipliedReportingOverflow(by: magnitude) }
            guard !overflow, power == Int(k.magnitude) else { continue }
            result += k > 0 ? (n % 2 == 0 ? [magnitude, -magnitude] : [magnitude]) : [-magnitude]
        }
        return result
    }
}
