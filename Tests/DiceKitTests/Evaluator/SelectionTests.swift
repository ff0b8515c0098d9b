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
