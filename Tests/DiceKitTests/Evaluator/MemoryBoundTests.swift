import Testing
@testable import DiceKit

/// Huge statements keep bounded storage: pools of few faces are counted by face on the
/// value path, with the same dice, values and errors as the tree evaluator.
@Suite struct MemoryBoundTests {
    static let limits = Limits(maxDice: 1_000_000)

    /// Tree value and value-path value of `text`, and whether both drew the same dice.
    static func bothPaths(_ text: String, seed: UInt64) throws -> (tree: Result<Number, DiceError>,
                                                                    flat: Result<Number, DiceError>,
                                                                    sameDice: Bool, scratch: Int) {
        let expr = try Parser.parseExpression(text)
        var tree = Evaluator(environment: Environment(), limits: limits, source: Xoshiro256StarStar(seed: seed))
        var flat = tree
        let a = Result { () throws(DiceError) in try tree.evaluate(expr).value }
        let b = Result { () throws(DiceError) in try flat.value(of: CompiledValue(expr)) }
        return (a, b, tree.source.next() == flat.source.next(), flat.scratch.count)
    }

    @Test(arguments: [
        "2000d6kh1", "2000d6kl3", "2000d6dh7dl5", "2000d6kh1000", "2000d6k0", "100d6kh3", "40d6dl1",
        "2000d6!kh10", "2000d6!pdl20", "2000d6!!kh5", "2000d6!!>4dl100", "2000d6r1kh50", "2000d6ro<3kl9",
        "2000d6mi3kh10", "2000d6ma2dl10", "2000dFkh100", "2000d{-5,0,7}kl30", "2000d%kh10",
        "2000d6cs>=5", "2000d6kh100cs6", "2000d6df1", "2000d6cs6df1dl3", "3000d6!!cs>10",
        "1000d9223372036854775807kh1", "2000d4611686018427387904!kh2",
    ])
    func countingByFaceGivesTheTreeValue(_ text: String) throws {
        for seed in [1, 2, 3] as [UInt64] {
            let result = try Self.bothPaths(text, seed: seed)
            switch (result.tree, result.flat) {
            case (.success(let a), .success(let b)): #expect(a == b, "\(text) seed \(seed)")
            case (.failure(let a), .failure(let b)): #expect(a.kind == b.kind && a.range == b.range, "\(text)")
            default: Issue.record("\(text): tree \(result.tree), value path \(result.flat)")
            }
            #expect(result.sameDice, "\(text) rolled different dice")
        }
    }

    /// Sums past `Int` fail on both paths, whatever the order of adding.
    @Test func overflowIsTheSameError() throws {
        let text = "3d4611686018427387904kh2 + 0"
        for seed in [1, 2, 3, 4, 5] as [UInt64] {
            let result = try Self.bothPaths(text, seed: seed)
            #expect(result.sameDice)
            switch (result.tree, result.flat) {
            case (.success(let a), .success(let b)): #expect(a == b)
            case (.failure(let a), .failure(let b)): #expect(a.kind == b.kind)
            default: Issue.record("\(text): tree \(result.tree), value path \(result.flat)")
            }
        }
    }

    /// Up to a million d6 kept by keep/drop or counted need no buffer of a million values.
    @Test(arguments: ["1000000d6kh1", "1000000d6dl1", "500000d6!kh3", "1000000dFcs1", "500000d6r1kl2"])
    func manyDiceOfFewFacesKeepNoBuffer(_ text: String) throws {
        let result = try Self.bothPaths(text, seed: 9)
        #expect(result.scratch == 0, "\(text) kept \(result.scratch) values")
        #expect(try result.tree.get() == result.flat.get())
    }
}
