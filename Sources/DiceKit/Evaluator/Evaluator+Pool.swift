extension Evaluator {
    /// The value of a term's count or sides (or a repeat's count), and its roll when it rolled
    /// dice (kept for the breakdown: the `1d4` of `(1d4)d6`).
    mutating func partValue(_ expr: Expr, _ what: String) throws(DiceError) -> (Number, Roll?) {
        if let literal = try literal(expr) { return (try number(literal, for: what, at: expr.range), nil) }
        let roll = try evaluate(expr)
        return (try number(roll.value, for: what, at: expr.range), roll.hasDice ? roll : nil)
    }

    /// The value alone of a dice term of at most 8 literal dice of `1...sides` that are only
    /// kept or dropped (`4d6kh3`, `3d6`), as `rollPool` would roll it (the same dice, nodes
    /// walked, work and parts held); `nil` for any other expression. While no breakdown is
    /// built, the walk asks it before it looks at the node's kind (and `leafValue` before it
    /// walks a node): the term is read out of the expression only to find its semantics
    /// (`smallKeep(of:)`), so it is not copied, retained and released around the roll as
    /// `case .dice(let term)` copies it, and the semantics are read without a retain either.
    /// Retains and releases are atomic and were most of bench A1's profile
    /// (`dice -t -n 1000000 -e 4d6kh3+2`): the semantics read unretained, with `chain`'s
    /// operations read by index, took it from 67 to 47 ms; the term not copied, from 838 to 763
    /// instructions a roll (callgrind) and no retain or release left in the roll.
    @inline(__always)
    mutating func smallPoolValue(_ expr: Expr) throws(DiceError) -> Value? {
        guard depth < limits.maxEvaluationDepth, let small = smallKeep(of: expr) else { return nil }
        return try smallPoolValue(small, at: expr.range)
    }

    /// The value alone of `small` (`TermSemantics.smallKeep`), its literals counted as walked.
    @inline(__always)
    mutating func smallPoolValue(_ small: SmallKeep, at range: SourceRange) throws(DiceError) -> Value {
        nodes &+= small.literals
        try spend(small.count, at: range)
        return .integer(try keptValue(count: small.count, sides: small.sides, ranks: small.ranks, whole: small.whole,
                                      at: range))
    }

    /// `TermSemantics.smallKeep` of the dice term `expr` is, if it is one. A function of its own:
    /// the term bound here lives to the end of its scope, and a scope past the roll (which may
    /// call `shouldStop`) had it copied.
    @inline(__always)
    mutating func smallKeep(of expr: Expr) -> SmallKeep? {
        guard case .dice(let term) = expr.kind else { return nil }
        return terms.semantics(of: term)._withUnsafeGuaranteedRef { $0.smallKeep }
    }

    /// Rolls a dice term: count, faces, then modifiers in their fixed order.
    mutating func rollPool(_ term: DiceTerm, at range: SourceRange) throws(DiceError) -> Roll {
        // Not retained by the lookup: taken (retained) here, as rolling the count may replace the entry.
        let semantics = terms.semantics(of: term).takeUnretainedValue()
        if let literal = semantics.literalDice, let made = semantics.plan,
           literal.literals == 0 || depth < limits.maxEvaluationDepth {
            // Count, sides and modifier arguments all literals: the plan was made once.
            let plan: PoolPlan
            switch made {
            case .success(let value): plan = value
            case .failure(let error): throw term.pointingAtModifier(DiceError(error.kind, at: range), termRange: range)
            }
            nodes &+= literal.literals
            try spend(literal.count, at: range)
            return try rollDice(term, count: literal.count, faces: literal.faces, plan: plan, symbols: semantics.symbols,
                                at: range)
        }
        var count = 1
        var countRoll: Roll?
        if let countExpr = term.count {
            let value: Number
            (value, countRoll) = try partValue(countExpr, NumberNeeds.diceCount)
            guard case .integer(let whole) = value, whole >= 0 else {
                throw DiceError(.invalidCount(value), at: countExpr.range)
            }
            count = whole
        }
        var sidesRoll: Roll?
        var sidesValue: Number?
        if case .number(let sidesExpr) = term.sides {
            (sidesValue, sidesRoll) = try partValue(sidesExpr, NumberNeeds.sides)
        }
        let faces = try dieFaces(term, sides: sidesValue, at: range)
        if let conflict = semantics.conflict { throw conflict }
        var arguments = ResolvedArguments()
        let rules: PoolRules
        if let literal = semantics.literalRules {
            rules = literal
        } else {
            rules = try resolveRules(semantics.stageOrder, argumentRolls: &arguments.rolls, values: &arguments.values,
                                     symbols: semantics.symbols)
        }
        let plan: PoolPlan
        do {
            plan = try PoolPlan(faces: faces, rules: rules, at: range)
        } catch {
            throw term.pointingAtModifier(error, termRange: range)
        }
        try spend(count, at: range)
        var roll = try rollDice(term, count: count, faces: faces, plan: plan, symbols: semantics.symbols, at: range)
        let computed = semantics.hasComputedParts
        if recording, countRoll != nil || sidesRoll != nil || !arguments.rolls.isEmpty || computed,
           case .pool(var pool) = roll.kind {
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
    private mutating func rollDice(_ term: DiceTerm, count: Int, faces: DieFaces, plan: PoolPlan, symbols: [Value],
                                   at range: SourceRange) throws(DiceError) -> Roll {
        if term.modifiers.isEmpty, case .range(let sides) = faces {
            return try rollPlainPool(term, count: count, sides: sides, plan: plan, at: range)
        }
        if !recording, count <= 8, plan.rules.keepsOnly, case .range(let sides) = faces {
            let ranks = KeepDropStep.keptRange(plan.keeps, total: count)
            return Roll(.number, value: .integer(try keptValue(count: count, sides: sides, ranks: ranks, whole: true, at: range)))
        }
        return try rollModifiedPool(term, count: count, plan: plan, symbols: symbols, at: range)
    }

    /// The most dice a pool lists: none when only the value is wanted.
    var recordLimit: Int { recording ? (recordsEveryDie ? Int.max : limits.maxRecordedDice) : 0 }

    /// The roll of a pool rolled: its dice (those listed) and value; the value alone when no
    /// breakdown is being built (which holds the parts the dice listed would, so both fail alike).
    mutating func pool(_ term: DiceTerm, plan: PoolPlan, dice: ArraySlice<Die>, omitted: Int,
                       value: Value, symbols: [Value] = [], at range: SourceRange) throws(DiceError) -> Roll {
        let (total, overflow) = dice.count.addingReportingOverflow(omitted)
        try holdPool(ofDice: overflow ? Int.max : total, at: range)
        guard recording else { return Roll(.number, value: value) }
        // Made in place: a pool made in a variable, then changed, was copied and destroyed twice
        // on its way into the roll (ten retains and releases of bench A3's breakdown).
        return Roll(.pool(DicePool(term: term, dice: Array(dice), omitted: omitted, lowestFace: plan.lowestFace,
                                   highestFace: plan.highestFace, isCount: plan.counting != nil, value: value,
                                   symbols: symbols)), value: value)
    }

    /// The rules of `ordered` (checked modifiers in the order they apply), their arguments
    /// evaluated in that order; the rolls of arguments that rolled dice go to `argumentRolls`,
    /// with their ranges.
    /// The values of the arguments that are not literals go to `values`, by their range.
    /// Text and tally dice (`symbols` not empty) compare a face by its position in `symbols`.
    mutating func resolveRules(_ ordered: [DiceModifier], argumentRolls: inout [ArgumentRoll],
                               values: inout [SourceRange: Number], symbols: [Value] = []) throws(DiceError) -> PoolRules {
        try PoolRules.resolve(ordered, invalid: { $0 }) { (expr) throws(DiceError) -> Number in
            if symbols.isEmpty, case .number(let literal) = expr.kind { return literal }
            let roll = try evaluate(expr)
            if roll.hasDice { argumentRolls.append(ArgumentRoll(range: expr.range, roll: roll)) }
            guard symbols.isEmpty else { return .integer(symbols.firstIndex(of: roll.value) ?? -1) }
            let value = try number(roll.value, for: NumberNeeds.modifier, at: expr.range)
            values[expr.range] = value
            return value
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
        case .percentile, .fate, .faces, .symbols:
            guard let faces = term.sides.fixedFaces else { throw DiceError(.emptyFaces, at: range) }
            return faces
        }
    }

    // MARK: - Rolling

    /// `NdS` with no modifiers: a running sum, recording at most `maxRecordedDice` dice.
    private mutating func rollPlainPool(_ term: DiceTerm, count: Int, sides: Int, plan: PoolPlan,
                                        at range: SourceRange) throws(DiceError) -> Roll {
        let recorded = Swift.min(count, recordLimit)
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
            let chunkEnd = Swift.min(count, rolled + workBetweenPolls)
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
        return try pool(term, plan: plan, dice: dice[...], omitted: count - recorded, value: .integer(sum), at: range)
    }

    /// Any pool with modifiers: every die is kept in memory for keep/drop and counting,
    /// unless there are more than are listed and `largePoolTally` can tally them (`rollLargePool`).
    private mutating func rollModifiedPool(_ term: DiceTerm, count: Int, plan: PoolPlan, symbols: [Value],
                                           at range: SourceRange) throws(DiceError) -> Roll {
        if plan.rules.unique { try checkUnique(plan, count: count, at: range) }
        if count > limits.maxRecordedDice, !recordsEveryDie, !plan.rules.unique,
           let tally = largePoolTally(plan, count: count) {
            return try rollLargePool(term, count: count, plan: plan, tally: tally, at: range)
        }
        var entries = takeDieScratch()
        defer { keepDieScratch(&entries) }
        if plan.rules.unique {
            // Before the rerolls' and explosions' path: `u` applies after a die's rerolls and
            // before its explosion (`rollUniqueDice`), and `checkUnique` bounds the dice.
            entries.reserveCapacity(count)
            try rollUniqueDice(count, plan, into: &entries, at: range)
        } else if plan.hasRerolls || plan.explosion != nil {
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
            let mark: Die.Flags = plan.rules.counting.countsFailures ? .failure : .success
            for index in entries.indices where entries[index].isCounted && counting.matches(entries[index].value) {
                entries[index].flags.insert(mark)
                value += 1
            }
        } else if !symbols.isEmpty {
            let total = try symbolValue(entries, symbols: symbols, at: range)
            return try pool(term, plan: plan, dice: entries[..<Swift.min(entries.count, recordLimit)],
                            omitted: entries.count - Swift.min(entries.count, recordLimit), value: total,
                            symbols: symbols, at: range)
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
        if recording, let ascending = plan.rules.sortAscending {
            entries.sort { ascending ? $0.value < $1.value : $0.value > $1.value }
        }
        let total = entries.count
        let recorded = Swift.min(total, recordLimit)
        return try pool(term, plan: plan, dice: entries[..<recorded], omitted: total - recorded, value: .integer(value),
                        symbols: symbols, at: range)
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

    /// `count` dice rolled by `plan` into `sink`, asking about Ctrl-C every `workBetweenPolls` dice.
    @inline(__always)
    mutating func rollDice<Sink: DieSink>(_ count: Int, _ plan: PoolPlan, into sink: inout Sink,
                                          at range: SourceRange) throws(DiceError) {
        for index in 0..<count {
            try rollDie(plan, into: &sink, at: range)
            if index & (workBetweenPolls - 1) == workBetweenPolls - 1, let shouldStop, shouldStop() { throw DiceError(.interrupted, at: range) }
        }
    }

    /// One original die: its rerolls, then its explosion chain.
    @inline(__always)
    mutating func rollDie<Sink: DieSink>(_ plan: PoolPlan, into entries: inout Sink,
                                         at range: SourceRange) throws(DiceError) {
        var (face, flags) = nextFace(plan)
        if plan.hasRerolls { try settle(plan, &face, &flags, into: &entries, at: range) }
        try explode(plan, face, flags, into: &entries, at: range)
    }

    /// A die settled on `face`: its explosion chain, if it has one, into `entries`.
    @inline(__always)
    mutating func explode<Sink: DieSink>(_ plan: PoolPlan, _ face: Int, _ flags: Die.Flags, into entries: inout Sink,
                                         at range: SourceRange) throws(DiceError) {
        var face = face, flags = flags
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
    mutating func nextFace(_ plan: PoolPlan) -> (Int, Die.Flags) {
        let face = plan.faces.face(at: source.roll(sides: plan.faces.count))
        if plan.rules.clamps.isEmpty { return (face, []) }
        let clamped = plan.clamp(face)
        return (clamped, clamped == face ? [] : .clamped)
    }

    /// Rerolls `face` while a recursive reroll matches, and once for a matching `ro`.
    mutating func settle<Sink: DieSink>(_ plan: PoolPlan, _ face: inout Int, _ flags: inout Die.Flags,
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
