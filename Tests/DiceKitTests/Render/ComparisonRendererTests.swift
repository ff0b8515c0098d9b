import Foundation
import Testing
@testable import DiceKit

/// `stats e1, e2, ...` rendered: the table against snapshots (re-recorded with
/// RECORD_SNAPSHOTS=1), its width, its titles and its JSON.
@Suite struct ComparisonRendererTests {
    /// The reports of `texts` in an environment where `program` ran, titled as `stats` titles them.
    static func reports(_ texts: [String], program: String = "") throws -> [(title: String, report: DistributionReport)] {
        var environment = Environment()
        for statement in try Parser.parseProgram(program) {
            guard case .definition(let name, let parameters, let defaults, let body) = statement.kind else { continue }
            environment.define(Macro(name: name, parameters: parameters, defaults: defaults, body: body))
        }
        return try texts.map { text in
            let expr = try Parser.parseExpression(text)
            return (expr.text, try Stats.exactDistribution(of: expr, environment: environment))
        }
    }

    static let macros = "def atk = 1d20 + 5; def atk2 = 2d20kh1 + 5"

    static let snapshots: [(name: String, expressions: [String], unicode: Bool)] = [
        ("compare-advantage", ["2d20kh1 + 5", "1d20 + 8"], true),
        ("compare-ability-scores-ascii", ["4d6kh3", "3d6", "4d6r1dl1"], false),
        ("compare-hit-chances", ["atk >= 15", "atk2 >= 15", "1d20 + 8 >= 15"], true),
        ("compare-mixed", ["atk", "atk2 >= 15"], true),
        ("compare-long-titles", ["{1d20+5, 1d20+5}kh1", "{1d20+5, 1d20+5, 1d20+5}kh1"], true),
        ("compare-grouped", ["100d6", "90d6 + 35"], true),
    ]

    @Test(arguments: ComparisonRendererTests.snapshots.map(\.name))
    func tableMatchesItsSnapshot(_ name: String) throws {
        let c = try #require(Self.snapshots.first { $0.name == name })
        let renderer = DistributionRenderer(width: 80, unicode: c.unicode)
        Snapshot.assert(renderer.render(comparing: try Self.reports(c.expressions, program: Self.macros)), named: name)
    }

    /// Two or three expressions fit in 80 columns: the table, and the lines of moments of
    /// short expressions.
    @Test(arguments: [["2d20kh1 + 5", "1d20 + 8"], ["4d6kh3", "3d6", "4d6r1dl1"], ["100d6", "90d6 + 35"],
                      ["1d6!", "1d8!", "1d10!"], ["-3d6", "2d6 - 10", "1d20 - 10"]])
    func twoOrThreeFitInEightyColumns(_ expressions: [String]) throws {
        for unicode in [true, false] {
            let text = DistributionRenderer(width: 80, unicode: unicode).render(comparing: try Self.reports(expressions))
            for line in text.split(separator: "\n") where !line.hasPrefix("(") {
                #expect(line.count <= 80, "\(line.count) columns: \(line)")
                #expect(unicode || line.allSatisfy(\.isASCII), "not ASCII: \(line)")
            }
        }
    }

    /// `*` marks the one highest chance of at least the row's value, as shown; a tie has none.
    @Test func theLeaderIsTheOneHighestChanceAsShown() {
        #expect(ComparisonTable.leader([0.64, 0.55]) == 0)
        #expect(ComparisonTable.leader([0.30, 0.25, 0.35]) == 2)
        #expect(ComparisonTable.leader([1, 1]) == nil)
        #expect(ComparisonTable.leader([0.999_999, 1]) == nil)
        #expect(ComparisonTable.leader([0.5, 0.5, 0.2]) == nil)
        #expect(ComparisonTable.leader([0.5]) == nil)
    }

