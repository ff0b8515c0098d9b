/// Dice terms: the count, the sides and the modifiers' arguments may themselves be
/// random (`(1d4)d6`, `2d(1d3*2)`, `kh(1d2)`); each is rolled once per term, so the
/// term's distribution is the mixture over their joint outcomes.
extension StatsEngine {
    func diceDistribution(_ term: DiceTerm, at range: SourceRange) throws(StatsFailure) -> Distribution {
        if let single = try singleDie(term) { return single }
        try checkModifiers(term.modifiers, group: false)
        let count = try term.count.map { (count) throws(StatsFailure) in try distribution(of: count) }
            ?? Distribution(constant: .integer(1))
        var fixedFaces: Distribution?
        var sides: (expr: Expr, distribution: Distribution)?
        switch term.sides {
        case .number(let expr): sides = (expr, try distribution(of: expr))
        case .percentile: fixedFaces = Distribution(uniformSides: 100)
        case .fate: fixedFaces = Distribution(faces: [-1, 0, 1])
        case .faces(let faces): fixedFaces = Distribution(faces: faces)
        }

        // The common case: literal modifier arguments (`kh3`, `cs>=5`), which are their own
        // distributions (evaluating them could only pass the depth bound), and sides known
        // for sure. One pool model then serves every count, without joint outcomes.
        if depth < StatsEngine.maxDepth, StatsEngine.argumentsAreLiteral(term.modifiers),
           sides.map({ $0.distribution.constantValue != nil && $0.distribution.totalProbability == 1 }) ?? true {
            let largest = try largestCount(count, of: term, at: range)
            try meter.charge(1)  // the one joint outcome of the arguments
            let faces: Distribution
            if let sides, let value = sides.distribution.constantValue {
                faces = try dieFaces(value, sides.expr)
            } else if let fixedFaces {
                faces = fixedFaces
            } else {
                throw .invariant("a die without faces")
            }
            if term.modifiers.isEmpty, !faces.isEmpty, let constant = count.constantValue,
               count.totalProbability == 1, case .integer(let dice) = constant {
                let distribution = try plainSum(of: faces, dice: dice, at: range)
                try meter.charge(distribution.storageSize)
                return try meter.checkSize(distribution)
            }
            let spec = try StatsEngine.resolve(term.modifiers, literalKeeps: term.literalKeeps) {
                (argument) throws(StatsFailure) in
                guard case .number(let value) = argument.kind else {
                    throw .invariant("a modifier argument that is not a literal")
                }
                return value
            }
            let pool = try PoolModel(faces: faces, spec: spec, largestCount: largest,
                                     explosionCutoff: meter.budget.explosionCutoff, range: range,
                                     rerollRange: range, explosionRange: range)
            if let constant = count.constantValue, count.totalProbability == 1, case .integer(let dice) = constant {
                // One count for sure: the mixture would be that pool's distribution itself.
                let distribution = try poolDistribution(pool, dice: dice)
                try meter.charge(distribution.storageSize)
                return try meter.checkSize(distribution)
            }
            var result = DistributionAccumulator()
            try addPools(pool, counts: count, weight: 1, into: &result)
            return try meter.checkSize(result.build())
        }

        var inputs: [Distribution] = []
        if let sides { inputs.append(sides.distribution) }
        try StatsEngine.forEachArgument(of: term.modifiers) { (argument) throws(StatsFailure) in
            inputs.append(try distribution(of: argument))
        }
        let largest = try largestCount(count, of: term, at: range)
        var result = DistributionAccumulator()
        try forEachJointOutcome(of: inputs) { (values, weight) throws(StatsFailure) in
            var next = 0
            let faces: Distribution
            if let sides, let value = values.first {
                faces = try dieFaces(value, sides.expr)
                next = 1
            } else if let fixedFaces {
                faces = fixedFaces
            } else {
                throw .invariant("a die without faces")
            }
            let spec = try StatsEngine.resolve(term.modifiers) { (_) throws(StatsFailure) in
                guard next < values.count else { throw .invariant("a missing modifier argument") }
                defer { next += 1 }
                return values[next]
            }
            let pool = try PoolModel(faces: faces, spec: spec, largestCount: largest,
                                     explosionCutoff: meter.budget.explosionCutoff, range: range,
                                     rerollRange: range, explosionRange: range)
            try addPools(pool, counts: count, weight: weight, into: &result)
        }
        return try meter.checkSize(result.build())
    }

