/// A bound pool's body read through names: each `count(p, cp)` of the pool, every one of its
/// uses, becomes a name bound to that count, so that the body is worked out for each joint
/// outcome of the counts with the counts as plain whole numbers.
///
/// The count of a bound pool is a whole number with no effect besides its value, so the
/// body with a name in its place, bound to the same number, has the same outcome and the same
/// errors. What it saves: the roller no longer needs the pool shown as its dice (one member a
/// die, 27 to 70 of them for Shadowrun's `push(20, 7)`) and counted again for each outcome,
/// and the engine no longer files each outcome's counts by compare point.
extension StatsEngine {
    /// The name `count(name, cp)` is read through for the compare point numbered `index`: no
    /// name the lexer makes (a `#` cannot be in one), so it cannot meet a name of the program.
    static func countName(_ name: String, _ index: Int) -> String { "count#\(index) \(name)" }

    /// Whether `name` is one of `countName`'s.
    static func isCountName(_ name: String) -> Bool { name.hasPrefix("count#") }

    /// Whether a macro used in `expr` has a default that reads `name`, itself or through the
    /// defaults of macros it uses: a default is worked out where the macro is used, so it sees
    /// the `let` names there, and the pool must then stay bound as a pool.
    func defaultsRead(_ name: String, in expr: Expr, checked: inout Set<String>) -> Bool {
        switch expr.kind {
        case .call(let used, _), .name(let used):
            if case .macro(let macro) = environment[used], checked.insert(used).inserted {
                for value in macro.defaults.values {
                    var uses: [String: Int] = [:]
                    StatsEngine.countUses(in: value, of: [name], weight: 1, into: &uses)
                    if !uses.isEmpty || defaultsRead(name, in: value, checked: &checked) { return true }
                }
            }
        default:
            break
        }
        return expr.children.contains { defaultsRead(name, in: $0, checked: &checked) }
    }

