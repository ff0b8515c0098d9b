/// The whole values of `ValueBounds` (`values`), with the holes explosions leave, through
/// the operations that keep them: sums, a constant taken away, multiples by a constant,
/// either branch, and the dice of a pool.
extension ValueBounds {
    /// The values, when known to be whole: `values`, or a constant's one value.
    var wholeValues: WholeSet? {
        if let values { return values }
        guard low == high, let value = low.whole else { return nil }
        return .constant(value)
    }

    /// `true` when the value is never 0, `false` when always 0, `nil` when either may be: what
    /// `and`, `or`, `not` and `if` read.
    var truth: Bool? {
        if low == 0 && high == 0 { return false }
        if low > 0 || high < 0 || values?.contains(0) == false { return true }
        return nil
    }

    /// The values of `a + b`.
    static func sum(_ a: ValueBounds, _ b: ValueBounds) -> WholeSet? {
        guard let x = a.wholeValues, let y = b.wholeValues else { return nil }
        return x + y
    }

    /// The values of `a - b` when `b` is a constant: `a`'s moved down (less a value that
    /// varies, not worked out).
    static func difference(_ a: ValueBounds, _ b: ValueBounds) -> WholeSet? {
        guard let x = a.wholeValues, let y = b.wholeValues, y.isConstant, y.start != Int.min else { return nil }
        return x.shifted(by: -y.start)
    }

    /// The values of `a * b` when one has a few values, none below 0: the other's times each.
    /// `1d2 * 1d2` is 1, 2 or 4, so `1d6! * (1d2 * 1d2 == 3)` is always 0 (it said max
    /// unbounded, as if 3 could be a product).
    static func multiple(_ a: ValueBounds, _ b: ValueBounds) -> WholeSet? {
        guard let x = a.wholeValues, let y = b.wholeValues else { return nil }
        let (few, other) = x.isFinite && (!y.isFinite || x.members.count <= y.members.count) ? (x, y) : (y, x)
        let factors = few.members
        guard few.isFinite, factors.count <= 64, let least = factors.first, least >= 0 else { return nil }
        var result = WholeSet([])
        for factor in factors {
            guard let part = factor == 0 ? .constant(0) : other.scaled(by: factor) else { return nil }
            result = result?.union(part)
        }
        return result
    }

    /// The bounds of a value that is either `a`'s or `b`'s (an `if`'s branches, a modifier's
    /// arguments): the least interval holding both, and the values of either.
    static func either(_ a: ValueBounds, _ b: ValueBounds) -> ValueBounds {
        var result = a.union(b)
        result.values = a.wholeValues.flatMap { x in b.wholeValues.flatMap { x.union($0) } }
        return result
    }

    /// The values of a pool of `counts` dice whose dice kept are whole chains (no keep/drop
    /// of `!` and `!p` chains, no `u`): for n dice, those of k chains for the k = `kept(n)`
    /// kept, the sums of any k (keep/drop chooses among them). Worked out for at most 16 counts.
    static func values(of pool: PoolModel, counts: ClosedRange<Int>, kept: (Int) -> Int) -> WholeSet? {
        guard counts.count <= 16, let one = pool.chainValues else { return nil }
        return counts.reduce(WholeSet([])) { union, n in
            union.flatMap { sums in one.repeated(kept(n)).flatMap { sums.union($0) } }
        }
    }
}
