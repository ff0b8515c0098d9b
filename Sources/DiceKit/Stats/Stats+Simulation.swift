extension Stats {
    /// Rolls in a simulated distribution when the exact one is too expensive: the language's
    /// "seeded simulation of at least 1,000,000 rolls" (LANGUAGE.md §7).
    package static let simulationRolls = 1_000_000
    /// The fewest rolls `distribution(of:)` estimates from: all of `simulationRolls`. When
    /// they do not fit the time bound (`StatsBudget.maxSimulationWork`), `stats` fails with
    /// `.statsTooExpensive`, naming the bound, rather than estimate from fewer.
    package static let minimumSimulationRolls = simulationRolls
    /// The simulation work of one die rolled (rerolls, explosions, `repeat` members).
    package static let simulatedDieCost = 1
    /// The simulation work of each roll, besides its dice and nodes: counting its value.
    static let simulatedRollCost = 4
    /// The simulation work of each node of the expression walked for a value (macro bodies
    /// and repeat members each time): about as much as a die.
    static let simulatedNodeCost = 1
    /// The simulation work of each different text or tally a roll shows for the first time:
    /// filed in a dictionary, then sorted and listed. A million rolls of
    /// `(a: 1d1000, b: 1d1000)`, about 630,000 different tallies, took 2.7 s of the 1 s bound
    /// at a roll's own cost (release, a loaded machine): about 2 µs each, as 64 units.
    static let simulatedNewOutcomeCost = 64

    /// The distribution of `expr`: exact when the work fits `limits.stats`, otherwise
    /// estimated from `simulationRolls` seeded rolls (`exact == false`) when they fit
    /// `limits.stats.maxSimulationWork`. A broken invariant of the exact engine is not
    /// simulated over: it fails with `.internalError`.
    ///
    /// - Parameters:
    ///   - seed: fixes the simulation; the same seed gives the same estimate.
    ///   - shouldStop: asked now and then; `true` abandons with `.interrupted`.
    /// - Throws: the expression's `DiceError`; `.statsTooExpensive` when the
    ///   `simulationRolls` rolls do not fit.
    package static func distribution(
        of expr: Expr, environment: Environment, limits: Limits = .standard, seed: UInt64 = 0x5EED, shouldStop: (@Sendable () -> Bool)? = nil
    ) throws(DiceError) -> DistributionReport {
        do {
            return try exactReport(of: expr, environment: environment, limits: limits,
                                   shouldStop: shouldStop)
        } catch {
            switch error.recovery(at: expr.range) {
            case .simulate:
                do {
                    return try simulate(expr, environment: environment, limits: limits, seed: seed,
                                        rolls: simulationRolls, shouldStop: shouldStop)
                } catch {
                    // One roll past the breakdown's bound: the real cause is the work of a roll.
                    switch error.kind {
                    case .resultTooLarge:
                        throw DiceError(.statsRollTooLarge(limit: limits.maxResultParts), at: expr.range)
                    default:
                        throw error
                    }
                }
            case .fail(let error):
                throw error
            }
        }
    }

    /// Estimates the distribution of `expr` from up to `rolls` seeded rolls, stopping early
    /// when `limits.stats.maxSimulationWork` is spent (the report says how many were made).
    ///
    /// A roll costs `simulatedRollCost`, `simulatedDieCost` per die and `simulatedNodeCost` per
    /// node walked. The report's min and max are the expression's own
    /// (`ValueBounds`), not the sample's, when they can be worked out.
    ///
    /// - Complexity: O(min(rolls, budget / cost of a roll) × the work of one roll).
    /// - Throws: `.statsTooExpensive` when fewer than `minimumSimulationRolls` rolls (and
    ///   fewer than `rolls`) fit the budget.
    package static func simulate(
        _ expr: Expr, environment: Environment, limits: Limits, seed: UInt64, rolls: Int,
        shouldStop: (@Sendable () -> Bool)? = nil
    ) throws(DiceError) -> DistributionReport {
        var evaluator = Evaluator(environment: environment, limits: limits, source: Xoshiro256StarStar(seed: seed))
        // `E given C` is tried until C holds, within the budget: a cap per roll would leave
        // out the values of E that go with a C of low probability.
        evaluator.givenTryLimit = .max
        let budget = limits.stats.maxSimulationWork
        // The evaluator asks after every `workBetweenPolls` dice (or members, or nodes of failed
        // `given` tries), across the rolls: so the simulation has rolled about that many, each
        // worth at least a die's work. Past the budget, a roll in progress (one that alone would
        // pass it) is cut short there; the host's request to stop is passed on.
        let state = SimulationState()
        evaluator.shouldStop = {
            if let shouldStop, shouldStop() { return true }
            state.polls += 1
            let (rolled, overflow) = state.polls.multipliedReportingOverflow(by: workBetweenPolls * simulatedDieCost)
            if overflow || rolled > budget {
                state.outOfBudget = true
                return true
            }
            return false
        }
        // Numbers one after another (whole ones 8 bytes each), sorted at the end: a million
        // rolls of `1d1000000000` are a million outcomes, which a dictionary held in 260 MB,
        // and of `1d1000000000 / 7` took 2.9 s and 338 MB. Texts and tallies are counted.
        var integers: [Int] = []
        integers.reserveCapacity(Swift.min(rolls, 1 << 20))
        var fractions: [Number] = []
        var others: [Value: Int] = [:]
        var firstSeen: [Value] = []
        var made = 0
        while made < rolls {
            evaluator.startStatement()
            let failuresBefore = evaluator.givenFailures
            let value: Value
            do {
                value = try evaluator.value(of: expr)
            } catch {
                if error.kind == .interrupted && state.outOfBudget { break }
                // The host's stop, wherever in the roll it was seen, stops the whole statement.
                if error.kind == .interrupted { throw DiceError(.interrupted, at: expr.range) }
                // A `given` tried until one roll passed a bound of a statement: its condition
                // is too rare to simulate, not the roll too large.
                let failures = evaluator.givenFailures &- failuresBefore
                if failures > 0, error.kind.isRollBound {
                    throw neverHeld(expr, environment, limits, evaluator.givenNeverHeld(tries: failures, else: expr.range))
                }
                throw error
            }
            var cost = rollCost(dice: evaluator.work, nodes: evaluator.nodes)
            if case .number(let number) = value {
                if case .integer(let whole) = number { integers.append(whole) } else { fractions.append(number) }
            } else {
                if others[value] == nil {
                    firstSeen.append(value)
                    cost &+= simulatedNewOutcomeCost
                }
                others[value, default: 0] += 1
            }
            made += 1
            let before = state.spent
            state.spent = before.addingReportingOverflow(cost).overflow ? Int.max : before + cost
            if state.spent >= budget { break }
            // Clearly more than the budget at this rate: stop now, not when it is spent.
            if made >= 1000, state.spent >= budget / 16,
               Double(state.spent) / Double(made) * Double(rolls) > 1.25 * Double(budget) { break }
            if (state.spent >> 14) != (before >> 14), let shouldStop, shouldStop() {
                throw DiceError(.interrupted, at: expr.range)
            }
        }
        // Not one roll: when a `given` failed all along, that is the news, not the time.
        if made == 0 && evaluator.givenFailures > 0 {
            throw neverHeld(expr, environment, limits, evaluator.givenNeverHeld(tries: evaluator.givenFailures, else: expr.range))
        }
        guard made >= Swift.min(rolls, minimumSimulationRolls) else {
            let wanted = Swift.min(rolls, minimumSimulationRolls)
            throw DiceError(.statsTooExpensive(seconds: limits.stats.seconds, rolls: wanted,
                                               need: made > 0 ? secondsFor(Double(state.spent) / Double(made) * Double(wanted),
                                                                           limits.stats) : nil),
                            at: expr.range)
        }
        let total = Double(made)
        var largestError = 0.0
        var outcomes: [Distribution.Outcome] = []
        /// The share of the rolls that is `count`, its standard error noted.
        func share(_ count: Int) -> Double {
            let p = Double(count) / total
            largestError = Swift.max(largestError, (p * (1 - p) / total).squareRoot())
            return p
        }
        func add(_ value: Number, _ count: Int) { outcomes.append(Distribution.Outcome(value, share(count))) }
        integers.sort()
        forEachRun(of: integers) { add(.integer($0), $1) }
        integers = []
        fractions.sort()
        forEachRun(of: fractions) { add($0, $1) }
        var symbolic: [ValueOutcome] = []
        for value in firstSeen {
            guard let count = others[value] else { continue }
            symbolic.append(ValueOutcome(value, share(count)))
        }
        // The whole values and the fractions came each sorted and merged, all different: both
        // together need only sorting (through a dictionary, 1.4 s for `1d1000000000 / 7`).
        if !fractions.isEmpty { outcomes.sort { $0.value < $1.value } }
        fractions = []
        var distribution = Distribution.fromSorted(outcomes)
        if !symbolic.isEmpty {
            distribution.symbolic = ValueOrder.sorted(symbolic, by: .reading(expr, environment: environment))
        }
        var report = DistributionReport(distribution: distribution, exact: false, sampleCount: made,
                                        standardError: largestError)
        report.setEnds(ValueBounds.ends(of: expr, environment: environment, limits: limits))
        report.isTest = isTest(expr, environment: environment)
        return report
    }
}

