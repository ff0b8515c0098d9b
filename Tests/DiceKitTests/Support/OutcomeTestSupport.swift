import Testing
@testable import DiceKit

/// A program run with scripted dice: statements before the last define macros and set
/// variables; the last is the expression rolled.
struct ScriptedProgram {
    /// The last statement's roll with its breakdown.
    var roll: Roll
    /// How many scripted faces were drawn.
    var drawn: Int

    /// Runs `program` with `faces` (positions 1...sides; for custom faces, the position in the list).
    init(_ program: String, faces: [Int], limits: Limits = .standard) throws(DiceError) {
        let (evaluator, expr) = try ScriptedProgram.prepare(program, faces: faces, limits: limits)
        var rolling = evaluator
        rolling.startStatement()
        roll = try rolling.evaluate(expr)
        drawn = rolling.source.position
    }

    /// The outcome of the last statement of `program`, each statement run in turn with `faces`.
    static func outcome(_ program: String, faces: [Int]) throws -> Outcome {
        var evaluator = Evaluator(environment: Environment(), source: ScriptedDice(faces))
        var outcome: Outcome?
        for statement in try Parser.parseProgram(program) { outcome = try evaluator.execute(statement) }
        return try #require(outcome)
    }

    /// The value alone (`value(of:)`, what `-t` and simulations roll), and the faces drawn.
    static func value(_ program: String, faces: [Int],
                      limits: Limits = .standard) throws(DiceError) -> (value: Value, drawn: Int) {
        var (evaluator, expr) = try prepare(program, faces: faces, limits: limits)
        evaluator.startStatement()
        let value = try evaluator.value(of: expr)
        return (value, evaluator.source.position)
    }

    /// An evaluator after every statement but the last (which draws no face), and the last expression.
    static func prepare(_ program: String, faces: [Int],
                        limits: Limits) throws(DiceError) -> (Evaluator<ScriptedDice>, Expr) {
        let statements = try Parser.parseProgram(program, limits: limits)
        var evaluator = Evaluator(environment: Environment(), limits: limits, source: ScriptedDice(faces))
        for statement in statements.dropLast() { _ = try evaluator.execute(statement) }
        guard let last = statements.last, case .expression(let expr) = last.kind else {
            throw DiceError(.internalError("the test program ends in no expression"), at: SourceRange.at(0))
        }
        evaluator.source = ScriptedDice(faces)
        return (evaluator, expr)
    }
}

extension Value {
    /// A tally of `fields` in order: `.tally(["s": 1])` reads as `(s: 1)`.
    static func tally(_ fields: KeyValuePairs<String, Int>) -> Value {
        .tally(DiceKit.Tally(fields.map { ($0.key, Number.integer($0.value)) }))
    }
}
