import Testing
@testable import DiceKit

/// The value alone (`value(of:)`, which `--total` and simulations roll): the same dice, the
/// same value and the same errors as the breakdown.
@Suite struct ValuePathTests {
    static let limits = Limits(maxDice: 10_000)

    @Test(arguments: [41, 42, 43] as [UInt64])
    func agreesWithTheTreeEvaluatorOnGeneratedExpressions(_ seed: UInt64) throws {
        var generator = ExpressionGenerator(seed: seed)
        let environment = try ExpressionGenerator.environment()
        var values = 0
        for _ in 0..<1_000 {
            let expr = generator.expression()
            var tree = Evaluator(environment: environment, limits: Self.limits, source: Xoshiro256StarStar(seed: seed))
            var flat = tree
            // Twice in a row: the reused buffers start clean each time.
            for _ in 0..<2 {
                tree.startStatement()
                flat.startStatement()
                let expected = Result { () throws(DiceError) in try tree.evaluate(expr).value }
                let actual = Result { () throws(DiceError) in try flat.value(of: expr) }
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

    /// Keep/drop over more dice than `BoundedHeap.bound`, of more faces than are counted
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
            let actual = Result { () throws(DiceError) in try flat.value(of: expr) }
            switch (expected, actual) {
            case (.success(let a), .success(let b)): #expect(a == b, "\(text)")
            case (.failure(let a), .failure(let b)): #expect(a.kind == b.kind && a.range == b.range, "\(text)")
            default: Issue.record("\(text): the tree gives \(expected), the value path \(actual)")
            }
            #expect(tree.source.next() == flat.source.next(), "\(text) rolled different dice")
        }
    }

    /// Pools of literals rolled as they are summed (all kept, all but the lowest or the
    /// highest), or sorted (other windows), or past a handful of dice: the same dice and
    /// value as the tree, over many rolls in a row.
    @Test(arguments: [
        "3d6", "1d20", "0d6", "2d20kh1", "2d20kl1", "4d6kh3", "4d6dl1", "3d6dh1", "3d6kl2", "5d10kh2",
        "4d6kh0", "1d6kh0", "1d6kl1", "0d6kh1", "8d6dl1", "8d6dh1", "9d6kh8", "9d6kh3", "40d6kh39",
        "100d20dh1", "1d1", "4d1kh3", "2d20kh1 + 5", "4d6kh3 - 2 + 1", "2d100 * 2", "8d9223372036854775807kh7",
        "2d9223372036854775807", "2d9223372036854775807kh1", "1d9223372036854775807 + 1d9223372036854775807",
        // Every die kept, the sum overflowing: the whole pool is rolled before the error, as the tree rolls it.
        "4d9223372036854775807kh4", "3d4611686018427387904kh5", "4d4611686018427387904kh4sd",
        "1d20 + 5 >= 15", "2d20kh1 - 1 < 10", "1d6 == 3", "3d6 != 10", "1d20 <= 10", "4d6kh3 > 12",
        "(1d20 >= 11) + 2", "-(1d20 + 5) >= 15", "(1d20 + 5 >= 15) == 1",
        // Literal count and sides, more than keep/drop.
        "3d6!", "3d6! + 1d4ro1", "d6!", "4d6r1kh3", "60d6cs>=5", "10d10!>8kh3", "4dF!", "d%ro<10", "2d{1,2,3}!",
        // A repeat kept or counted stops at its first text or tally member, rolling no more.
        "repeat(2, d{(k: 1), (k: 2)})dh0", "repeat(3, 2d{(kh: 0), \"a\"})dh0", "repeat(4, d{1, \"a\"})cs=1",
    ])
    func rollsLiteralPoolsAsTheTreeDoes(_ text: String) throws {
        let expr = try Parser.parseExpression(text)
        var tree = Evaluator(environment: Environment(), limits: Self.limits, source: Xoshiro256StarStar(seed: 11))
        var flat = tree
        for _ in 0..<200 {
            tree.startStatement()
            flat.startStatement()
            let expected = Result { () throws(DiceError) in try tree.evaluate(expr).value }
            let actual = Result { () throws(DiceError) in try flat.value(of: expr) }
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
        let actual = diceError { () throws(DiceError) in try flat.value(of: expr) }
        #expect(expected != nil, "\(text) should fail")
        #expect(expected?.kind == actual?.kind && expected?.range == actual?.range, "\(text)")
    }
}
