import Testing

@testable import DiceKit

/// Pools and chains keep their parts in their own storage, which the evaluator takes back
/// for the next statement once a tree is let go (`RollRecycler`): a roll that is kept must
/// never change, whatever is rolled after it.
@Suite struct RollStorageTests {
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

    @Test(arguments: expressions)
    func rollsLetGoGiveTheSameBreakdownsAsRollsKept(_ expression: String) throws {
        // One session lets each roll go before the next (its storage is reused); the other
        // keeps every roll (nothing can be reused). Same seed, same breakdowns.
        var reusing = Session(seed: 11)
        var keeping = Session(seed: 11)
        var kept: [Roll] = []
        for _ in 0..<50 {
            let shown = RollRenderer.plain.render(try reusing.roll(expression))
            let roll = try keeping.roll(expression)
            kept.append(roll)
            #expect(shown == RollRenderer.plain.render(roll))
        }
    }

    /// The storages of every pool and chain in `roll`'s tree.
    static func storages(of roll: Roll) -> [AnyObject] {
        var found: [AnyObject] = []
        func walk(_ roll: Roll) {
            switch roll.kind {
            case .pool(let pool):
                found.append(pool.storage)
                [pool.countRoll, pool.sidesRoll].compactMap { $0 }.forEach(walk)
                pool.argumentRolls.forEach(walk)
            case .chain(let chain):
                found.append(chain.storage)
                walk(chain.first)
                for step in chain.steps { walk(step.operand) }
            case .unary(_, let inner), .annotated(let inner, _): walk(inner)
            case .power(let a, let b), .comparison(_, let a, let b), .conditional(let a, let b, _),
                 .binding(_, let a, let b):
                walk(a)
                walk(b)
            case .group(let group): for member in group.members { walk(member.roll) }
            case .function(_, let arguments): arguments.forEach(walk)
            case .macro(_, let arguments, let body):
                arguments.forEach(walk)
                walk(body)
            case .number, .variable: break
            }
        }
        walk(roll)
        return found
    }

    /// An object that may be gone.
    struct Weak {
        weak var object: AnyObject?
    }

    /// The storages of the first roll of `expression`, let go, still alive after the second
    /// roll; and the storages of the second.
    static func storagesOfTwoRolls(_ expression: String, keeping kept: (Roll) -> Void = { _ in })
        throws -> (first: [Weak], second: [AnyObject]) {
        var session = Session(seed: 3)
        var first: [Weak] = []
        do {
            let roll = try session.roll(expression)
            first = storages(of: roll).map { Weak(object: $0) }
            kept(roll)
        }
        let second = storages(of: try session.roll(expression))
        return (first, second)
    }

    @Test(arguments: [
        "4d6kh3 + 2", "(2d20kh1 + 5) * 2 + 4d6kh1 - 1d4", "{3d6, 2d8}kh1 + 1d4 [fire]", "repeat(6, 4d6kh3)",
        "if 1d2 > 1 then 3d6 + 1 else 3d6 - 1", "-(2d6 + 1) + max(1d8, 1d6) * 2",
    ])
    func aTreeLetGoLendsEachOfItsStoragesToTheNextRoll(_ expression: String) throws {
        let (first, second) = try Self.storagesOfTwoRolls(expression)
        // Those alive are held by the evaluator (the tree was let go), so their identities
        // are still theirs: every pool and chain of the second roll is one of them.
        let alive = Set(first.compactMap(\.object).map(ObjectIdentifier.init))
        #expect(alive.count == first.count)
        #expect(Set(second.map(ObjectIdentifier.init)) == alive)
    }

    @Test func aPartKeptByItsCallerIsNeitherReusedNorChanged() throws {
        var session = Session(seed: 5)
        let expression = "(2d20kh1 + 5) * 2 + 4d6! - 1d4ro1"
        guard case .chain(let chain) = try session.roll(expression).kind, let last = chain.steps.last?.operand else {
            Issue.record("expected a chain")
            return
        }
        // The tree is let go, but its last operand (`1d4ro1`) is kept.
        let text = RollRenderer.plain.render(last)
        let kept = Set(Self.storages(of: last).map(ObjectIdentifier.init))
        for _ in 0..<20 {
            let next = try session.roll(expression)
            #expect(Set(Self.storages(of: next).map(ObjectIdentifier.init)).isDisjoint(with: kept))
        }
        #expect(RollRenderer.plain.render(last) == text)
    }

    @Test func aLargeTreeIsLetGoAtOnce() throws {
        // More parts than a remembered tree may have: nothing of it outlives the statement.
        let (first, _) = try Self.storagesOfTwoRolls("repeat(\(RollRecycler.rememberedParts), 1d6 + 1)")
        #expect(first.count > RollRecycler.rememberedParts)
        #expect(first.allSatisfy { $0.object == nil })
    }

    /// `pools` lists the pools of the tree themselves, not copies, unless it has an
    /// annotation to add (`3d6 [fire]` lists a copy that carries the label).
    @Test func poolsListsTheTreesOwnPools() throws {
        let roll = try Dice.roll("2d6 + {3d8, 1d4}kh1 * 2", seed: 1)
        let listed = roll.pools.map { ObjectIdentifier($0.storage) }
        #expect(listed.count == 3)
        #expect(Set(listed).isSubset(of: Set(Self.storages(of: roll).map(ObjectIdentifier.init))))
        let labelled = try Dice.roll("3d6 [fire]", seed: 1)
        #expect(labelled.pools.map(\.annotation) == ["fire"])
        #expect(!Self.storages(of: labelled).contains { $0 === labelled.pools[0].storage })
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