extension Stats {
    /// The roller's `error` of a simulated `given` whose condition did not hold in all its rolls: that it
    /// can never hold, as the exact engine words it, when `ValueBounds` tells so.
    /// `100d100!kh50kl20 given 1d6 > 6` said it did not hold in 97077 rolls, as if more might do.
    private static func neverHeld(_ expr: Expr, _ environment: Environment, _ limits: Limits,
                                  _ error: DiceError) -> DiceError {
        guard case .conditionNeverHeld = error.kind else { return error }
        // Sound bounds settle that C never holds: every `let` body is walked.
        var walker = ValueBounds.Walker(environment: environment, limits: limits)
        walker.sound = true
        _ = walker.bounds(of: expr)
        guard walker.impossibleConditions.contains(error.range) else { return error }
        return DiceError(.conditionImpossible, at: error.range)
    }

    /// Calls `body` with each value of `sorted` and how many times it comes, in order.
    private static func forEachRun<T: Equatable>(of sorted: [T], _ body: (T, Int) -> Void) {
        var start = 0
        while start < sorted.count {
            var end = start + 1
            while end < sorted.count && sorted[end] == sorted[start] { end += 1 }
            body(sorted[start], end - start)
            start = end
        }
    }

    /// The simulation work of one roll that rolled `dice` dice (and repeat members) and
    /// walked `nodes` nodes of the expression.
    static func rollCost(dice: Int, nodes: Int) -> Int {
        simulatedRollCost &+ WorkMeter.product(dice, simulatedDieCost) &+ WorkMeter.product(nodes, simulatedNodeCost)
    }

