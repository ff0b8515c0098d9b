import Testing
@testable import DiceKit

/// `WholeSet`, the values of exploding dice with their holes, against plain sets of the
/// values from -60 to 400: sums, unions, multiples, repeats and the sums of explosions.
struct WholeSetTests {
    static let range = -60...400

    /// The values of `set` in `range`.
    static func listed(_ set: WholeSet) -> Set<Int> { Set(range.filter { set.contains($0) }) }

    /// A seeded set, its least value above -10: a few values, or the sums of a few steps moved
    /// by a few values, or the union of two such.
    static func randomSet(_ random: inout Xoshiro256StarStar, depth: Int = 0) -> WholeSet {
        func values(_ count: Int, _ spread: Int) -> [Int] {
            (0..<count).map { _ in random.roll(sides: spread) - spread / 3 }
        }
        switch random.roll(sides: depth > 0 ? 2 : 3) {
        case 1: return WholeSet(values(random.roll(sides: 4), 12)) ?? .constant(0)
        case 2:
            let steps = (0..<random.roll(sides: 3)).map { _ in random.roll(sides: 9) }
            guard let sums = WholeSet.sums(of: steps), let stops = WholeSet(values(random.roll(sides: 3), 8)),
                  let sum = stops + sums else { return .constant(1) }
            return sum
        default:
            let a = randomSet(&random, depth: depth + 1), b = randomSet(&random, depth: depth + 1)
            return a.union(b) ?? a
        }
    }

    @Test func operationsAgreeWithPlainSets() throws {
        var random = Xoshiro256StarStar(seed: 5)
        for _ in 0..<150 {
            let a = Self.randomSet(&random), b = Self.randomSet(&random)
            let x = Self.listed(a), y = Self.listed(b)
            let summed: WholeSet? = a + b
            let sum = try #require(summed)
            let sums = Set(x.filter { $0 <= 210 }.flatMap { u in y.filter { $0 <= 210 }.map { u + $0 } })
            #expect(Self.listed(sum).filter { $0 <= 200 } == sums.filter { $0 <= 200 && $0 >= -60 }, "\(a) + \(b)")
            #expect(Self.listed(try #require(a.union(b))) == x.union(y))
            #expect(a.isDisjoint(with: b) == x.isDisjoint(with: y))
            let factor = random.roll(sides: 4)
            #expect(Self.listed(try #require(a.scaled(by: factor))).filter { $0 <= 100 }
                    == Set(x.map { $0 * factor }).filter { $0 <= 100 && $0 >= -60 })
            let shift = random.roll(sides: 21) - 11
            #expect(Self.listed(try #require(a.shifted(by: shift))).filter { $0 <= 300 }
                    == Set(x.map { $0 + shift }).filter { $0 <= 300 && Self.range.contains($0) })
            let thrice = try #require(a.repeated(3))
            // Each set's least is above -10 (`randomSet`): the values that make a sum up to 100.
            let low = x.filter { $0 <= 120 }
            let pairs = Set(low.flatMap { u in low.map { u + $0 } }.filter { $0 <= 110 })
            let threes = Set(pairs.flatMap { u in low.map { u + $0 } })
            #expect(Self.listed(thrice).filter { $0 <= 100 } == threes.filter { $0 <= 100 && $0 >= -60 })
        }
    }

    /// The sums of explosions' steps: every multiple of their divisor past Schur's bound.
    @Test(arguments: [[6], [5, 6], [3, 5], [4, 6], [7, 9, 11], [2], [1], [0, 6], [10, 12, 15]])
    func sumsOfSteps(_ steps: [Int]) throws {
        let set = try #require(WholeSet.sums(of: steps))
        var reached: Set<Int> = [0]
        for value in 1...400 where steps.contains(where: { $0 > 0 && $0 <= value && reached.contains(value - $0) }) {
            reached.insert(value)
        }
        #expect(Self.listed(set) == reached)
    }

    @Test func stepsBelowZeroAndTooManyValuesAreNotWorkedOut() {
        #expect(WholeSet.sums(of: [-1, 6]) == nil)
        #expect(WholeSet.sums(of: [999, 1000]) == nil)
        #expect(WholeSet([0, 1 << 20]) == nil)
        #expect(WholeSet([Int.min, Int.max]) == nil)
    }

    /// Values near `Int.max` never wrap around.
    @Test func valuesPastIntMaxAreLeftOut() throws {
        let high = try #require(WholeSet.sums(of: [6]).flatMap { $0.shifted(by: Int.max - 13) })
        #expect(high.contains(Int.max - 1) && !high.contains(Int.max))
        if let doubled = high + high { #expect(!doubled.contains(Int.min)) }
        #expect(high.scaled(by: 2) == nil)
    }
}
