/// The least and greatest values an expression can take, worked out from its shape rather
/// than from its distribution: what a simulated report (whose sample rarely reaches the
/// extremes) and a report with cut tails give as its min and max.
///
/// An interval walker: sums, products, quotients by a divisor that cannot be 0, remainders by
/// a constant, comparisons, functions, dice terms with literal modifiers (explosions make the
/// interval unbounded on their side), `count` of a pool without explosions, groups and
/// `repeat` without modifiers, variables and macros. For anything else it answers `nil`
/// (unknown), and reports fall back to the outcomes they have.
struct ValueBounds: Hashable {
    /// The least value; `-infinity` when unbounded below.
    var low: BoundNumber
    /// The greatest value; `+infinity` when unbounded above.
    var high: BoundNumber
    /// The whole numbers among which the values are, with the holes between them that
    /// explosions leave (`1d6!` never shows 12); `nil` when not worked out. Where known,
    /// `1d6! == 12` is never 1, though 12 lies between `low` and `high`.
    var values: WholeSet?

    static func constant(_ value: BoundNumber) -> ValueBounds { ValueBounds(low: value, high: value) }

    /// No value: the start of a union.
    static let empty = ValueBounds(low: .infinity, high: -.infinity)

    /// The least interval holding both: the values of either.
    func union(_ other: ValueBounds) -> ValueBounds {
        ValueBounds(low: Swift.min(low, other.low), high: Swift.max(high, other.high))
    }

    /// The bounds of `expr` in `environment`, or `nil` when the walker cannot tell. With
    /// `sound`, bounds that hold every value, though maybe more (`Walker.sound`).
    ///
    /// - Complexity: O(*n*) for *n* nodes, macro bodies walked at each use (at most
    ///   `limits.maxEvaluationDepth` deep).
    static func of(_ expr: Expr, environment: Environment, limits: Limits, sound: Bool = false) -> ValueBounds? {
        var walker = Walker(environment: environment, limits: limits)
        walker.sound = sound
        guard let bounds = walker.bounds(of: expr)?.clamped, !bounds.low.isNaN, !bounds.high.isNaN,
              bounds.low <= bounds.high else { return nil }
        return bounds
    }

    /// The interval of `a op b` from the four corner values; `nil` when one is undefined.
    fileprivate static func corners(_ a: ValueBounds, _ b: ValueBounds,
                                    _ op: (BoundNumber, BoundNumber) -> BoundNumber) -> ValueBounds? {
        let values = [op(a.low, b.low), op(a.low, b.high), op(a.high, b.low), op(a.high, b.high)]
        guard !values.contains(where: { $0.isNaN }), let low = values.min(), let high = values.max() else { return nil }
        return ValueBounds(low: low, high: high)
    }

    /// `b ^ e` where it is monotone: a whole constant exponent of at least 0 (an even one
    /// folds the negative bases over), or bases of at least 1 and whole exponents of at
    /// least 0 (a fractional one: unknown).
    fileprivate static func power(_ b: ValueBounds, _ e: ValueBounds) -> ValueBounds? {
        if e.low == e.high, let exponent = e.low.whole, exponent >= 0 {
            let ends = [b.low.power(exponent), b.high.power(exponent)]
            guard !ends.contains(where: \.isNaN) else { return nil }
            let low = exponent % 2 == 0 && b.low < 0 && b.high > 0 ? 0 : ends.min() ?? 0
            let powers = mapped(b) { (try? Number.integer($0).power(.integer(exponent)))?.integerValue }
            return ValueBounds(low: low, high: ends.max() ?? 0, values: powers).clamped
        }
        guard b.low >= 1, e.low >= 0, let least = e.low.whole, let most = e.high.isFinite ? e.high.whole : Int.max
        else { return nil }
        // An exponent without end (`2 ^ 1d6!`) leaves no end above, but on a base of 1.
        let high = e.high.isFinite ? b.high.power(most) : b.high == 1 ? 1 : .infinity
        return ValueBounds(low: b.low.power(least), high: high)
    }

