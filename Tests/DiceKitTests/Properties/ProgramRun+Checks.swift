import Foundation
import Testing
@testable import DiceKit

/// The distributions `ProgramRun` works out and the invariants it checks (see `ProgramPropertyTests`).
extension ProgramRun {
    // MARK: - Distributions

    /// The exact distribution with the small budget; `nil` when that is too expensive.
    mutating func exactDistribution(of expr: Expr) -> Result<DistributionReport, DiceError>? {
        do {
            let report = try Stats.exactDistribution(of: expr, environment: session.environment, limits: ProgramPropertyTests.statsLimits)
            tally.exactDistributions += 1
            return .success(report)
        } catch let error as DiceError {
            return .failure(error)
        } catch is StatsError {
            return nil
        } catch {
            fail("Stats.exactDistribution threw \(error)")
            return nil
        }
    }

    /// What `stats` prints: the exact distribution, or past the budget a short simulation.
    mutating func distribution(of expr: Expr, in source: SourceFile,
                               input: String) -> Result<DistributionReport, DiceError>? {
        if let exact = exactDistribution(of: expr) { return exact }
        do {
            let report = try Stats.simulate(expr, environment: session.environment, limits: Self.limits, seed: seed,
                                            rolls: ProgramPropertyTests.simulationRolls)
            tally.simulatedDistributions += 1
            if report.exact { fail("`\(input)`: a simulation that says it is exact") }
            return .success(report)
        } catch {
            return .failure(error)
        }
    }

    static func isResourceError(_ kind: DiceError.Kind) -> Bool {
        switch kind.innermost {
        case .tooManyDice, .resultTooLarge, .interrupted, .evaluationTooDeep, .macroRecursion: return true
        default: return false
        }
    }


    mutating func checkRange(_ range: SourceRange, in source: SourceFile, what: String) {
        if range.lowerBound.offset < 0 || range.upperBound.offset > source.bytes.count
            || range.lowerBound.offset > range.upperBound.offset {
            fail("\(what) range \(range.lowerBound.offset)..<\(range.upperBound.offset) outside a source of \(source.bytes.count) bytes: `\(String(decoding: source.bytes, as: UTF8.self))`")
        }
    }

    /// An error has a message, a range inside its source, a diagnostic and a JSON object.
    mutating func check(_ error: DiceError, in source: SourceFile, input: String, counted: Bool = true) {
        if counted { tally.errors[Self.kindName(error.kind), default: 0] += 1 }
        checkRange(error.range, in: source, what: "the error range of `\(error.message)`")
        if error.message.isEmpty { fail("`\(input)`: an error without a message: \(error.kind)") }
        let diagnostic = DiagnosticRenderer().render(error, in: source)
        if !diagnostic.hasPrefix("<prog>:") { fail("`\(input)`: a diagnostic without a position: \(diagnostic)") }
        let json = OutcomeRenderer().json(for: error, in: source, input: input)
        guard let object = jsonObject(json), let details = object["error"] as? [String: Any],
              details["message"] is String, details["line"] is NSNumber, details["column"] is NSNumber else {
            return fail("`\(input)`: the error's JSON is not an object with a message, line and column: \(json)")
        }
    }

    /// The breakdown ends with the value, in plain text and ANSI; numbers are canonical.
    mutating func check(_ roll: Roll, input: String) {
        check(roll.value, input: input)
        let value = RollRenderer.plain.text(of: roll.value)
        let plain = RollRenderer.plain.render(roll)
        if case .number = roll.kind {
            if plain != value { fail("`\(input)`: a bare number renders as `\(plain)`, not `\(value)`") }
        } else if roll.value.number == nil && roll.endsInItsValue {
            // A text or tally the breakdown ends in (`→ strong hit`, `x (hi)`) is not repeated after `=`.
            if !plain.hasSuffix(value) && !plain.hasSuffix("(\(value))") { fail("`\(input)`: `\(plain.suffix(200))` does not end with `\(value)`") }
        } else {
            if !plain.hasSuffix(" = " + value) { fail("`\(input)`: `\(plain.suffix(200))` does not end with ` = \(value)`") }
            let ansi = RollRenderer.ansi.render(roll)
            if !ansi.hasSuffix(" = \u{1B}[1m\(value)\u{1B}[0m") { fail("`\(input)`: the ANSI breakdown does not end with the bold value") }
        }
        if plain.contains("\n") { fail("`\(input)`: a breakdown with a line break") }
        for pool in roll.pools {
            check(pool.value, input: input)
            if pool.dice.count > Self.limits.maxRecordedDice || pool.omitted < 0 {
                fail("`\(input)`: a pool records \(pool.dice.count) dice and omits \(pool.omitted)")
            }
        }
    }