    /// The time bound whose simulation budget holds `work` units, in proportion to `budget`'s
    /// (`seconds` for `maxSimulationWork`), rounded up: to a tenth of a second below one, to
    /// whole seconds above.
    static func secondsFor(_ work: Double, _ budget: StatsBudget) -> Double {
        let seconds = budget.seconds * work / Double(Swift.max(1, budget.maxSimulationWork))
        // A hair under, so that exact tenths (0.4 from float arithmetic) do not round up a step.
        let slack = 1e-9
        return seconds < 1 ? ((seconds - slack) * 10).rounded(.up) / 10 : (seconds - slack).rounded(.up)
    }
}

/// What the simulation's stop check reads and writes while a roll is made.
/// Read and changed only by the thread running the simulation: the evaluator asks its
/// `shouldStop` on that thread, in the middle of a roll.
private final class SimulationState: @unchecked Sendable {
    /// Work spent by the rolls made.
    var spent = 0
    /// Polls so far: each after about `workBetweenPolls` more dice rolled, across the rolls.
    var polls = 0
    /// Whether the budget ran out in the middle of a roll.
    var outOfBudget = false
}

extension DiceError.Kind {
    /// Whether the error is one roll passing a bound of a statement: its dice or its parts.
    var isRollBound: Bool {
        switch innermost {
        case .tooManyDice, .resultTooLarge: return true
        default: return false
        }
    }
}
