import Testing

@testable import DiceKit

/// The result tree: plain values, so a roll that is kept never changes, whatever is rolled
/// after it; `children` reaches every part.
@Suite struct RollTreeTests {
    static let expressions = [
        "4d6kh3 + 2", "(2d20kh1 + 5) * 2 + 4d6! - 1d4ro1", "(1d4)d6 + 2d(1d3)", "4d6kh(1d3) - 1",
        "{3d6, 2d8}kh1 + 1d4 [fire]", "if 1d2 > 1 then 3d6 + 1 else 2d4 - 1", "20d6!! + 10d10r<3 + 3",
    ]

    @Test(arguments: expressions)
    func aKeptRollIsUnchangedByTheRollsAfterIt(_ expression: String) throws {
        var session = Session(seed: 7)
        let kept = try session.roll(expression)
        let text = RollRenderer.plain.render(kept)
        let json = OutcomeRenderer().json(for: .roll(kept), input: expression)
        let pools = kept.pools
        for _ in 0..<50 {
            let next = try session.roll(expression)
            _ = RollRenderer.plain.render(next)
        }
        #expect(RollRenderer.plain.render(kept) == text)
        #expect(OutcomeRenderer().json(for: .roll(kept), input: expression) == json)
        #expect(kept.pools == pools)
    }

    /// `children` lists each node's parts in the order they were rolled, so a walk over them
    /// meets every pool: the pools of `roll.pools` are the pools found that way.
    @Test(arguments: expressions)
    func childrenReachEveryPool(_ expression: String) throws {
        let roll = try Dice.roll(expression, seed: 3)
        var found: [DicePool] = []
        // A pool's computed parts come before it, as `pools` lists them.
        func walk(_ node: Roll) {
            node.children.forEach(walk)
            if case .pool(let pool) = node.kind { found.append(pool) }
        }
        walk(roll)
        #expect(found.map(\.dice) == roll.pools.map(\.dice))
        #expect(!found.isEmpty)
    }

    @Test func childrenInRollingOrder() throws {
        let roll = try Dice.roll("(1d1)d1 + max(2, 3) * -4", seed: 1)
        #expect(roll.children.map(\.value) == [.integer(1), .integer(-12)])
        guard case .pool(let pool) = roll.children[0].kind else {
            Issue.record("expected a pool")
            return
        }
        #expect(pool.countRoll?.value == .integer(1))
        #expect(roll.children[0].children.map(\.value) == [.integer(1)])
        #expect(roll.children[1].children.map(\.value) == [.integer(3), .integer(-4)])
    }

    @Test func aChainHoldsItsFirstRollAndItsSteps() throws {
        let roll = try Dice.roll("1d1 + 2 * 3 - 4", seed: 1)
        guard case .chain(let chain) = roll.kind else {
            Issue.record("expected a chain, got \(roll.kind)")
            return
        }
        #expect(chain.first.value == .integer(1))
        #expect(chain.steps.map(\.op) == [.add, .subtract])
        #expect(chain.steps.map(\.operand.value) == [.integer(6), .integer(4)])
        #expect(roll.value == .integer(3))
    }

    @Test func poolsAreEqualByTheirDiceAndFields() throws {
        let a = try Dice.roll("4d6kh3", seed: 5)
        let b = try Dice.roll("4d6kh3", seed: 5)
        let c = try Dice.roll("4d6kh3", seed: 6)
        #expect(a == b)
        #expect(a.pools == b.pools)
        #expect(Set(a.pools + b.pools).count == 1)
        #expect(a.pools.first?.dice.count == 4)
        if a.pools.first?.dice != c.pools.first?.dice { #expect(a != c) }
    }

    @Test func aChangedCopyOfAPoolLeavesTheOriginalAlone() throws {
        let roll = try Dice.roll("3d6 [fire]", seed: 3)
        var pools = roll.pools
        let original = pools
        pools[0].annotation = "cold"
        pools[0].dice = [Die(value: 1)]
        #expect(original[0].annotation == "fire")
        #expect(original[0].dice.count == 3)
        #expect(roll.pools == original)
        #expect(pools[0].dice == [Die(value: 1)])
    }
}