    /// A text row shows what the text's own table shows: its P and "at least", no `*` (no
    /// expression is likelier to reach a text); the `*` of a number row compares chances of
    /// reaching a number, which a text die never does.
    @Test func textRowsShowWhatTheirOwnTableShows() throws {
        let text = DistributionRenderer(width: 80, unicode: true)
            .render(comparing: try Self.reports(["1d4", #"d{"a", "b"}"#]))
        let rows = text.split(separator: "\n").map { String($0) }
        let a = try #require(rows.first { $0.hasPrefix("    a") })
        let b = try #require(rows.first { $0.hasPrefix("    b") })
        #expect(a.hasPrefix("    a       -       -   50.00% 100.00%  "), "\(a)")
        #expect(b.hasPrefix("    b       -       -   50.00%  50.00%  "), "\(b)")
        let two = try #require(rows.first { $0.hasPrefix("    2") })
        #expect(two.hasPrefix("    2  25.00%  75.00%*       - 100.00%  "), "\(two)")
        let table = ComparisonTable([try Self.reports(["1d4"])[0].report.distribution,
                                     try Self.reports([#"d{"a", "b"}"#])[0].report.distribution], maxRows: 40, unicode: true)
        #expect(table.rows.map { $0.reach == nil } == [false, false, false, false, true, true])
    }

    /// Titles are never cut: whole over the columns when all fit and differ; else numbered
    /// everywhere, with the numbers alone over columns a numbered title does not fit.
    @Test func titlesAreWholeOrNumbered() {
        let apart = ComparisonHeadings(["2d20kh1 + 5", "1d20 + 8"], barWidth: 18)
        #expect(apart.full == ["2d20kh1 + 5", "1d20 + 8"] && apart.group == apart.full && apart.bar == apart.full)
        #expect(!apart.listedBelow)
        let alike = ComparisonHeadings(["1d6", "1d6"], barWidth: 18)
        #expect(alike.full == ["#1 1d6", "#2 1d6"] && alike.group == alike.full && alike.bar == alike.full)
        #expect(!alike.listedBelow)
        let narrow = ComparisonHeadings(["4d6kh3", "3d6", "4d6r1dl1"], barWidth: 6)
        #expect(narrow.full == ["#1 4d6kh3", "#2 3d6", "#3 4d6r1dl1"] && narrow.group == narrow.full)
        #expect(narrow.bar == ["#1", "#2", "#3"] && !narrow.listedBelow)
        let long = ComparisonHeadings(["{1d20, 1d20}kh1 + 8", "2d20kh1 + 5", "1d20 + 8"], barWidth: 6)
        #expect(long.full == ["#1 {1d20, 1d20}kh1 + 8", "#2 2d20kh1 + 5", "#3 1d20 + 8"])
        #expect(long.group == ["#1", "#2", "#3"] && long.bar == ["#1", "#2", "#3"] && long.listedBelow)
        // A probability in a mix heads no column: its title does not count.
        let mixed = ComparisonHeadings(["1d20", "{1d20, 1d20}kh1 + 5 >= 15"], barWidth: 18, haveColumns: [true, false])
        #expect(mixed.full == ["1d20", "{1d20, 1d20}kh1 + 5 >= 15"] && !mixed.listedBelow)
    }

    /// The three-way comparison of issue 24 at 80 columns: every line fits, the headings are
    /// the numbers, and under the table each number's expression, whole, with its moments.
    @Test func headingsThatDoNotFitAreNumberedAndListedUnderTheTable() throws {
        let expressions = ["{1d20, 1d20}kh1 + 8", "2d20kh1 + 5", "1d20 + 8"]
        let text = DistributionRenderer(width: 80, unicode: true).render(comparing: try Self.reports(expressions))
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { $0.count <= 80 })
        #expect(lines.first == "            #1               #2               #3           #1     #2     #3")
        #expect(lines.suffix(3) == ["#1 {1d20, 1d20}kh1 + 8: mean 21.83, stdev 4.71, min 9, max 28, median 23",
                                    "#2 2d20kh1 + 5:         mean 18.83, stdev 4.71, min 6, max 25, median 20",
                                    "#3 1d20 + 8:            mean 18.50, stdev 5.77, min 9, max 28, median 18"])
        #expect(!text.contains("…") && !text.contains("~"))
    }

    /// Each expression's moments state the ends its own header states (LANGUAGE.md §7): `2d6!`
    /// said max 190, the end of its cut tails, where it has none, and `1d6!kh20` max 95, not 120.
    @Test func momentsStateEachReportsEnds() throws {
        let text = DistributionRenderer(width: 80, unicode: true).render(comparing: try Self.reports(["2d6!", "1d6!kh20"]))
        let lines = text.split(separator: "\n").map(String.init)
        let chain = try #require(lines.first { $0.hasPrefix("2d6!:") })
        let kept = try #require(lines.first { $0.hasPrefix("1d6!kh20:") })
        #expect(chain.contains(", min 2, max unbounded, "), "\(chain)")
        #expect(kept.contains(", min 1, max 120, "), "\(kept)")
    }

    @Test func jsonMatchesItsSnapshot() throws {
        let reports = try Self.reports(["1d4", "1d4 >= 3"])
        let json = OutcomeRenderer().json(comparing: reports.map { ($0.title, $0.report) }, input: "stats 1d4, 1d4 >= 3")
        Snapshot.assert(json, named: "compare-json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let members = try #require(object["compare"] as? [[String: Any]])
        #expect(members.map { $0["expr"] as? String } == ["1d4", "1d4 >= 3"])
        #expect(members.allSatisfy { $0["exact"] as? Bool == true && $0["distribution"] is [[Double]] })
    }

    /// A simulated or cut report says so under the table, named by its title.
    @Test func notesNameTheirExpression() throws {
        var reports = try Self.reports(["1d6!", "1d6"])
        reports[1].report.exact = false
        reports[1].report.sampleCount = 1_000_000
        let text = DistributionRenderer(width: 80, unicode: true).render(comparing: reports)
        #expect(text.contains("\n(1d6!: explosions cut where the probability left was below 1e-12; "))
        #expect(text.hasSuffix("\n(1d6: estimated from 1000000 rolls: the exact distribution is too large to compute)"))
    }

    /// A rare `given` is worked out again with its explosions cut finer (1e-24 for
    /// `1d2 given 1d6! >= 90`): the note states that cutoff, not the usual 1e-12, alone and
    /// compared; beside it, a report cut as usual still says 1e-12.
    @Test func theNoteStatesTheCutoffUsed() throws {
        let reports = try Self.reports(["1d2 given 1d6! >= 90", "1d6!"])
        #expect(reports[0].report.explosionCutoff == 1e-24 && reports[1].report.explosionCutoff == 1e-12)
        let alone = DistributionRenderer(width: 80, unicode: true).render(reports[0].report, title: "x")
        #expect(alone.contains("\n(explosions cut where the probability left was below 1e-24; "))
        let text = DistributionRenderer(width: 80, unicode: true).render(comparing: reports)
        #expect(text.contains("1d2 given 1d6! >= 90: explosions cut where the probability left was below 1e-24; "))
        #expect(text.contains("1d6!: explosions cut where the probability left was below 1e-12; "))
    }
}
