import Testing
@testable import DiceKit

/// `Selection.partition`, which keep/drop uses on the value path instead of a sort.
@Suite struct SelectionTests {
    /// After partitioning around `rank`, the values before it are the `rank` smallest
    /// (as a multiset) and the buffer is a permutation of what it was.
    @Test(arguments: [0, 1, 2, 3, 5, 17, 40, 300] as [Int])
    func partitionPutsTheSmallestValuesFirst(_ count: Int) {
        var generator = Xoshiro256StarStar(seed: UInt64(count) + 1)
        for trial in 0..<50 {
            // Few distinct values (many ties) on even trials, many on odd ones.
            let sides = trial % 2 == 0 ? 3 : 1_000
            let original = (0..<count).map { _ in generator.roll(sides: sides) - sides / 2 }
            let sorted = original.sorted()
            for rank in Set([0, 1, 2, 4, 5, count / 2, count - 5, count - 4, count - 1, count]) where rank >= 0 && rank <= count {
                var values = original
                values.withUnsafeMutableBufferPointer { Selection.partition($0, around: rank, in: 0..<count) }
                #expect(values.sorted() == sorted)
                #expect(values[..<rank].sorted() == Array(sorted[..<rank]), "count \(count), rank \(rank)")
            }
        }
    }

    /// Two partitions leave the window of ranks `low..<high` holding exactly those values.
    @Test func twoPartitionsIsolateAWindow() {
        var generator = Xoshiro256StarStar(seed: 9)
        for _ in 0..<200 {
            let count = generator.roll(sides: 60)
            let original = (0..<count).map { _ in generator.roll(sides: 20) }
            let low = generator.roll(sides: count + 1) - 1
            let high = low + generator.roll(sides: count - low + 1) - 1
            var values = original
            values.withUnsafeMutableBufferPointer {
                Selection.partition($0, around: low, in: 0..<count)
                Selection.partition($0, around: high, in: low..<count)
            }
            #expect(values[low..<high].sorted() == Array(original.sorted()[low..<high]))
        }
    }
}

/// `KeepDropStep.apply(to: &dice)`, which marks dropped dice in place (picking at most 8
/// one by one, or sorting), drops exactly the dice the sorting definition does, ties included.
@Suite struct KeepDropMarkingTests {
    @Test func marksTheSameDiceAsTheSortingDefinition() {
        var generator = Xoshiro256StarStar(seed: 17)
        for trial in 0..<3_000 {
            let count = generator.roll(sides: 30) - 1
            let sides = trial % 3 == 0 ? 2 : 6
            var dice = (0..<count).map { _ in Die(value: generator.roll(sides: sides)) }
            // Some dice were rerolled: they are not candidates.
            for index in dice.indices where generator.roll(sides: 8) == 1 { dice[index].flags.insert(.rerolled) }
            var expected = dice.indices.filter { dice[$0].isCounted }
            let steps = (0..<generator.roll(sides: 3)).map { _ in
                KeepDropStep(keep: generator.roll(sides: 2) == 1,
                             extreme: generator.roll(sides: 2) == 1 ? .highest : .lowest,
                             count: generator.roll(sides: count + 2) - 1)
            }
            for step in steps {
                expected = step.apply(to: expected) { dice[$0].value }
                step.apply(to: &dice)
            }
            let kept = dice.indices.filter { dice[$0].isCounted }
            #expect(kept == expected, "\(steps) on \(dice.map(\.value))")
            #expect(!dice.contains { $0.flags.contains(.chosen) })
        }
    }
}
