/// The ends of `let name = value in body` when the body reads the one roll of `name` more
/// than once (LANGUAGE.md §7: min and max are never wrong).
///
/// An interval standing for each read would take `r - r` anywhere from `1 - max` to `max - 1`,
/// not 0, so such a body had no ends of its own, and a report whose tails were cut fell back
/// to its outcomes: `let r = 1000d6! in r + r` said min 6834, the end of its cut sum tails,
/// where it is 2000. Two bounds close in on each end instead:
/// - with `name` standing for its interval at each read, as if each read were a roll of its
///   own: no value of the body lies outside these (`loose`);
/// - with `name` fixed at one of its ends, a value it does take: the body's ends there are
///   values the body takes (`witnesses`).
///
/// Where the two meet, that end is known (`r + r` at its least, `max(r, 7 - r)`); where they
/// do not (`r - r`, whose loose ends are unbounded), it is not. And a body that grows with
/// every read of `name`, or shrinks with every one (`r + r`, `2 * r - 1d6`, `min(r, 9) * r`
/// for `r` of at least 0: `direction`), is least and greatest where `name` is least and
/// greatest, as if each read were its own roll: the loose bounds are its ends, unbounded
/// where `name` is (`let r = 1000d6! in r + r` has no max).
extension ValueBounds {
    /// One end or both of an expression's values, each `nil` where it is not known.
    struct Ends: Equatable {
        var low: BoundNumber?
        var high: BoundNumber?
        /// Values the expression takes, where an end is not known: the least and greatest
        /// of them, which the end is no further in than (`bracket`'s witnesses).
        var reached: (low: BoundNumber, high: BoundNumber)?

        init(low: BoundNumber? = nil, high: BoundNumber? = nil, reached: (low: BoundNumber, high: BoundNumber)? = nil) {
            self.low = low
            self.high = high
            self.reached = reached
        }

        /// Ends alike: what `reached` adds is no end.
        static func == (a: Ends, b: Ends) -> Bool { a.low == b.low && a.high == b.high }
    }

    /// The ends of `expr` in `environment` that are known: both where `of` tells them, and
    /// where a `let` body reads its name twice, each that the bounds above meet on.
    static func ends(of expr: Expr, environment: Environment, limits: Limits) -> Ends {
        // One walk: `Walker.ends` is `bounds(of:)` but where a `let` leaves one end unknown.
        var walker = Walker(environment: environment, limits: limits)
        let ends = walker.ends(of: expr)
        if let low = ends.low, let high = ends.high, low.isNaN || high.isNaN || low > high { return Ends() }
        let reached = ends.reached.flatMap { $0.low.isNaN || $0.high.isNaN ? nil : $0 }
        return Ends(low: ends.low.flatMap { $0.isNaN ? nil : $0 }, high: ends.high.flatMap { $0.isNaN ? nil : $0 },
                    reached: reached)
    }
}

extension ValueBounds.Walker {
    /// The known ends of `expr`: through its annotations and the `let`s that read their
    /// name once, to a `let` whose body reads its name several times (`bracket`).
    mutating func ends(of expr: Expr) -> ValueBounds.Ends {
        switch expr.kind {
        case .annotated(let inner, _):
            return ends(of: inner)
        case .binding(let name, let value, let body):
            guard let bound = bounds(of: value) else { return ValueBounds.Ends() }
            if case .given(let given, let condition) = Self.unannotated(body).kind {
                return ends(of: given, name, bound, where: condition)
            }
            if Self.standsForEachUse(bound, Self.uses(of: [name], in: body)[name]) {
                return binding(name, value, bound) { $0.ends(of: body) }
            }
            return bracket(name, value, bound, body)
        default:
            guard let bounds = bounds(of: expr) else { return ValueBounds.Ends() }
            return ValueBounds.Ends(low: bounds.low, high: bounds.high)
        }
    }

