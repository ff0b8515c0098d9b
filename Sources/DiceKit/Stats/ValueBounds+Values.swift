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

    /// The bounds no wider than their values: `(2 * 1d2 - 3)^2` is 1 (the squares of -1 and
    /// 1), where its interval goes down to 0.
    var clamped: ValueBounds {
        guard let values, let least = values.least else { return self }
        var result = self
        result.low = Swift.max(low, BoundNumber(least))
        if values.isFinite, let most = values.members.last { result.high = Swift.min(high, BoundNumber(most)) }
        return result
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

    /// The values `f` gives for each of `a`'s, when they are whole and finitely many: through
    /// `-`, `abs`, `^` and `//`, so that `(1d3)^2 == 2` never holds (the squares are 1, 4 and
    /// 9). `nil` when `f` gives none for some value (an overflow).
    static func mapped(_ a: ValueBounds, _ f: (Int) -> Int?) -> WholeSet? {
        guard let x = a.wholeValues, x.isFinite else { return nil }
        var results: [Int] = []
        for value in x.members {
            guard let result = f(value) else { return nil }
            results.append(result)
        }
        return WholeSet(results)
    }

    /// `a // b` whose quotient `a / b` lies in `quotient`: rounded down, with its values when
    /// `b` is a whole constant.
    static func floorQuotient(_ quotient: ValueBounds, _ a: ValueBounds, _ b: ValueBounds) -> ValueBounds {
        var result = ValueBounds(low: quotient.low.rounded(.down), high: quotient.high.rounded(.down))
        guard let divisor = b.wholeValues, divisor.isConstant, let m = divisor.least, m != 0 else { return result }
        result.values = mapped(a) { value in
            let (q, overflow) = value.dividedReportingOverflow(by: m)
            guard !overflow else { return nil }
            return value % m != 0 && (value < 0) != (m < 0) ? q - 1 : q
        }
        return result
    }

    /// The values of `min` (or `max`) of independent values each within `bounds`: a value
    /// of one is the least when each other may be as great, up to the least of their
    /// greatest values (`min(1d3, 1d6)` is 1, 2 or 3, never 6; `min(1d6!, 1d4) == 4` may hold,
    /// `== 6` never). `nil` when some values are unknown or too many to list.
    static func extreme(of bounds: [ValueBounds], least: Bool) -> WholeSet? {
        var result = WholeSet([])
        for (index, bound) in bounds.enumerated() {
            guard let values = bound.wholeValues, let first = values.least else { return nil }
            let others = bounds.indices.filter { $0 != index }
            var part = values
            if least, let limit = others.map({ bounds[$0].high }).min(), limit.isFinite {
                // Up to the limit, at most a window's worth of values.
                guard let last = limit.rounded(.down).whole,
                      last.subtractingReportingOverflow(first).partialValue < WholeSet.maxWindow,
                      !last.subtractingReportingOverflow(first).overflow else { return nil }
                guard let kept = WholeSet(last < first ? [] : (first...last).filter(values.contains)) else { return nil }
                part = kept
            } else if !least, let limit = others.map({ bounds[$0].low }).max(), limit > BoundNumber(first) {
                guard values.isFinite else { return nil }
                guard let kept = WholeSet(values.members.filter { BoundNumber($0) >= limit }) else { return nil }
                part = kept
            }
            result = result?.union(part)
        }
        return result
    }

    /// `counts` plain dice of random sides, at most `most`: each shows 1 up to the sides
    /// (`2d(1d3 * 2)`). A fixed count `c` shows every value from `c` to `c` times the most
    /// sides, so `(1d(1d3 + 1))^2` is 1, 4, 9 or 16 and never 2.
    static func anySum(_ counts: ValueBounds, ofDiceUpTo most: BoundNumber) -> ValueBounds {
        var result = ValueBounds(low: counts.low.rounded(.up), high: times(counts.high.rounded(.down), most))
        if counts.low == counts.high, let least = result.low.whole, let greatest = result.high.whole,
           least <= greatest, greatest - least < WholeSet.maxWindow {
            result.values = WholeSet(Array(least...greatest))
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

extension ValueBounds.Walker {
    /// The values of `repeat(count, body)` keeping `kept(n)` of `n` members (every member,
    /// without keep/drop), the count's values `counts`, each member's `member`: any `k` of
    /// the member's values added, the members rolled alike and apart. Members that read a
    /// name bound outside are not apart (`let r = 1d6 in repeat(2, r)` is 2, 4, …, 12): not
    /// worked out then, nor for more than 16 counts. `repeat(2, 2d6xo * 2d6xo)kh1 == 5` never
    /// holds, 5 being no product of two values of at least 2.
    mutating func repeatedValues(_ counts: ValueBounds, _ member: ValueBounds, _ body: Expr,
                                 kept: (Int) -> Int) -> WholeSet? {
        guard let each = member.wholeValues, let sizes = counts.wholeValues, sizes.isFinite,
              sizes.members.count <= 16 else { return nil }
        if let names = frames.last?.names, !Self.uses(of: Set(names), in: body).isEmpty { return nil }
        var result = WholeSet([])
        for n in sizes.members {
            result = result.flatMap { sums in each.repeated(kept(n)).flatMap { sums.union($0) } }
        }
        return result
    }
}