    /// The sum of `dice` dice showing `faces` (not empty), without modifiers (`3d6`): what a
    /// pool model gives for it, with the same charges, without building one. The faces are
    /// scaled to sum to 1, then the dice are added one at a time.
    private func plainSum(of faces: Distribution, dice: Int,
                          at range: SourceRange) throws(StatsFailure) -> Distribution {
        guard dice > 0 else { return Distribution(constant: .integer(0)) }
        let die = try meter.checkSize(faces.dividingProbabilities(by: faces.totalProbability))
        try meter.charge(die.storageSize)
        if dice == 1 { return die }
        return try PoolModel.repeatedSum(of: die, count: dice, from: die, copies: 1, meter: &meter, at: range)
    }

    /// The largest count of dice in `count`, after checking that every count is a whole
    /// number from 0 to the dice limit (the first that is not, in increasing order, throws).
    private func largestCount(_ count: Distribution, of term: DiceTerm,
                              at range: SourceRange) throws(StatsFailure) -> Int {
        var largest = 0
        try count.forEachOutcome { (value, _) throws(StatsFailure) in
            guard case .integer(let dice) = value, dice >= 0 else {
                throw .dice(DiceError(.invalidCount(value), at: term.count?.range ?? range))
            }
            guard dice <= limits.maxDice else { throw .dice(DiceError(.tooManyDice(limit: limits.maxDice), at: range)) }
            largest = Swift.max(largest, dice)
        }
        return largest
    }

    /// The faces of a die with `sides` sides (the value of `expr`): `1...sides`.
    private func dieFaces(_ sides: Number, _ expr: Expr) throws(StatsFailure) -> Distribution {
        guard case .integer(let n) = sides, n >= 1 else { throw .dice(DiceError(.invalidSides(sides), at: expr.range)) }
        guard n <= meter.budget.maxOutcomes else { throw .tooExpensive("a die with \(n) sides has too many faces") }
        return Distribution(uniformSides: n)
    }

    /// Adds `pool`'s distribution for each count of `counts` (checked by `largestCount`),
    /// times its probability and `weight`, in increasing order of count.
    private func addPools(_ pool: PoolModel, counts: Distribution, weight: Double,
                          into result: inout DistributionAccumulator) throws(StatsFailure) {
        try counts.forEachOutcome { (value, p) throws(StatsFailure) in
            guard case .integer(let dice) = value else { return }
            let distribution = try poolDistribution(pool, dice: dice)
            try meter.charge(distribution.storageSize)
            try mix(distribution, times: weight * p, into: &result)
        }
    }

    /// `pool`'s distribution for `dice` dice, noting whether it cuts explosion tails.
    private func poolDistribution(_ pool: PoolModel, dice: Int) throws(StatsFailure) -> Distribution {
        if dice > 0 && pool.cutsExplosionTails { cutExplosionTails = true }
        return try pool.distribution(count: dice, meter: &meter)
    }

    /// One die without modifiers and with literal sides (`d20`, `1d%`, `dF`): its faces,
    /// without building a pool model; `nil` for anything else.
    private func singleDie(_ term: DiceTerm) throws(StatsFailure) -> Distribution? {
        guard term.modifiers.isEmpty else { return nil }
        if let count = term.count {
            guard case .number(.integer(1)) = count.kind else { return nil }
        }
        let faces: Distribution
        switch term.sides {
        case .number(let sides):
            guard case .number(.integer(let n)) = sides.kind, n >= 1, n <= meter.budget.maxOutcomes else { return nil }
            faces = Distribution(uniformSides: n)
        case .percentile: faces = Distribution(uniformSides: 100)
        case .fate: faces = Distribution(faces: [-1, 0, 1])
        case .faces(let list):
            guard !list.isEmpty else { return nil }
            faces = Distribution(faces: list)
        }
        try meter.charge(faces.storageSize)
        return faces
    }

    // MARK: - Modifiers

