/// The ends of `count(pool, cp)` and of `a % d`, which a simulated report (or one whose
/// explosion tails were cut) states as the expression's min and max (LANGUAGE.md §7), where
/// the sample's would only be the least and greatest values it happened to roll.
extension ValueBounds {
    /// `a % d` for a whole constant divisor (not 0) and whole values of `a` known with their
    /// holes (`wholeValues`): the remainders those values leave, which take the divisor's sign
    /// (`1d2 % 4` is 1 or 2, never 0 or 3); `nil` otherwise.
    static func remainder(_ a: ValueBounds, _ d: ValueBounds) -> ValueBounds? {
        guard let divisor = d.wholeValues, divisor.isConstant, let m = divisor.least, m != 0, m != Int.min,
              let values = a.wholeValues, !values.isEmpty else { return nil }
        // Past the window a value repeats `period` below it: the remainders of v + k·period
        // repeat within |m| periods.
        let (extra, overflow) = values.period.multipliedReportingOverflow(by: m.magnitude > Int.max ? 0 : abs(m))
        guard !overflow, values.window.count <= WholeSet.maxWindow, extra <= WholeSet.maxWindow else { return nil }
        var remainders = Set<Int>()
        for offset in 0..<(values.window.count + extra) {
            let (value, past) = values.start.addingReportingOverflow(offset)
            guard !past else { return nil }
            guard values.contains(value) else { continue }
            var r = value % m
            if r != 0 && (r < 0) != (m < 0) { r += m }
            remainders.insert(r)
            if remainders.count == abs(m) { break }
        }
        guard let low = remainders.min(), let high = remainders.max() else { return nil }
        return ValueBounds(low: BoundNumber(low), high: BoundNumber(high), values: WholeSet(Array(remainders)))
    }

    /// Bounds that hold every remainder by the constant `d` (not 0), whatever it divides
    /// (`sound` bounds): from 0 up to the divisor, or down to it. `(4d4!dl1 * 1d6!) % 2 == 5`
    /// never holds, though the remainder's own bounds are unknown.
    static func remainderRange(_ d: ValueBounds) -> ValueBounds? {
        guard d.low == d.high, d.low.isFinite, d.low != 0 else { return nil }
        return d.low > 0 ? ValueBounds(low: 0, high: d.low) : ValueBounds(low: d.low, high: 0)
    }

    /// What a count's compare point compares the dice with: one value, or the values of a
    /// point rolled apart from the pool (`count(p, <(1d20))`), from their ends (and, for `=`
    /// and `!=`, the whole numbers among them).
    enum PointReach {
        case value(PointKey)
        case rolled(ComparisonOperator, ValueBounds)
    }

    /// The ends of how many of a pool's kept dice match `point`, each die settling on one of
    /// `faces`, the pool keeping `kept` dice (fewest to most); `nil` when they cannot be told.
    /// Every die may show the same face, and the point any of its values: all kept dice may
    /// match when some face matches some value, none when some face misses some value.
    static func count(faces: [Value], point: PointReach, kept: ClosedRange<Int>) -> ValueBounds? {
        let match: Bool, miss: Bool
        switch point {
        case .value(let key):
            (match, miss) = (faces.contains { key.matches($0) }, faces.contains { !key.matches($0) })
        case .rolled(let op, let values):
            let numbers = faces.compactMap(\.number).map { BoundNumber($0) }
            guard numbers.count == faces.count, let least = numbers.min(), let most = numbers.max() else { return nil }
            switch op {
            case .less: (match, miss) = (least < values.high, most >= values.low)
            case .lessEqual: (match, miss) = (least <= values.high, most > values.low)
            case .greater: (match, miss) = (most > values.low, least <= values.high)
            case .greaterEqual: (match, miss) = (most >= values.low, least < values.high)
            case .equal, .notEqual:
                let wholes = numbers.compactMap(\.whole)
                guard let points = values.wholeValues, wholes.count == numbers.count else { return nil }
                let equal = wholes.contains { points.contains($0) }
                let unequal = !(Set(wholes).count == 1 && points.isConstant && points.least == wholes.first)
                (match, miss) = op == .equal ? (equal, unequal) : (unequal, equal)
            }
        }
        return ValueBounds(low: miss ? 0 : BoundNumber(kept.lowerBound), high: match ? BoundNumber(kept.upperBound) : 0)
    }

