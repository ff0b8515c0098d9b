/// The body of a bound pool, worked out once for each outcome of the dice that it can tell apart.
///
/// A body that rolls nothing (Shadowrun's `outcome(count(p, >=5), count(p, =1), ...)`) has one
/// value under each outcome: the roller's own walk (`Evaluator.value(of:)`) works it out, the
/// pool shown to it as one die per kept die, each showing a face of its class. That is about
/// 10 µs an outcome for Shadowrun's `outcome` over 30 dice (most of it the roller listing and
/// counting the dice shown), where a distribution of one outcome built through the engine took
/// 20 to 60 µs. Any other body is worked out as a distribution, the pool bound as its counts.
extension StatsEngine {
    /// What working out a body that rolls nothing costs for one outcome: measured at about
    /// 10 µs for Shadowrun's `outcome` macro over a pool of 30 dice (a release build, a loaded
    /// machine), as 10 macro uses.
    static let fixedBodyCost = 10 * macroUseCost

    /// The most dice a pool shown to the roller may have: past it, showing them costs more
    /// than working the body out as a distribution.
    static let shownDiceLimit = 4_096

    /// The mixture of `body` over `outcomes` of the pool bound to `name`.
    func bodyDistribution(_ body: Expr, binding name: String,
                          _ outcomes: [(outcome: BoundPoolOutcome, p: Double)]) throws(StatsFailure) -> Distribution {
        var result = ValueAccumulator()
        let largest = outcomes.map { $0.outcome.diceShown }.max() ?? 0
        var macros = Set<String>()
        if largest <= StatsEngine.shownDiceLimit,
           rollsNothing(body, locals: [name], inMacro: false, macros: &macros) {
            var evaluator = Evaluator(environment: environment, limits: limits, source: NoDiceSource())
            var frame = rollerFrame()
            for (outcome, p) in outcomes {
                try meter.charge(StatsEngine.fixedBodyCost)
                evaluator.startStatement()
                evaluator.depth = depth
                evaluator.macroDepth = macroDepth
                frame[name] = Bound(value: outcome.value, pool: outcome.shown)
                evaluator.frames.append(frame)
                let value: Value
                do {
                    value = try evaluator.value(of: body)
                } catch {
                    throw .dice(error)
                }
                guard !evaluator.source.asked else { throw .invariant("a bound pool's body that rolls nothing rolled a die") }
                result.add(value, p)
            }
            return try meter.checkSize(result.build())
        }
        for (outcome, p) in outcomes {
            // Each outcome works the body out afresh: priced like macro uses, so that
            // pools of many joint outcomes keep to the time bound.
            try meter.charge(StatsEngine.boundOutcomeCost)
            let part = try withBinding(name, .pool(outcome)) { () throws(StatsFailure) in try self.outcomes(of: body) }
            try meter.charge(part.storageSize)
            try mix(part, times: p, into: &result)
        }
        return try meter.checkSize(result.build())
    }

    /// Whether `expr` rolls no dice and conditions on nothing (`given`), with the names bound
    /// now: `locals` are bound inside it (by `let`, or a macro's parameters), a macro's body
    /// sees only its parameters. Macros in `macros` are taken as rolling nothing (each is
    /// looked at once).
    func rollsNothing(_ expr: Expr, locals: Set<String>, inMacro: Bool, macros: inout Set<String>) -> Bool {
        switch expr.kind {
        case .dice, .given:
            return false
        case .name(let name):
            if locals.contains(name) { return true }
            if !inMacro, let parameter = frames.last?[name] {
                switch parameter {
                case .value: return true
                case .distribution(let distribution): return distribution.fixedOutcome != nil
                case .pool(let pool): return pool.diceShown <= StatsEngine.shownDiceLimit
                }
            }
            return macroRollsNothing(name, locals: locals, inMacro: inMacro, macros: &macros)
        case .call(let name, let arguments):
            for argument in arguments where !rollsNothing(argument, locals: locals, inMacro: inMacro, macros: &macros) {
                return false
            }
            return macroRollsNothing(name, locals: locals, inMacro: inMacro, macros: &macros)
        case .binding(let name, let value, let body):
            return rollsNothing(value, locals: locals, inMacro: inMacro, macros: &macros)
                && rollsNothing(body, locals: locals.union([name]), inMacro: inMacro, macros: &macros)
        default:
            for child in expr.children where !rollsNothing(child, locals: locals, inMacro: inMacro, macros: &macros) {
                return false
            }
            return true
        }
    }

    /// Whether the macro `name` (if it is one) rolls nothing, its defaults (worked out where
    /// it is used) included.
    private func macroRollsNothing(_ name: String, locals: Set<String>, inMacro: Bool, macros: inout Set<String>) -> Bool {
        guard case .macro(let macro) = environment[name], macros.insert(name).inserted else { return true }
        for parameter in macro.parameters {
            guard let expression = macro.defaults[parameter] else { continue }
            if !rollsNothing(expression, locals: locals, inMacro: inMacro, macros: &macros) { return false }
        }
        return rollsNothing(macro.body, locals: Set(macro.parameters), inMacro: true, macros: &macros)
    }
}

extension BoundPoolOutcome {
    /// What a body can see of a bound pool's outcome: the counts of its compare points, and its value.
    struct Seen: Hashable {
        var counts: [Int]
        var value: Value
    }

    /// The outcome seen as `seen`, counting with `keys`, its kept dice `dice`.
    init(keys: [PointKey], seen: Seen, dice: [(face: Value, count: Int)]) {
        var counts: [PointKey: Int] = [:]
        for (key, count) in zip(keys, seen.counts) { counts[key] = count }
        self.init(value: seen.value, counts: counts, dice: dice)
    }

    /// How many kept dice it has.
    var diceShown: Int { dice.reduce(0) { $0 &+ $1.count } }

    /// The pool as the roller could show it: its kept dice, each showing a face of its
    /// class, worth the pool's value.
    var shown: Roll {
        var members: [GroupRoll.Member] = []
        members.reserveCapacity(diceShown)
        for (face, count) in dice {
            let member = GroupRoll.Member(roll: Roll(.number, value: face), kept: true, success: false, failure: false)
            members.append(contentsOf: repeatElement(member, count: count))
        }
        return Roll(.group(GroupRoll(members: members, isRepeat: false, modifiers: [], isCount: false)), value: value)
    }
}

/// The die source of a body that rolls nothing: asked for a roll, it notes it.
struct NoDiceSource: DieSource {
    /// Whether a roll was asked for.
    private(set) var asked = false

    mutating func roll(sides: Int) -> Int {
        asked = true
        return 1
    }
}
