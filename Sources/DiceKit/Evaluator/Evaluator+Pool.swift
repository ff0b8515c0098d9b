extension Evaluator {
    /// The value of a term's count or sides, and its roll when it rolled dice (kept for the
    /// breakdown: the `1d4` of `(1d4)d6`).
    private mutating func partValue(_ expr: Expr) throws(DiceError) -> (Number, Roll?) {
        if let literal = try literal(expr) { return (literal, nil) }
        let roll = try evaluate(expr)
        return (roll.value, roll.hasDice ? roll : nil)
    }

    /// Rolls a dice term: count, faces, then modifiers in their fixed order.
    mutating func rollPool(_ term: DiceTerm, at range: SourceRange) throws(DiceError) -> Roll {
        if let literal = term.literalDice, literal.literals == 0 || depth < limits.maxEvaluationDepth,
           let plan = try literalPlan(for: term, faces: literal.faces, at: range) {
            // Count, sides and modifier arguments all literals: what they make was worked out
            // once, and the plan is remembered.
            nodes &+= literal.literals
            try spend(literal.count, at: range)
            return try rollDice(term, count: literal.count, faces: literal.faces, plan: plan, at: range)
        }
        var count = 1
        var countRoll: Roll?
        if let countExpr = term.count {
            let value: Number
            (value, countRoll) = try partValue(countExpr)
            guard case .integer(let whole) = value, whole >= 0 else {
                throw DiceError(.invalidCount(value), at: countExpr.range)
            }
            count = whole
        }
        var sidesRoll: Roll?
        var sidesValue: Number?
        if case .number(let sidesExpr) = term.sides {
            (sidesValue, sidesRoll) = try partValue(sidesExpr)
        }
        let faces = try dieFaces(term, sides: sidesValue, at: range)
        var arguments = ResolvedArguments()
        let plan = try plan(for: term, faces: faces, arguments: &arguments, at: range)
        try spend(count, at: range)
        var roll = try rollDice(term, count: count, faces: faces, plan: plan, at: range)
        let computed = term.hasComputedParts
        if countRoll != nil || sidesRoll != nil || !arguments.rolls.isEmpty || computed, case .pool(var pool) = roll.kind {
            roll.kind = .number  // the pool's storage held once: changed in place, not copied
            pool.countRoll = countRoll
            pool.sidesRoll = sidesRoll
            pool.argumentRolls = arguments.rolls
            if computed {
                let parts = ResolvedParts(count: term.count.map { _ in .integer(count) }, sides: sidesValue,
                                          arguments: arguments.values)
                pool.shownTerm = term.resolved(parts)
            }
            roll.kind = .pool(pool)
        }
        return roll
    }

    /// `count` dice of `faces` under `plan`.
    @inline(__always)
    private mutating func rollDice(_ term: DiceTerm, count: Int, faces: DieFaces, plan: PoolPlan,
                                   at range: SourceRange) throws(DiceError) -> Roll {
        if term.modifiers.isEmpty, case .range(let sides) = faces {
            return try rollPlainPool(term, count: count, sides: sides, plan: plan, at: range)
        }
        return try rollModifiedPool(term, count: count, plan: plan, at: range)
    }

    /// The remembered plan of `term` when its arguments are literals (looked up before its
    /// rules are read), or `nil`.
    @inline(__always)
    private mutating func literalPlan(for term: DiceTerm, faces: DieFaces,
                                      at range: SourceRange) throws(DiceError) -> PoolPlan? {
        if let known = plans.plan(for: term, faces: faces.count) { return known }
        guard let rules = term.literalRules else { return nil }
        return try cachedPlan(for: term, faces: faces, rules: rules, at: range)
    }

    /// The plan of a term whose arguments are literals (`rules`, its `literalRules`), made
    /// once and remembered.
    mutating func cachedPlan(for term: DiceTerm, faces: DieFaces, rules: PoolRules,
                             at range: SourceRange) throws(DiceError) -> PoolPlan {
        if let known = plans.plan(for: term, faces: faces.count) { return known }
        let cached = try PoolPlan(faces: faces, rules: rules, at: range)
        plans.store(cached, for: term, faces: faces.count)
        return cached
    }

    /// The plan of `term`'s pool: remembered for terms whose arguments are literals. The
    /// arguments that are not literals are evaluated into `arguments`.
    mutating func plan(for term: DiceTerm, faces: DieFaces, arguments: inout ResolvedArguments,
                       at range: SourceRange) throws(DiceError) -> PoolPlan {
        if let conflict = term.modifierConflict { throw conflict }
        if let rules = term.literalRules {
            return try cachedPlan(for: term, faces: faces, rules: rules, at: range)
        }
        let rules = try resolveRules(term.modifiersInStageOrder, argumentRolls: &arguments.rolls,
                                     values: &arguments.values)
        return try PoolPlan(faces: faces, rules: rules, at: range)
    }

    /// The rules of `ordered` (checked modifiers in the order they apply), their arguments
    /// evaluated in that order; the rolls of arguments that rolled dice go to `argumentRolls`.
    /// The values of the arguments that are not literals go to `values`, by their range.
    mutating func resolveRules(_ ordered: [DiceModifier], argumentRolls: inout [Roll],
                               values: inout [SourceRange: Number]) throws(DiceError) -> PoolRules {
        try PoolRules.resolve(ordered, invalid: { $0 }) { (expr) throws(DiceError) -> Number in
            if case .number(let literal) = expr.kind { return literal }
            let roll = try evaluate(expr)
            if roll.hasDice { argumentRolls.append(roll) }
            values[expr.range] = roll.value
            return roll.value
        }
    }

    /// The faces of `term`'s dice; `sides` is the value of its sides expression, if any.
    func dieFaces(_ term: DiceTerm, sides: Number?, at range: SourceRange) throws(DiceError) -> DieFaces {
        switch term.sides {
        case .number(let sidesExpr):
            guard let sides, case .integer(let whole) = sides, whole >= 1 else {
                throw DiceError(.invalidSides(sides ?? .integer(0)), at: sidesExpr.range)
            }
            return .range(whole)
        case .percentile:
            return .range(100)
        case .fate:
            return .list([-1, 0, 1])
        case .faces(let list):
            guard !list.isEmpty else { throw DiceError(.emptyFaces, at: range) }
            return .list(list)
        }
    }

    // MARK: - Rolling

    /// `NdS` with no modifiers: a running sum, recording at most `maxRecordedDice` dice.
    private mutating func rollPlainPool(_ term: DiceTerm, count: Int, sides: Int, plan: PoolPlan,
                                        at range: SourceRange) throws(DiceError) -> Roll {
        let recorded = Swift.min(count, limits.maxRecordedDice)
        var dice = takeDieScratch()
        defer { keepDieScratch(&dice) }
        dice.reserveCapacity(recorded)
        var sum = 0
        let cannotOverflow = !count.multipliedReportingOverflow(by: sides).overflow
        var rolled = 0
        // The generator's state in a local while the loop runs: kept in `self`, each roll
        // stored it and loaded it back (a chain through memory, and a loop whose speed moved
        // by a third with where the linker put it).
        var generator = source
        defer { source = generator }
        while rolled < count {
            let chunkEnd = Swift.min(count, rolled + 65_536)
            if cannotOverflow {
                while rolled < chunkEnd {
                    let face = generator.roll(sides: sides)
                    if rolled < recorded { dice.append(Die(value: face)) }
                    sum &+= face
                    rolled += 1
                }
            } else {
                while rolled < chunkEnd {
                    let face = Swift.min(Swift.max(generator.roll(sides: sides), 1), sides)
                    if rolled < recorded { dice.append(Die(value: face)) }
                    let (total, overflow) = sum.addingReportingOverflow(face)
                    guard !overflow else { throw DiceError(.overflow, at: range) }
                    sum = total
                    rolled += 1
                }
            }
            if rolled < count, let shouldStop, shouldStop() { throw DiceError(.interrupted, at: range) }
        }
        try hold(recorded / 8, at: range)
        let reused = recycler.pool()
        let pool = dice.withUnsafeBufferPointer { rolled in
            DicePool(term: term, dice: rolled, omitted: count - recorded, lowestFace: plan.lowestFace,
                     highestFace: plan.highestFace, value: .integer(sum), reusing: reused)
        }
        return Roll(.pool(pool), value: .integer(sum))
    }

    /// Any pool with modifiers: every die is kept in memory for keep/drop and counting,
    /// unless there are more than are listed and `largePoolTally` can tally them (`rollLargePool`).
    private mutating func rollModifiedPool(_ term: DiceTerm, count: Int, plan: PoolPlan,
                                           at range: SourceRange) throws(DiceError) -> Roll {
        if count > limits.maxRecordedDice, let tally = largePoolTally(plan, count: count) {
            return try rollLargePool(term, count: count, plan: plan, tally: tally, at: range)
        }
        var entries = takeDieScratch()
        defer { keepDieScratch(&entries) }
        if plan.hasRerolls || plan.explosion != nil {
            // Rerolls and explosions may roll far more dice than the count: past a bound
            // they are tallied, not kept (`rollPoolEntries`).
            switch try rollPoolEntries(term, count: count, plan: plan, reusing: &entries, at: range) {
            case .every(let all): entries = all
            case .bounded(let roll): return roll
            }
        } else {
            entries.reserveCapacity(count)
            try rollDice(count, plan, into: &entries, at: range)
        }
        // Keep and drop, in written order, over the dice that count.
        for step in plan.keeps { step.apply(to: &entries) }
        var value = 0
        if let counting = plan.counting {
            for index in entries.indices where entries[index].isCounted && counting.matches(entries[index].value) {
                entries[index].flags.insert(.success)
                value += 1
            }
        } else {
            var sum = CheckedSum()
            for die in entries where die.isCounted { sum.add(die.value) }
            guard let total = sum.total else { throw DiceError(.overflow, at: range) }
            value = total
        }
        if let failures = plan.failures {
            for index in entries.indices where entries[index].isCounted && failures.matches(entries[index].value) {
                entries[index].flags.insert(.failure)
                let (less, overflow) = value.subtractingReportingOverflow(1)
                guard !overflow else { throw DiceError(.overflow, at: range) }
                value = less
            }
        }
        if let ascending = plan.rules.sortAscending {
            entries.sort { ascending ? $0.value < $1.value : $0.value > $1.value }
        }
        let total = entries.count
        let recorded = Swift.min(total, limits.maxRecordedDice)
        try hold(recorded / 8, at: range)
        let reused = recycler.pool()
        let pool = entries.withUnsafeBufferPointer { rolled in
            DicePool(term: term, dice: UnsafeBufferPointer(rebasing: rolled[..<recorded]), omitted: total - recorded,
                     lowestFace: plan.lowestFace, highestFace: plan.highestFace, isCount: plan.counting != nil,
                     value: .integer(value), reusing: reused)
        }
        return Roll(.pool(pool), value: .integer(value))
    }

    /// The reused array of a pool's dice while they are rolled, empty: a pool's dice are
    /// copied into the pool's own storage when rolled, so the array is not kept.
    @inline(__always)
    private mutating func takeDieScratch() -> [Die] {
        var dice: [Die] = []
        swap(&dice, &dieScratch)
        dice.removeAll(keepingCapacity: true)
        return dice
    }

    /// Gives back the array `takeDieScratch` lent, unless it grew large (a huge pool's).
    @inline(__always)
    private mutating func keepDieScratch(_ dice: inout [Die]) {
        if dice.capacity <= Self.dieScratchLimit { swap(&dice, &dieScratch) }
    }

    /// The most dice the reused array keeps room for between pools.
    private static var dieScratchLimit: Int { 4_096 }

    /// `count` dice rolled by `plan` into `sink`, asking about Ctrl-C every 65,536 dice.
    @inline(__always)
    mutating func rollDice<Sink: DieSink>(_ count: Int, _ plan: PoolPlan, into sink: inout Sink,
                                          at range: SourceRange) throws(DiceError) {
        for index in 0..<count {
            try rollDie(plan, into: &sink, at: range)
            if index & 0xFFFF == 0xFFFF, let shouldStop, shouldStop() { throw DiceError(.interrupted, at: range) }
        }
    }

    /// One original die: its rerolls, then its explosion chain.
    @inline(__always)
    mutating func rollDie<Sink: DieSink>(_ plan: PoolPlan, into entries: inout Sink,
                                         at range: SourceRange) throws(DiceError) {
        var (face, flags) = nextFace(plan)
        if plan.hasRerolls { try settle(plan, &face, &flags, into: &entries, at: range) }
        guard let explosion = plan.explosion else {
            entries.append(face, flags)
            return
        }
        switch explosion.kind {
        case .explode, .penetrate, .once:
            var extra = false
            while true {
                // `xo`: an extra die never explodes.
                let explodes = !(extra && explosion.kind == .once) && explosion.point.matches(face)
                if explodes { flags.insert(.exploded) }
                var value = face
                if extra {
                    flags.insert(.extra)
                    if explosion.kind == .penetrate {
                        let (less, overflow) = face.subtractingReportingOverflow(1)
                        guard !overflow else { throw DiceError(.overflow, at: range) }
                        value = less
                        flags.insert(.penetrated)
                    }
                }
                entries.append(value, flags)
                guard explodes else { return }
                try spend(1, at: range)
                (face, flags) = nextFace(plan)
                // An extra die stays extra through its rerolls.
                flags.insert(.extra)
                if plan.hasRerolls { try settle(plan, &face, &flags, into: &entries, at: range) }
                extra = true
            }
        case .compound:
            var total = face
            var current = face
            var compounded = false
            while explosion.point.matches(current) {
                try spend(1, at: range)
                var nextFlags: Die.Flags
                (current, nextFlags) = nextFace(plan)
                if plan.hasRerolls { try settle(plan, &current, &nextFlags, into: &entries, at: range) }
                flags.formUnion(nextFlags.intersection(.clamped))
                let (sum, overflow) = total.addingReportingOverflow(current)
                guard !overflow else { throw DiceError(.overflow, at: range) }
                total = sum
                compounded = true
            }
            if compounded { flags.formUnion([.compounded, .exploded]) }
            entries.append(total, flags)
        }
    }

    /// A fresh face, clamped.
    @inline(__always)
    private mutating func nextFace(_ plan: PoolPlan) -> (Int, Die.Flags) {
        let face = plan.faces.face(at: source.roll(sides: plan.faces.count))
        if plan.rules.clamps.isEmpty { return (face, []) }
        let clamped = plan.clamp(face)
        return (clamped, clamped == face ? [] : .clamped)
    }

    /// Rerolls `face` while a recursive reroll matches, and once for a matching `ro`.
    private mutating func settle<Sink: DieSink>(_ plan: PoolPlan, _ face: inout Int, _ flags: inout Die.Flags,
                                                into entries: inout Sink, at range: SourceRange) throws(DiceError) {
        var usedOnce = false
        while true {
            let always = plan.rerollAlways.contains { $0.matches(face) }
            guard always || (!usedOnce && plan.rerollOnce.contains { $0.matches(face) }) else { return }
            if !always { usedOnce = true }
            entries.append(face, flags.union(.rerolled))
            try spend(1, at: range)
            (face, flags) = nextFace(plan)
        }
    }
}

