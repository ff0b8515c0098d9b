import Foundation
import Testing
@testable import DiceKit

/// Exact distributions of the `stats` forms of LANGUAGE.md §5b (match bands, the PF2e check,
/// text dice, tallies and tally dice, bound pools counted several ways, `and`/`or`/`not`, unique
/// dice, default parameters) and §7's `given`, written by `scripts/make-outcomes-reference.py`
/// (icepool, and exact enumeration in plain Python where icepool cannot say it) into
/// `Reference/outcomes.json`.
///
/// Each case runs as `dice --json` would: its setup statements, then `stats EXPR` through a
/// `Session`, and the `stats` object `OutcomeRenderer` writes is read back, so outcomes are
/// compared as the contract prints them (a number, a text, or a tally's fields with an absent
/// field 0). Every outcome must agree to 1e-9, none may be extra, and they must come in the
/// contract's order: numbers ascending, texts by first appearance, tallies by their fields.
///
/// The comparisons run once the language of §5b parses (`languageHasOutcomes`, a text literal);
/// until then they are skipped, and from then on every case must run.
struct OutcomesReferenceTests {
    /// An outcome as JSON gives it.
    enum Value: Hashable, Sendable, CustomStringConvertible {
        case number(Double)
        case text(String)
        /// The non-zero fields (a field not written is 0).
        case tally([String: Double])

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

    /// Whether this build's language has the texts of §5b.
    static let languageHasOutcomes = (try? Parser.parseProgram("\"probe\"")) != nil

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
                     "given", "atk", "let p ="] {
            #expect(expressions.contains { $0.contains(form) }, "no case with \(form)")
        }
        let kinds = Set(Self.cases.flatMap { $0.distribution.map { kindRank($0.0) } })
        #expect(kinds == [0, 1, 2])
    }

    @Test(.enabled(if: OutcomesReferenceTests.languageHasOutcomes), arguments: OutcomesReferenceTests.cases)
    func agreesWithTheReference(_ c: Case) throws {
        var session = Session(seed: 1)
        for text in c.setup {
            for statement in try Parser.parseProgram(text) { _ = try session.execute(statement) }
        }
        let statements = try Parser.parseProgram("stats " + c.expression)
        try #require(statements.count == 1)
        guard case .stats(_, let report) = try session.execute(statements[0]) else {
            Issue.record("`stats \(c.expression)` gave no distribution")
            return
        }
        let text = OutcomeRenderer().json(for: report, input: c.expression)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let stats = try #require(root["stats"] as? [String: Any])
        #expect(stats["exact"] as? Bool == true)
        let got = try #require(Self.pairs(stats["distribution"]), "unreadable distribution: \(text)")

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
        checkMeans(stats, c.distribution)
    }

    /// A number distribution's mean, or for tallies each field's mean; texts have none (null).
    func checkMeans(_ stats: [String: Any], _ want: [(Value, Double)]) {
        var numbers = 0.0, fields: [String: Double] = [:]
        var kinds = Set<Int>()
        for (value, p) in want {
            kinds.insert(kindRank(value))
            switch value {
            case .number(let number): numbers += number * p
            case .tally(let values):
                for (name, x) in values { fields[name, default: 0] += x * p }
            case .text: break
            }
        }
        if kinds == [0] {
            let mean = stats["mean"] as? Double
            #expect(mean.map { abs($0 - numbers) <= 1e-9 * Swift.max(1, abs(numbers)) } == true,
                    "mean \(String(describing: mean)), want \(numbers)")
        } else {
            #expect(stats["mean"] is NSNull, "a distribution with texts or tallies has \"mean\": null")
        }
        guard kinds == [2] else { return }
        let printed = stats["fields"] as? [String: Any] ?? [:]
        for (name, mean) in fields where mean != 0 {
            let got = (printed[name] as? [String: Any])?["mean"] as? Double
            #expect(got.map { abs($0 - mean) <= 1e-9 * Swift.max(1, abs(mean)) } == true,
                    "field \(name): mean \(String(describing: got)), want \(mean)")
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