    /// How many dice of one chain of `pool`'s `!`, `!p` or `xo` match `point`: a first die,
    /// then after a face that explodes, with `xo` one die of any face, otherwise dice while
    /// they explode and one that stops (with `!p` each showing a face less one). A chain
    /// counts without end where an extra die may match and explode.
    static func chainCount(_ pool: PoolModel, _ point: PointKey) -> ValueBounds? {
        guard let kind = pool.rules.explosion?.kind else { return nil }
        if kind == .compound { return compoundCount(pool, point) }
        var stop = ValueBounds.empty, go = ValueBounds.empty, extraStop = ValueBounds.empty, extraGo = ValueBounds.empty
        var failed = false
        pool.die.forEachWholeOutcome { face, _ in
            func matched(_ shown: Int) -> ValueBounds { .constant(point.matches(.integer(shown)) ? 1 : 0) }
            let explodes = pool.explodes(face)
            if explodes { go = go.union(matched(face)) } else { stop = stop.union(matched(face)) }
            // The extra dice: with `xo` any face, with `!p` each a face less one.
            if kind == .once { extraStop = extraStop.union(matched(face)) }
            if kind == .penetrate {
                if face == Int.min {
                    failed = true
                } else if explodes {
                    extraGo = extraGo.union(matched(face - 1))
                } else {
                    extraStop = extraStop.union(matched(face - 1))
                }
            }
        }
        guard !failed else { return nil }
        if kind == .explode { (extraStop, extraGo) = (stop, go) }
        // After a face that explodes, one extra die with `xo`; else none that explode and one
        // that stops at least, and no end where one that explodes matches.
        var extras = extraStop
        if kind != .once && extraGo.high > 0 { extras.high = .infinity }
        guard go.low <= go.high else { return stop }
        return stop.union(ValueBounds(low: go.low + extras.low, high: go.high + extras.high))
    }

    /// Whether one compounded die matches `point`, 0 or 1: its sums are its chains' totals
    /// (`chainValues`), and past their window and the point one period further, a sum
    /// matches as the sum a period below does. `let p = 4d6!!=6 in if count(p, =6) > 0 then
    /// p else 0` is always 0, a compounded =6 never showing 6 (its simulation said sample
    /// max 0). `nil` when the sums are not known or the point lies too far.
    private static func compoundCount(_ pool: PoolModel, _ point: PointKey) -> ValueBounds? {
        guard let sums = pool.chainValues, let least = sums.least, let most = sums.members.last else { return nil }
        var end = most
        if case .number(let k) = point.value {
            guard let whole = BoundNumber(k).rounded(.up).whole, whole - least <= WholeSet.maxWindow else { return nil }
            end = Swift.max(end, whole)
        }
        var result = ValueBounds.empty
        for sum in least...(end + sums.period + 1) where sums.contains(sum) {
            result = result.union(.constant(point.matches(.integer(sum)) ? 1 : 0))
        }
        return result.low <= result.high ? result : nil
    }
}