    /// Fractions are in lowest terms with a denominator above 1 (so whole values are integers).
    mutating func check(_ value: Value, input: String) {
        guard case .number(.fraction(let numerator, let denominator)) = value else { return }
        if denominator <= 1 || Number.gcd(numerator, denominator) != 1 {
            fail("`\(input)`: a fraction \(numerator)/\(denominator) not in lowest terms")
        }
    }

    /// The human line of a roll or assignment ends with the value; the JSON parses and,
    /// for a roll, holds the value.
    mutating func check(_ outcome: Outcome, input: String) {
        let text = OutcomeRenderer().text(for: outcome)
        _ = OutcomeRenderer(rolls: .ansi).text(for: outcome)
        let json = OutcomeRenderer().json(for: outcome, input: input)
        guard let object = jsonObject(json) else { return fail("`\(input)`: invalid JSON: \(json.prefix(2_000))") }
        if object["input"] as? String != input { fail("`\(input)`: the JSON input is \(String(describing: object["input"]))") }
        switch outcome {
        case .roll(let roll), .assignment(_, let roll):
            // As printed: control characters escaped (LANGUAGE.md §6).
            let value = TextEscaping.escaped(roll.value.description, markdown: false)
            if !text.hasSuffix(value) && !text.hasSuffix("(\(value))") { fail("`\(input)` renders as `\(text.suffix(200))`") }
            if case .assignment(let name, _) = outcome, !text.hasPrefix("\(name) = ") {
                fail("`\(input)` renders as `\(text.prefix(200))`")
            }
            // A number as a number, a text as a string, a tally as an object of its fields
            // (`()` is the empty tally: `{}`).
            let written = object["value"]
            let same: Bool
            switch roll.value {
            case .number(let rolled): same = (written as? NSNumber).map { Self.same($0, rolled) } ?? false
            case .text(let rolled): same = written as? String == rolled
            case .tally(let rolled):
                let fields = written as? [String: Any]
                same = fields?.count == rolled.fields.count && rolled.fields.allSatisfy { field in
                    (fields?[field.name] as? NSNumber).map { Self.same($0, field.value) } ?? false
                }
            }
            if !same { return fail("`\(input)`: JSON value \(String(describing: written)), rolled \(roll.value)") }
        case .definition(let macro):
            if object["defined"] as? String != macro.name { fail("`\(input)`: JSON \(json)") }
        case .stats, .compare, .sweep, .system, .systems:
            break
        }
    }

    /// A report renders, its JSON parses, and its distribution is well formed.
    mutating func check(_ report: DistributionReport, input: String, title: String) {
        _ = DistributionRenderer(width: 80, unicode: true).render(report, title: title)
        _ = DistributionRenderer(width: 21, unicode: false, maxRows: 5).render(report, title: title)
        let json = OutcomeRenderer().json(for: report, input: input)
        if jsonObject(json)?["stats"] == nil { fail("`\(input)`: invalid stats JSON: \(json.prefix(2_000))") }
        let distribution = report.distribution
        var previous: Number?
        var problem: String?
        distribution.forEachOutcome { value, probability in
            if problem == nil, !(probability >= 0 && probability <= 1 + 1e-6) { problem = "probability \(probability) of \(value)" }
            if problem == nil, let previous, !(previous < value) { problem = "outcomes out of order: \(previous), \(value)" }
            previous = value
        }
        if let problem { fail("`\(input)`: \(problem)") }
        let total = distribution.totalProbability
        if report.exact, report.truncatedMass == 0, !distribution.isEmpty, abs(total - 1) > 1e-6 {
            fail("`\(input)`: an exact distribution with total probability \(total)")
        }
    }

