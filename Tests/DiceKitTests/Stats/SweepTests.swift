import Foundation
import Testing
@testable import DiceKit

/// `stats E for NAME in A..B` (LANGUAGE.md §7): exact values, the name seen by macros, the
/// bounds' errors with their carets, the sweep's JSON and text, and its round trip.
struct SweepTests {
    /// Runs `program` in a session; the last statement must be a sweep.
    static func sweep(_ program: String, limits: Limits = .standard) throws -> (Expr, SweepReport, Session) {
        var session = Session(limits: limits, seed: 1)
        var last: Outcome?
        for statement in try Parser.parseProgram(program) { last = try session.execute(statement) }
        guard case .sweep(let expr, let sweep) = last else { throw SweepTestFailure.notASweep(program) }
        return (expr, sweep, session)
    }

    enum SweepTestFailure: Error { case notASweep(String) }

    /// Each row's probability of each outcome.
    static func table(_ sweep: SweepReport) -> [[Double]] {
        sweep.rows.map { $0.report.distribution.outcomes.map(\.probability) }
    }

    @Test func aTestGivesItsChanceForEachValue() throws {
        let (_, sweep, _) = try Self.sweep("stats 1d20 >= dc for dc in 18..21")
        #expect(sweep.name == "dc")
        #expect(sweep.rows.map(\.value) == [18, 19, 20, 21])
        let means = sweep.rows.map(\.report.distribution.mean)
        for (mean, expected) in zip(means, [0.15, 0.10, 0.05, 0]) { #expect(abs(mean - expected) < 1e-12) }
        // dc 21 cannot be reached: its only outcome is 0, and 1 is not listed at probability 0.
        #expect(sweep.rows[3].report.distribution.outcomes.map(\.value) == [.integer(0)])
        #expect(sweep.rows.allSatisfy { $0.report.exact })
    }

    /// The name is a variable while each value runs: a macro that uses it sees it.
    @Test func macrosSeeTheSweptName() throws {
        let (_, sweep, _) = try Self.sweep("def hit = 1d20 + 5 >= ac; stats hit for ac in 15..16")
        #expect(sweep.rows.map(\.report.distribution.mean) == [0.55, 0.5])
    }

    /// Every value of the crit attack is what `stats attack(AC, 7)` gives alone, exactly.
    @Test func eachValueIsTheDistributionOfItsOwnStatement() throws {
        let attack = "def attack(ac, bonus) = let r = 1d20 in if r == 20 then 2d8 + 3 "
            + "else if r + bonus >= ac then 1d8 + 3 else 0"
        let (_, sweep, session) = try Self.sweep(attack + "; stats attack(ac, 7) for ac in 10..30")
        #expect(sweep.rows.count == 21)
        for row in sweep.rows {
            let alone = try Stats.distribution(of: try Parser.parseExpression("attack(\(row.value), 7)"),
                                               environment: session.environment)
            #expect(row.report.distribution == alone.distribution, "ac \(row.value)")
        }
        // AC 28 and up: only the natural 20 hits.
        #expect(abs(sweep.rows[18].report.distribution.mean - 0.05 * 12) < 1e-12)
    }

    /// The swept name shadows a variable of the same name, which is there again after.
    @Test func theNameShadowsAVariableForTheSweepOnly() throws {
        let (_, sweep, session) = try Self.sweep("ac = 3; lo = 5; stats ac * 2 for ac in lo..lo + 1")
        #expect(sweep.rows.map(\.report.distribution.mean) == [10, 12])
        #expect(session.environment["ac"] == .variable(.integer(3)))
    }

    @Test func oneValueAndNegativeValuesAreSweeps() throws {
        #expect(try Self.sweep("stats x for x in 4..4").1.rows.map(\.value) == [4])
        #expect(try Self.sweep("stats -x for x in -2..0").1.rows.map(\.report.distribution.mean) == [2, 1, 0])
        #expect(try Self.sweep("stats x for x in 1..1000").1.rows.count == Stats.maxSweepValues)
    }

    struct ErrorCase: Sendable, CustomTestStringConvertible {
        var marked: String
        var expected: DiceError.Kind
        var testDescription: String { marked }
    }

    static let errors: [ErrorCase] = [
        ErrorCase(marked: "stats 1d6 for x in ‸5..1", expected: .sweepBackwards(from: 5, to: 1)),
        ErrorCase(marked: "stats 1d6 for x in ‸1..1001", expected: .sweepTooLong(from: 1, to: 1001, limit: 1_000)),
        ErrorCase(marked: "stats 1d6 for x in ‸-9223372036854775807..9223372036854775807",
                  expected: .sweepTooLong(from: -9_223_372_036_854_775_807, to: 9_223_372_036_854_775_807, limit: 1_000)),
        ErrorCase(marked: "stats 1d6 for x in ‸1.5..3", expected: .sweepBoundNotWhole(.ratio(3, 2))),
        ErrorCase(marked: "stats 1d6 for x in 1..‸7 / 2", expected: .sweepBoundNotWhole(.ratio(7, 2))),
        ErrorCase(marked: "stats 1d6 for x in 1..‸1d6", expected: .sweepBoundRolled),
        ErrorCase(marked: "stats 1d6 for x in ‸y..3", expected: .unknownName("y", suggestion: nil)),
        ErrorCase(marked: "stats 6 ‸/ (x - 2) for x in 1..3", expected: .inSweep(name: "x", value: 2, .divisionByZero)),
        // A name defined nowhere is missing for every value: no value is blamed.
        ErrorCase(marked: "stats 1d6 + ‸nope for x in 1..3", expected: .unknownName("nope", suggestion: nil)),
        ErrorCase(marked: "stats ‸nope(x) for x in 1..3", expected: .unknownName("nope", suggestion: nil)),
        ErrorCase(marked: "stats 1d6 for ‸3 in 1..2", expected: .expected(.sweepName, found: .integer(3))),
        ErrorCase(marked: "stats 1d6 for ‸if in 1..2", expected: .reservedWord("if")),
        ErrorCase(marked: "stats 1d6 for x ‸1..2", expected: .expected(.sweepIn(name: "x"), found: .integer(1))),
        ErrorCase(marked: "stats 1d6 for x in ‸", expected: .expected(.sweepStart(name: "x"), found: .end)),
        ErrorCase(marked: "stats 1d6 for x in 1 ‸2", expected: .expected(.sweepDots, found: .integer(2))),
        ErrorCase(marked: "stats 1d6 for x in 1..‸", expected: .expected(.sweepEnd, found: .end)),
        // A comparison is not swept: the error says so, not only that 'for' is unexpected.
        ErrorCase(marked: "stats 1d6, 1d4 ‸for x in 1..2", expected: .expected(.comparisonEnd, found: .name("for"))),
    ]

    /// Each error is of its kind and points where the marker stands.
    @Test(arguments: SweepTests.errors)
    func badSweepsFailWithACaret(_ c: ErrorCase) {
        let marked = MarkedText(c.marked)
        var session = Session(seed: 1)
        do {
            for statement in try Parser.parseProgram(marked.text) { _ = try session.execute(statement) }
            Issue.record("\(c.marked) did not fail")
        } catch {
            #expect(error.kind == c.expected)
            let column = SourceFile(name: "t", text: marked.text).lineAndColumn(of: error.range.lowerBound).column
            #expect(column == marked.column, "\(error.message)")
        }
    }

    /// Past the time bound, the sweep fails (it is never simulated), naming the bound.
    @Test func aSweepPastTheBoundFails() throws {
        var limits = Limits.standard
        limits.stats = StatsBudget(seconds: 0.5, maxWork: 50_000)
        #expect(throws: DiceError(.sweepTooExpensive(seconds: 0.5), at: SourceLocation(offset: 6)..<SourceLocation(offset: 15))) {
            _ = try Self.sweep("stats 100d6 + x for x in 1..30", limits: limits)
        }
        #expect(DiceError.Kind.sweepTooExpensive(seconds: 0.5).message.contains("0.5 s"))
    }

