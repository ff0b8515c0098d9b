/// Selection of ranks in an integer buffer: what keep/drop needs when only the kept
/// values matter, not their order.
enum Selection {
    /// Reorders `values[bounds]` so that every value before `rank` is at most every value
    /// from `rank` on (the `rank`-th smallest, counting from 0, lands at `rank`). A `rank`
    /// at either end of `bounds` (or outside it) leaves the buffer as it is.
    ///
    /// - Complexity: O(*n*) expected for *n* values (quickselect on a median of three;
    ///   O(*n*·*k*) picking *k* ≤ 4 values from an end);
    ///   after 2·log₂ *n* rounds without progress the rest is sorted, so O(*n* log *n*) at worst.
    static func partition(_ values: UnsafeMutableBufferPointer<Int>, around rank: Int, in bounds: Range<Int>) {
        var low = bounds.lowerBound
        var high = bounds.upperBound
        guard rank > low, rank < high else { return }
        // A few values from either end (`dl`, `kh1`, ...): pick them out one at a time.
        if rank - low <= 4 {
            for target in low..<rank {
                var smallest = target
                for index in (target + 1)..<high where values[index] < values[smallest] { smallest = index }
                values.swapAt(target, smallest)
            }
            return
        }
        if high - rank <= 4 {
            for target in stride(from: high - 1, through: rank, by: -1) {
                var largest = target
                for index in low..<target where values[index] > values[largest] { largest = index }
                values.swapAt(target, largest)
            }
            return
        }
        var rounds = 2 * (Int.bitWidth - (high - low).leadingZeroBitCount)
        while high - low > 16 {
            if rounds == 0 {
                values[low..<high].sort()
                return
            }
            rounds -= 1
            let pivot = medianOfThree(values[low], values[low + (high - low) / 2], values[high - 1])
            // Three-way partition: [low, less) < pivot, [less, i) == pivot, (greater, high) > pivot.
            var less = low
            var i = low
            var greater = high - 1
            while i <= greater {
                let value = values[i]
                if value < pivot {
                    values.swapAt(i, less)
                    less += 1
                    i += 1
                } else if value > pivot {
                    values.swapAt(i, greater)
                    greater -= 1
                } else {
                    i += 1
                }
            }
            if rank < less {
                high = less
            } else if rank > greater {
                low = greater + 1
            } else {
                return
            }
        }
        // A handful left: insertion sort.
        insertionSort(values, low..<high)
    }

    /// Sorts `values[bounds]` ascending: quicker than anything else for a handful of dice.
    ///
    /// - Complexity: O(*n*²) for *n* values.
    static func insertionSort(_ values: UnsafeMutableBufferPointer<Int>, _ bounds: Range<Int>) {
        var index = bounds.lowerBound + 1
        while index < bounds.upperBound {
            let item = values[index]
            var j = index
            while j > bounds.lowerBound && values[j - 1] > item {
                values[j] = values[j - 1]
                j -= 1
            }
            values[j] = item
            index += 1
        }
    }

    @inline(__always)
    private static func medianOfThree(_ a: Int, _ b: Int, _ c: Int) -> Int {
        Swift.max(Swift.min(a, b), Swift.min(Swift.max(a, b), c))
    }
}