    /// A comparison renders, a line at least for each expression, and its JSON holds one
    /// member a report, named by its expression.
    mutating func check(comparison reports: [(title: String, report: DistributionReport)], input: String) {
        let text = DistributionRenderer(width: 80, unicode: true).render(comparing: reports)
        _ = DistributionRenderer(width: 21, unicode: false, maxRows: 5).render(comparing: reports)
        let json = OutcomeRenderer().json(comparing: reports.map { ($0.title, $0.report) }, input: input)
        guard let members = jsonObject(json)?["compare"] as? [[String: Any]], members.count == reports.count else {
            return fail("`\(input)`: invalid comparison JSON: \(json.prefix(2_000))")
        }
        if members.map({ $0["expr"] as? String }) != reports.map(\.title) { fail("`\(input)`: JSON \(json.prefix(2_000))") }
        if reports.count > 1 && text.split(separator: "\n").count < reports.count {
            fail("`\(input)`: a comparison of \(reports.count) in \(text.split(separator: "\n").count) lines")
        }
    }

    /// A rolled value lies within an exact, uncut distribution's range.
    mutating func checkWithinBounds(_ value: Number, _ report: DistributionReport, input: String) {
        let distribution = report.distribution
        guard report.exact, report.truncatedMass == 0, distribution.totalProbability > 0.999,
              let minimum = distribution.minimum, let maximum = distribution.maximum else { return }
        tally.boundsChecked += 1
        let slack = 1e-9 * Swift.max(1, abs(minimum.doubleValue), abs(maximum.doubleValue))
        if value.doubleValue < minimum.doubleValue - slack || value.doubleValue > maximum.doubleValue + slack {
            fail("`\(input)` rolled \(value), outside the exact range \(minimum)...\(maximum)")
        }
    }

    func jsonObject(_ text: String) -> [String: Any]? {
        // One line: JSON Lines.
        if text.utf8.contains(UInt8(ascii: "\n")) { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
    }

    /// Whether a JSON number is the value (a fraction's nearest double, to the last few bits).
    static func same(_ number: NSNumber, _ value: Number) -> Bool {
        switch value {
        case .integer(let whole):
            return number.int64Value == Int64(whole) || number.doubleValue == Double(whole)
        case .fraction:
            // The nearest double, to the last bit or two that Foundation's parser may lose.
            let fraction = value.doubleValue
            return abs(number.doubleValue - fraction) <= 1e-15 * Swift.max(1, abs(fraction))
        }
    }

    /// The names and calls in `expr` (outside dice modifiers).
    static func macroNames(in expr: Expr) -> [String] {
        switch expr.kind {
        case .number: return []
        case .name(let name): return [name]
        case .call(let name, let arguments): return [name] + arguments.flatMap(macroNames)
        case .function(_, let arguments): return arguments.flatMap(macroNames)
        case .unary(_, let operand), .annotated(let operand, _): return macroNames(in: operand)
        case .chain(let first, let rest): return macroNames(in: first) + rest.flatMap { macroNames(in: $0.operand) }
        case .power(let lhs, let rhs), .comparison(_, let lhs, let rhs): return macroNames(in: lhs) + macroNames(in: rhs)
        case .dice(let term):
            var names = term.count.map(macroNames) ?? []
            if case .number(let sides) = term.sides { names += macroNames(in: sides) }
            return names
        case .group(let members, _, _): return members.flatMap(macroNames)
        case .repeat(let count, let body, _): return macroNames(in: count) + macroNames(in: body)
        case .conditional(let condition, let then, let otherwise):
            return macroNames(in: condition) + macroNames(in: then) + macroNames(in: otherwise)
        case .binding(let name, let value, let body):
            return macroNames(in: value) + macroNames(in: body).filter { $0 != name }
        case .text: return []
        case .match, .tally, .field, .logical, .not, .count, .given:
            return expr.children.flatMap(macroNames)
        }
    }

    /// `inMacro(divisionByZero)`, `unknownName`: the kind without its payload.
    static func kindName(_ kind: DiceError.Kind) -> String {
        if case .inMacro(_, let inner) = kind { return "inMacro(\(kindName(inner)))" }
        return String("\(kind)".prefix { $0 != "(" })
    }
}