/// Where `rollDie` puts each die it rolls: the whole record, or only the values that count.
protocol DieSink {
    mutating func append(_ value: Int, _ flags: Die.Flags)
}

extension Array: DieSink where Element == Die {
    @inline(__always)
    mutating func append(_ value: Int, _ flags: Die.Flags) { append(Die(value: value, flags: flags)) }
}

/// The values of the dice that count (rerolled ones left out), for the value-only path.
struct ValueSink: DieSink {
    var values: [Int]

    @inline(__always)
    mutating func append(_ value: Int, _ flags: Die.Flags) {
        if !flags.contains(.rerolled) { values.append(value) }
    }
}

/// A sum of integers that fails only when the total does not fit, whatever the order
/// of the terms: the value path adds kept dice sorted, the full path in rolled order.
struct CheckedSum {
    private var partial = 0
    /// Times the partial sum wrapped upward (positive) or downward (negative).
    private var wraps = 0

    @inline(__always)
    mutating func add(_ term: Int) {
        let (next, overflow) = partial.addingReportingOverflow(term)
        if overflow { wraps += term > 0 ? 1 : -1 }
        partial = next
    }

    /// The total, or `nil` when it is outside `Int`.
    var total: Int? { wraps == 0 ? partial : nil }
}

/// An exact sum of integers and of integers repeated (`value × times`), in 128 bits:
/// it fails only when the total does not fit in `Int`.
/// A pool's value from its kept dice given as runs of equal values (face counts): the sum,
/// or the count of `cs` matches, less one per `df` match, as `rollModifiedPool` works it out.
struct KeptRunsValue {
    private let counting: ResolvedPoint?
    private let failures: ResolvedPoint?
    private var sum = WideSum()
    private var successes = 0
    private var failed = 0

