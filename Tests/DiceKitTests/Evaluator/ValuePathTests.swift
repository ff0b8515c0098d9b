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
    /// with arguments, groups and `repeat` are handed to the tree evaluator whole. A literal
    /// added to or subtracted from a pool of literals joins the pool's step (`+k` when it
    /// cannot: after another offset, or where a branch ends).
    @Test(arguments: [
        ("4d6kh3 + 2", "pool"),
        ("-(1d20 + 5) >= 15", "pool negate number comparison"),
        ("max(2d6, 3)^2 [fire]", "pool number function number power"),
        ("x * 2d6!", "name term multiply"),
        ("3d6! + 1d4ro1 - d%! + 4dF!", "term term add term subtract term add"),
        ("(1.5)d6! + 2d(-3)! + (2)d(6)!", "tree count number dice number number negate dice add term add"),
        ("(x)d(1d4 + 2)kh(x)", "name count pool dice"),
        ("{1d20, 1d20}kh1 + repeat(2, 1d4) - m(1)", "tree tree add tree subtract"),
        ("let r = 1d20 in if r == 20 then 2d8 else 0", "pool bind name number comparison branch pool jump number unbind"),
        ("(if x then 1d6 else 2d6) + 3", "name branch pool jump pool +k"),
        ("1d6 - 0 + 2 - 1", "pool +k -k"),
        ("2 + 1d6 + 3 * 2 / 4 // 1 % 5", "number pool add number number multiply number binary number binary number binary add"),
        ("x + 1.5 - 3", "name tree add -k"),
        ("1d20 + 5 >= 15", "pool"),
        ("(1d20 >= 15) + 2", "pool +k"),
        ("(1d20 + 5 >= 15) == 1", "pool number comparison"),
        ("(if x then 1d6 else 2d6) > 3", "name branch pool jump pool number comparison"),
        ("1d20 + 5 >= 1.5", "pool tree comparison"),
    ] as [(String, String)])
    func flattensWhatItCan(_ text: String, _ shape: String) throws {
        let compiled = CompiledValue(try Parser.parseExpression(text))
        let names = compiled.steps.map { step -> String in
            switch step {
            case .integer: return "number"
            case .literalPool: return "pool"
            case .checkCount: return "count"
            case .dice: return "dice"
            case .literalDice: return "term"
            case .name: return "name"
            case .negate: return "negate"
            case .add: return "add"
            case .subtract: return "subtract"
            case .multiply: return "multiply"
            case .binary: return "binary"
            case .addInteger: return "+k"
            case .subtractInteger: return "-k"
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

    /// The operand stack is sized at compile time for the deepest the steps go, both arms of
    /// a conditional counted; deeper than 16 values it is allocated for the run.
    /// Keep/drop over more dice than `ExtremeValues.bound`, of more faces than are counted
    /// one by one: few dice dropped, few kept at one end (both kept by the ends alone), or a
    /// middle window (every die kept). The same value and dice as the tree, which keeps every die.
    @Test(arguments: ["100000d1000000kh3", "100000d1000000kl2", "100000d1000000dl5dh7", "100000d1000000dh1",
                      "70000d100000000kh1 + 1", "100000d1000000kh50000", "100000d1000000", "66000d1000000kh65536",
                      "100000d4611686018427387904dl1"])
    func keepDropOverManyDiceOfManyFaces(_ text: String) throws {
        let expr = try Parser.parseExpression(text)
        let limits = Limits(maxDice: 1_000_000)
        for seed in [1, 2] as [UInt64] {
            var tree = Evaluator(environment: Environment(), limits: limits, source: Xoshiro256StarStar(seed: seed))
            var flat = tree
            let expected = Result { () throws(DiceError) in try tree.evaluate(expr).value }
            let actual = Result { () throws(DiceError) in try flat.value(of: CompiledValue(expr)) }
            switch (expected, actual) {
            case (.success(let a), .success(let b)): #expect(a == b, "\(text)")
            case (.failure(let a), .failure(let b)): #expect(a.kind == b.kind && a.range == b.range, "\(text)")
            default: Issue.record("\(text): the tree gives \(expected), the value path \(actual)")
            }
            #expect(tree.source.next() == flat.source.next(), "\(text) rolled different dice")
        }
    }

    /// Every value it is offered, `ExtremeValues` keeps the lowest (or highest) `capacity`.
    @Test func extremeValuesKeepsTheEnds() {
        var source = Xoshiro256StarStar(seed: 9)
        let offered = (0..<5_000).map { _ in source.roll(sides: 50) }
        for capacity in [0, 1, 2, 7, 100, 5_000, 6_000] {
            var lowest = ExtremeValues(capacity: capacity, keepsLowest: true)
            var highest = ExtremeValues(capacity: capacity, keepsLowest: false)
            for value in offered {
                lowest.offer(value)
                highest.offer(value)
            }
            let sorted = offered.sorted()
            #expect(lowest.values.sorted() == Array(sorted.prefix(capacity)), "capacity \(capacity)")
            #expect(highest.values.sorted() == Array(sorted.suffix(capacity)), "capacity \(capacity)")
        }
    }

    @Test func sizesTheOperandStack() throws {
        #expect(CompiledValue(try Parser.parseExpression("4d6kh3 + 2")).stackSize == 1)
        #expect(CompiledValue(try Parser.parseExpression("1 + 2 * (3 - 4)")).stackSize == 3)
        #expect(CompiledValue(try Parser.parseExpression("max(1, 2, 3, 4)")).stackSize == 4)
        #expect(CompiledValue(try Parser.parseExpression("if 1d2 == 1 then 1 else 2")).stackSize >= 2)
        var text = "1d6"
        for depth in 1...40 { text = "\(depth) - (1d\(depth + 1) * \(text))" }
        let expr = try Parser.parseExpression(text)
        let compiled = CompiledValue(expr)
        #expect(compiled.stackSize > 16)
        var tree = Evaluator(environment: Environment(), limits: Self.limits, source: Xoshiro256StarStar(seed: 9))
        var flat = tree
        let expected = Result { () throws(DiceError) in try tree.evaluate(expr).value }
        let actual = Result { () throws(DiceError) in try flat.value(of: compiled) }
        #expect(expected == actual)
        #expect(tree.source.next() == flat.source.next())
    }

    /// Pools of literals rolled as they are summed (all kept, all but the lowest or the
    /// highest), or sorted (other windows), or past a handful of dice: the same dice and
    /// value as the tree, over many rolls in a row.
    @Test(arguments: [
        "3d6", "1d20", "0d6", "2d20kh1", "2d20kl1", "4d6kh3", "4d6dl1", "3d6dh1", "3d6kl2", "5d10kh2",
        "4d6kh0", "1d6kh0", "1d6kl1", "0d6kh1", "8d6dl1", "8d6dh1", "9d6kh8", "9d6kh3", "40d6kh39",
        "100d20dh1", "1d1", "4d1kh3", "2d20kh1 + 5", "4d6kh3 - 2 + 1", "2d100 * 2", "8d9223372036854775807kh7",
        "2d9223372036854775807", "2d9223372036854775807kh1", "1d9223372036854775807 + 1d9223372036854775807",
        "1d20 + 5 >= 15", "2d20kh1 - 1 < 10", "1d6 == 3", "3d6 != 10", "1d20 <= 10", "4d6kh3 > 12",
        "(1d20 >= 11) + 2", "-(1d20 + 5) >= 15", "(1d20 + 5 >= 15) == 1",
        // Literal count and sides, more than keep/drop.
        "3d6!", "3d6! + 1d4ro1", "d6!", "4d6r1kh3", "60d6cs>=5", "10d10!>8kh3", "4dF!", "d%ro<10", "2d{1,2,3}!",
    ])
    func rollsLiteralPoolsAsTheTreeDoes(_ text: String) throws {
        let expr = try Parser.parseExpression(text)
        let compiled = CompiledValue(expr)
        var tree = Evaluator(environment: Environment(), limits: Self.limits, source: Xoshiro256StarStar(seed: 11))
        var flat = tree
        for _ in 0..<200 {
            tree.startStatement()
            flat.startStatement()
            let expected = Result { () throws(DiceError) in try tree.evaluate(expr).value }
            let actual = Result { () throws(DiceError) in try flat.value(of: compiled) }
            #expect(expected == actual, "\(text)")
        }
        #expect(tree.source.next() == flat.source.next(), "\(text) rolled different dice")
    }

    /// Errors carry the same positions: an operator's, a pool's, a function's.
    @Test(arguments: ["1d6 / 0", "2^1d6 ^ 100", "10001d6 + 1", "abs(-9223372036854775807 - 1d2)", "(0 - 1)d6",
                      // The integer steps and a pool's offset, overflowing.
                      "4d6kh3 + 9223372036854775807", "2d20kl1 - 9223372036854775807 - 9223372036854775807",
                      "-9223372036854775807 - 1d6 - 2", "1d6 + 9223372036854775807 - 1", "x + 9223372036854775807",
                      "2d6 * 4611686018427387904", "(if 1d2 == 1 then 1d6 else 2d6) + 9223372036854775807",
                      "4d9223372036854775807 + 0", "2d9223372036854775807kh1 + 9223372036854775807",
                      "1d6 * 1d6 * 1d6 * 1d6 * 9223372036854775807", "-(-9223372036854775807 - 1d1)",
                      "1d20 + 9223372036854775807 >= 15", "1d20 - 9223372036854775807 - 30 < 0",
                      "(1.5)d6!", "2d(-3)!", "2d0!", "10001d6!", "2d6!>0", "1d9223372036854775807! * 2d9223372036854775807!"])
    func errorsPointWhereTheTreeWouldPoint(_ text: String) throws {
        let expr = try Parser.parseExpression(text)
        var environment = Environment()
        environment.setVariable("x", to: .integer(1))
        var tree = Evaluator(environment: environment, limits: Self.limits, source: Xoshiro256StarStar(seed: 5))
        var flat = tree
        let expected = diceError { () throws(DiceError) in try tree.evaluate(expr).value }
        let actual = diceError { () throws(DiceError) in try flat.value(of: CompiledValue(expr)) }
        #expect(expected != nil, "\(text) should fail")
        #expect(expected?.kind == actual?.kind && expected?.range == actual?.range, "\(text)")
    }
}