    /// `a * b` where 0 × ∞ is 0 (a zero count of unbounded dice is 0).
    static func times(_ a: BoundNumber, _ b: BoundNumber) -> BoundNumber {
        a == 0 || b == 0 ? 0 : a * b
    }

    struct Walker {
        let environment: Environment
        let limits: Limits
        var frames: [Frame<ValueBounds>] = []
        /// The dice terms `let` binds, with the names they saw (`countBounds`).
        var pools: [String: (pool: Expr, names: Frame<ValueBounds>?)] = [:]
        var depth = 0
        /// Nodes walked, so that macros using the last one twice do not walk for minutes.
        var steps = 0
        /// The conditions of the `given`s walked, outside macros, that never hold (`Stats.simulate`).
        var impossibleConditions: Set<SourceRange> = []
        /// Whether bounds that hold every value but may hold more will do: a name read several
        /// times stands for its interval at each read, and `E given C` for E's values.
        var sound = false

        mutating func bounds(of expr: Expr) -> ValueBounds? {
            depth += 1
            steps += 1
            defer { depth -= 1 }
            guard depth <= limits.maxEvaluationDepth, steps <= 1_000_000 else { return nil }
            switch expr.kind {
            case .number(let value):
                return .constant(BoundNumber(value))
            case .name(let name):
                if let bound = frames.last?[name] { return bound }
                switch environment[name] {
                case .variable(let value):
                    guard let number = value.number else { return nil }
                    return .constant(BoundNumber(number))
                case .macro(let macro):
                    return call(macro, [])
                case nil: return nil
                }
            case .call(let name, let arguments):
                guard case .macro(let macro) = environment[name] else { return nil }
                return call(macro, arguments)
            case .function(let function, let arguments):
                var values: [ValueBounds] = []
                for argument in arguments {
                    // Soundly, an argument is some number (`min(count(3d6!, =6), 4)` is at most 4).
                    guard let bound = bounds(of: argument) ?? (sound ? ValueBounds(low: -.infinity, high: .infinity) : nil)
                    else { return nil }
                    values.append(bound)
                }
                guard let first = values.first else { return nil }
                switch function {
                case .min:
                    return ValueBounds(low: values.reduce(first.low) { Swift.min($0, $1.low) },
                                       high: values.reduce(first.high) { Swift.min($0, $1.high) },
                                       values: ValueBounds.extreme(of: values, least: true))
                case .max:
                    return ValueBounds(low: values.reduce(first.low) { Swift.max($0, $1.low) },
                                       high: values.reduce(first.high) { Swift.max($0, $1.high) },
                                       values: ValueBounds.extreme(of: values, least: false))
                case .abs:
                    guard values.count == 1 else { return nil }
                    if first.low >= 0 { return first }
                    let magnitudes = ValueBounds.mapped(first) { $0 == Int.min ? nil : Swift.abs($0) }
                    if first.high <= 0 { return ValueBounds(low: -first.high, high: -first.low, values: magnitudes) }
                    return ValueBounds(low: 0, high: Swift.max(-first.low, first.high), values: magnitudes)
                case .floor, .ceil, .round:
                    guard values.count == 1 else { return nil }
                    let rule: FloatingPointRoundingRule = function == .floor ? .down
                        : function == .ceil ? .up : .toNearestOrAwayFromZero
                    return ValueBounds(low: first.low.rounded(rule), high: first.high.rounded(rule), values: first.values)
                }
            case .unary(let op, let operand):
                guard let inner = bounds(of: operand) else { return nil }
                return op == .plus ? inner : ValueBounds(low: -inner.high, high: -inner.low,
                                                         values: ValueBounds.mapped(inner) { $0 == Int.min ? nil : -$0 })
            case .chain(let first, let rest):
                var result = bounds(of: first)
                for operation in rest {
                    let operand = bounds(of: operation.operand)
                    guard let left = result, let rhs = operand else {
                        // Sound: a remainder by a constant lies between 0 and it, whatever it divides.
                        result = sound && operation.op == .modulo ? operand.flatMap(ValueBounds.remainderRange) : nil
                        continue
                    }
                    switch operation.op {
                    case .add:
                        result = ValueBounds(low: left.low + rhs.low, high: left.high + rhs.high,
                                             values: ValueBounds.sum(left, rhs))
                    case .subtract:
                        result = ValueBounds(low: left.low - rhs.high, high: left.high - rhs.low,
                                             values: ValueBounds.difference(left, rhs))
                    case .multiply:
                        result = ValueBounds.corners(left, rhs, ValueBounds.times)
                        result?.values = ValueBounds.multiple(left, rhs)
                    case .divide, .floorDivide:
                        // A divisor that may be 0 (or between -1 and 1) leaves the quotient unknown.
                        guard rhs.low >= 1 || rhs.high <= -1, var quotient = ValueBounds.corners(left, rhs, /) else {
                            result = nil
                            continue
                        }
                        if operation.op == .floorDivide { quotient = ValueBounds.floorQuotient(quotient, left, rhs) }
                        result = quotient
                    case .modulo:
                        result = ValueBounds.remainder(left, rhs) ?? (sound ? ValueBounds.remainderRange(rhs) : nil)
                    }
                    if let value = result, value.low.isNaN || value.high.isNaN { result = nil }
                }
                return result
            case .power(let base, let exponent):
                guard let b = bounds(of: base), let e = bounds(of: exponent) else { return nil }
                return ValueBounds.power(b, e)
            case .comparison(let op, let lhs, let rhs):
                // 1 or 0, or one of them when the operands' intervals settle it.
                if op == .equal || op == .notEqual { return equality(op, lhs, rhs) }
                guard let a = deciding(lhs), let b = deciding(rhs) else { return ValueBounds(low: 0, high: 1) }
                return ValueBounds.comparison(op, a, b)
            case .dice(let term):
                return dice(term)
            case .group(let members, let modifiers, _):
                var each: [ValueBounds] = []
                for member in members {
                    guard let bound = bounds(of: member) else { return nil }
                    each.append(bound)
                }
                guard !modifiers.isEmpty else {
                    return each.reduce(.constant(0)) { sum, member in
                        ValueBounds(low: sum.low + member.low, high: sum.high + member.high,
                                    values: ValueBounds.sum(sum, member))
                    }
                }
                guard let steps = Self.keepsOnly(modifiers) else { return nil }
                // The sum of a window of sorted values grows with each value: the window of
                // the least values is the least, of the greatest the greatest.
                let kept = KeepDropStep.keptRange(steps, total: each.count)
                let lows = each.map(\.low).sorted(), highs = each.map(\.high).sorted()
                return ValueBounds(low: lows[kept].reduce(0, +), high: highs[kept].reduce(0, +))
            case .repeat(let count, let body, let modifiers):
                guard let counts = bounds(of: count), counts.low >= 0, let member = bounds(of: body) else { return nil }
                // Without modifiers a count without end (`repeat(1d6!, 1)`) is as good as any.
                guard !modifiers.isEmpty else {
                    var sum = ValueBounds.corners(counts, member, ValueBounds.times)
                    sum?.values = repeatedValues(counts, member, body) { $0 }
                    return sum
                }
                guard counts.high <= BoundNumber(limits.maxDice) else { return nil }
                guard let steps = Self.keepsOnly(modifiers) else { return nil }
                guard let low = counts.low.rounded(.up).whole, let high = counts.high.rounded(.down).whole,
                      low <= high else { return nil }
                var result = ValueBounds.empty
                let candidates = high - low <= 4096 ? Array(low...high) : [low, high] + Array(low...(low + 64))
                for n in candidates {
                    let kept = BoundNumber(KeepDropStep.keptRange(steps, total: n).count)
                    result = result.union(ValueBounds(low: ValueBounds.times(kept, member.low),
                                                      high: ValueBounds.times(kept, member.high)))
                }
                result.values = repeatedValues(counts, member, body) { KeepDropStep.keptRange(steps, total: $0).count }
                return result
            case .conditional(let condition, let then, let otherwise):
                // Either branch may be taken: the union of their intervals, unless the
                // condition is never 0 or always 0.
                switch deciding(condition)?.truth {
                case true?: return bounds(of: then)
                case false?: return bounds(of: otherwise)
                case nil: break
                }
                guard let a = bounds(of: then), let b = bounds(of: otherwise) else { return nil }
                return ValueBounds.either(a, b)
            case .binding(let name, let value, let body):
                guard let bound = bounds(of: value) else { return nil }
                // Soundly, an interval for each read holds every value, if not only those.
                if sound { return binding(name, value, bound) { $0.bounds(of: body) } }
                if case .given = Self.unannotated(body).kind {
                } else if Self.standsForEachUse(bound, Self.uses(of: [name], in: body)[name]) {
                    return binding(name, value, bound) { $0.bounds(of: body) }
                }
                // Read several times, or where a condition holds (`ValueBounds+Bindings.swift`).
                let ends = ends(of: expr)
                guard let low = ends.low, let high = ends.high else { return nil }
                return ValueBounds(low: low, high: high)
            case .count(let target, let point):
                // Soundly, no fewer than none (`0 > count(3d6!, =6)` never holds), nor more than can be.
                return countBounds(target, point) ?? (sound ? ValueBounds(low: 0, high: countCeiling(target)) : nil)
            case .annotated(let inner, _):
                return bounds(of: inner)
            case .logical(let op, let lhs, let rhs):
                // 0 or 1, or one of them when a side settles it (`and` a side always 0) or both do.
                let a = deciding(lhs)?.truth, b = deciding(rhs)?.truth
                let settled = op == .or
                if a == settled || b == settled { return .constant(settled ? 1 : 0) }
                return a == !settled && b == !settled ? .constant(settled ? 0 : 1) : ValueBounds(low: 0, high: 1)
            case .not(let operand):
                guard let truth = deciding(operand)?.truth else { return ValueBounds(low: 0, high: 1) }
                return .constant(truth ? 0 : 1)
            case .given(let value, let condition):
                if deciding(condition)?.truth == false { impossibleConditions.insert(condition.range) }
                // A C that reads no name E may read is independent of E: E where C holds has
                // E's ends (`20d6! given 1d6 > 2` said max 286, the end of its cut tails).
                if !sound, let names = frames.last?.names, !Self.uses(of: Set(names), in: condition).isEmpty { return nil }
                return bounds(of: value)
            case .field(let tally, let name):
                return field(name, of: tally)
            case .text, .tally, .match:
                // Not numbers, or numbers these bounds do not follow: the distribution's own ends.
                return nil
            }
        }