    /// The ends of `body` with `name` bound to `value` (whose interval is `bound`) and read
    /// several times, where the loose bounds meet the witnesses' (above).
    mutating func bracket(_ name: String, _ value: Expr?, _ bound: ValueBounds, _ body: Expr) -> ValueBounds.Ends {
        guard let loose = binding(name, value, bound, { $0.bounds(of: body) }) else { return ValueBounds.Ends() }
        // One value, whatever `name` is: `let p = 4d6!!=6 in if count(p, =6) > 0 then p else 0`
        // is always 0 (a compounded =6 never shows 6), where `p` at its ends is no pool to count.
        if loose.low == loose.high || binding(name, value, bound, { $0.direction(of: name, in: body) }) != nil {
            return ValueBounds.Ends(low: loose.low, high: loose.high)
        }
        var witnesses: [ValueBounds] = []
        for end in bound.low == bound.high ? [bound.low] : [bound.low, bound.high] where end.isFinite {
            // Fixed at one value, `name` is no pool for `count` to read: the pool's dice
            // would not be the ones whose total it is fixed at.
            if let witness = binding(name, nil, .constant(end), { $0.bounds(of: body) }) { witnesses.append(witness) }
        }
        guard let low = witnesses.map(\.low).min(), let high = witnesses.map(\.high).max() else { return ValueBounds.Ends() }
        return ValueBounds.Ends(low: low == loose.low ? loose.low : nil, high: high == loose.high ? loose.high : nil,
                                reached: (low, high))
    }

    /// `read` with `name` bound to `bound`, and to the dice term `value` is (through its
    /// annotations) for `count` to read as a pool.
    mutating func binding<T>(_ name: String, _ value: Expr?, _ bound: ValueBounds,
                             _ read: (inout Self) -> T) -> T {
        var pool = value
        while case .annotated(let inner, _)? = pool?.kind { pool = inner }
        let shadowed = pools[name]
        if let pool, case .dice = pool.kind { pools[name] = (pool, frames.last) } else { pools[name] = nil }
        frames.pushBinding(name, bound)
        defer { frames.removeLast(); pools[name] = shadowed }
        return read(&self)
    }
}

extension ValueBounds.Walker {
    /// How `expr` moves with the value of `name` (bound in `frames`) when every read of it
    /// moves alike: 1 where it never falls as the value grows, -1 where it never rises, 0 where
    /// it does not read `name`; `nil` where it may do either, or the walker cannot tell.
    mutating func direction(of name: String, in expr: Expr) -> Int? {
        guard (Self.uses(of: [name], in: expr)[name] ?? 0) > 0 else { return 0 }
        if case .name(let read) = expr.kind, read == name { return 1 }
        if case .annotated(let inner, _) = expr.kind { return direction(of: name, in: inner) }
        if case .unary(let op, let operand) = expr.kind {
            return direction(of: name, in: operand).map { op == .negate ? -$0 : $0 }
        }
        if case .function(let function, let arguments) = expr.kind, function != .abs {
            // min and max move with each argument, floor, ceil and round with theirs.
            var moves = 0
            for argument in arguments {
                guard let next = Self.alike(moves, direction(of: name, in: argument)) else { return nil }
                moves = next
            }
            return moves
        }
        if case .binding(let other, let value, let body) = expr.kind, other != name,
           direction(of: name, in: value) == 0, let bound = bounds(of: value) {
            return binding(other, value, bound) { $0.direction(of: name, in: body) }
        }
        if case .chain(let first, let rest) = expr.kind { return chainDirection(of: name, first, rest, at: expr.range) }
        return nil
    }

    /// `direction` of a chain `first op operand op operand…`.
    private mutating func chainDirection(of name: String, _ first: Expr, _ rest: [Operation],
                                         at range: SourceRange) -> Int? {
        guard var moves = direction(of: name, in: first) else { return nil }
        for (index, operation) in rest.enumerated() {
            guard let operand = direction(of: name, in: operation.operand) else { return nil }
            switch operation.op {
            case .add: moves = Self.alike(moves, operand) ?? 2
            case .subtract: moves = Self.alike(moves, -operand) ?? 2
            case .multiply, .divide, .floorDivide:
                // Each side moves the product as it moves, or the other way where the other side
                // is at most 0; a side that may be either sign leaves it unknown. A quotient by
                // a divisor that reads `name` is unknown.
                guard let right = bounds(of: operation.operand),
                      let left = bounds(of: Expr(.chain(first, Array(rest.prefix(index))), range)) else { return nil }
                if operation.op != .multiply && operand != 0 { return nil }
                let byRight = moves == 0 ? 0 : Self.sign(right).map { moves * $0 }
                let byLeft = operand == 0 ? 0 : Self.sign(left).map { operand * $0 }
                guard let a = byRight, let b = byLeft else { return nil }
                moves = Self.alike(a, b) ?? 2
            case .modulo:
                guard moves == 0 && operand == 0 else { return nil }
            }
            if moves == 2 { return nil }
        }
        return moves
    }

