import Testing
@testable import DiceKit

/// Huge statements keep bounded storage: pools of few faces are counted by face on the
/// value path, with the same dice, values and errors as the tree evaluator.
@Suite struct MemoryBoundTests {
    static let limits = Limits(maxDice: 1_000_000)

    /// Tree value and value-path value of `text`, and whether both drew the same dice.
    static func bothPaths(_ text: String, seed: UInt64) throws -> (tree: Result<Value, DiceError>,
                                                                    flat: Result<Value, DiceError>,
                                                                    sameDice: Bool) {
        let expr = try Parser.parseExpression(text)
        var tree = Evaluator(environment: Environment(), limits: limits, source: Xoshiro256StarStar(seed: seed))
        var flat = tree
        let a = Result { () throws(DiceError) in try tree.evaluate(expr).value }
        let b = Result { () throws(DiceError) in try flat.value(of: expr) }
        return (a, b, tree.source.next() == flat.source.next())
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

    /// Up to a million d6 kept by keep/drop or counted: the same value without a breakdown.
    @Test(arguments: ["1000000d6kh1", "1000000d6dl1", "500000d6!kh3", "1000000dFcs1", "500000d6r1kl2"])
    func manyDiceOfFewFacesKeepNoBuffer(_ text: String) throws {
        let result = try Self.bothPaths(text, seed: 9)
        #expect(try result.tree.get() == result.flat.get())
    }
}

/// `repeat` on the value path keeps no member trees, and the breakdown's parts are
/// bounded by `Limits.maxResultParts`, with their own error.
@Suite struct ResultBudgetTests {
    /// `def a0 = 1d6`, `def a1 = a0 + a0`, … `def a40 = a39 + a39`.
    static func doublingChain(_ levels: Int = 40) -> Environment {
        var environment = Environment()
        environment.define(Macro(name: "a0", parameters: [], body: try! Parser.parseExpression("1d6")))
        for level in 1...levels {
            let body = try! Parser.parseExpression("a\(level - 1) + a\(level - 1)")
            environment.define(Macro(name: "a\(level)", parameters: [], body: body))
        }
        return environment
    }

    @Test func aDoublingMacroChainStopsAtTheBudget() throws {
        let limits = Limits(maxResultParts: 10_000)
        var evaluator = Evaluator(environment: Self.doublingChain(), limits: limits, source: Xoshiro256StarStar(seed: 1))
        let expr = try Parser.parseExpression("a40")
        evaluator.startStatement()
        let tree = diceError { () throws(DiceError) in try evaluator.evaluate(expr) }
        #expect(tree?.kind == .resultTooLarge(limit: 10_000))
        #expect(tree?.range == expr.range)
        // Well before the dice limit: the parts ran out first.
        #expect(evaluator.work < 10_000)
        evaluator.startStatement()
        let flat = diceError { () throws(DiceError) in try evaluator.value(of: expr) }
        #expect(flat?.kind == .resultTooLarge(limit: 10_000))
    }

    @Test func theDefaultBudgetStopsTheFortyMacroChain() throws {
        var session = Session(environment: Self.doublingChain(), seed: 1)
        let error = diceError { () throws(DiceError) in try session.roll("a40") }
        #expect(error?.kind == .resultTooLarge(limit: Limits.standard.maxResultParts))
    }

    /// Small chains are unchanged by the budget: the same value, the same breakdown.
    @Test func aChainWithinTheBudgetIsUnchanged() throws {
        let expr = try Parser.parseExpression("a8 + 1")
        var small = Evaluator(environment: Self.doublingChain(8), limits: Limits(maxResultParts: 1_000_000),
                              source: Xoshiro256StarStar(seed: 3))
        var large = small
        large.limits.maxResultParts = Int.max
        small.startStatement()
        large.startStatement()
        let a = try small.evaluate(expr)
        let b = try large.evaluate(expr)
        #expect(a == b)
        #expect(small.heldParts > 256 && small.heldParts < 2_000)
    }

