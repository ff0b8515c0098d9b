/// What the modifiers of a dice term or group do, every argument worked out: the one
/// model of their meaning, read by the roller, the value path and the stats engine.
///
/// Made by `resolve`, which also checks the modifiers against each other: modifiers apply
/// in the fixed order of `DiceModifier.Stage`, several keep/drop steps in written order.
/// A term whose arguments are all literals gets its rules at parse time
/// (`DiceTerm.literalRules`); others are resolved each time the term is rolled.
struct PoolRules: Hashable, Sendable {
    /// `r` or `ro`, on `point` or, when it is `nil`, on the lowest face.
    struct Reroll: Hashable, Sendable {
        var once: Bool
        var point: ResolvedPoint?
    }

    /// `!`, `!!` or `!p`, on `point` or, when it is `nil`, on the highest face.
    struct Explosion: Hashable, Sendable {
        var kind: DiceModifier.Explosion
        var point: ResolvedPoint?

        /// The faces that explode: `point`, or the die's `highest` face after clamps.
        func point(highest: Int) -> ResolvedPoint { point ?? ResolvedPoint(op: .equal, value: .integer(highest)) }
    }

    /// What the value counts after keep/drop: the sum, or the matches of `cs`/`cf`; minus
    /// one for each `df` match.
    struct Counting: Hashable, Sendable {
        /// The point of `cs` or `cf`: the value counts its matches instead of summing.
        var successes: ResolvedPoint?
        /// `cf`: the matches counted are failures, and are marked as failures (`1_`), not as
        /// successes.
        var countsFailures = false
        /// The point of `df`: each match takes one away.
        var failures: ResolvedPoint?

        var isSum: Bool { successes == nil && failures == nil }

        /// What one kept die (or group member) showing `value` adds to the value.
        func contribution(of value: Number) throws(ArithmeticFault) -> Number {
            var result = value
            if let successes { result = .integer(successes.matches(value) ? 1 : 0) }
            if let failures, failures.matches(value) { result = try result.subtracting(.integer(1)) }
            return result
        }
    }

    /// `mi`/`ma`, in written order.
    var clamps: [Clamp] = []
    var rerolls: [Reroll] = []
    var explosion: Explosion?
    /// Keep/drop steps, in written order.
    var keeps: [KeepDropStep] = []
    var counting = Counting()
    /// `s`/`sa` (true) or `sd`: the shown order only.
    var sortAscending: Bool?
    /// `u`: a die showing a face already shown is rolled again until it shows a new one.
    var unique = false

    /// Whether the rules change nothing but which dice count towards a sum: each die is
    /// rolled once and shows its face (no clamps, rerolls or explosions), and no counting.
    var keepsOnly: Bool { clamps.isEmpty && rerolls.isEmpty && !unique && explosion == nil && counting.isSum }

    /// `face` after every clamp, in written order.
    @inline(__always)
    func clamp(_ face: Int) -> Int {
        var result = face
        for clamp in clamps { result = clamp.apply(to: result) }
        return result
    }
}

// MARK: - Resolving

extension PoolRules {
    /// The error of the first modifier, in the order they apply, that cannot go with those
    /// before it, or that applies to dice when `onGroup`; `nil` when they all fit.
    static func conflict(in ordered: [DiceModifier], onGroup: Bool) -> DiceError? {
        var explosion: ModifierKind?, counting: ModifierKind?, failures = false
        for modifier in ordered {
            let kind = modifier.modifierKind
            if onGroup && kind.appliesToDiceOnly {
                return DiceError(.modifierAppliesToDice(kind), at: modifier.range)
            }
            switch kind {
            case .explode, .compound, .penetrate, .explodeOnce:
                if let first = explosion { return DiceError(.conflictingModifiers(first, kind), at: modifier.range) }
                explosion = kind
            case .countSuccesses, .countFailures:
                if let first = counting { return DiceError(.conflictingModifiers(first, kind), at: modifier.range) }
                counting = kind
            case .subtractFailures:
                if failures { return DiceError(.conflictingModifiers(kind, kind), at: modifier.range) }
                failures = true
            default:
                break
            }
        }
        return nil
    }

    /// The argument expressions of `ordered`, in the order `resolve` asks for their values.
    static func arguments(of ordered: [DiceModifier]) -> [Expr] {
        ordered.flatMap { $0.arguments }
    }