    /// The direction of two parts that move as `a` and `b`: `nil` when one rises and one falls.
    private static func alike(_ a: Int, _ b: Int?) -> Int? {
        guard let b else { return nil }
        return a == 0 ? b : b == 0 || a == b ? a : nil
    }

    /// 1 for values all at least 0, -1 for values all at most 0, `nil` for either.
    private static func sign(_ bounds: ValueBounds) -> Int? {
        bounds.low >= 0 ? 1 : bounds.high <= 0 ? -1 : nil
    }
}

/// `let r = … in E given C` where C compares `r` with constants: the values of `r` where C holds
/// are those of its own between the least and greatest that C lets through, which are known
/// where its values' holes are (`ValueBounds.values`). `let r = 20d6! in r given r > 100` said
/// max 286, the end of the sum's cut tails; `r given r < 300` said 286 too, where it is 299.
extension ValueBounds.Walker {
    /// The ends of `given` where `condition` holds, `name` bound to values of `bound`.
    mutating func ends(of given: Expr, _ name: String, _ bound: ValueBounds, where condition: Expr) -> ValueBounds.Ends {
        var narrowed = narrowing(bound, of: name, by: condition)
        if narrowed == nil, let scanned = scanning(bound, of: name, by: condition),
           binding(name, nil, scanned, { $0.direction(of: name, in: given) }) != nil {
            // Between its ends, `name` may take values where the condition fails: only a body
            // that moves one way with it takes its ends there.
            narrowed = scanned
        }
        guard let narrowed else { return ValueBounds.Ends() }
        // Between those ends, `name` is no pool for `count` to read.
        guard Self.standsForEachUse(narrowed, Self.uses(of: [name], in: given)[name]) else {
            return bracket(name, nil, narrowed, given)
        }
        guard let ends = binding(name, nil, narrowed, { $0.bounds(of: given) }) else { return ValueBounds.Ends() }
        return ValueBounds.Ends(low: ends.low, high: ends.high)
    }

    /// `bound` where `condition` holds: a comparison of `name` with a constant, or several
    /// joined by `and`; `nil` for any other condition, or values whose holes are not known.
    private mutating func narrowing(_ bound: ValueBounds, of name: String, by condition: Expr) -> ValueBounds? {
        let condition = Self.unannotated(condition)
        if case .logical(.and, let a, let b) = condition.kind {
            guard let first = narrowing(bound, of: name, by: a) else { return nil }
            return narrowing(first, of: name, by: b)
        }
        guard case .comparison(var op, let lhs, let rhs) = condition.kind else { return nil }
        var other = rhs
        if case .name(let read) = Self.unannotated(rhs).kind, read == name {
            other = lhs
            op = Self.mirrored(op)
        } else {
            guard case .name(let read) = Self.unannotated(lhs).kind, read == name else { return nil }
        }
        guard (Self.uses(of: [name], in: other)[name] ?? 0) == 0, let point = bounds(of: other), point.low == point.high,
              let k = point.low.whole, let values = bound.values ?? (bound.low == bound.high ? bound.low.whole.map(WholeSet.constant) : nil),
              let least = values.least else { return nil }
        var low = Swift.max(least, bound.low.whole ?? least), high = bound.high.whole
        switch op {
        case .greater: low = Swift.max(low, k == Int.max ? k : k + 1)
        case .greaterEqual: low = Swift.max(low, k)
        case .less: high = Swift.min(high ?? k, k == Int.min ? k : k - 1)
        case .lessEqual: high = Swift.min(high ?? k, k)
        case .equal: (low, high) = (Swift.max(low, k), Swift.min(high ?? k, k))
        case .notEqual: return nil
        }
        // The least and greatest values between those ends, a window's length away at most.
        guard let first = (0...WholeSet.maxWindow).lazy.map({ low &+ $0 }).first(where: { values.contains($0) }),
              high.map({ first <= $0 }) ?? true else { return nil }
        guard let high else { return ValueBounds(low: BoundNumber(first), high: .infinity, values: values) }
        guard let last = (0...WholeSet.maxWindow).lazy.map({ high &- $0 }).first(where: { values.contains($0) }),
              last >= first else { return nil }
        return ValueBounds(low: BoundNumber(first), high: BoundNumber(last), values: values)
    }

