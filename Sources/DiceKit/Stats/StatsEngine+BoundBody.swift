/// The body of a bound pool, worked out once for each outcome of the dice that it can tell apart.
///
/// A body that rolls nothing (Shadowrun's `outcome(count(p, >=5), count(p, =1), ...)`) has one
/// value under each outcome: the roller's own walk works it out (`fixedValue(of:)`), the
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

    /// The mixture of `body` over `outcomes` of the pool or group bound to `name`.
    func bodyDistribution(_ body: Expr, binding name: String,
                          _ outcomes: [(outcome: BoundPoolOutcome, p: Double)]) throws(StatsFailure) -> Distribution {
        var result = ValueAccumulator()
        var tryFixed = true
        for (outcome, p) in outcomes where p > 0 {
            // Each outcome works the body out afresh: priced like macro uses, so that pools of
            // many joint outcomes keep to the time bound.
            try meter.charge(tryFixed ? StatsEngine.fixedBodyCost : StatsEngine.boundOutcomeCost)
            let part = try withBinding(name, .pool(outcome)) { () throws(StatsFailure) in
                try self.outcomes(ofEach: body, tryFixed: &tryFixed)
            }
            try meter.charge(part.storageSize)
            try mix(part, times: p, into: &result)
        }
        return try meter.checkSize(result.build())
    }
}

extension StatsEngine {
    /// What working out a body once more in `mixture(of:binding:)` costs besides the nodes
    /// walked: the frame's names set and the value filed, about 0.3 µs.
    static let fixedCaseCost = macroUseCost / 4

    /// The mixture of `body` with `names` bound, case by case, to `value(case, name)`, each
    /// case of chance `chance(case)`, over `0..<cases`: the body's one value by the roller's
    /// walk while it rolls nothing, else its distribution (charged `walkCost` a case besides
    /// its own work).
    ///
    /// One roller and one frame serve every case, only the names changed from case to case,
    /// where `fixedValue` makes both afresh: with the counts read through names
    /// (`replacingCounts`), Shadowrun's `push(20, 7)` (16,000 cases) went from about 136 ms
    /// to about 38 ms of CPU, Savage Worlds' `test(12, 5)` (10,560) from 31 to 19 (release,
    /// whole process, a loaded machine).
    func mixture(of body: Expr, binding names: [String], cases: Int, walkCost: Int = 0, chance: (Int) -> Double,
                 value: (Int, Int) -> Value) throws(StatsFailure) -> Distribution {
        // Each case costs at least its frame and filing: too many cases are refused before any.
        try meter.ensureAffordable(WorkMeter.product(cases, StatsEngine.fixedCaseCost))
        var result = ValueAccumulator()
        var evaluator = fixedEvaluator()
        var frame = rollerFrame()
        let fixedBody = try hoistingInvariantLets(body, binding: names, into: &frame, with: &evaluator)
        // Each name's place in the frame, found once: the names are bound anew for each case.
        let slots = names.map { name in
            if let slot = frame.index(of: name) { return slot }
            frame.bindNew(name, Bound(value: .integer(0)))
            return frame.names.count - 1
        }
        var fixed = true
        for index in 0..<Swift.max(cases, 0) {
            let p = chance(index)
            guard p > 0 else { continue }
            if fixed {
                try meter.charge(StatsEngine.fixedCaseCost)
                for (position, slot) in slots.enumerated() { frame.setBound(Bound(value: value(index, position)), at: slot) }
                if let outcome = try walk(fixedBody, in: &frame, with: &evaluator) {
                    result.add(outcome, p)
                    continue
                }
                // It rolls dice (or fails): the distribution's walk, for this case and the rest.
                fixed = false
            }
            try meter.charge(walkCost)
            var bound = frames.last ?? [:]
            for (position, name) in names.enumerated() { bound[name] = .value(value(index, position)) }
            frames.append(bound)
            defer { frames.removeLast() }
            let part = try scalingCuts(by: p) { () throws(StatsFailure) in try self.outcomes(of: body) }
            try meter.charge(part.storageSize)
            try mix(part, times: p, into: &result)
        }
        return try meter.checkSize(result.build())
    }

