import Foundation
import Testing
@testable import DiceKit

/// The `dist` cases of the shared conformance suite (`../shared/conformance/cases.jsonl`
/// beside the package), checked in-process: every outcome within 1e-9, min, max, mean
/// and standard deviation.
struct StatsConformanceTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var id: String
        var program: String
        var distribution: [[Double]]
        var minimum: Double
        var maximum: Double?
        var mean: Double
        var standardDeviation: Double
        var testDescription: String { "\(id): \(program)" }
    }

    static let file = StatsHarness.packageRoot.deletingLastPathComponent()
        .appendingPathComponent("shared/conformance/cases.jsonl")

    static let cases: [Case] = {
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  object["kind"] as? String == "dist",
                  let statements = object["stmts"] as? [String],
                  let pairs = object["distribution"] as? [[Any]],
                  let minimum = object["min"].flatMap(StatsHarness.number),
                  let mean = object["mean"] as? Double,
                  let deviation = object["stdev"] as? Double else { return nil }
            let program = statements.map { $0.hasPrefix("stats ") ? String($0.dropFirst(6)) : $0 }
                .joined(separator: "; ")
            let distribution = pairs.compactMap { pair -> [Double]? in
                guard let value = StatsHarness.number(pair[0]), let p = pair[1] as? Double else { return nil }
                return [value.doubleValue, p]
            }
            return Case(id: object["id"] as? String ?? "?", program: program, distribution: distribution,
                        minimum: minimum.doubleValue,
                        maximum: object["max"].flatMap(StatsHarness.number)?.doubleValue,
                        mean: mean, standardDeviation: deviation)
        }
    }()

    @Test(.enabled(if: FileManager.default.fileExists(atPath: file.path),
                   "the shared conformance cases are not beside the package"),
          arguments: StatsConformanceTests.cases)
    func matchesTheConformanceCase(_ c: Case) throws {
        let report = try StatsHarness.report(c.program)
        let want = c.distribution.map { (Number.nearest(to: $0[0]) ?? .integer(Int.min), $0[1]) }
        let problems = differences(report.distribution, want, tolerance: 1e-9)
        #expect(problems.isEmpty, "\(problems)")
        #expect(report.distribution.minimum?.doubleValue == c.minimum)
        if let maximum = c.maximum { #expect(report.distribution.maximum?.doubleValue == maximum) }
        #expect(abs(report.distribution.mean - c.mean) < 1e-6 * Swift.max(1, abs(c.mean)))
        #expect(abs(report.distribution.standardDeviation - c.standardDeviation) < 1e-6 * Swift.max(1, c.standardDeviation))
    }
}
