import Foundation
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
            case .definition(let name, let parameters, let body):
                environment.define(Macro(name: name, parameters: parameters, body: body))
            case .assignment(let name, let expr):
                let value = try Stats.exactDistribution(of: expr, environment: environment).distribution
                environment.setVariable(name, to: value.constantValue!)
            case .expression, .stats, .compare, .sweep, .update:
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