    init(_ plan: PoolPlan) {
        counting = plan.counting
        failures = plan.failures
    }

    /// `kept` dice showing `value`.
    mutating func add(_ value: Int, kept: Int) {
        if let counting {
            if counting.matches(value) { successes += kept }
        } else {
            sum.add(value, times: kept)
        }
        if let failures, failures.matches(value) { failed += kept }
    }

    /// The value, or an overflow error at `range`.
    func total(at range: SourceRange) throws(DiceError) -> Int {
        var value = successes
        if counting == nil {
            guard let whole = sum.total else { throw DiceError(.overflow, at: range) }
            value = whole
        }
        let (less, overflow) = value.subtractingReportingOverflow(failed)
        guard !overflow else { throw DiceError(.overflow, at: range) }
        return less
    }
}

struct WideSum {
    private var high = 0
    private var low: UInt = 0

    @inline(__always)
    mutating func add(_ value: Int, times: Int) {
        let product = value.multipliedFullWidth(by: times)
        let (sum, carry) = low.addingReportingOverflow(product.low)
        low = sum
        high = high &+ product.high &+ (carry ? 1 : 0)
    }

    /// The total, or `nil` when it is outside `Int`.
    var total: Int? {
        let result = Int(bitPattern: low)
        return high == (result < 0 ? -1 : 0) ? result : nil
    }
}

