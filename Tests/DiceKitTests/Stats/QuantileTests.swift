import Foundation
import Testing
@testable import DiceKit

/// The median and the 10th and 90th percentiles (the least outcome whose "at most" reaches
/// 50%, 10%, 90%), and "at most" itself, in text and JSON (LANGUAGE.md §7).
struct QuantileTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var expression: String
        var median: Number
        var p10: Number
        var p90: Number
        var testDescription: String { expression }
    }

    /// Worked out by hand from the cumulative probabilities (the last three are the
    /// conformance cases' own figures).
    static let cases: [Case] = [
        // P(≤ 2) = 50% exactly: the median is 2, not 3.
        Case(expression: "1d4", median: .integer(2), p10: .integer(1), p90: .integer(4)),
        // P(≤ 1) = 10% exactly, P(≤ 9) = 90% exactly.
        Case(expression: "1d10", median: .integer(5), p10: .integer(1), p90: .integer(9)),
        // P(≤ 3) = 3/36 < 10% <= P(≤ 4) = 6/36; P(≤ 9) = 30/36 < 90% <= P(≤ 10) = 33/36.
        Case(expression: "2d6", median: .integer(7), p10: .integer(4), p90: .integer(10)),
        Case(expression: "1d20 + 1d4", median: .integer(13), p10: .integer(5), p90: .integer(21)),
        Case(expression: "6d6!kh2", median: .integer(11), p10: .integer(8), p90: .integer(12)),
        Case(expression: "1d10/10 + 1d10/10 == 0.3", median: .integer(0), p10: .integer(0), p90: .integer(0)),
        Case(expression: "1d6 / 4", median: .ratio(3, 4), p10: .ratio(1, 4), p90: .ratio(3, 2)),
    ]

    @Test(arguments: QuantileTests.cases)
    func percentilesAreTheLeastOutcomesReachingTheirShare(_ c: Case) throws {
        let report = try Stats.distribution(of: try Parser.parseExpression(c.expression), environment: Environment())
        let marks = try #require(report.distribution.percentiles)
        #expect(marks.median == c.median && marks.p10 == c.p10 && marks.p90 == c.p90)
        let json = OutcomeRenderer().json(for: report, input: c.expression)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let stats = try #require(object["stats"] as? [String: Any])
        #expect((stats["median"] as? NSNumber)?.doubleValue == c.median.doubleValue)
        #expect((stats["p10"] as? NSNumber)?.doubleValue == c.p10.doubleValue)
        #expect((stats["p90"] as? NSNumber)?.doubleValue == c.p90.doubleValue)
    }

    /// A sum of probabilities a rounding short of the share still reaches it: ten outcomes
    /// of 0.1 reach 30% at the third, though 0.1 + 0.1 + 0.1 is not 0.3 in doubles.
    @Test func aRoundingShortfallStillReaches() {
        let tenths = Distribution((1...10).map { Distribution.Outcome(.integer($0), 0.1) })
        #expect(tenths.quantile(0.3) == .integer(3))
        #expect(tenths.quantile(0.7) == .integer(7))
        #expect(Distribution([]).quantile(0.5) == nil)
    }

    /// Long sums carry their roundings: 100,000 outcomes of 1/200,000 reach 50% exactly at
    /// 100000 (a naive running sum fell more than 1e-12 short, and gave the median 100001),
    /// and "at most" there is 0.5, not 0.499999999999.
    @Test func longSumsDoNotDriftPastTheShare() throws {
        let report = try Stats.distribution(of: try Parser.parseExpression("1d200000"), environment: Environment())
        let marks = try #require(report.distribution.percentiles)
        #expect(marks.median == .integer(100_000) && marks.p10 == .integer(20_000) && marks.p90 == .integer(180_000))
        let halfway = try #require(report.distribution.atMost.first { $0.value == .integer(100_000) })
        #expect(abs(halfway.probability - 0.5) < 1e-15)
        let tenths = Distribution((1...10).map { Distribution.Outcome(.integer($0), 0.1) })
        #expect(tenths.atMost.last?.probability == 1)
    }

    /// `at_most` runs to 1 beside the distribution, and neither lists an outcome of
    /// probability 0 (`2 * 1d3` is stored densely, with zeros between its outcomes).
    @Test func atMostListsTheSameOutcomesAsTheDistribution() throws {
        let report = try Stats.distribution(of: try Parser.parseExpression("2 * 1d3"), environment: Environment())
        let json = OutcomeRenderer().json(for: report, input: "stats 2 * 1d3")
        #expect(json.hasSuffix(#""distribution":[[2,0.333333333333],[4,0.333333333333],[6,0.333333333333]],"#
                               + #""at_most":[[2,0.333333333333],[4,0.666666666667],[6,1]]}}"#))
    }

    /// The header gives them; on a narrow screen they get a line of their own.
    @Test func theHeaderGivesThem() throws {
        let report = try Stats.distribution(of: try Parser.parseExpression("1d20 + 1d4"), environment: Environment())
        let wide = DistributionRenderer(width: 80).render(report, title: "1d20 + 1d4")
        #expect(wide.hasPrefix("1d20 + 1d4: mean 13.00, stdev 5.87, min 2, max 24, median 13, p10 5, p90 21\nvalue"))
        let narrow = DistributionRenderer(width: 60).render(report, title: "1d20 + 1d4")
        #expect(narrow.hasPrefix("1d20 + 1d4: mean 13.00, stdev 5.87, min 2, max 24\nmedian 13, p10 5, p90 21\nvalue"))
    }
}