        /// Whether `bound`, the interval of a name's one roll, may stand for each of its `uses`:
        /// when it is one value, or used at most once. An interval for each use of one roll
        /// would take `r - r` anywhere from `1 - max` to `max - 1`, not 0: used twice, the
        /// bounds are unknown.
        static func standsForEachUse(_ bound: ValueBounds, _ uses: @autoclosure () -> Int?) -> Bool {
            bound.low == bound.high || (uses() ?? 0) <= 1
        }

        /// How many times each of `names` is used in `body` (`StatsEngine.countUses`).
        static func uses(of names: Set<String>, in body: Expr) -> [String: Int] {
            var uses: [String: Int] = [:]
            StatsEngine.countUses(in: body, of: names, weight: 1, into: &uses)
            return uses
        }

        /// A macro used with `arguments`, its defaults standing for those left out.
        private mutating func call(_ macro: Macro, _ arguments: [Expr]) -> ValueBounds? {
            guard arguments.count <= macro.parameters.count else { return nil }
            var bindings: Frame<ValueBounds> = [:]
            // The body's uses of its parameters, counted in one walk when some argument varies.
            var uses: [String: Int]?
            for (index, parameter) in macro.parameters.enumerated() {
                guard let argument = index < arguments.count ? arguments[index] : macro.defaults[parameter],
                      let bound = bounds(of: argument) else { return nil }
                if bound.low != bound.high && uses == nil { uses = Self.uses(of: Set(macro.parameters), in: macro.body) }
                guard sound || Self.standsForEachUse(bound, uses?[parameter]) else { return nil }
                bindings[parameter] = bound
            }
            return body(macro, bindings)
        }