/// The values of the dice that count, counted by value: those in `base..<base + span`
/// in an array, any others (compounded totals) in a dictionary.
struct FaceCountSink: DieSink {
    var counts: [Int]
    let base: Int
    let span: Int
    var others: [Int: Int] = [:]
    /// Dice counted in all.
    var total = 0

    /// Counts in `counts` (its first `span` slots, set to zero) for values from `base`.
    init(counts: [Int], base: Int, span: Int) {
        self.counts = counts
        if self.counts.count < span { self.counts = [Int](repeating: 0, count: span) }
        for index in 0..<span { self.counts[index] = 0 }
        self.base = base
        self.span = span
    }

    @inline(__always)
    mutating func append(_ value: Int, _ flags: Die.Flags) {
        if flags.contains(.rerolled) { return }
        total += 1
        let slot = value &- base
        if UInt(bitPattern: slot) < UInt(bitPattern: span) {
            counts[slot] &+= 1
        } else {
            others[value, default: 0] += 1
        }
    }

    /// Each value counted, with how many times, in ascending order of value.
    func runs() -> [(value: Int, count: Int)] {
        var result: [(value: Int, count: Int)] = others.map { ($0.key, $0.value) }
        for slot in 0..<span where counts[slot] > 0 { result.append((base + slot, counts[slot])) }
        result.sort { $0.value < $1.value }
        return result
    }
}

/// What a pool's computed modifier arguments (`kh(n)`, `r<(1d3)`) came to: the rolls of
/// those that rolled dice, for the result tree, and the values of all of them, by range,
/// for the notation shown.
struct ResolvedArguments {
    var rolls: [Roll] = []
    var values: [SourceRange: Number] = [:]
}
