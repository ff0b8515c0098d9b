/// Dice terms: the count, the sides and the modifiers' arguments may themselves be
/// random (`(1d4)d6`, `2d(1d3*2)`, `kh(1d2)`); each is rolled once per term, so the
/// term's distribution is the mixture over their joint outcomes.
extension StatsEngine {
    func diceDistribution(_ term: DiceTerm, at range: SourceRange) throws(StatsFailure) -> Distribution {
        if let single = try singleDie(term) { return single }
        let count = try term.count.map { (count) throws(StatsFailure) in try distribution(of: count, for: NumberNeeds.diceCount) }
            ?? Distribution(constant: .integer(1))
        // In the roller's order: the count is checked, the sides worked out, then the modifiers.
        let largest = try largestCount(count, of: term, at: range)
        var fixedFaces: Distribution?
        // Computed sides: the expression and its distribution. Two optionals, not an optional
        // tuple: destroying that tuple instantiated its type metadata from its mangled name,
        // 76,000 of the 99,000 instructions of a first `2d20` (callgrind, DiceBench stats-cold).
        var sidesExpr: Expr?
        var sides: Distribution?
        switch term.sides {
        case .number(let expr): (sidesExpr, sides) = (expr, try distribution(of: expr, for: NumberNeeds.sides))
        case .percentile, .fate, .faces: fixedFaces = term.sides.fixedFaces.map(Distribution.init(faces:))
        case .symbols: throw .dice(DiceError(.internalError("not built yet"), at: range))
        }
        let semantics = TermSemantics(term)
        if let conflict = semantics.conflict { throw .dice(conflict) }

        // The common case: literal modifier arguments (`kh3`, `cs>=5`), which are their own
        // distributions (evaluating them could only pass the depth bound), and sides known
        // for sure. One pool model then serves every count, without joint outcomes.
        if depth < limits.maxEvaluationDepth, let rules = semantics.literalRules,
           sides.map({ $0.constantValue != nil && $0.totalProbability == 1 }) ?? true {
            try meter.charge(1)  // the one joint outcome of the arguments
            let faces: Distribution
            if let sidesExpr, let value = sides?.constantValue {
                faces = try dieFaces(value, sidesExpr)
            } else if let fixedFaces {
                faces = fixedFaces
            } else {
                throw .invariant("a die without faces")
            }
            if rules.unique { return try uniqueDistribution(faces: faces, rules: rules, counts: count, at: range) }
            if term.modifiers.isEmpty, !faces.isEmpty, let constant = count.constantValue,
               count.totalProbability == 1, case .integer(let dice) = constant {
                let distribution = try plainSum(of: faces, dice: dice, at: range)
                try meter.charge(distribution.storageSize)
                return try meter.checkSize(distribution)
            }
            let pool = try PoolModel(faces: faces, rules: rules, largestCount: largest,
                                     explosionCutoff: meter.budget.explosionCutoff, range: range)
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

        let ordered = semantics.stageOrder
        var inputs: [Distribution] = []
        if let sides { inputs.append(sides) }
        for argument in PoolRules.arguments(of: ordered) { inputs.append(try distribution(of: argument, for: NumberNeeds.modifier)) }
        var result = DistributionAccumulator()
        try forEachJointOutcome(of: inputs) { (values, weight) throws(StatsFailure) in
            var next = 0
            let faces: Distribution
            if let sidesExpr, let value = values.first?.number {
                faces = try dieFaces(value, sidesExpr)
                next = 1
            } else if let fixedFaces {
                faces = fixedFaces
            } else {
                throw .invariant("a die without faces")
            }
            let first = next
            let rules = try resolveRules(ordered) { first + $0 < values.count ? values[first + $0].number : nil }
            if rules.unique {
                let part = try uniqueDistribution(faces: faces, rules: rules, counts: count, at: range)
                try meter.charge(part.storageSize)
                try mix(part, times: weight, into: &result)
                return
            }
            let pool = try PoolModel(faces: faces, rules: rules, largestCount: largest,
                                     explosionCutoff: meter.budget.explosionCutoff, range: range)
            try addPools(pool, counts: count, weight: weight, into: &result)
        }
        return try meter.checkSize(result.build())
    }

    /// `body`, its errors about a modifier of the dice term `term` at `range` pointed at that
    /// modifier (`DiceTerm.pointingAtModifier`), as rolling points them.
    func pointingAtModifiers<T>(of term: DiceTerm, at range: SourceRange,
                                _ body: () throws(StatsFailure) -> T) throws(StatsFailure) -> T {
        do {
            return try body()
        } catch .dice(let error) {
            throw .dice(term.pointingAtModifier(error, termRange: range))
        }
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
            let distribution = try scalingCuts(by: p) { () throws(StatsFailure) in try poolDistribution(pool, dice: dice) }
            try meter.charge(distribution.storageSize)
            try mix(distribution, times: weight * p, into: &result)
        }
    }

    /// `pool`'s distribution for `dice` dice, noting whether it cuts explosion tails.
    private func poolDistribution(_ pool: PoolModel, dice: Int) throws(StatsFailure) -> Distribution {
        let distribution = try pool.distribution(count: dice, meter: &meter)
        if dice > 0 && pool.cutsExplosionTails { noteExplosionCut(pool.cutMass(count: dice, of: distribution)) }
        return distribution
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
        case .percentile, .fate, .faces:
            guard let fixed = term.sides.fixedFaces else { return nil }
            faces = Distribution(faces: fixed)
        case .symbols: return nil
        }
        try meter.charge(faces.storageSize)
        return faces
    }

    // MARK: - Modifiers

    /// Rejects modifiers that cannot go together (or, on a group, apply only to dice), with
    /// the roller's errors (`PoolRules.conflict`).
    func checkModifiers(_ modifiers: [DiceModifier], group: Bool) throws(StatsFailure) {
        guard !modifiers.isEmpty else { return }
        if let conflict = PoolRules.conflict(in: DiceModifier.inStageOrder(modifiers), onGroup: group) {
            throw .dice(conflict)
        }
    }

    /// The rules of `ordered` (modifiers in the order they apply), `value(i)` giving the
    /// value of the i-th of `PoolRules.arguments(of: ordered)`.
    func resolveRules(_ ordered: [DiceModifier], _ value: (Int) -> Number?) throws(StatsFailure) -> PoolRules {
        var next = 0
        return try PoolRules.resolve(ordered, invalid: { StatsFailure.dice($0) }) { (_) throws(StatsFailure) -> Number in
            guard let argument = value(next) else { throw .invariant("a missing modifier argument") }
            next += 1
            return argument
        }
    }
}