    /// Rejects modifiers that cannot go together (or, on a group, apply only to dice), with
    /// the roller's messages, looking at them in the order they apply.
    func checkModifiers(_ modifiers: [DiceModifier], group: Bool) throws(StatsFailure) {
        guard !modifiers.isEmpty else { return }
        let ordered = DiceModifier.inStageOrder(modifiers)
        var explosion = false, counting = false, failures = false
        for modifier in ordered {
            switch modifier.kind {
            case .explode, .reroll, .minimum, .maximum:
                if group {
                    let name = String(modifier.dump.prefix(2).filter { !$0.isNumber })
                    throw .dice(DiceError(.conflictingModifiers("'\(name)' applies to dice, not to groups"),
                                          at: modifier.range))
                }
                if modifier.stage == .explode {
                    guard !explosion else {
                        throw .dice(DiceError(.conflictingModifiers("only one of '!', '!!' and '!p' may be given"),
                                              at: modifier.range))
                    }
                    explosion = true
                }
            case .countSuccesses, .countFailures:
                guard !counting else {
                    throw .dice(DiceError(
                        .conflictingModifiers("'cs' and 'cf' exclude each other and may be given once"),
                        at: modifier.range))
                }
                counting = true
            case .subtractFailures:
                guard !failures else {
                    throw .dice(DiceError(.conflictingModifiers("'df' may be given once"), at: modifier.range))
                }
                failures = true
            case .keep, .drop, .sort:
                break
            }
        }
    }

    /// Calls `body` with the argument expressions of `modifiers`, in order.
    static func forEachArgument<E: Error>(of modifiers: [DiceModifier], _ body: (Expr) throws(E) -> Void) throws(E) {
        for modifier in modifiers {
            switch modifier.kind {
            case .keep(_, let count), .drop(_, let count):
                if let count { try body(count) }
            case .explode(_, let point), .reroll(_, let point):
                if let point { try body(point.value) }
            case .minimum(let value), .maximum(let value):
                try body(value)
            case .countSuccesses(let point), .countFailures(let point), .subtractFailures(let point):
                try body(point.value)
            case .sort:
                break
            }
        }
    }

    /// Whether every argument of `modifiers` is a number written out (`kh3`, `cs>=5`).
    static func argumentsAreLiteral(_ modifiers: [DiceModifier]) -> Bool {
        var literal = true
        forEachArgument(of: modifiers) { argument in
            if case .number = argument.kind { return }
            literal = false
        }
        return literal
    }

    /// The modifiers with their arguments resolved: `value` gives each argument's value,
    /// asked once per argument in the order of `forEachArgument`.
    ///
    /// - Parameter literalKeeps: the keep/drop steps when the parser worked them out
    ///   (`DiceTerm.literalKeeps`): used as they are rather than built again.
    static func resolve(_ modifiers: [DiceModifier], literalKeeps: [KeepStep]? = nil,
                        _ value: (Expr) throws(StatsFailure) -> Number) throws(StatsFailure) -> PoolSpec {
        var spec = PoolSpec()
        if let literalKeeps { spec.keeps = literalKeeps }
        func whole(_ name: String, _ argument: Expr, allowNegative: Bool = false) throws(StatsFailure) -> Int {
            let resolved = try value(argument)
            guard case .integer(let n) = resolved, allowNegative || n >= 0 else {
                throw .dice(DiceError(.invalidModifierArgument(modifier: name, value: resolved), at: argument.range))
            }
            return n
        }
        func resolved(_ point: ComparePoint) throws(StatsFailure) -> StatsPoint {
            StatsPoint(op: point.op, value: try value(point.value))
        }
        func keep(_ kind: KeepStep.Kind, _ name: String, _ count: Expr?) throws(StatsFailure) {
            let n = try count.map { (count) throws(StatsFailure) in try whole(name, count) } ?? 1
            if literalKeeps == nil { spec.keeps.append(KeepStep(kind: kind, count: n)) }
        }
        for modifier in modifiers {
            switch modifier.kind {
            case .keep(let extreme, let count):
                try extreme == .highest ? keep(.keepHighest, "kh", count) : keep(.keepLowest, "kl", count)
            case .drop(let extreme, let count):
                try extreme == .highest ? keep(.dropHighest, "dh", count) : keep(.dropLowest, "dl", count)
            case .explode(let kind, let point):
                spec.explosion = kind
                spec.explosionPoint = try point.map(resolved)
            case .reroll(let once, let point):
                spec.rerolls.append(.init(once: once, point: try point.map(resolved)))
            case .minimum(let bound):
                spec.clamps.append(PoolSpec.Clamp(minimum: true, value: try whole("mi", bound, allowNegative: true)))
            case .maximum(let bound):
                spec.clamps.append(PoolSpec.Clamp(minimum: false, value: try whole("ma", bound, allowNegative: true)))
            case .countSuccesses(let point), .countFailures(let point):
                spec.counting.successes = StatsPoint(op: point.op, value: try value(point.value))
            case .subtractFailures(let point):
                spec.counting.failures = StatsPoint(op: point.op, value: try value(point.value))
            case .sort:
                break
            }
        }
        return spec
    }
}