        private mutating func body(_ macro: Macro, _ bindings: Frame<ValueBounds>) -> ValueBounds? {
            guard frames.count < limits.maxMacroDepth else { return nil }
            // A macro's conditions lie in the text of another statement: not kept.
            let outside = (pools, impossibleConditions)
            pools = [:]
            frames.append(bindings)
            defer { frames.removeLast(); (pools, impossibleConditions) = outside }
            return bounds(of: macro.body)
        }

        /// A dice term: the count's interval times one die's, keep/drop counted by the dice kept.
        private mutating func dice(_ term: DiceTerm) -> ValueBounds? {
            let semantics = TermSemantics(term)
            guard semantics.literalRules == nil else { return resolvedDice(term, semantics) }
            // Modifier arguments that are not literals (`!=(1+1)`, `kh(n)`, `!>(1d2)`): the union
            // over the few whole values they can take, each as if written so.
            var choices: [(range: SourceRange, values: ClosedRange<Int>)] = []
            var combinations = 1
            for modifier in term.modifiers {
                for argument in modifier.arguments where !argument.isLiteral {
                    guard let value = bounds(of: argument), let least = value.low.rounded(.up).whole,
                          let most = value.high.rounded(.down).whole, least <= most,
                          least > -(1 << 50), most < 1 << 50 else { return nil }
                    let values = least...most
                    combinations *= values.count
                    guard combinations <= 64 else { return nil }
                    choices.append((argument.range, values))
                }
            }
            var result: ValueBounds?
            var arguments: [SourceRange: Number] = [:]
            func each(_ index: Int) -> Bool {
                guard index < choices.count else {
                    let resolved = term.resolved(ResolvedParts(arguments: arguments))
                    guard let part = resolvedDice(resolved, TermSemantics(resolved)) else { return false }
                    result = result.map { ValueBounds.either($0, part) } ?? part
                    return true
                }
                for value in choices[index].values {
                    arguments[choices[index].range] = .integer(value)
                    guard each(index + 1) else { return false }
                }
                return true
            }
            return each(0) ? result : nil
        }

