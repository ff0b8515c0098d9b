import Testing
@testable import DiceKit

/// The value path (`CompiledValue`, which `--total`, `value(of:)` and simulations roll):
/// the same dice, the same value and the same errors as the tree evaluator.
@Suite struct ValuePathTests {
    static let limits = Limits(maxDice: 10_000)

    @Test(arguments: [41, 42, 43] as [UInt64])
    func agreesWithTheTreeEvaluatorOnGeneratedExpressions(_ seed: UInt64) throws {
        var generator = ExpressionGenerator(seed: seed)
        let environment = try ExpressionGenerator.environment()
        var values = 0
        for _ in 0..<1_000 {
            let expr = generator.expression()
            let compiled = CompiledValue(expr)
            var tree = Evaluator(environment: environment, limits: Self.limits, source: Xoshiro256StarStar(seed: seed))
            var flat = tree
            // Twice in a row: the reused stack and buffers start clean each time.
            for _ in 0..<2 {
                tree.startStatement()
                flat.startStatement()
                let expected = Result { () throws(DiceError) in try tree.evaluate(expr).value }
                let actual = Result { () throws(DiceError) in try flat.value(of: compiled) }
                switch (expected, actual) {
                case (.success(let a), .success(let b)):
                    #expect(a == b, "\(expr.text)")
                    values += 1
                case (.failure(let a), .failure(let b)):
                    #expect(a.kind == b.kind && a.range == b.range, "\(expr.text): \(a.message) / \(b.message)")
                default:
                    Issue.record("\(expr.text): the tree gives \(expected), the value path \(actual)")
                }
                #expect(tree.source.next() == flat.source.next(), "\(expr.text) rolled different dice")
            }
        }
        #expect(values > 1_000)
    }

    /// Arithmetic, functions, names and dice terms of every kind become steps; macros
    /// with arguments, groups and `repeat` are handed to the tree evaluator whole.
    @Test(arguments: [
        ("4d6kh3 + 2", "pool number binary"),
        ("-(1d20 + 5) >= 15", "pool number binary negate number comparison"),
        ("max(2d6, 3)^2 [fire]", "pool number function number power"),
        ("x * 2d6!", "name number number dice binary"),
        ("(x)d(1d4 + 2)kh(x)", "name count pool number binary dice"),
        ("{1d20, 1d20}kh1 + repeat(2, 1d4) - m(1)", "tree tree binary tree binary"),
        ("let r = 1d20 in if r == 20 then 2d8 else 0", "pool bind name number comparison branch pool jump number unbind"),
    ] as [(String, String)])
    func flattensWhatItCan(_ text: String, _ shape: String) throws {
        let compiled = CompiledValue(try Parser.parseExpression(text))
        let names = compiled.steps.map { step -> String in
            switch step {
            case .number: return "number"
            case .literalPool: return "pool"
            case .checkCount: return "count"
            case .dice: return "dice"
            case .name: return "name"
            case .negate: return "negate"
            case .binary: return "binary"
            case .power: return "power"
            case .comparison: return "comparison"
            case .function: return "function"
            case .tree: return "tree"
            case .branch: return "branch"
            case .jump: return "jump"
            case .bind: return "bind"
            case .unbind: return "unbind"
            }
        }
        #expect(names.joined(separator: " ") == shape, "\(text)")
    }

    /// Errors carry the same positions: an operator's, a pool's, a function's.
    @Test(arguments: ["1d6 / 0", "2^1d6 ^ 100", "10001d6 + 1", "abs(-9223372036854775807 - 1d2)", "(0 - 1)d6"])
    func errorsPointWhereTheTreeWouldPoint(_ text: String) throws {
        let expr = try Parser.parseExpression(text)
        var tree = Evaluator(environment: Environment(), limits: Self.limits, source: Xoshiro256StarStar(seed: 5))
        var flat = tree
        let expected = diceError { () throws(DiceError) in try tree.evaluate(expr).value }
        let actual = diceError { () throws(DiceError) in try flat.value(of: CompiledValue(expr)) }
        #expect(expected != nil, "\(text) should fail")
        #expect(expected?.kind == actual?.kind && expected?.range == actual?.range, "\(text)")
    }
}
