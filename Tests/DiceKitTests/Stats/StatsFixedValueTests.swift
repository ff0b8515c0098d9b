import Testing
@testable import DiceKit

/// Loops that work a body out once per value (`let` names and macro parameters used more than
/// once) take the roller's walk for bodies that roll nothing (`StatsEngine.fixedValue`): the
/// results must be the distribution's own, whichever walk gave them.
struct StatsFixedValueTests {
    /// The probabilities of `program`'s outcomes, keyed by their text.
    private func table(_ program: String) throws -> [String: Double] {
        let report = try StatsHarness.report(program)
        var table: [String: Double] = [:]
        for outcome in report.distribution.valueOutcomes { table["\(outcome.value)"] = outcome.probability }
        return table
    }

    private func expectTable(_ program: String, _ want: [String: Double]) throws {
        let got = try table(program)
        #expect(Set(got.keys) == Set(want.keys), "\(program): \(got)")
        for (key, p) in want { #expect(abs((got[key] ?? -1) - p) < 1e-12, "\(program): \(key)") }
    }

    @Test func aBodyOfFixedValuesGivesEachValue() throws {
        // r is used twice: one body a value of r, each with no dice.
        try expectTable("let r = 1d4 in r * r - r", ["0": 0.25, "2": 0.25, "6": 0.25, "12": 0.25])
        try expectTable(#"def band(x) = match x + x { 2-4: "low", else: "high" }; band(1d4)"#,
                        ["low": 0.5, "high": 0.5])
        // The fields in the order they are written (`a` in the let first: OutcomeOrderTests).
        try expectTable("let t = (a: 1d2, b: 1) in (sum: t.a + t.b, a: t.a)",
                        ["(a: 1, sum: 2)": 0.5, "(a: 2, sum: 3)": 0.5])
    }

    @Test func aNameBoundToADistributionIsNotAVariableOfTheSameName() throws {
        // y is used once in g, so it stands for 1d4's whole distribution, not a value: the
        // global y = 100 must not show through.
        let report = try StatsHarness.report("y = 100; def g(y) = let r = 1d2 in r + r + y; g(1d4)")
        #expect(report.distribution.minimum == .integer(3))
        #expect(report.distribution.maximum == .integer(8))
        #expect(abs(report.distribution.mean - 5.5) < 1e-12)
    }

    @Test func aBoundGroupIsNoPoolOfDiceToTheRoller() throws {
        // The group's outcomes carry its counts, not dice: the inner loop over r must count p
        // through the distribution's walk (it counted an empty pool: a mean of 5).
        let report = try StatsHarness.report("let p = {1d6, 1d8} in let r = 1d4 in r + r + count(p, >=5)")
        #expect(abs(report.distribution.mean - (5 + 2.0 / 6 + 4.0 / 8)) < 1e-12)
        // A bound pool of dice is shown to the roller as its dice.
        let pool = try StatsHarness.report("let p = 3d6 in let r = 1d4 in r + r + count(p, >=5)")
        #expect(abs(pool.distribution.mean - 6) < 1e-12)
    }

    @Test func aDefaultThatReadsTheNameReadsItsOneValue() throws {
        // lim's default is worked out where lim is used, with x's one value there: x read
        // only through it was taken for unused (always 0), and with x beside it for a roll apart.
        try expectTable("def lim(t = x) = t; let x = 1d4 in lim", ["1": 0.25, "2": 0.25, "3": 0.25, "4": 0.25])
        try expectTable("def lim(t = x) = t; let x = 1d4 in lim + x", ["2": 0.25, "4": 0.25, "6": 0.25, "8": 0.25])
        try EveryRoll.expectAgreement("def lim(t = x + 1d2) = t\nlet x = 1d4 in lim * 10 + x")
    }

    @Test func aBodyThatRollsDiceIsItsDistribution() throws {
        // The first value's body rolls a d2: every value's body is worked out as a distribution.
        try expectTable("let r = 1d2 in r + r + 1d2",
                        ["3": 0.25, "4": 0.25, "5": 0.25, "6": 0.25])
    }

    @Test func aBodyThatFailsForOneValueFailsAsTheRollerDoes() throws {
        let expr = try Parser.parseExpression("let r = 1d3 in if r == 2 then r / (r - 2) else r + r")
        var evaluator = Evaluator(environment: Environment(), source: ScriptedDice([2]))
        let rollError = diceError { () throws(DiceError) in try evaluator.evaluate(expr) }
        let expected = try #require(rollError)
        #expect(expected.kind == .divisionByZero)
        #expect(throws: expected) { try Stats.exactDistribution(of: expr, environment: Environment()) }
        let (call, environment) = try StatsHarness.prepare("def f(x) = x / (x - 2); f(1d3)")
        #expect(throws: DiceError(.inMacro(name: "f", .divisionByZero), at: call.range)) {
            try Stats.exactDistribution(of: call, environment: environment)
        }
    }

    @Test func aConditionThatFailsForSomeValuesIsConditioned() throws {
        // The roller would try `given` again and again; the distribution leaves those values out.
        try expectTable("let r = 1d4 in (r + r given r > 2)", ["6": 0.5, "8": 0.5])
    }
}