    /// Every value's distribution is kept: together they hold no more than one may.
    @Test func aSweepOfTooManyOutcomesFails() throws {
        var limits = Limits.standard
        limits.stats = StatsBudget(maxOutcomes: 100)
        #expect(try Self.sweep("stats 1d40 + x for x in 1..2", limits: limits).1.rows.count == 2)
        #expect(throws: DiceError(.sweepTooLarge(limit: 100), at: SourceLocation(offset: 6)..<SourceLocation(offset: 14))) {
            _ = try Self.sweep("stats 1d40 + x for x in 1..3", limits: limits)
        }
    }

    @Test func theStatementPrintsAndParsesBack() throws {
        let statement = try #require(try Parser.parseProgram("stats 1d20+5>=ac for ac in 10..2*lo").first)
        #expect(statement.text == "stats 1d20 + 5 >= ac for ac in 10..2 * lo")
        let again = try #require(try Parser.parseProgram(statement.text).first)
        #expect(again.dump == statement.dump)
        #expect(statement.dump == "(sweep (>= (+ (dice 1 20) 5) ac) ac 10 (* 2 lo))")
    }

    /// `--stats` reads an expression statement with a sweep too.
    @Test func statsModeReadsASweep() throws {
        var parser = Parser(SourceFile(name: "t", text: "1d20 >= dc for dc in 1..2"), expressionsAreStats: true)
        let statement = try #require(try parser.nextStatement())
        guard case .sweep(_, "dc", _, _) = statement.kind else {
            Issue.record("\(statement.kind)")
            return
        }
    }

    @Test func jsonHasARowForEachValue() throws {
        let (_, sweep, _) = try Self.sweep("stats 1d20 >= dc for dc in 20..21")
        let json = try #require(OutcomeRenderer().json(for: sweep, input: "stats 1d20 >= dc for dc in 20..21"))
        #expect(json == #"{"input":"stats 1d20 >= dc for dc in 20..21","name":"dc","sweep":["#
            + #"{"dc":20,"exact":true,"mean":0.05,"stdev":0.217944947177,"min":0,"max":1,"#
            + #""median":0,"p10":0,"p90":0,"distribution":[[0,0.95],[1,0.05]],"at_most":[[0,0.95],[1,1]]},"#
            + #"{"dc":21,"exact":true,"mean":0,"stdev":0,"min":0,"max":0,"median":0,"p10":0,"p90":0,"#
            + #""distribution":[[0,1]],"at_most":[[0,1]]}]}"#)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect((object["sweep"] as? [[String: Any]])?.count == 2)
    }

    @Test func textShowsAProbabilityOrAMeanForEachValue() throws {
        let renderer = DistributionRenderer(width: 40, unicode: false)
        let (hitExpr, hits, _) = try Self.sweep("stats 1d20 + 5 >= ac for ac in 24..26")
        #expect(renderer.render(hits, of: hitExpr) == """
            1d20 + 5 >= ac for ac in 24..26
            ac       P
            24  10.00%  ###
            25   5.00%  #
            26   0.00%
            """)
        // Means below zero: the bars run from the least mean, so a higher mean is a longer bar.
        let (sumExpr, sums, _) = try Self.sweep("stats 1d4 + x for x in -5..-3")
        #expect(renderer.render(sums, of: sumExpr) == """
            1d4 + x for x in -5..-3
            x    mean  stdev  median
            -5  -2.50   1.12      -3
            -4  -1.50   1.12      -2  ######
            -3  -0.50   1.12      -1  ###########
            """)
    }
}
