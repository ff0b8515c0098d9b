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
            guard case .definition(let name, let parameters, let body) = statement.kind else { continue }
            environment.define(Macro(name: name, parameters: parameters, body: body))
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

    /// Long titles lose their middle; titles that would read alike are numbered everywhere.
    @Test func titlesAreShortenedAndKeptApart() {
        #expect(ComparisonHeadings.abbreviated("{1d20 + 5, 1d20 + 5}kh1", 15, "…") == "{1d20 +…+ 5}kh1")
        #expect(ComparisonHeadings.abbreviated("2d20kh1 + 5", 15, "…") == "2d20kh1 + 5")
        #expect(ComparisonHeadings.abbreviated("4d6dl1r1", 6, "~") == "4d6~r1")
        let apart = ComparisonHeadings(["2d20kh1 + 5", "1d20 + 8"], barWidth: 18, unicode: true)
        #expect(apart.full == ["2d20kh1 + 5", "1d20 + 8"] && apart.group == apart.full && apart.bar == apart.full)
        let alike = ComparisonHeadings(["1d6", "1d6"], barWidth: 18, unicode: true)
        #expect(alike.full == ["#1 1d6", "#2 1d6"] && alike.group == alike.full && alike.bar == alike.full)
        let narrow = ComparisonHeadings(["1d20 + 1d4 + 5", "1d20 + 1d6 + 5", "1d20"], barWidth: 6, unicode: false)
        #expect(narrow.full == ["#1 1d20 + 1d4 + 5", "#2 1d20 + 1d6 + 5", "#3 1d20"])
        #expect(narrow.bar == ["#1 1~5", "#2 1~5", "#3 1~0"])
        #expect(Set(narrow.group).count == 3)
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
}
