import Foundation
import Testing
@testable import DiceKit

/// Distributions computed by an independent exact calculator (icepool), written by
/// `scripts/make-stats-reference.py` into `Reference/stats-reference.json`.
struct StatsReferenceTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var program: String
        var distribution: [[Double]]
        var outcomes: [(Number, Double)] {
            distribution.map { (Number.nearest(to: $0[0]) ?? .integer(Int.min), $0[1]) }
        }
        var explodes: Bool
        var testDescription: String { program }
    }

    static let cases = load("stats-reference.json")
    /// `if` and `let`, from `scripts/make-conditional-reference.py`.
    static let conditionalCases = load("conditional-reference.json")

    static func load(_ file: String) -> [Case] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Reference/" + file)
        guard let data = try? Data(contentsOf: url),
              let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let list = root["cases"] as? [[String: Any]] else { return [] }
        return list.compactMap { entry in
            guard let program = entry["program"] as? String,
                  let pairs = entry["distribution"] as? [[Any]] else { return nil }
            let distribution = pairs.compactMap { pair -> [Double]? in
                guard let value = StatsHarness.number(pair[0]), let p = pair[1] as? Double else { return nil }
                return [value.doubleValue, p]
            }
            return Case(program: program, distribution: distribution, explodes: entry["explode_depth"] != nil)
        }
    }

    @Test func referenceFilesArePresent() {
        #expect(Self.cases.count > 100)
        #expect(Self.conditionalCases.count > 10)
    }

    @Test(arguments: StatsReferenceTests.cases + StatsReferenceTests.conditionalCases)
    func agreesWithTheReference(_ c: Case) throws {
        let report = try StatsHarness.report(c.program)
        #expect(report.exact)
        // Explosion tails: icepool puts the last exploding face's mass where we cut it,
        // so compare where the reference has more than 1e-12.
        let problems = differences(report.distribution, c.outcomes, tolerance: 1e-9,
                                   ignoringBelow: c.explodes ? 1e-12 : 0)
        #expect(problems.isEmpty, "\(problems)")
        let total = report.distribution.totalProbability
        #expect(abs(total + report.truncatedMass - 1) < 1e-12)
        if c.explodes {
            #expect(report.truncatedMass > 0 && report.truncatedMass < 1e-11)
        } else {
            #expect(report.truncatedMass == 0)
        }
        let mean = c.outcomes.reduce(0.0) { $0 + $1.0.doubleValue * $1.1 }
        #expect(abs(report.distribution.mean - mean) < 1e-6 * Swift.max(1, abs(mean)))
    }
}
