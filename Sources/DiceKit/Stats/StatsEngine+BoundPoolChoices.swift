/// The parts of a bound pool rolled before its dice: its count, sides and modifier arguments
/// (`let p = (1d3)d6 in ...`, `2d(1d2 + 4)`, `4d6kh(1d2)`), each rolled once, as the roller
/// rolls them (`Evaluator.rollPool`). `boundPoolDistribution` works the pool out for each of
/// their joint outcomes.
extension StatsEngine {
    /// What a bound pool's dice are rolled with, in one joint outcome of its rolled parts.
    struct BoundPoolParts {
        var dice: Int
        /// The number of sides, when they are a number (`nil`: the faces are listed).
        var sides: Int?
        /// The modifiers' arguments in the order they apply (a text die's, its face's position
        /// among the term's symbols, or -1).
        var inputs: [Number]
        /// The modifiers with those arguments.
        var rules: PoolRules
    }

    /// The joint outcomes of `term`'s count, sides and modifier arguments, with their chances,
    /// worked out and checked in the roller's order: the count (a whole number from 0 to the
    /// dice limit), the sides (a whole number of at least 1), the modifiers together, their
    /// arguments, then each joint outcome's modifiers. The error of any outcome of positive
    /// chance is thrown, at the place the roller gives it.
    func boundPoolParts(_ pool: Expr, _ term: DiceTerm,
                        _ semantics: TermSemantics) throws(StatsFailure) -> [(parts: BoundPoolParts, p: Double)] {
        let countExpr = term.count ?? Expr(.number(.integer(1)), pool.range)
        let counts = try distribution(of: countExpr, for: NumberNeeds.diceCount)
        try counts.forEachOutcome { (value, _) throws(StatsFailure) in
            guard case .integer(let dice) = value, dice >= 0 else {
                throw .dice(DiceError(.invalidCount(value), at: countExpr.range))
            }
            guard dice <= limits.maxDice else { throw .dice(DiceError(.tooManyDice(limit: limits.maxDice), at: pool.range)) }
        }
        var parts = [counts]
        let rolledSides: Bool
        if term.sides.fixedFaces != nil {
            rolledSides = false
        } else if case .number(let sidesExpr) = term.sides {
            let sides = try distribution(of: sidesExpr, for: NumberNeeds.sides)
            try sides.forEachOutcome { (value, _) throws(StatsFailure) in
                guard case .integer(let n) = value, n >= 1 else {
                    throw .dice(DiceError(.invalidSides(value), at: sidesExpr.range))
                }
                guard n <= meter.budget.maxOutcomes else { throw .tooExpensive("a die with \(n) sides has too many faces") }
            }
            parts.append(sides)
            rolledSides = true
        } else {
            throw .dice(DiceError(.emptyFaces, at: pool.range))
        }
        if let conflict = semantics.conflict { throw .dice(conflict) }
        let symbols = semantics.symbols
        for argument in PoolRules.arguments(of: semantics.stageOrder) {
            let values = try outcomes(of: argument)
            if symbols.isEmpty, let other = values.symbolicOutcomes.first {
                throw .dice(DiceError(.notANumber(other.value, needed: NumberNeeds.modifier), at: argument.range))
            }
            parts.append(values)
        }
        var choices: [(parts: BoundPoolParts, p: Double)] = []
        try forEachJointOutcome(of: parts) { (values, p) throws(StatsFailure) in
            guard case .number(.integer(let dice)) = values.first else { throw .invariant("a bound pool's count is no whole number") }
            var sides: Int?
            if rolledSides {
                guard values.count > 1, case .number(.integer(let n)) = values[1] else {
                    throw .invariant("a bound pool's sides are no whole number")
                }
                sides = n
            }
            let inputs = values.dropFirst(rolledSides ? 2 : 1).map { (value) -> Number in
                if symbols.isEmpty, case .number(let number) = value { return number }
                return .integer(symbols.firstIndex(of: value) ?? -1)
            }
            let rules = try resolveRules(semantics.stageOrder) { $0 < inputs.count ? inputs[$0] : nil }
            choices.append((BoundPoolParts(dice: dice, sides: sides, inputs: inputs, rules: rules), p))
        }
        return choices
    }
}