extension ValueBounds.Walker {
    /// `count(target, point)` over a dice term written in place, or bound by `let` (`pools`,
    /// read under the names the `let` saw), without `u`, nor keep/drop with explosions; `nil`
    /// for anything else.
    /// The count is the fewest and most kept dice of the fewest and most dice; the faces those
    /// a die settles on after clamps and rerolls, of each number of sides it may have.
    mutating func countBounds(_ target: Expr, _ point: ComparePoint) -> ValueBounds? {
        var pool = target
        var names: Frame<ValueBounds>?
        while true {
            if case .annotated(let inner, _) = pool.kind {
                pool = inner
            } else if case .name(let name) = pool.kind, names == nil, let bound = pools[name] {
                (pool, names) = (bound.pool, bound.names ?? Frame())
            } else {
                break
            }
        }
        guard case .dice(let term) = pool.kind, let reach = pointReach(point) else { return nil }
        if let names { frames.append(names) }
        defer { if names != nil { frames.removeLast() } }
        let semantics = TermSemantics(term)
        // Text dice have rules only when they have no modifiers (their points are positions).
        guard let rules = semantics.literalRules ?? (term.modifiers.isEmpty ? PoolRules.literal([]) : nil),
              semantics.conflict == nil, rules.explosion == nil || rules.keeps.isEmpty, !rules.unique,
              let counts = term.count.map({ bounds(of: $0) }) ?? .constant(1), counts.low >= 0,
              counts.high <= BoundNumber(limits.maxDice), let fewest = counts.low.rounded(.up).whole,
              let most = counts.high.rounded(.down).whole, fewest <= most else { return nil }
        var sides: [Int?] = [nil]
        if case .number(let expr) = term.sides {
            // Each number of sides the die may have (a few), each a die of its own.
            guard let values = bounds(of: expr)?.wholeValues, values.period == 0, values.window.count <= 64 else { return nil }
            sides = values.window.indices.filter { values.window[$0] }.map { values.start + $0 }
        }
        var faces: [Value] = []
        var chain = ValueBounds.empty
        for n in sides {
            let die: Distribution
            if let n {
                guard n >= 1, n <= 1 << 20 else { return nil }
                die = Distribution(uniformSides: n)
            } else {
                guard let fixed = term.sides.fixedFaces else { return nil }
                die = Distribution(faces: fixed)
            }
            guard let model = try? PoolModel(faces: die, rules: rules, largestCount: 1, explosionCutoff: 1e-12,
                                             range: .at(0)) else { return nil }
            if rules.explosion != nil {
                // `count(3d6!, =6)` has no max: `if 1d2 == 1 then count(3d6!, =6) else 100`
                // said 100, its cut tails never reaching past the other branch.
                guard case .value(let key) = reach, let each = ValueBounds.chainCount(model, key) else { return nil }
                chain = chain.union(each)
                continue
            }
            let symbols = semantics.symbols
            model.die.forEachWholeOutcome { face, _ in
                faces.append(symbols.isEmpty ? .number(.integer(face)) : symbols.indices.contains(face) ? symbols[face] : .integer(face))
            }
        }
        if rules.explosion != nil {
            return ValueBounds(low: ValueBounds.times(BoundNumber(fewest), chain.low),
                               high: ValueBounds.times(BoundNumber(most), chain.high))
        }
        func kept(_ n: Int) -> Int { rules.keeps.isEmpty ? n : KeepDropStep.keptRange(rules.keeps, total: n).count }
        // Keep/drop keeps no fewer of more dice.
        return ValueBounds.count(faces: faces, point: reach, kept: kept(fewest)...Swift.max(kept(fewest), kept(most)))
    }

    /// The compare point's value, when it is one number or text; else its values when it reads
    /// no name bound here (its dice rolled apart from the pool's, at the count: any of its
    /// values may meet any roll of the pool), as a simulated `count(p, <(1d20))` states
    /// its true ends, not its sample's.
    private mutating func pointReach(_ point: ComparePoint) -> ValueBounds.PointReach? {
        if case .text(let text) = point.value.kind { return .value(PointKey(op: point.op, value: .text(text))) }
        guard let value = bounds(of: point.value) else { return nil }
        if value.low == value.high, let number = value.low.number { return .value(PointKey(op: point.op, value: .number(number))) }
        var uses: [String: Int] = [:]
        StatsEngine.countUses(in: point.value, of: Set(frames.last?.names ?? []), weight: 1, into: &uses)
        return uses.isEmpty ? .rolled(point.op, value) : nil
    }
}

extension ValueBounds.Walker {
    /// The most `count` of `target` can be, soundly: a group's members or a `repeat`'s count
    /// at most (each counted once), else without end. `count({1d6!}, >0) >= 2` never holds:
    /// it said max 1.
    mutating func countCeiling(_ target: Expr) -> BoundNumber {
        switch Self.unannotated(target).kind {
        case .group(let members, _, _): return BoundNumber(members.count)
        case .repeat(let count, _, _): return bounds(of: count)?.high ?? .infinity
        default: return .infinity
        }
    }

    /// `tally.name` of a tally written in place: its field's bounds, or 0 for a field it does
    /// not write (`().a == 1d6!` never holds: it said max 1). `nil` for any other tally.
    mutating func field(_ name: String, of tally: Expr) -> ValueBounds? {
        guard case .tally(let fields) = Self.unannotated(tally).kind else { return nil }
        guard let field = fields.last(where: { $0.name == name }) else { return .constant(0) }
        return bounds(of: field.value)
    }
}
