import Testing
@testable import DiceKit

/// The value walk's shortcuts for literals and small pools (`leafValue`, `smallPoolValue`)
/// count what the walk counts: at every depth, dice and parts limit the value alone stops
/// where the breakdown stops, with the same error, after the same dice, nodes and work, also
/// when a pool lists fewer dice than it rolls (`maxRecordedDice` below 8).
@Suite struct ValueLimitsTests {
    @Test(arguments: ["4d6kh3 + 2", "2 + 4d6kh3", "8d6", "7d6 + 8d6kh3 - 1", "(4d6kh3 + 2) * 3", "-(3d6 + 1)",
                      "1d20 + 5 >= 15", "3d6 + 3d6 + 3d6", "d% - 1d4", "9223372036854775807 + 1d6",
                      "(1d2 + 6)d6kh7 + 1", "8d4611686018427387904 + 1"])
    func shortcutsStopWhereTheWalkStops(_ text: String) throws {
        let expr = try Parser.parseExpression(text)
        for depth in 1...6 {
            for parts in 0...6 {
                for (dice, recorded) in [(3, 10_000), (4, 10_000), (8, 10_000), (100, 10_000), (100, 4)] {
                    let limits = Limits(maxDice: dice, maxRecordedDice: recorded, maxEvaluationDepth: depth,
                                        maxResultParts: parts)
                    var tree = Evaluator(environment: Environment(), limits: limits, source: Xoshiro256StarStar(seed: 9))
                    var flat = tree
                    tree.startStatement()
                    flat.startStatement()
                    let expected = Result { () throws(DiceError) in try tree.evaluate(expr).value }
                    let actual = Result { () throws(DiceError) in try flat.value(of: expr) }
                    let limit = "\(text) at depth \(depth), \(parts) parts, \(dice) dice, \(recorded) listed"
                    switch (expected, actual) {
                    case (.success(let a), .success(let b)): #expect(a == b, "\(limit)")
                    case (.failure(let a), .failure(let b)): #expect(a.kind == b.kind && a.range == b.range, "\(limit)")
                    default: Issue.record("\(limit): the tree gives \(expected), the value \(actual)")
                    }
                    #expect(tree.nodes == flat.nodes && tree.work == flat.work, "\(limit)")
                    #expect(tree.source.next() == flat.source.next(), "\(limit) rolled different dice")
                }
            }
        }
    }

    /// A breakdown holds a part for each node other than a number and one for every 8 dice a
    /// pool lists: `7d6` is one part, `8d6` two. The value alone holds as many.
    @Test func eightDiceHoldAPartOfTheirOwn() throws {
        let limits = Limits(maxResultParts: 1)
        for count in 1...9 {
            let expr = try Parser.parseExpression("\(count)d6")
            var evaluator = Evaluator(environment: Environment(), limits: limits, source: Xoshiro256StarStar(seed: 2))
            evaluator.startStatement()
            let error = diceError { () throws(DiceError) in _ = try evaluator.value(of: expr) }
            #expect((error?.kind == .resultTooLarge(limit: 1)) == (count >= 8), "\(count)d6")
        }
    }
}
