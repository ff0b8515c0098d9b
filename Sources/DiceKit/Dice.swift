/// One-call entry points for programs that just want a roll.
///
/// ```swift
/// import DiceKit
///
/// let roll = try Dice.roll("4d6kh3 + 2")
/// print(roll.value)                        // 15
/// print(RollRenderer.plain.render(roll))   // 4d6kh3 (6, 4, 3, ~~1~~) + 2 = 15
/// ```
public enum Dice {
    /// Parses and rolls one expression with an empty environment.
    /// - Parameter seed: fixes the rolls; `nil` seeds from the system's entropy.
    public static func roll(_ expression: String, seed: UInt64? = nil, limits: Limits = .standard) throws(DiceError) -> Roll {
        let expr = try Parser.parseExpression(expression, limits: limits)
        let source = seed.map { Xoshiro256StarStar(seed: $0) } ?? Xoshiro256StarStar()
        var evaluator = Evaluator(environment: Environment(), limits: limits, source: source)
        return try evaluator.evaluate(expr)
    }

    /// Parses and rolls one expression with faces from `source`.
    public static func roll<Source: DieSource>(_ expression: String, environment: Environment = Environment(),
                                               limits: Limits = .standard,
                                               using source: inout Source) throws(DiceError) -> Roll {
        let expr = try Parser.parseExpression(expression, limits: limits)
        var evaluator = Evaluator(environment: environment, limits: limits, source: source)
        defer { source = evaluator.source }
        return try evaluator.evaluate(expr)
    }
}