    /// The rules of `ordered` (modifiers in the order they apply, checked by `conflict`),
    /// asking `argument` for each argument's value in that order.
    ///
    /// A keep/drop count must be a whole number of at least 0 and a clamp bound a whole
    /// number; `invalid` turns the error for one that is not into `E`.
    static func resolve<E: Error>(_ ordered: [DiceModifier], invalid: (DiceError) -> E,
                                  argument: (Expr) throws(E) -> Number) throws(E) -> PoolRules {
        var rules = PoolRules()
        func whole(_ expr: Expr, _ kind: ModifierKind, allowNegative: Bool) throws(E) -> Int {
            let value = try argument(expr)
            guard case .integer(let n) = value, allowNegative || n >= 0 else {
                throw invalid(DiceError(.invalidModifierArgument(kind, value: value), at: expr.range))
            }
            return n
        }
        func point(_ point: ComparePoint?) throws(E) -> ResolvedPoint? {
            guard let point else { return nil }
            return ResolvedPoint(op: point.op, value: try argument(point.value))
        }
        for modifier in ordered {
            switch modifier.kind {
            case .keep(let extreme, let count), .drop(let extreme, let count):
                var keep = false
                if case .keep = modifier.kind { keep = true }
                let n = try count.map { (expr) throws(E) in
                    try whole(expr, modifier.modifierKind, allowNegative: false)
                } ?? 1
                rules.keeps.append(KeepDropStep(keep: keep, extreme: extreme, count: n))
            case .minimum(let bound), .maximum(let bound):
                let isMinimum = modifier.modifierKind == .minimum
                let value = try whole(bound, modifier.modifierKind, allowNegative: true)
                rules.clamps.append(Clamp(minimum: isMinimum, value: value))
            case .reroll(let once, let compare):
                rules.rerolls.append(Reroll(once: once, point: try point(compare)))
            case .explode(let kind, let compare):
                rules.explosion = Explosion(kind: kind, point: try point(compare))
            case .countSuccesses(let compare), .countFailures(let compare):
                rules.counting.successes = try point(compare)
                rules.counting.countsFailures = modifier.modifierKind == .countFailures
            case .subtractFailures(let compare):
                rules.counting.failures = try point(compare)
            case .sort(let ascending):
                rules.sortAscending = ascending
            case .unique:
                rules.unique = true
            }
        }
        return rules
    }

    /// The rules of `ordered` when every argument is a number literal and valid, worked
    /// out once (at parse time); `nil` otherwise.
    static func literal(_ ordered: [DiceModifier]) -> PoolRules? {
        struct NotLiteral: Error {}
        return try? resolve(ordered, invalid: { _ in NotLiteral() }) { (expr) throws(NotLiteral) -> Number in
            guard case .number(let value) = expr.kind else { throw NotLiteral() }
            return value
        }
    }
}

// MARK: - Parts

/// A compare point with its value worked out: `>=5`.
struct ResolvedPoint: Hashable, Sendable {
    var op: ComparisonOperator
    var value: Number

    @inline(__always)
    func matches(_ face: Int) -> Bool {
        if case .integer(let v) = value { return op.holds(face, v) }
        return op.holds(.integer(face), value)
    }

    func matches(_ number: Number) -> Bool { op.holds(number, value) }

    /// Whether `predicate` holds for a whole number next to the point, where "matches"
    /// can change.
    func someBoundary(where predicate: (Int) -> Bool) -> Bool {
        switch value {
        case .integer(let v):
            return predicate(v) || (v > Int.min && predicate(v - 1)) || (v < Int.max && predicate(v + 1))
        case .fraction:
            return predicate(value.rounded(.down).numerator) || predicate(value.rounded(.up).numerator)
        }
    }
}

/// `miN` (`minimum`) or `maN`: a face beyond the bound counts as the bound.
struct Clamp: Hashable, Sendable {
    var minimum: Bool
    var value: Int

    @inline(__always)
    func apply(to face: Int) -> Int { minimum ? Swift.max(face, value) : Swift.min(face, value) }
}

/// A keep or drop step with its count: `kh3`, `dl1`.
struct KeepDropStep: Hashable, Sendable {
    var keep: Bool
    var extreme: DiceModifier.Extreme
    var count: Int

    /// The ranks still kept, in ascending order of value, when ranks `low..<high` were
    /// kept before this step: keep/drop depends on counts alone, not on the values.
    @inline(__always)
    func window(_ low: Int, _ high: Int) -> (low: Int, high: Int) {
        let n = Swift.min(count, high - low)
        switch (keep, extreme) {
        case (true, .highest): return (high - n, high)
        case (true, .lowest): return (low, low + n)
        case (false, .highest): return (low, high - n)
        case (false, .lowest): return (low + n, high)
        }
    }

    /// The ascending ranks that `steps`, applied in turn, keep of `total` values.
    static func keptRange(_ steps: [KeepDropStep], total: Int) -> Range<Int> {
        var low = 0
        var high = total
        for step in steps { (low, high) = step.window(low, high) }
        return low..<high
    }
}
