extension Stats {
    /// Rolls in a simulated distribution when the exact one is too expensive.
    public static let simulationRolls = 1_000_000

    /// The distribution of `expr`: exact when the work fits `limits.stats`, otherwise
    /// estimated from `simulationRolls` seeded rolls (`exact == false`). A broken invariant
    /// of the exact engine is not simulated over: it fails with `.internalError`.
    ///
    /// - Parameters:
    ///   - seed: fixes the simulation; the same seed gives the same estimate.
    ///   - shouldStop: asked now and then; `true` abandons with `.interrupted`.
    public static func distribution(
        of expr: Expr, environment: Environment, limits: Limits = .standard, seed: UInt64 = 0x5EED, shouldStop: (() -> Bool)? = nil
    ) throws(DiceError) -> DistributionReport {
        do {
            return try exactReport(of: expr, environment: environment, limits: limits,
                                   shouldStop: shouldStop)
        } catch {
            switch error.recovery(at: expr.range) {
            case .simulate:
                return try simulate(expr, environment: environment, limits: limits, seed: seed,
                                    rolls: simulationRolls, shouldStop: shouldStop)
            case .fail(let error):
                throw error
            }
        }
    }

    /// Estimates the distribution of `expr` from `rolls` seeded rolls.
    ///
    /// - Complexity: O(rolls × the work of one roll); the rolls together may roll
    ///   at most 200 × `limits.maxDice` dice, after which the estimate uses the rolls made.
    public static func simulate(
        _ expr: Expr, environment: Environment, limits: Limits, seed: UInt64, rolls: Int,
        shouldStop: (() -> Bool)? = nil
    ) throws(DiceError) -> DistributionReport {
        var evaluator = Evaluator(environment: environment, limits: limits, source: Xoshiro256StarStar(seed: seed))
        evaluator.shouldStop = shouldStop
        let compiled = CompiledValue(expr)
        var counts: [Number: Int] = [:]
        let totalWork = limits.maxDice.multipliedReportingOverflow(by: 200)
        let workBound = totalWork.overflow ? Int.max : totalWork.partialValue
        var spent = 0
        var made = 0
        while made < rolls {
            evaluator.startStatement()
            let value = try evaluator.value(of: compiled)
            counts[value, default: 0] += 1
            made += 1
            spent += Swift.max(evaluator.work, 1)
            if spent > workBound { break }
            if made & 0xFFFF == 0, let shouldStop, shouldStop() {
                throw DiceError(.interrupted, at: expr.range)
            }
        }
        let total = Double(made)
        let distribution = Distribution(counts.map { Distribution.Outcome($0.key, Double($0.value) / total) })
        return DistributionReport(distribution: distribution, exact: false, sampleCount: made)
    }
}