    /// `expr` with each `count(name, cp)` (not inside a `let` of the same name) replaced by the
    /// name `names[cp]`, at the count's range; `nil` when some count of `name` sits where the
    /// rewrite does not reach (a pool's modifiers, a `repeat`, a group, a `given`, a `match`
    /// pattern, another count's target or compare point) or has no name in `names`.
    static func replacingCounts(of name: String, in expr: Expr, names: [ComparePoint: String]) -> Expr? {
        func each(_ exprs: [Expr]) -> [Expr]? {
            var result: [Expr] = []
            result.reserveCapacity(exprs.count)
            for part in exprs {
                guard let rewritten = replacingCounts(of: name, in: part, names: names) else { return nil }
                result.append(rewritten)
            }
            return result
        }
        func one(_ part: Expr) -> Expr? { replacingCounts(of: name, in: part, names: names) }
        /// `expr` itself when it counts `name` nowhere, else `nil`.
        func untouched() -> Expr? {
            var points: [ComparePoint] = []
            collectCounts(of: name, in: expr, into: &points)
            return points.isEmpty ? expr : nil
        }
        var copy = expr
        switch expr.kind {
        case .number, .name, .text:
            return expr
        case .count(let target, let point):
            if case .name(name) = target.kind {
                guard let hidden = names[point] else { return nil }
                return Expr(.name(hidden), expr.range)
            }
            return untouched()
        case .call(let macro, let arguments):
            guard let rewritten = each(arguments) else { return nil }
            copy.kind = .call(macro, rewritten)
        case .function(let function, let arguments):
            guard let rewritten = each(arguments) else { return nil }
            copy.kind = .function(function, rewritten)
        case .unary(let op, let operand):
            guard let rewritten = one(operand) else { return nil }
            copy.kind = .unary(op, rewritten)
        case .chain(let first, let rest):
            guard let head = one(first) else { return nil }
            var operations: [Operation] = []
            for operation in rest {
                guard let operand = one(operation.operand) else { return nil }
                var changed = operation
                changed.operand = operand
                operations.append(changed)
            }
            copy.kind = .chain(head, operations)
        case .power(let base, let exponent):
            guard let a = one(base), let b = one(exponent) else { return nil }
            copy.kind = .power(a, b)
        case .comparison(let op, let lhs, let rhs):
            guard let a = one(lhs), let b = one(rhs) else { return nil }
            copy.kind = .comparison(op, a, b)
        case .logical(let op, let lhs, let rhs):
            guard let a = one(lhs), let b = one(rhs) else { return nil }
            copy.kind = .logical(op, a, b)
        case .not(let operand):
            guard let rewritten = one(operand) else { return nil }
            copy.kind = .not(rewritten)
        case .conditional(let condition, let then, let otherwise):
            guard let c = one(condition), let t = one(then), let o = one(otherwise) else { return nil }
            copy.kind = .conditional(condition: c, then: t, else: o)
        case .binding(let bound, let value, let body):
            guard let v = one(value) else { return nil }
            // A `let` of the same name hides the pool in its body.
            guard let b = bound == name ? body : one(body) else { return nil }
            copy.kind = .binding(name: bound, value: v, body: b)
        case .tally(let fields):
            var rewritten: [TallyField] = []
            for field in fields {
                guard let value = one(field.value) else { return nil }
                var changed = field
                changed.value = value
                rewritten.append(changed)
            }
            copy.kind = .tally(rewritten)
        case .field(let tally, let field):
            guard let rewritten = one(tally) else { return nil }
            copy.kind = .field(rewritten, field)
        case .annotated(let inner, let label):
            guard let rewritten = one(inner) else { return nil }
            copy.kind = .annotated(rewritten, label)
        case .match(let subject, let entries, let otherwise):
            guard let s = one(subject) else { return nil }
            var rewritten: [MatchEntry] = []
            for entry in entries {
                var points: [ComparePoint] = []
                for part in entry.patternParts { collectCounts(of: name, in: part, into: &points) }
                guard points.isEmpty, let result = one(entry.result) else { return nil }
                var changed = entry
                changed.result = result
                rewritten.append(changed)
            }
            var rest: Expr?
            if let otherwise {
                guard let o = one(otherwise) else { return nil }
                rest = o
            }
            copy.kind = .match(s, rewritten, otherwise: rest)
        case .dice(let term):
            // `(count(p, >=5))d6`: the number of dice may be a count; the sides and modifiers not.
            guard let count = term.count else { return untouched() }
            var elsewhere: [ComparePoint] = []
            if case .number(let sides) = term.sides { collectCounts(of: name, in: sides, into: &elsewhere) }
            for modifier in term.modifiers {
                for argument in modifier.arguments { collectCounts(of: name, in: argument, into: &elsewhere) }
            }
            guard elsewhere.isEmpty, let rewritten = one(count) else { return nil }
            copy.kind = .dice(DiceTerm(count: rewritten, sides: term.sides, modifiers: term.modifiers,
                                       spelling: term.spelling))
        case .group, .repeat, .given:
            return untouched()
        }
        return copy
    }
}

/// The joint outcomes of bound pools' counts already worked out in one statement, by the pool
/// and what its dice and counts were worked out from: a pool bound inside another's body
/// is the same pool for each of the outer pool's outcomes (Year Zero's `roll(10, 5, 5)` binds
/// its skill dice once for each of 66 outcomes of its base dice, its gear dice for each of
/// 396), or one of a few sizes (Shadowrun's `second_chance(27)` rolls again 0 to 27 dice for
/// each of 406 outcomes of the first roll). Each is worked out once.
struct BoundPoolTables {
    /// What a pool's table is worked out from: the term, its number of dice and sides, its
    /// modifiers' values, and the compare points counted.
    struct Key: Hashable {
        var pool: Expr
        var dice: Int
        var sides: Int?
        var inputs: [Number]
        var keys: [PointKey]
    }

    /// The joint outcomes of the counts, and whether a tail of explosions was cut from them.
    struct Table {
        var outcomes: [(counts: [Int], p: Double)]
        var cut: Bool
    }

    /// The most outcomes held in all: past it, tables are worked out again each time.
    static let heldOutcomes = 1 << 18

    private var tables: [Key: Table] = [:]
    private var held = 0

    func table(_ key: Key) -> Table? { tables[key] }

    mutating func store(_ key: Key, _ table: Table) {
        guard held + table.outcomes.count <= BoundPoolTables.heldOutcomes else { return }
        held += table.outcomes.count
        tables[key] = table
    }
}
