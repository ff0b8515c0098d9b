import Foundation
import Testing
@testable import DiceKit

/// Runs small `stats` programs: statements before the last define macros and
/// variables; the last is the expression whose distribution is returned.
enum StatsHarness {
    static func report(_ program: String, budget: StatsBudget = .standard,
                       limits: Limits = .standard) throws -> DistributionReport {
        let (expr, environment) = try prepare(program)
        var limits = limits
        limits.stats = budget
        return try Stats.exactDistribution(of: expr, environment: environment, limits: limits)
    }

    /// The last statement's expression and the environment the earlier ones make.
    static func prepare(_ program: String) throws -> (Expr, Environment) {
        var environment = Environment()
        let statements = try Parser.parseProgram(program)
        for statement in statements.dropLast() {
            switch statement.kind {
            case .definition(let name, let parameters, let defaults, let body):
                environment.define(Macro(name: name, parameters: parameters, defaults: defaults, body: body))
            case .assignment(let name, let expr):
                let value = try Stats.exactDistribution(of: expr, environment: environment).distribution
                environment.setVariable(name, to: .number(value.constantValue!))
            case .expression, .stats, .compare, .update, .sweep, .use:
                break
            }
        }
        switch statements.last?.kind {
        case .expression(let expr), .stats(let expr):
            return (expr, environment)
        default:
            throw NoFinalExpression()
        }
    }

    /// A test program whose last statement is not an expression.
    struct NoFinalExpression: Error {}

    /// The error the program's distribution throws, if any.
    static func error(_ program: String, budget: StatsBudget = .standard) -> Error? {
        do {
            _ = try report(program, budget: budget)
            return nil
        } catch {
            return error
        }
    }

    /// The package's root folder, found from this file's path.
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }

    /// Expects `report` to state an explosion cut as §7 asks: more than rounding (1d6! alone
    /// cuts 3.5e-13) and small, the outcomes shown and the cut making 1, in JSON
    /// (`truncated`) and in the text's note.
    static func expectCutStated(_ report: DistributionReport, _ what: String,
                                sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        #expect(report.truncatedMass > 1e-14 && report.truncatedMass < 1e-9, "\(what): \(report.truncatedMass)",
                sourceLocation: sourceLocation)
        #expect(abs(report.distribution.totalProbability + report.truncatedMass - 1) < 1e-14, "\(what)",
                sourceLocation: sourceLocation)
        let json = OutcomeRenderer().json(for: report, input: "stats x")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let stats = try #require(object["stats"] as? [String: Any])
        let truncated = stats["truncated"] as? Double
        #expect(truncated.map { $0 > 1e-14 && $0 < 1e-9 } == true, "\(what)", sourceLocation: sourceLocation)
        let text = DistributionRenderer(width: 80, unicode: true).render(report, title: "x")
        #expect(text.contains("(explosions cut where the probability left was below 1e-12; "), "\(what)",
                sourceLocation: sourceLocation)
    }

    /// A JSON number as a `Number`.
    static func number(_ any: Any) -> Number? {
        if let i = any as? Int { return .integer(i) }
        if let d = any as? Double { return Number.nearest(to: d) }
        return nil
    }
}

/// Outcome-by-outcome differences between two distributions, worst first.
func differences(_ got: Distribution, _ want: [(Number, Double)], tolerance: Double,
                 ignoringBelow floor: Double = 0) -> [String] {
    var wanted: [Number: Double] = [:]
    for (value, p) in want { wanted[value, default: 0] += p }
    var problems: [(Double, String)] = []
    for (value, p) in wanted where p > floor {
        let mine = got.probability(of: value)
        if abs(mine - p) > tolerance { problems.append((abs(mine - p), "P(\(value)) = \(mine), want \(p)")) }
    }
    got.forEachOutcome { value, p in
        if wanted[value] == nil && p > Swift.max(tolerance, floor) {
            problems.append((p, "P(\(value)) = \(p), want 0"))
        }
    }
    return problems.sorted { $0.0 > $1.0 }.prefix(4).map(\.1)
}