        /// A dice term whose modifier arguments are all literals.
        private mutating func resolvedDice(_ term: DiceTerm, _ semantics: TermSemantics) -> ValueBounds? {
            guard let rules = semantics.literalRules, semantics.conflict == nil else { return nil }
            let counts = term.count.map { bounds(of: $0) } ?? .constant(1)
            guard let counts, counts.low >= 0 else { return nil }
            if counts.high == .infinity { return unboundedCount(term, semantics, rules, least: counts.low) }
            // Counts past the dice limit fail as rolls; the bound keeps the counts below in Int.
            guard counts.high <= BoundNumber(limits.maxDice) else { return nil }
            let faces: Distribution
            switch term.sides {
            case .number(let expr):
                // Sides a variable or parameter fixes (`1d(die)!` in a macro) are as if written.
                var written: Int?
                var computed: ValueBounds?
                if case .number(.integer(let sides)) = expr.kind {
                    written = sides
                } else {
                    computed = bounds(of: expr)
                    if let fixed = computed, fixed.low == fixed.high, let sides = fixed.low.whole, sides >= 1,
                       sides <= 1 << 20 {
                        written = sides
                    }
                }
                guard let sides = written, sides >= 1 else {
                    // Random sides (`2d(1d3*2)`, `1d(1d6!)`): a plain die shows 1 up to the most sides.
                    guard term.modifiers.isEmpty, let sides = computed, sides.low >= 1 else { return nil }
                    return ValueBounds.anySum(counts, ofDiceUpTo: sides.high.rounded(.down))
                }
                guard sides <= 1 << 20 else {
                    // A huge plain die: its faces are not listed.
                    guard term.modifiers.isEmpty else { return nil }
                    return ValueBounds(low: counts.low.rounded(.up), high: counts.high.rounded(.down) * BoundNumber(sides))
                }
                faces = Distribution(uniformSides: sides)
            case .percentile, .fate, .faces:
                guard let fixed = term.sides.fixedFaces else { return nil }
                faces = Distribution(faces: fixed)
            case .symbols: return nil
            }
            guard let pool = try? PoolModel(faces: faces, rules: rules, largestCount: 1, explosionCutoff: 1e-12,
                                            range: .at(0)) else {
                return nil
            }
            guard let low = counts.low.rounded(.up).whole, let high = counts.high.rounded(.down).whole,
                  low <= high else { return nil }
            // Unique dice show different first faces: fewer pools than the dice alone make.
            if rules.unique { return UniqueBounds.bounds(pool, counts: low...high) }
            // Keep/drop among the dice of `!`, `!p` and `xo` chains picks dice, not chains.
            if !rules.keeps.isEmpty && rules.explosion?.kind != .compound && pool.someFaceExplodes {
                return KeepOverChains.bounds(pool, counts: low...high)
            }
            guard let die = pool.chainBounds else { return nil }
            /// The dice kept of `n`.
            func kept(_ n: Int) -> Int { rules.keeps.isEmpty ? n : KeepDropStep.keptRange(rules.keeps, total: n).count }
            var result: ValueBounds?
            // Every count when few; else the ends and the first counts, where keeping changes course.
            var candidates = [low, high]
            if high - low <= 4096 {
                candidates = Array(low...high)
            } else if !rules.keeps.isEmpty {
                candidates += Array(low...(low + 64))
            }
            // Every die may show the same face: k kept dice count k times one die, at either end.
            for n in candidates {
                let fewest = BoundNumber(kept(n))
                let part = ValueBounds(low: ValueBounds.times(fewest, die.low), high: ValueBounds.times(fewest, die.high))
                result = result?.union(part) ?? part
            }
            result?.values = ValueBounds.values(of: pool, counts: low...high, kept: kept)
            return result
        }

        /// A pool whose count an explosion leaves without end (`(1d6!)d6`): its least count's
        /// bounds, and past them no end on each side a die can count beyond 0. Only without
        /// keep/drop, which can hold the kept dice down (`kh3`), and without `u` (more dice than
        /// faces fail): `nil` then.
        private mutating func unboundedCount(_ term: DiceTerm, _ semantics: TermSemantics, _ rules: PoolRules,
                                             least: BoundNumber) -> ValueBounds? {
            guard rules.keeps.isEmpty, !rules.unique, least <= BoundNumber(limits.maxDice),
                  let fewest = least.rounded(.up).whole else { return nil }
            func fixedCount(_ n: Int) -> DiceTerm {
                DiceTerm(count: Expr(.number(.integer(n)), term.count?.range ?? .at(0)), sides: term.sides,
                         modifiers: term.modifiers, spelling: term.spelling)
            }
            guard let first = resolvedDice(fixedCount(fewest), semantics),
                  let one = resolvedDice(fixedCount(1), semantics) else { return nil }
            return ValueBounds(low: one.low < 0 ? -.infinity : first.low, high: one.high > 0 ? .infinity : first.high)
        }
    }
}
