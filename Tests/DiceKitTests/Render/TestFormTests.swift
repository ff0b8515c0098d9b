import Testing
@testable import DiceKit

/// Which `stats` results are one probability (`P = …`) and which are a table: decided by
/// how the expression is written (`Stats.isTest`), the same for every renderer. Before, it was
/// decided by the outcomes: `count(3d6, =7)` (never anything but 0) printed `P = 0.00%`, and
/// `1d2 - 1` or the constant `1` a probability too.
struct TestFormTests {
    /// The last statement of `program`, run in a seeded session, and the session after it.
    static func run(_ program: String) throws -> (Outcome, Session) {
        var session = Session(seed: 1)
        var last: Outcome?
        for statement in try Parser.parseProgram(program) { last = try session.execute(statement) }
        return (try #require(last), session)
    }

    /// Each program's last statement is `stats E`; whether E is a test.
    static let forms: [(program: String, isTest: Bool)] = [
        ("stats 1d20 >= 10", true),
        ("stats (1d20 >= 10)", true),
        ("stats ((1d20 + 5 >= 15)) [hit]", true),
        ("stats not 1d6", true),
        ("stats 1d6 > 2 and 1d6 > 3", true),
        ("stats 1d6 == 1 or 1d6 == 6", true),
        ("stats let r = 1d20 in r == 20 or r == 1", true),
        ("stats let h = 1d20 >= 10 in h", true),
        ("stats let h = 1d20 >= 10 in let g = h in g", true),
        ("stats if 1d2 == 1 then 1d6 > 3 else 1d6 > 5", true),
        ("stats match 1d6 { 6: 1d20 >= 10, 1-2: not 1d2, else: 1d20 >= 15 }", true),
        ("stats (1d20 >= 10) given 1d6 > 2", true),
        ("def hit = 1d20 + 5 >= 15\nstats hit", true),
        ("def hit(ac, bonus = 5) = 1d20 + bonus >= ac\nstats hit(15)", true),
        ("def pass(x) = x\nstats pass(1d20 >= 5)", true),
        ("def hit = 1d20 >= 10\ndef either = hit or hit\nstats let e = either in e", true),
        ("def t = (hit: 1d20 >= 10, dmg: 1d8)\nstats t.hit", true),
        ("stats let t = (hit: 1d20 >= 10) in (if 1d2 == 1 then t else (hit: not 1d2)).hit", true),
        // Numbers whose outcomes happen to be 0 and 1, or 0 alone, or 1 alone: tables.
        ("def t = (hit: 1d20 >= 10, dmg: 1d8)\nstats t.dmg", false),
        ("stats (hit: 1d20 >= 10).miss", false),
        ("stats (if 1d2 == 1 then (hit: 1d20 >= 10) else (hit: 1)).hit", false),
        ("stats (d{(hit: 1), ()}).hit", false),
        ("stats count(3d6, =7)", false),
        ("stats count(1d6, =6)", false),
        ("stats 1d2 - 1", false),
        ("stats 1", false),
        ("stats 0", false),
        ("stats 1d10 / 10", false),
        ("stats (1d20 >= 10) + 0", false),
        ("stats -(1d6 > 3)", false),
        ("stats min(1d20 >= 10, 1)", false),
        ("stats {1d20 >= 10}", false),
        ("stats let h = 1d20 >= 10 in h * 1", false),
        ("stats let h = 1d20 in h >= 10 and h", true),
        ("stats let h = 1d2 - 1 in h", false),
        ("stats if 1d2 == 1 then 1d6 > 3 else 0", false),
        ("stats match 1d6 { 6: 1d20 >= 10, else: 1 }", false),
        ("stats 1d2 given 1d20 > 10", false),
        ("def pass(x) = x\nstats pass(1d2 - 1)", false),
        // A variable holds the number rolled, not the test.
        ("x = 1d20 >= 10\nstats x", false),
        ("x = 1d20 >= 10\nstats x == 1", true),
    ]

    @Test(arguments: TestFormTests.forms.indices)
    func theFormFollowsTheWriting(_ index: Int) throws {
        let (program, isTest) = Self.forms[index]
        let (outcome, session) = try Self.run(program)
        guard case .stats(let expr, let report) = outcome else { Issue.record("not stats: \(program)"); return }
        #expect(Stats.isTest(expr, environment: session.environment) == isTest, "\(program)")
        #expect(report.isTest == isTest, "\(program)")
        let text = DistributionRenderer().render(report, title: expr.text)
        let firstLine = String(text.split(separator: "\n").first ?? "")
        if isTest {
            // A test's outcomes are 0 and 1 alone: its line is the probability of 1, and no table.
            #expect(report.distribution.outcomes.allSatisfy { $0.value == .integer(0) || $0.value == .integer(1) })
            let chance = DistributionRenderer.percent(report.distribution.probability(of: .integer(1)))
            #expect(text == "\(expr.text): P = \(chance)", "\(program)")
            #expect(ChartRenderer.summary(report) == "P = \(chance)")
        } else {
            #expect(firstLine.contains(": mean ") && text.contains("at least"), "\(program):\n\(text)")
            #expect(ChartRenderer.summary(report).hasPrefix("mean "))
        }
    }

    /// The worked-out chances of some of the forms, each read off the `P = …` line.
    @Test(arguments: [
        ("stats let r = 1d20 in r == 20 or r == 1", "10.00%"),
        ("stats let h = 1d20 >= 10 in h", "55.00%"),
        ("stats if 1d2 == 1 then 1d6 > 3 else 1d6 > 5", "33.33%"),  // (1/2)(1/2) + (1/2)(1/6)
        ("stats (1d20 >= 10) given 1d6 > 2", "55.00%"),
        ("def hit(ac, bonus = 5) = 1d20 + bonus >= ac\nstats hit(15)", "55.00%"),
        ("def hit = 1d20 >= 10\ndef either = hit or hit\nstats let e = either in e", "79.75%"),  // 1 - 0.45²
    ])
    func testsShowTheirChance(_ program: String, _ chance: String) throws {
        let (outcome, _) = try Self.run(program)
        guard case .stats(let expr, let report) = outcome else { Issue.record("not stats: \(program)"); return }
        #expect(DistributionRenderer().render(report, title: expr.text) == "\(expr.text): P = \(chance)")
    }

    /// A macro that uses itself is followed through its other results: without parameters,
    /// the use adds none of its own; with them, an argument could be anything, so it is no test.
    @Test func recursionIsFollowedWithoutParameters() throws {
        var environment = Environment()
        for program in ["def again = if 1d6 == 6 then again else 1d20 >= 10",
                        "def nest(x) = if 1d6 == 6 then nest(1d6) else x"] {
            guard case .definition(let name, let parameters, let defaults, let body) = try Parser.parseProgram(program)[0].kind
            else { Issue.record("not a definition: \(program)"); return }
            environment.define(Macro(name: name, parameters: parameters, defaults: defaults, body: body))
        }
        #expect(Stats.isTest(try Parser.parseExpression("again"), environment: environment))
        #expect(!Stats.isTest(try Parser.parseExpression("nest(1d20 >= 10)"), environment: environment))
    }

    /// Macros that use others twice over ask for exponentially many reads: past the budget the
    /// answer is "no test" (a table, never wrong), and it comes at once.
    @Test func deepMacrosStopAtTheBudget() throws {
        var environment = Environment()
        environment.define(Macro(name: "m0", parameters: [], body: try Parser.parseExpression("1d20 >= 10")))
        for level in 1...40 {
            let body = try Parser.parseExpression("if 1d2 == 1 then m\(level - 1) else m\(level - 1)")
            environment.define(Macro(name: "m\(level)", parameters: [], body: body))
        }
        #expect(Stats.isTest(try Parser.parseExpression("m10"), environment: environment))
        #expect(!Stats.isTest(try Parser.parseExpression("m40"), environment: environment))
    }

    /// A comparison gives each test its `P = …` line and the others their columns.
    @Test func aComparisonAsksEachExpression() throws {
        let (outcome, _) = try Self.run("stats count(1d6, =6), 1d6 >= 6")
        guard case .compare(let exprs, let reports) = outcome else { Issue.record("not a comparison"); return }
        #expect(reports.map(\.isTest) == [false, true])
        let lines = DistributionRenderer().render(comparing: zip(exprs, reports).map { (title: $0.text, report: $1) })
            .split(separator: "\n").map(String.init)
        #expect(lines[0] == "count(1d6, =6): mean 0.17, stdev 0.37, min 0, max 1, median 0")
        #expect(lines[1] == "1d6 >= 6:       P = 16.67%")
        #expect(lines.contains { $0.hasPrefix("    1  16.67%  16.67%") })
    }

    /// A sweep of a test has its `P` column; a count that is 0 or 1 its mean, stdev and median.
    @Test func aSweepAsksItsExpression() throws {
        let (test, _) = try Self.run("stats 1d6 >= x for x in 5..6")
        let (count, _) = try Self.run("stats count(1d6, >=(x)) for x in 5..6")
        guard case .sweep(let testExpr, let testSweep) = test, case .sweep(let countExpr, let countSweep) = count else {
            Issue.record("not sweeps")
            return
        }
        #expect(testSweep.isTest && !countSweep.isTest)
        let renderer = DistributionRenderer(width: 40)
        #expect(renderer.render(testSweep, of: testExpr).split(separator: "\n").map { String($0.prefix(9)) }
                == ["1d6 >= x ", "x       P", "5  33.33%", "6  16.67%"])
        #expect(renderer.render(countSweep, of: countExpr).split(separator: "\n").dropFirst().map { String($0.prefix(22)) }
                == ["x  mean  stdev  median", "5  0.33   0.47       0", "6  0.17   0.37       0"])
        let chart = try #require(ChartRenderer().svg(for: count))
        #expect(chart.contains("the mean by x") && !chart.contains("the chance by x"))
        #expect(try #require(ChartRenderer().svg(for: test)).contains("the chance by x"))
    }

    /// A simulated distribution is asked the same: its form is the expression's.
    @Test func anEstimateAsksItsExpression() throws {
        let session = Session(seed: 1)
        let test = try session.stats("1d3000000 > 1500000")
        #expect(!test.exact && test.isTest)
        #expect(DistributionRenderer().render(test, title: "t").contains("t: P = "))
    }
}
