import Testing
@testable import DiceKit

/// `stats` within its time bound, in the engine's own units (no clocks): the simulation
/// makes its million rolls (LANGUAGE.md §7: at least 1,000,000) or fails naming the bound,
/// and reports the expression's true ends and its precision.
struct StatsTimeBoundTests {
    /// Limits whose exact attempt stops at once, with `simulation` units for the estimate.
    static func simulating(_ simulation: Int) -> Limits {
        var limits = Limits.standard
        limits.stats = StatsBudget(maxWork: 10, maxSimulationWork: simulation)
        return limits
    }

    static func distribution(_ program: String, limits: Limits) throws -> DistributionReport {
        let (expr, environment) = try StatsHarness.prepare(program)
        return try Stats.distribution(of: expr, environment: environment, limits: limits)
    }

    @Test func theSecondsSetBothBudgets() {
        let budget = StatsBudget(seconds: 2)
        #expect(budget.maxWork == Int(StatsBudget.exactStepsPerSecond))
        #expect(budget.maxSimulationWork == Int(StatsBudget.simulationWorkPerSecond))
        #expect(StatsBudget.standard.seconds == 1)
        #expect(StatsBudget.standard.maxWork == 100_000_000)
    }

    @Test func aSimulationReportsTheTrueEndsAndItsPrecision() throws {
        let report = try Self.distribution("2d20!", limits: Self.simulating(Int.max))
        #expect(!report.exact)
        #expect(report.minimum == .value(.integer(2)))
        #expect(report.maximum == .unbounded)
        let rolls = try #require(report.sampleCount)
        #expect(rolls == 1_000_000)
        let error = try #require(report.standardError)
        #expect(error > 0 && error <= 0.5 / Double(rolls).squareRoot())

        let text = DistributionRenderer(width: 80, unicode: false).render(report, title: "2d20!")
        let lines = text.split(separator: "\n")
        #expect(lines[0].hasPrefix("(estimated, not exact: the exact distribution is beyond reach; 1000000 simulated rolls; "
                                   + "each probability ±"))
        #expect(lines[1].contains(", min 2, max unbounded"))
        let json = OutcomeRenderer().json(for: report, input: "stats 2d20!")
        #expect(json.contains("\"exact\":false,\"rolls\":1000000,\"stderr\":"))
        #expect(json.contains("\"min\":2,\"max\":null"))
    }

    /// What one roll of `text` costs the simulation, in its units: rolled once, as it rolls.
    static func costOfOneRoll(_ text: String) throws -> Int {
        var evaluator = Evaluator(environment: Environment(), source: Xoshiro256StarStar(seed: 1))
        evaluator.startStatement()
        _ = try evaluator.value(of: try Parser.parseExpression(text))
        return Stats.rollCost(dice: evaluator.work, nodes: evaluator.nodes)
    }

    @Test func theMillionRollsFitTheBudgetOrItIsAnError() throws {
        // Every roll of 3d6 costs the same: the million fit a budget of a million times that,
        // and not one roll less.
        let perRoll = try Self.costOfOneRoll("3d6")
        #expect(perRoll > 3)
        let full = try Self.distribution("3d6", limits: Self.simulating(perRoll * 1_000_000))
        #expect(full.sampleCount == Stats.simulationRolls)
        #expect(full.minimum == .value(.integer(3)) && full.maximum == .value(.integer(18)))
        // A budget of 1 s that holds a bit over half the million: 2 s, rounded up.
        let short = perRoll * 1_000_000 * 4 / 7
        #expect(throws: DiceError(.statsTooExpensive(seconds: 1, rolls: 1_000_000, need: 2),
                                  at: SourceLocation(offset: 0)..<SourceLocation(offset: 3))) {
            _ = try Self.distribution("3d6", limits: Self.simulating(short))
        }
    }

    @Test func tooSmallABudgetIsAnErrorThatSaysWhatWouldDo() throws {
        // A budget of a dozen rolls and a bit: the million need about 80,000 times it, in
        // whole seconds rounded up.
        let perRoll = try Self.costOfOneRoll("3d6")
        let budget = perRoll * 12 + 1
        let need = (Double(perRoll) * 1_000_000 / Double(budget)).rounded(.up)
        #expect(need > 75_000 && need < 84_000)
        #expect(throws: DiceError(.statsTooExpensive(seconds: 1, rolls: 1_000_000, need: need),
                                  at: SourceLocation(offset: 0)..<SourceLocation(offset: 3))) {
            _ = try Self.distribution("3d6", limits: Self.simulating(budget))
        }
        // One roll alone past the budget is cut short at the evaluator's poll (every 65,536
        // dice): not one roll made, so no estimate of the need.
        #expect(throws: DiceError(.statsTooExpensive(seconds: 1, rolls: 1_000_000, need: nil),
                                  at: SourceLocation(offset: 0)..<SourceLocation(offset: 18))) {
            _ = try Self.distribution("5000000d6kh2500000", limits: Self.simulating(1_000_000))
        }
    }

    /// Far too little budget for the rate of the first rolls: the error comes early, after a
    /// sixteenth of the budget, not after all of it. (The need is the same either way.)
    @Test func aHopelessSimulationStopsEarly() throws {
        let (expr, environment) = try StatsHarness.prepare("3d6")
        let perRoll = try Self.costOfOneRoll("3d6")
        // A fifth of the million's cost: the need is 5 s.
        var limits = Self.simulating(perRoll * 200_000)
        let counter = PollCounter()
        let error = diceError { () throws(DiceError) in
            _ = try Stats.simulate(expr, environment: environment, limits: limits, seed: 1, rolls: 1_000_000) {
                counter.polls += 1
                return false
            }
        }
        let polls = counter.polls
        #expect(error?.kind == .statsTooExpensive(seconds: 1, rolls: 1_000_000, need: 5))
        // Asked every 2^14 units: stopped after about a sixteenth of the budget, not all of it
        // (about 16 times as many polls).
        let pollsForAll = perRoll * 200_000 >> 14
        #expect(polls < pollsForAll / 4, "\(polls) polls of \(pollsForAll)")
        limits.stats = StatsBudget(maxWork: 10, maxSimulationWork: perRoll * 1_000_000)
        #expect(try Stats.simulate(expr, environment: environment, limits: limits, seed: 1, rolls: 1_000_000).sampleCount
                == 1_000_000)
    }

    /// Each different text or tally a simulation meets costs `simulatedNewOutcomeCost` besides
    /// its roll: a million rolls of two d1000s as a tally, about 630,000 different tallies,
    /// do not fit a tenth more than a million rolls' cost, which those of two d2s do.
    @Test func eachNewTallyOfASimulationIsCharged() throws {
        let perRoll = try Self.costOfOneRoll("(a: 1d1000, b: 1d1000)")
        #expect(perRoll == (try Self.costOfOneRoll("(a: 1d2, b: 1d2)")))
        let limits = Self.simulating(perRoll * 1_100_000)
        do {
            _ = try Self.distribution("(a: 1d1000, b: 1d1000)", limits: limits)
            Issue.record("a million rolls of 630,000 different tallies fit the budget")
        } catch let error as DiceError {
            guard case .statsTooExpensive = error.kind else { throw error }
        }
        #expect(try Self.distribution("(a: 1d2, b: 1d2)", limits: limits).sampleCount == 1_000_000)
    }

    /// Whole values and fractions are each sorted and counted in runs; together, every
    /// outcome once, in order, its frequency in the sample.
    @Test func aSimulationOfWholeAndDecimalValuesListsEachOutcomeOnce() throws {
        let report = try Self.distribution("1d4 / 2", limits: Self.simulating(Int.max))
        let outcomes = report.distribution.outcomes
        #expect(outcomes.map(\.value) == [.ratio(1, 2), .integer(1), .ratio(3, 2), .integer(2)])
        #expect(abs(outcomes.reduce(0) { $0 + $1.probability } - 1) < 1e-12)
        // Each a quarter, within five standard errors of a million rolls.
        #expect(outcomes.allSatisfy { abs($0.probability - 0.25) < 5 * (0.25 * 0.75 / 1e6).squareRoot() })
    }

    /// Ends the interval walker cannot work out (a `match`) are the sample's, and say so.
    @Test func unknownEndsFallBackToTheSample() throws {
        let report = try Self.distribution("match 1d6 { 1: 5, else: 1d3 }", limits: Self.simulating(Int.max))
        #expect(report.minimum == nil && report.maximum == nil)
        let text = DistributionRenderer(width: 80, unicode: false).render(report, title: "match 1d6 { 1: 5, else: 1d3 }")
        #expect(text.contains("sample min 1, sample max 5"))
        // JSON does not give the sample's ends as the expression's.
        let json = OutcomeRenderer().json(for: report, input: "stats match 1d6 { 1: 5, else: 1d3 }")
        #expect(json.contains("\"sample_min\":1,\"sample_max\":5"), "\(json)")
        #expect(!json.contains("\"min\"") && !json.contains("\"max\""), "\(json)")
    }

    struct BoundsCase: Sendable, CustomTestStringConvertible {
        var program: String
        var low: BoundNumber?
        var high: BoundNumber?
        var testDescription: String { program }
    }

    static let boundsCases = [
        BoundsCase(program: "3d6 + 2", low: 5, high: 20), BoundsCase(program: "4d6kh3", low: 3, high: 18),
        BoundsCase(program: "2d20kl1 - 1d4", low: -3, high: 19), BoundsCase(program: "1d6!", low: 1, high: .infinity),
        BoundsCase(program: "1d6r1", low: 2, high: 6), BoundsCase(program: "5d10cs>=8df1", low: -5, high: 5),
        BoundsCase(program: "(1d4)d6", low: 1, high: 24), BoundsCase(program: "-2dF * 3", low: -6, high: 6),
        BoundsCase(program: "max(1d6, 1d8) >= 4", low: 0, high: 1), BoundsCase(program: "repeat(3, 1d4)", low: 3, high: 12),
        BoundsCase(program: "def atk(m) = 1d20 + m; atk(1d4)", low: 2, high: 24),
        BoundsCase(program: "1d6 / 1d2", low: BoundNumber(.fraction(numerator: 1, denominator: 2)), high: 6), BoundsCase(program: "1d6 / (1d3 - 2)", low: nil, high: nil),
        BoundsCase(program: "4d6mi3", low: 12, high: 24), BoundsCase(program: "10d6!!kh1", low: 1, high: .infinity),
        BoundsCase(program: "4d6!kh3", low: 3, high: 18), BoundsCase(program: "3d4!dl6", low: 0, high: .infinity),
        BoundsCase(program: "3dF!", low: -3, high: .infinity),
        // Only a face that does not explode ends a chain: a chain of `1d6!<2` is at least 2.
        BoundsCase(program: "1d6!<2", low: 2, high: .infinity), BoundsCase(program: "1d6!!<3", low: 3, high: .infinity),
        BoundsCase(program: "d{1,5}!<2", low: 5, high: .infinity), BoundsCase(program: "1d6!<2cs>1", low: 1, high: 1),
        BoundsCase(program: "1d6!p<2", low: 2, high: 6), BoundsCase(program: "2d6!p<3", low: 6, high: .infinity),
        BoundsCase(program: "1d{-2,1,3}!<2", low: -.infinity, high: .infinity), BoundsCase(program: "3d6!!<3cs>4", low: 0, high: 3),
        // A modifier argument that is a constant counts as if written so; a random one is unknown.
        BoundsCase(program: "1d6!=(1+1)", low: 1, high: .infinity), BoundsCase(program: "n = 2; 4d6kh(n)", low: 2, high: 12),
        BoundsCase(program: "1d6!>(1d2)", low: 1, high: .infinity), BoundsCase(program: "4d6kh(1d3)", low: 1, high: 18),
        BoundsCase(program: "1d6!p<(1d2 + 1)", low: 2, high: .infinity), BoundsCase(program: "3d6kh(1d100)", low: nil, high: nil),
        BoundsCase(program: "(1d2)d(1d6 + 1)", low: 1, high: 14), BoundsCase(program: "2d(1d3 * 2)", low: 2, high: 12),
    ]

    /// The interval walker against the exact distribution's ends (or unboundedness).
    @Test(arguments: StatsTimeBoundTests.boundsCases)
    func theTrueEndsOfAnExpression(_ c: BoundsCase) throws {
        let (expr, environment) = try StatsHarness.prepare(c.program)
        let bounds = ValueBounds.of(expr, environment: environment, limits: .standard)
        guard let low = c.low, let high = c.high else {
            #expect(bounds == nil)
            return
        }
        #expect(bounds?.low == low && bounds?.high == high, "\(String(describing: bounds))")
        let exact = try Stats.exactDistribution(of: expr, environment: environment).distribution
        if low.isFinite { #expect(exact.minimum.map(BoundNumber.init) == low) }
        if high.isFinite { #expect(exact.maximum.map(BoundNumber.init) == high) }
    }
}

/// How often a simulation asked to stop: changed by the one thread that simulates.
final class PollCounter: @unchecked Sendable {
    var polls = 0
}
