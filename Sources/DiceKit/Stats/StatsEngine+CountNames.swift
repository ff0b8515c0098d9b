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
    /// Short, so that most fit a small string (15 bytes), which the roller's frames hash and
    /// compare without reaching into the heap.
    static func countName(_ name: String, _ index: Int) -> String { "#\(index) \(name)" }

    /// Whether `name` is one of `countName`'s.
    static func isCountName(_ name: String) -> Bool { name.hasPrefix("#") }

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
        var reads = false
        expr.forEachChild { child in reads = reads || defaultsRead(name, in: child, checked: &checked) }
        return reads
    }

    /// The compare points of `count(name, cp)` in `body` (as `collectCounts` finds them) whose
    /// value reads the pool's name or a name bound inside `body`, itself or through a macro's
    /// default: it can be worked out only where the count is, not at the `let`.
    /// `let p = 2d6 in count(p, <=(p))` and `let q = 2d6 in let x = 1d6 in count(q, <(x))`
    /// rolled, and failed in `stats` with "unknown name" for a name in scope.
    func pointsReadingBody(of name: String, in body: Expr) -> Set<ComparePoint> {
        var found = Set<ComparePoint>()
        func visit(_ expr: Expr, _ bound: Set<String>) {
            if case .count(let target, let point) = expr.kind, case .name(name) = target.kind,
               !SweepSharing.namesRead(by: point.value, environment: environment).isDisjoint(with: bound) {
                found.insert(point)
            }
            if case .binding(let inner, let value, let rest) = expr.kind {
                visit(value, bound)
                // A `let` of the same name hides the pool in its body.
                if inner != name { visit(rest, bound.union([inner])) }
                return
            }
            expr.forEachChild { visit($0, bound) }
        }
        visit(body, [name])
        return found
    }

    /// The compare points a bound pool is counted with, as `countKeys` files them.
    struct CountKeys {
        /// The key of each point of one value (`count(p, >=5)`), each once.
        var keys: [PointKey] = []
        /// The place in `keys` of each point that has a key.
        var places: [ComparePoint: Int] = [:]
        /// The key of each value a point of several values may take, when those read no name
        /// of the body (`count(q, <(1d6))`, a parameter standing for a roll): they tell apart
        /// the faces those points will. `nil` when some point is worked out only at the count
        /// (`pointsReadingBody`), or may take too many values: each face is then apart.
        var rolled: [PointKey]? = []

        /// The most values of such points told apart: past it, each face is its own class.
        static let rolledLimit = 64
    }

    /// The keys of the compare points `points` a bound pool is counted with. A point of
    /// `local` (`pointsReadingBody`), or whose value is not one value, has none: it is counted
    /// where the count is, from the dice of each outcome of the pool (`boundCount`).
    func countKeys(_ points: [ComparePoint], local: Set<ComparePoint>) throws(StatsFailure) -> CountKeys {
        var found = CountKeys()
        for point in points where found.places[point] == nil {
            guard !local.contains(point) else {
                found.rolled = nil
                continue
            }
            let values: Distribution
            do {
                values = try outcomes(of: point.value)
            } catch .dice {
                // It fails where the count is, only when BODY gets there: `let p = 2d6 in
                // if p > 100 then count(p, <(1/0)) else 1` is 1, rolled, and was an error.
                found.rolled = nil
                continue
            }
            guard let value = values.constantOutcome else {
                values.forEachValue { value, _ in found.rolled?.append(PointKey(op: point.op, value: value)) }
                if (found.rolled?.count ?? 0) > CountKeys.rolledLimit { found.rolled = nil }
                continue
            }
            let key = PointKey(op: point.op, value: value)
            if let place = found.keys.firstIndex(of: key) {
                found.places[point] = place
            } else {
                found.places[point] = found.keys.count
                found.keys.append(key)
            }
        }
        return found
    }

    /// The roller's check of each of `points` that orders (`checkCountOrdering`), counting the
    /// pool, group or repeat `value` bound by `let`: made once its parts are rolled, as the
    /// roller rolls them at the `let` and compares at the count, so that
    /// `let p = 2d(1d2 - 1) in count(p, <(1/0))` fails on its sides first. A point of `local`,
    /// or whose value fails, is checked at the count, after its value (`boundCount`): the
    /// roller works out `let p = 2d{"a"} in count(p, <(1/0))` to a division by zero.
    func checkCountOrderings(_ points: [ComparePoint], local: Set<ComparePoint>, of value: Expr) throws(StatsFailure) {
        let members = try possibleMembers(value)
        guard members.contains(where: { !$0.isEmpty }) else { return }
        for point in points where point.op != .equal && point.op != .notEqual && !local.contains(point) {
            let against: Distribution
            do { against = try outcomes(of: point.value) } catch .dice { continue }
            try checkCountOrdering(point, members: members, against: against)
        }
    }

    /// `count(p, cp)` of a pool bound by `let`, under one of its outcomes: the count filed under
    /// the point's key, else (a point worked out only here) how many of the kept dice match
    /// each value of the point, mixed over them. `let p = 2d6 in count(p, <=(p))` is 2 for
    /// every roll; `let q = 2d6 in count(q, <(1d6))` is 0, 1 or 2 for a roll of 3 and 5.
    func boundCount(_ pool: BoundPoolOutcome, _ point: ComparePoint) throws(StatsFailure) -> Distribution {
        let against = try outcomes(of: point.value)
        if let value = against.constantOutcome, let matches = pool.counts[PointKey(op: point.op, value: value)] {
            return Distribution(constant: .integer(matches))
        }
        guard let dice = pool.dice else { throw .invariant("a count of a bound pool that was not worked out") }
        // As the roller: each die compared with the point's value, which must be numbers to order.
        try checkCountOrdering(point, members: dice.map { [$0.face] }, against: against)
        try meter.charge(WorkMeter.product(against.count, dice.count + 1))
        var result = DistributionAccumulator()
        against.forEachValue { value, p in
            let key = PointKey(op: point.op, value: value)
            result.add(dice.reduce(0) { key.matches($1.face) ? $0 &+ $1.count : $0 }, p)
        }
        return try meter.checkSize(result.build())
    }

    /// `expr` with each `count(name, cp)` (not inside a `let` of the same name) replaced by the
    /// name `names[cp]`, at the count's range; `nil` when one has no name in `names`, or sits
    /// in a modifier's arguments or a dice term's sides (`Expr.mappingChildren`).
    static func replacingCounts(of name: String, in expr: Expr, names: [ComparePoint: String]) -> Expr? {
        if case .count(let target, let point) = expr.kind, case .name(name) = target.kind {
            return names[point].map { Expr(.name($0), expr.range) }
        }
        if case .binding(name, let value, let body) = expr.kind {
            // A `let` of the same name hides the pool in its body.
            guard let mapped = replacingCounts(of: name, in: value, names: names) else { return nil }
            var copy = expr
            copy.kind = .binding(name: name, value: mapped, body: body)
            return copy
        }
        return expr.mappingChildren { replacingCounts(of: name, in: $0, names: names) }
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

    /// The joint outcomes of the counts, and whether a tail of explosions was cut from them
    /// and its mass.
    struct Table {
        var outcomes: [(counts: [Int], p: Double)]
        var cut: Bool
        var cutMass: Double
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