    /// The least and greatest values of `bound` where `condition` holds, for a condition
    /// `narrowing` does not read (`r % 2 == 0`): tried value by value from each end, skipping
    /// those where it never holds, up to one where it always does. No greatest where it always
    /// holds on values that go on without end, every `step`-th past the values' window (a
    /// multiple of their period and of the condition's divisors). `let r = 20d6! in r given
    /// r % 2 == 0` said max 286, the end of the sum's cut tails. `nil` when the condition
    /// may or may not hold at a value tried, or too many are tried.
    ///
    /// The bounds returned have `bound`'s values, some of which the condition may leave out.
    mutating func scanning(_ bound: ValueBounds, of name: String, by condition: Expr) -> ValueBounds? {
        guard let values = bound.wholeValues, let least = values.least else { return nil }
        func holds(_ at: ValueBounds) -> Bool? { binding(name, nil, at) { $0.deciding(condition)?.truth } }
        /// The first value from `start` going by `step` where the condition holds, past none.
        func first(from start: Int, by step: Int, past end: BoundNumber) -> Int? {
            var value = start, tried = 0
            while tried < 256 && (step > 0 ? BoundNumber(value) <= end : BoundNumber(value) >= end) {
                if values.contains(value) {
                    tried += 1
                    switch holds(.constant(BoundNumber(value))) {
                    case true?: return value
                    case false?: break
                    case nil: return nil
                    }
                }
                let (next, overflow) = value.addingReportingOverflow(step)
                guard !overflow, abs(next - start) <= WholeSet.maxWindow else { return nil }
                value = next
            }
            return nil
        }
        guard let low = first(from: Swift.max(least, bound.low.rounded(.up).whole ?? least), by: 1, past: bound.high)
        else { return nil }
        if bound.high.isFinite {
            guard let greatest = bound.high.rounded(.down).whole,
                  let high = first(from: greatest, by: -1, past: BoundNumber(low)) else { return nil }
            return ValueBounds(low: BoundNumber(low), high: BoundNumber(high), values: values)
        }
        // Every `step`-th value from a value past the window is a value too.
        guard values.period > 0, let base = values.members.last.map({ Swift.max($0 + 1, low) }) else { return nil }
        var divisors: [Int] = []
        Self.divisors(in: condition, into: &divisors)
        let step = divisors.reduce(values.period) { WholeSet.commonPeriod($0, $1) ?? $0 }
        for start in base..<(base + Swift.min(step, 64)) where values.contains(start) {
            guard let every = WholeSet.progression(from: start, every: step) else { return nil }
            if holds(ValueBounds(low: BoundNumber(start), high: .infinity, values: every)) == true {
                return ValueBounds(low: BoundNumber(low), high: .infinity, values: values)
            }
        }
        return nil
    }

    /// The whole constants written in `expr` above 1: the divisors a remainder in a condition
    /// may take, for `scanning`.
    private static func divisors(in expr: Expr, into found: inout [Int]) {
        if case .number(.integer(let value)) = expr.kind, value > 1, value <= WholeSet.maxWindow { found.append(value) }
        expr.forEachChild { divisors(in: $0, into: &found) }
    }

    /// `op` with its sides swapped: `k < r` is `r > k`.
    private static func mirrored(_ op: ComparisonOperator) -> ComparisonOperator {
        switch op {
        case .less: return .greater
        case .lessEqual: return .greaterEqual
        case .greater: return .less
        case .greaterEqual: return .lessEqual
        case .equal, .notEqual: return op
        }
    }

    static func unannotated(_ expr: Expr) -> Expr {
        var expr = expr
        while case .annotated(let inner, _) = expr.kind { expr = inner }
        return expr
    }
}
