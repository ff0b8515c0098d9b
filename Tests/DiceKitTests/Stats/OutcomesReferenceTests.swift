import Foundation
import Testing
@testable import DiceKit

/// Exact distributions of the `stats` forms of LANGUAGE.md §5b (match bands, the PF2e check,
/// text dice, tallies and tally dice, bound pools counted several ways, their count, sides or
/// a modifier argument rolled too, `and`/`or`/`not`, unique dice, default parameters) and §7's
/// `given`, written by `scripts/make-outcomes-reference.py` (icepool, and exact enumeration in
/// plain Python where icepool cannot say it) into `Reference/outcomes.json`.
///
/// Each case runs its setup statements, then the exact distribution of its expression through
/// the API (`Stats.exactDistribution`, its `valueOutcomes` and `probability(ofValue:)`): the
/// renderers of texts and tallies are not what is checked here. Every outcome must agree to
/// 1e-9, none may be extra, and they must come in the contract's order: numbers ascending,
/// texts by first appearance, tallies by their fields; and the result must be exact.
struct OutcomesReferenceTests {
    /// An outcome as JSON gives it.
    enum Value: Hashable, Sendable, CustomStringConvertible {
        case number(Double)
        case text(String)
        /// The non-zero fields (a field not written is 0).
        case tally([String: Double])

        /// The engine's value, a tally by its non-zero fields.
        init(_ value: DiceKit.Value) {
            switch value {
            case .number(let number): self = .number(number.doubleValue)
            case .text(let text): self = .text(text)
            case .tally(let tally):
                var nonZero: [String: Double] = [:]
                for field in tally.fields where !field.value.isZero { nonZero[field.name] = field.value.doubleValue }
                self = .tally(nonZero)
            }
        }

        init?(json: Any) {
            if let text = json as? String {
                self = .text(text)
            } else if let fields = json as? [String: Any] {
                var nonZero: [String: Double] = [:]
                for (name, value) in fields {
                    guard let number = value as? Double else { return nil }
                    if number != 0 { nonZero[name] = number }
                }
                self = .tally(nonZero)
            } else if let number = json as? Double {
                self = .number(number)
            } else {
                return nil
            }
        }

        var description: String {
            switch self {
            case .number(let number): return "\(number)"
            case .text(let text): return "\"\(text)\""
            case .tally(let fields):
                return "(" + fields.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
                    .joined(separator: ", ") + ")"
            }
        }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var expression: String
        var setup: [String]
        var distribution: [(Value, Double)]
        var testDescription: String { expression }
    }

    static let cases = load()

    static func load() -> [Case] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Reference/outcomes.json")
        guard let data = try? Data(contentsOf: url),
              let list = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]] else { return [] }
        return list.compactMap { entry in
            guard let expression = entry["expression"] as? String,
                  let setup = entry["setup"] as? [String],
                  let pairs = pairs(entry["distribution"]) else { return nil }
            return Case(expression: expression, setup: setup, distribution: pairs)
        }
    }

    /// `[[outcome, p], ...]` read from JSON, or nil if any entry is not one.
    static func pairs(_ json: Any?) -> [(Value, Double)]? {
        guard let list = json as? [[Any]] else { return nil }
        var out: [(Value, Double)] = []
        for pair in list {
            guard pair.count == 2, let value = Value(json: pair[0]), let p = pair[1] as? Double else { return nil }
            out.append((value, p))
        }
        return out
    }

    @Test func referenceCoversEveryForm() {
        #expect(Self.cases.count >= 80)
        let expressions = Self.cases.map(\.expression)
        for form in ["match", "check(", "d{\"", "cs=\"", "count(", "genesys(", " and ", " or ", "not ", "d6u", "}u",
                     "given", "atk", "let p =", "let p = (1d2)d", "kh(1d2)", "d(1d2"] {
            #expect(expressions.contains { $0.contains(form) }, "no case with \(form)")
        }
        let kinds = Set(Self.cases.flatMap { $0.distribution.map { kindRank($0.0) } })
        #expect(kinds == [0, 1, 2])
    }

    @Test(arguments: OutcomesReferenceTests.cases)
    func agreesWithTheReference(_ c: Case) throws {
        try compare(c)
    }


    /// The contract's macros over several lines (a line ending in `in` continues, LANGUAGE.md §5)
    /// parse as written.
    @Test func multiLineSetupsParse() {
        let setups = Set(Self.cases.flatMap(\.setup).filter { $0.contains("\n") })
        #expect(!setups.isEmpty)
        for setup in setups {
            #expect(throws: Never.self) { _ = try Parser.parseProgram(setup) }
        }
    }

    func compare(_ c: Case) throws {
        // The setups written over several lines, on one (`multiLineSetupsParse` checks them as written).
        let setup = c.setup.map { $0.replacingOccurrences(of: "\n", with: " ") }
        let program = (setup + [c.expression]).joined(separator: "\n")
        let report = try StatsHarness.report(program)
        #expect(report.exact, "simulated, not exact")
        let got = report.distribution.valueOutcomes.map { (Self.Value($0.value), $0.probability) }

        var wanted: [Value: Double] = [:]
        for (value, p) in c.distribution { wanted[value] = p }
        var problems: [String] = []
        for (value, p) in got {
            if p == 0 { problems.append("P(\(value)) = 0 is listed") }
            if let want = wanted[value] {
                if abs(p - want) > 1e-9 { problems.append("P(\(value)) = \(p), want \(want)") }
            } else {
                problems.append("P(\(value)) = \(p), want none")
            }
        }
        let listed = Set(got.map(\.0))
        for (value, p) in c.distribution where !listed.contains(value) {
            problems.append("P(\(value)) missing, want \(p)")
        }
        #expect(problems.isEmpty, "\(problems.prefix(6))")
        // Numbers ascending, then texts by first appearance, then tallies by their fields.
        #expect(got.map(\.0) == c.distribution.map(\.0), "order: \(got.map(\.0)), want \(c.distribution.map(\.0))")
        // `probability(ofValue:)` reads the same table.
        for (value, p) in c.distribution {
            let mine = report.distribution.probability(ofValue: Self.diceValue(value))
            #expect(abs(mine - p) <= 1e-9, "probability(ofValue: \(value)) = \(mine), want \(p)")
        }
        checkMean(report.distribution, c.distribution)
    }

    /// A number distribution's mean; texts and tallies have none (the renderers, changing now,
    /// print it as null).
    func checkMean(_ distribution: Distribution, _ want: [(Value, Double)]) {
        guard want.allSatisfy({ kindRank($0.0) == 0 }) else { return }
        var mean = 0.0
        for case (.number(let number), let p) in want { mean += number * p }
        #expect(abs(distribution.mean - mean) <= 1e-9 * Swift.max(1, abs(mean)),
                "mean \(distribution.mean), want \(mean)")
    }

    /// The engine's value as the reference writes it: a tally by its non-zero fields.
    static func diceValue(_ value: Value) -> DiceKit.Value {
        switch value {
        case .number(let number): return .number(Number.nearest(to: number) ?? .integer(Int.min))
        case .text(let text): return .text(text)
        case .tally(let fields):
            return .tally(DiceKit.Tally(fields.sorted { $0.key < $1.key }.map {
                ($0.key, Number.nearest(to: $0.value) ?? .integer(Int.min))
            }))
        }
    }
}

/// 0 for numbers, 1 for texts, 2 for tallies: the order of kinds in a distribution.
private func kindRank(_ value: OutcomesReferenceTests.Value) -> Int {
    switch value {
    case .number: return 0
    case .text: return 1
    case .tally: return 2
    }
}