    /// A repeat holds at most `maxRecordedDice` member trees; past them, no part is held
    /// and no member is kept.
    @Test func aHugeRepeatHoldsOnlyTheMembersShown() throws {
        let expr = try Parser.parseExpression("repeat(100000, 2d6 + 1)")
        let limits = Limits(maxDice: 1_000_000, maxRecordedDice: 100)
        var evaluator = Evaluator(environment: Environment(), limits: limits, source: Xoshiro256StarStar(seed: 4))
        var flat = evaluator
        evaluator.startStatement()
        let roll = try evaluator.evaluate(expr)
        // 100 members of a chain, a pool and no more; the group itself.
        #expect(evaluator.heldParts == 100 * 2 + 1)
        guard case .group(let group) = roll.kind else {
            Issue.record("not a group")
            return
        }
        #expect(group.members.count == 100)
        #expect(group.omitted == 99_900)
        flat.startStatement()
        #expect(try flat.value(of: expr) == roll.value)
        #expect(flat.heldParts == 0)
        #expect(flat.source.next() == evaluator.source.next())
    }

    /// Too many parts held for a repeat of repeats is the budget's error, not gigabytes.
    @Test func nestedRepeatsStopAtTheBudget() throws {
        let expr = try Parser.parseExpression("repeat(1000, repeat(1000, 1d6))")
        var evaluator = Evaluator(environment: Environment(), limits: Limits(maxResultParts: 100_000),
                                  source: Xoshiro256StarStar(seed: 5))
        evaluator.startStatement()
        let error = diceError { () throws(DiceError) in try evaluator.evaluate(expr) }
        #expect(error?.kind == .resultTooLarge(limit: 100_000))
        // The value alone holds no breakdown: it is within the budget.
        evaluator.startStatement()
        #expect(throws: Never.self) { try evaluator.value(of: expr) }
    }