    /// `body` without its leading `let`s whose values read none of `names` and roll nothing:
    /// each such value worked out once, by `evaluator`, and bound in `frame` (the roller's
    /// walk of the body for each case then starts inside them). Shadowrun's
    /// `second_chance(27)` rolls again for each of 406 first rolls, and its body for each of
    /// the 1 to 28 outcomes of the second reads the first's `outcome(...)`, the same for all:
    /// worked out 406 times, not 7,700: from about 47 ms to about 38 ms of CPU whole process.
    private func hoistingInvariantLets(_ body: Expr, binding names: [String], into frame: inout Frame<Bound>,
                                       with evaluator: inout Evaluator<NoDiceSource>) throws(StatsFailure) -> Expr {
        var inner = body
        let varying = Set(names)
        while case .binding(let name, let value, let rest) = inner.kind, !varying.contains(name) {
            // What the roller binds as no pool: a value made by an operation or a macro.
            switch value.kind {
            case .call, .chain, .function, .comparison, .tally, .number, .text, .unary, .power, .logical, .not, .field:
                break
            default:
                return inner
            }
            var uses: [String: Int] = [:]
            StatsEngine.countUses(in: value, of: varying, weight: 1, into: &uses)
            guard uses.isEmpty, !names.contains(where: { name in
                var checked = Set<String>()
                return defaultsRead(name, in: value, checked: &checked)
            }) else {
                return inner
            }
            guard let fixed = try walk(value, in: &frame, with: &evaluator) else {
                evaluator.source = NoDiceSource()
                return inner
            }
            frame[name] = Bound(value: fixed)
            inner = rest
        }
        return inner
    }

    /// The mixture of `body`, a bound pool's body whose counts are read through `names`
    /// (`replacingCounts`), over `outcomes` of those counts, each given in `names`' order.
    func countedBodyDistribution(_ body: Expr, names: [String],
                                 _ outcomes: [(counts: [Int], p: Double)]) throws(StatsFailure) -> Distribution {
        try mixture(of: body, binding: names, cases: outcomes.count, walkCost: StatsEngine.boundOutcomeCost,
                    chance: { outcomes[$0].p }, value: { .integer(outcomes[$0].counts[$1]) })
    }
}

extension BoundPoolOutcome {
    /// What a body can see of a bound pool's outcome: the counts of its compare points, and its value.
    struct Seen: Hashable {
        var counts: [Int]
        var value: Value
        /// The dice of each class, when the body sees more of them than counts and value.
        var split: [Int] = []
        /// With `split`, the joint outcome of the pool's rolled parts (count, sides, modifier
        /// arguments) whose classes it counts: those of another may differ.
        var parts = 0
    }

    /// Outcomes a body tells apart, each once in the order first met, their chances added.
    struct SeenOutcomes {
        private var slots: [Seen: Int] = [:]
        private(set) var list: [(outcome: BoundPoolOutcome, p: Double)] = []

        /// Adds `p` to the outcome seen as `seen` (counting with `keys`), made with its kept
        /// dice `dice` when first met.
        mutating func add(_ seen: Seen, _ p: Double, keys: [PointKey], dice: () -> [(face: Value, count: Int)]) {
            if let slot = slots[seen] {
                list[slot].p += p
            } else {
                slots[seen] = list.count
                list.append((BoundPoolOutcome(keys: keys, seen: seen, dice: dice()), p))
            }
        }
    }

    /// The outcome seen as `seen`, counting with `keys`, its kept dice `dice`.
    init(keys: [PointKey], seen: Seen, dice: [(face: Value, count: Int)]) {
        var counts: [PointKey: Int] = [:]
        for (key, count) in zip(keys, seen.counts) { counts[key] = count }
        self.init(value: seen.value, counts: counts, dice: dice)
    }

    /// The pool as the roller could show it: its kept dice, each showing a face of its
    /// class, worth the pool's value; `nil` when it has no dice to show, or more than
    /// `StatsEngine.shownDiceLimit`.
    var shown: Roll? {
        guard let dice else { return nil }
        let count = dice.reduce(0) { $0 &+ $1.count }
        guard count <= StatsEngine.shownDiceLimit else { return nil }
        var members: [GroupRoll.Member] = []
        members.reserveCapacity(count)
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
