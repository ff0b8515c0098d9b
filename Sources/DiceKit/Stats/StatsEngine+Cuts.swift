/// What the engine cuts from explosion tails and the far tails of sums, carried as the parts
/// are combined: a part mixed in at some chance brings that share of its cuts.
extension StatsEngine {
    /// Where the cuts stood at some point of the walk: what was noted after it belongs to
    /// the part worked out since.
    struct CutMark {
        let explosions: Double
        let sumTails: Int
    }

    var cutMark: CutMark { CutMark(explosions: explosionCutBound, sumTails: meter.cuts.count) }

    /// Notes that explosion tails of `mass` were cut from a distribution of dice. A mass is
    /// noted each time its distribution is worked out or reused, and times the copies made
    /// of it (`repeat`); the part it was cut from, mixed in at some chance, scales it by that
    /// chance (`scalingCuts`): the sum is the probability that some roll reaches a cut tail,
    /// or a little more (two cut tails in one roll are counted twice).
    func noteExplosionCut(_ mass: Double) {
        cutExplosionTails = true
        explosionCutBound += Swift.max(0, mass)
    }

    /// Scales the cuts noted since `mark` by `weight`: they were cut from a part that is
    /// mixed in at that chance, or of which `weight` independent copies are made.
    func scaleCuts(since mark: CutMark, by weight: Double) {
        explosionCutBound = mark.explosions + (explosionCutBound - mark.explosions) * weight
        meter.scaleCuts(from: mark.sumTails, by: weight)
    }

    /// `body`'s part, mixed in at `weight`: a branch taken with that chance, a case of a
    /// `let`, a joint outcome of rolled arguments. Unscaled, the 1d6! of `if 1d10000 == 1
    /// then 1d6! else 0` counted its whole cut, 3.5e-13, where the statement cuts 3.5e-17.
    func scalingCuts<T>(by weight: Double, _ body: () throws(StatsFailure) -> T) throws(StatsFailure) -> T {
        let mark = cutMark
        defer { scaleCuts(since: mark, by: weight) }
        return try body()
    }

    /// The outcomes of `member`, of which `copies` independent copies are made, on average
    /// (`repeat`): the cuts its work notes count once for each copy.
    func outcomes(ofMember member: Expr, copies: Double) throws(StatsFailure) -> Distribution {
        try scalingCuts(by: copies) { () throws(StatsFailure) in try outcomes(of: member) }
    }

    // MARK: - Conditions

    /// `E given C`, or a `let` ending in one, inside the statement: rolled again, whole, until
    /// C holds, as the roller does (`Evaluator.retryingGiven`), so its distribution is E's
    /// where C holds divided by the chance that C holds; the statement's own is divided at the
    /// end (`report(of:)`). Left to the end, a `given` in a branch lost its branch's chance:
    /// `if 1d2 == 1 then (1d6 given 1d6 > 4) else 0` gave 0 three times in four, not half the
    /// time. Divided as `report(of:)` divides, by its total and the explosion tails cut in it,
    /// so that the cut is still reported (what is left out of it, beside it, is noted in place
    /// of the cut); the whole statement's (`depth` 1), by the report.
    func givenUnit(_ expr: Expr) throws(StatsFailure) -> Distribution {
        insideGivenUnit = true
        // Its own conditions, where they are written though it is inside a macro's body; the
        // statement's are the report's (`report(of:)`).
        let outerConditions = givenConditions, macroUse = givenMacroUse
        if depth > 1 { givenConditions = GivenConditions() }
        givenMacroUse = nil
        defer {
            insideGivenUnit = false
            if depth > 1 { givenConditions = outerConditions }
            givenMacroUse = macroUse
        }
        let mark = cutMark
        let part = try outcomes(of: expr)
        let cut = explosionCutBound - mark.explosions
        if depth == 1 { return part }
        let total = part.totalProbability
        guard total > 0 else { throw .dice(impossible(expr)) }
        explosionCutBound = mark.explosions + cut / (total + cut)
        return part.dividingProbabilities(by: total + cut)
    }

    /// The error of `given` unit `expr` whose condition never holds, at the condition that
    /// never held (`GivenConditions`): naming a value it reads that was fixed outside it
    /// (`namesFixedByGiven`), when there is one.
    private func impossible(_ expr: Expr) -> DiceError {
        let range = (expr.givenCondition ?? expr).range
        if let frame = frames.last {
            var uses: [String: Int] = [:]
            StatsEngine.countUses(in: expr, of: Set(frame.names), weight: 1, into: &uses)
            for name in frame.names.reversed() where uses[name] != nil {
                if case .value(let value) = frame[name] {
                    return givenConditions.error(.conditionImpossibleWhen(name: name, value: value), else: range)
                }
            }
        }
        return givenConditions.error(.conditionImpossible, else: range)
    }
}