    /// The same seed gives the same values with a small and a large budget, and on the value path.
    @Test(arguments: [
        "repeat(3000, 1d6)", "repeat(3000, 1d6)kh10", "repeat(3000, 1d20)cs>=15df1", "repeat(3000, 1d6 / 4)dl100",
        "repeat(2000, 3d6)sa", "repeat(2000, 1d6)kh(1d4)", "repeat(3000, 9223372036854775807 - 1d2) - 1",
        "repeat(3, repeat(1000, 1d6)kh1)kl1", "{1d6, 2d6, 3d6}kh1 + repeat(500, 1d4)",
    ])
    func valuesDoNotDependOnTheBudget(_ text: String) throws {
        let expr = try Parser.parseExpression(text)
        var small = Evaluator(environment: Environment(), limits: Limits(maxRecordedDice: 10),
                              source: Xoshiro256StarStar(seed: 6))
        var large = Evaluator(environment: Environment(), limits: Limits(maxRecordedDice: 1_000_000, maxResultParts: .max),
                              source: Xoshiro256StarStar(seed: 6))
        var flat = small
        let a = Result { () throws(DiceError) in try small.evaluate(expr).value }
        let b = Result { () throws(DiceError) in try large.evaluate(expr).value }
        let c = Result { () throws(DiceError) in try flat.value(of: expr) }
        switch (a, b, c) {
        case (.success(let x), .success(let y), .success(let z)):
            #expect(x == y && y == z, "\(text)")
        case (.failure(let x), .failure(let y), .failure(let z)):
            #expect(x == y && y == z, "\(text)")
        default:
            Issue.record("\(text): \(a) / \(b) / \(c)")
        }
        let next = small.source.next()
        #expect(next == large.source.next() && next == flat.source.next(), "\(text) rolled different dice")
    }
}

/// Pools with more dice than are listed, in the breakdown: counted by value, with the same
/// value and the same flags on the dice listed as when every die is kept.
@Suite struct LargePoolTests {
    @Test(arguments: [
        "2000d6kh1", "2000d6kl3", "2000d6dh7dl5", "2000d6kh1000dl400kl300", "2000d6k0", "2000d6dh3000",
        "2000d6!kh10", "2000d6!pdl20", "2000d6!!kh5", "2000d6!!>4dl100kh700", "2000d6r1kh50", "2000d6ro<3kl9",
        "2000d6mi3kh10", "2000d6ma2dl10", "2000dFkh100", "2000d{-5,0,7}kl30dh3", "2000d%kh10",
        "2000d6cs>=5", "2000d6kh100cs6", "2000d6df1", "2000d6cs6df1dl3", "3000d6!!cs>10", "2000d6sa",
        "2000d4611686018427387904!kh2", "(1000 + 1d1000)d6kh(1d1000)",
    ])
    func listsTheSameDiceWithTheSameFlags(_ text: String) throws {
        let expr = try Parser.parseExpression(text)
        for seed in [1, 2, 3] as [UInt64] {
            var listed = Evaluator(environment: Environment(), limits: Limits(maxDice: 100_000, maxRecordedDice: 60),
                                   source: Xoshiro256StarStar(seed: seed))
            var full = Evaluator(environment: Environment(), limits: Limits(maxDice: 100_000, maxRecordedDice: 1_000_000),
                                 source: Xoshiro256StarStar(seed: seed))
            let a = Result { () throws(DiceError) in try listed.evaluate(expr) }
            let b = Result { () throws(DiceError) in try full.evaluate(expr) }
            #expect(listed.source.next() == full.source.next(), "\(text) rolled different dice")
            switch (a, b) {
            case (.success(let small), .success(let large)):
                #expect(small.value == large.value, "\(text) seed \(seed)")
                let smallPools = small.pools, largePools = large.pools
                #expect(smallPools.count == largePools.count)
                for (s, l) in zip(smallPools, largePools) {
                    #expect(s.dice == Array(l.dice.prefix(s.dice.count)), "\(text) seed \(seed)")
                    #expect(s.dice.count + s.omitted == l.dice.count + l.omitted)
                    #expect(s.dice.count <= 60)
                }
            case (.failure(let x), .failure(let y)):
                #expect(x == y, "\(text)")
            default:
                Issue.record("\(text): \(a) / \(b)")
            }
        }
    }
}

/// A repeat of more members than are listed keeps the first ones with the same rolls and
/// flags as when every member is kept, and the same value.
@Suite struct ListedRepeatTests {
    @Test(arguments: [
        "repeat(500, 1d6)", "repeat(500, 1d6)kh10", "repeat(500, 1d20)cs>=15df1", "repeat(500, 1d6 / 4)dl100",
        "repeat(500, 3d6)sa", "repeat(500, 1d6)kh(1d4)", "repeat(500, 9223372036854775807 - 1d2)",
        "repeat(500, 1d6)kh400dl350kl20", "repeat(500, 2d6)cs>7", "repeat(500, 1d6)kh1cs6",
        "repeat(50, repeat(20, 1d6)kh1)kl1",
    ])
    func listsTheSameMembers(_ text: String) throws {
        let expr = try Parser.parseExpression(text)
        for seed in [7, 8] as [UInt64] {
            var listed = Evaluator(environment: Environment(), limits: Limits(maxRecordedDice: 12),
                                   source: Xoshiro256StarStar(seed: seed))
            var full = Evaluator(environment: Environment(), limits: Limits(maxRecordedDice: 100_000),
                                 source: Xoshiro256StarStar(seed: seed))
            let a = Result { () throws(DiceError) in try listed.evaluate(expr) }
            let b = Result { () throws(DiceError) in try full.evaluate(expr) }
            #expect(listed.source.next() == full.source.next(), "\(text) rolled different dice")
            switch (a, b) {
            case (.success(let small), .success(let large)):
                #expect(small.value == large.value, "\(text)")
                guard case .group(let s) = small.kind, case .group(let l) = large.kind else {
                    Issue.record("\(text): not a group")
                    continue
                }
                #expect(s.members.count + s.omitted == l.members.count + l.omitted)
                #expect(s.isCount == l.isCount)
                for (x, y) in zip(s.members, l.members).prefix(12) {
                    #expect(x.kept == y.kept && x.success == y.success && x.failure == y.failure, "\(text)")
                    #expect(x.roll.value == y.roll.value)
                }
            case (.failure(let x), .failure(let y)):
                #expect(x == y, "\(text)")
            default:
                Issue.record("\(text): \(a) / \(b)")
            }
        }
    }
}
