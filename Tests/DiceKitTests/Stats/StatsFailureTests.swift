import Testing
@testable import DiceKit

/// The exact engine's three ways to stop stay apart: the expression's own error, "too
/// expensive" (simulate instead) and a broken invariant (a bug: never simulated over).
struct StatsFailureTests {
    static let range = SourceLocation(offset: 2)..<SourceLocation(offset: 7)

    /// The failure `body` stops with, if any.
    static func failure(_ body: () throws(StatsFailure) -> Void) -> StatsFailure? {
        do {
            try body()
            return nil
        } catch {
            return error
        }
    }

    // MARK: - What each channel becomes

    @Test func aBrokenInvariantFailsInsteadOfSimulating() {
        let recovery = StatsFailure.invariant("a die without faces").recovery(at: Self.range)
        let expected = DiceError(.internalError("the exact distribution broke an invariant: a die without faces"),
                                 at: Self.range)
        #expect(recovery == .fail(expected))
        #expect(expected.message.hasPrefix("internal error: "))
    }

    @Test func tooExpensiveSimulates() {
        #expect(StatsFailure.tooExpensive("too many steps").recovery(at: Self.range) == .simulate)
    }

    @Test func theExpressionsOwnErrorsPassThrough() {
        let error = DiceError(.divisionByZero, at: Self.range)
        #expect(StatsFailure.dice(error).recovery(at: .at(0)) == .fail(error))
    }

    /// `Stats.exactDistribution` throws a broken invariant as something no caller takes for
    /// "too expensive" (the tests and the fuzzer simulate on `StatsError`).
    @Test func exactDistributionThrowsABrokenInvariantApart() {
        let invariant = StatsFailure.invariant("a kept sum outside its table").publicError
        #expect(invariant as? StatsInvariantFailure == StatsInvariantFailure(message: "a kept sum outside its table"))
        #expect(!(invariant is StatsError))
        #expect(!(invariant is DiceError))
        #expect(StatsFailure.tooExpensive("x").publicError as? StatsError == .tooExpensive("x"))
        let error = DiceError(.overflow, at: Self.range)
        #expect(StatsFailure.dice(error).publicError as? DiceError == error)
    }

    // MARK: - Invariants the algorithms check

    @Test func keepTablesCheckTheirValues() {
        var meter = WorkMeter(budget: .standard)
        let mismatched = Self.failure { () throws(StatsFailure) in
            _ = try KeepDP.keptSum(probabilities: [0.5, 0.5], contributions: [1], dice: 3, kept: 1..<3,
                                   meter: &meter, at: Self.range)
        }
        #expect(mismatched == .invariant("2 probabilities for 1 contributions"))
        let general = Self.failure { () throws(StatsFailure) in
            _ = try KeepDP.keptSum(probabilities: [1], contributions: [Number](), dice: 3, kept: 1..<3,
                                   meter: &meter, at: Self.range)
        }
        #expect(general == .invariant("1 probabilities for 0 contributions"))
    }

    @Test func aWindowSumNeedsAWindow() throws {
        var meter = WorkMeter(budget: .standard)
        let keeper = try MultisetKeep(form: .drop(count: 1), contributions: [.integer(1), .integer(2)])
        let failure = Self.failure { () throws(StatsFailure) in
            _ = try keeper.windowSum([([1: 1.0], 2)], meter: &meter, at: Self.range)
        }
        #expect(failure == .invariant("a window sum without a window"))
    }

    // MARK: - Too expensive, still simulated

    @Test func theMeterAsksForSimulationPastTheBudget() {
        var meter = WorkMeter(budget: StatsBudget(maxWork: 10, maxOutcomes: 3))
        #expect(Self.failure { () throws(StatsFailure) in try meter.charge(10) } == nil)
        #expect(Self.failure { () throws(StatsFailure) in try meter.ensureAffordable(1) }
                == .tooExpensive("the exact distribution would need more than 10 steps"))
        #expect(Self.failure { () throws(StatsFailure) in try meter.charge(1) }
                == .tooExpensive("the exact distribution needs more than 10 steps"))
        #expect(Self.failure { () throws(StatsFailure) in try meter.checkSize(Distribution(uniformSides: 4)) }
                == .tooExpensive("a distribution would have more than 3 outcomes"))
    }

    /// A keep table with no values is reachable, not a bug: a coarse cutoff can cut all of a
    /// member's mass. It stays "too expensive", so that the roll is simulated.
    @Test func aPoolWithoutValuesIsLeftToSimulation() throws {
        let expr = try Parser.parseExpression("repeat(3, repeat(2000, 1d2!)kh0)kh1")
        let failure = Self.failure { () throws(StatsFailure) in
            _ = try Stats.exactReport(of: expr, environment: Environment(), limits: Limits(stats: StatsBudget(maxWork: nil, explosionCutoff: 0.99)), shouldStop: nil)
        }
        #expect(failure == .tooExpensive("a pool without values"))
    }

    @Test(arguments: ["1d1000000000", "4d%!p>50dh1dl1"])
    func tooExpensiveDistributionsAreSimulated(_ text: String) throws {
        let report = try Stats.distribution(of: Parser.parseExpression(text), environment: Environment())
        #expect(!report.exact)
        #expect(report.sampleCount == Stats.simulationRolls)
    }

    /// Exploding pools whose exact work is hopeless (`3d%d6!p>5`: `d6` drops the six lowest of
    /// penetrating d100s that go on 95 times in 100, so chains of hundreds of dice) are
    /// refused from the estimate, before the work: a small part of the budget is spent.
    @Test(arguments: ["3d%d6!p>5", "3d%!>5dl6", "3d%!p>5kh1", "4d%!p>50dh1dl1"])
    func hopelessExplodingPoolsAreRefusedBeforeTheWork(_ text: String) throws {
        let expr = try Parser.parseExpression(text)
        let engine = StatsEngine(environment: Environment(), limits: .standard, meter: WorkMeter(budget: .standard))
        let failure = Self.failure { () throws(StatsFailure) in _ = try engine.distribution(of: expr) }
        guard case .tooExpensive = failure else {
            Issue.record("expected too expensive, got \(String(describing: failure))")
            return
        }
        #expect(engine.meter.work < StatsBudget.standard.maxWork / 50, "\(engine.meter.work) steps")
    }

    @Test func pastTheWorkBudgetTheDistributionIsSimulated() throws {
        let expr = try Parser.parseExpression("1d6 * 1d6")
        let report = try Stats.distribution(of: expr, environment: Environment(), limits: Limits(stats: StatsBudget(maxWork: 10)))
        #expect(!report.exact)
        #expect(report.distribution.minimum == .integer(1) && report.distribution.maximum == .integer(36))
    }
}
