import Foundation
import Testing
@testable import DiceKit

/// The exact distributions of `scripts/make-system-reference.py`
/// (`Reference/systems.json`), and what the tests of the systems share: loading a system as
/// `use NAME` does, and reading outcomes out of the JSON the library prints.
enum SystemReference {
    /// One statement of one system and its distribution.
    struct Case: Sendable, CustomTestStringConvertible {
        var system: String
        var statement: String
        /// Outcome (a key of `SystemReference.key(_:)`) to probability.
        var distribution: [String: Double]
        /// Whether it rolls exploding dice, whose tails the engine cuts at 1e-12.
        var explodes: Bool
        var testDescription: String { "use \(system); stats \(statement)" }
    }

    static let cases: [Case] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Reference/systems.json")
        guard let data = try? Data(contentsOf: url),
              let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let list = root["cases"] as? [[String: Any]] else { return [] }
        return list.compactMap { entry in
            guard let system = entry["system"] as? String, let statement = entry["statement"] as? String,
                  let pairs = entry["distribution"] as? [[Any]] else { return nil }
            return Case(system: system, statement: statement, distribution: distribution(pairs),
                        explodes: entry["explodes"] as? Bool ?? false)
        }
    }()

    /// `[[outcome, p], ...]` as outcome keys to probabilities.
    static func distribution(_ pairs: [[Any]]) -> [String: Double] {
        var result: [String: Double] = [:]
        for pair in pairs where pair.count == 2 {
            guard let p = double(pair[1]) else { continue }
            result[key(pair[0]), default: 0] += p
        }
        return result
    }

    /// An outcome of JSON as a comparable key: a number by its double, a text quoted, a tally
    /// by its fields other than 0, sorted (`(s: 1) == (s: 1, a: 0)`).
    static func key(_ value: Any) -> String {
        if let text = value as? String { return "\"\(text)\"" }
        if let number = double(value) { return "\(number)" }
        if let fields = value as? [String: Any] {
            let nonzero = fields.compactMap { field, value -> String? in
                guard let n = double(value), n != 0 else { return nil }
                return "\(field): \(n)"
            }
            return "(" + nonzero.sorted().joined(separator: ", ") + ")"
        }
        return "\(value)"
    }

    private static func double(_ value: Any) -> Double? {
        if let n = value as? Int { return Double(n) }
        if let n = value as? Double { return n }
        return (value as? NSNumber)?.doubleValue
    }

    /// Whether every system's source parses: false until the language of LANGUAGE.md §5b

    /// The environment `use NAME` makes: the system's macros.
    static func environment(_ name: String) throws -> Environment {
        guard let system = GameSystem.named(name) else { throw UnknownSystem(name: name) }
        var environment = Environment()
        for (macro, _) in try system.definitions() { environment.define(macro) }
        return environment
    }

    /// A name the tests gave that is no system.
    struct UnknownSystem: Error { var name: String }

    /// A statement rolled with scripted dice (positions 1...sides; for `dF` 1, 2, 3 are -1, 0,
    /// +1; for custom faces the position in the list) and the value it must give.
    struct Golden: Sendable, CustomTestStringConvertible {
        var system: String
        var statement: String
        var faces: [Int]
        /// The JSON value: a number, a text or a tally (`[String: Int]`).
        var value: any Sendable
        var testDescription: String { "use \(system); \(statement) with \(faces)" }
    }

    /// What differs between the exact `stats` of `c.statement` with `environment` and the
    /// reference, worst first; empty when they agree to 1e-9 and the result is exact.
    static func statsProblems(_ c: Case, environment: Environment) throws -> [String] {
        var session = Session(environment: environment, seed: 1)
        guard let statement = try Parser.parseProgram("stats " + c.statement).first else { return ["no statement"] }
        let object = try json(try session.execute(statement), input: c.statement)
        guard let stats = object["stats"] as? [String: Any], let pairs = stats["distribution"] as? [[Any]] else {
            return ["no distribution in \(object)"]
        }
        var problems: [(Double, String)] = []
        if stats["exact"] as? Bool != true { problems.append((1, "not exact")) }
        let got = distribution(pairs)
        // Tails of explosions: the engine stops where less than 1e-12 is left.
        let floor = c.explodes ? 1e-12 : 0
        for (outcome, p) in c.distribution where p > floor {
            let mine = got[outcome] ?? 0
            if abs(mine - p) > 1e-9 { problems.append((abs(mine - p), "P(\(outcome)) = \(mine), want \(p)")) }
        }
        for (outcome, p) in got where c.distribution[outcome] == nil && p > Swift.max(1e-9, floor) {
            problems.append((p, "P(\(outcome)) = \(p), want 0"))
        }
        return problems.sorted { $0.0 > $1.0 }.map(\.1)
    }

    /// What differs between `g` rolled with its scripted faces in `environment` and its value:
    /// the JSON value, and the breakdown's showing of it.
    static func goldenProblems(_ g: Golden, environment: Environment) throws -> [String] {
        let roll = try rollScripted(g.statement, faces: g.faces, environment: environment)
        let object = try json(.roll(roll), input: g.statement)
        var problems: [String] = []
        if key(object["value"] ?? "none") != key(g.value) {
            problems.append("value \(object["value"] ?? "none"), want \(g.value)")
        }
        let text = OutcomeRenderer().text(for: .roll(roll))
        if let word = g.value as? String, !text.contains(word) {
            problems.append("the breakdown does not show \(word): \(text)")
        } else if let number = g.value as? Int, !text.hasSuffix("\(number)") {
            problems.append("the breakdown does not end with \(number): \(text)")
        }
        return problems
    }

    /// The JSON object the library prints for `outcome`.
    static func json(_ outcome: Outcome, input: String) throws -> [String: Any] {
        let renderer = OutcomeRenderer()
        var text = renderer.json(for: outcome, input: input)
        if case .stats(_, let report) = outcome { text = renderer.json(for: report, input: input) }
        return try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
    }
}
