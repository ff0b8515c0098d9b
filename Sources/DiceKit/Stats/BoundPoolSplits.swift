#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The joint outcomes of a bound pool's dice, told apart only as far as its body can see
/// them: how many dice fall in each class of faces (LANGUAGE.md §5b, `let p = 20d6 in ...`).
///
/// The dice are alike and independent, so each part of the pool that falls alike is a
/// multinomial over the classes, and an exploding pool is a few such parts whose sizes have
/// closed forms instead of a convolution of chains:
///
/// | explosion | parts (classes, how many dice) |
/// | --- | --- |
/// | none, `!!` | every face (a compounded die's total for `!!`), N |
/// | `!` | faces that stop, N; faces that explode, X ~ NegBin(N, q) |
/// | `xo` | first rolls that stop, N − E; that explode, E ~ Bin(N, q); their extra dice, E |
/// | `!p` | first rolls that stop, N − E; that explode, E ~ Bin(N, q); extras (one less) that stop, E; that explode, X ~ NegBin(E, q) |
///
/// with q the chance that a roll explodes. Shadowrun's `push(20, 7)` has 406 splits of its
/// 27 stopping dice for each of about 40 numbers of sixes: 16,000 joint outcomes worked out
/// directly (a few ms), where a convolution of 27 chains made about 160,000, most of them of
/// no mass (`push(10, 4)` passed the 1 s bound; now about 60 ms of CPU whole process).
struct BoundPoolSplits {
    /// One part of the pool: the classes its dice fall in (indices into the pool's classes)
    /// with their chances within the part.
    struct Part {
        var classes: [(index: Int, p: Double)]
    }

    /// The joint outcomes, in the order first met: how many dice fall in each class.
    private(set) var splits: [[Int]] = []
    /// The chance of each of `splits`.
    private(set) var chances: [Double] = []
    private var slots: CountsIndex
    /// Whether a tail of explosions was cut (its mass below the cutoff), and its mass.
    private(set) var cutTail = false
    private(set) var cutMass = 0.0
    private let classCount: Int
    private var logFactorials: [Double] = [0]

    /// Whether no split can be met twice (each part's classes its own, each size's totals its
    /// own): then splits are not looked up. Shadowrun's `push(20, 7)`: 16,000 lookups less;
    /// with the shorter count names, from 34.3 to 33.1 ms of CPU (least of 21 runs).
    private let unique: Bool

    /// Splits into `classCount` classes of at most `largest` dice in all; `unique` when no
    /// split can be met twice.
    init(classCount: Int, largest: Int, unique: Bool = false) {
        self.classCount = classCount
        self.unique = unique
        slots = CountsIndex(length: unique ? 0 : classCount, largest: largest)
    }

    /// log(0!), log(1!), ... log(n!).
    static func logFactorials(through n: Int) -> [Double] {
        var table = [0.0]
        table.reserveCapacity(Swift.max(n, 0) + 1)
        var k = 1
        while k <= n {
            table.append(table[k - 1] + log(Double(k)))
            k += 1
        }
        return table
    }

    /// The chance of each `k` in a negative binomial: `k` explosions before `n` stops, each
    /// roll exploding with chance `q`; the tail past the mass `cutoff` is left out, and its
    /// mass told (`tail`).
    static func negativeBinomial(_ n: Int, _ q: Double, cutoff: Double,
                                 limit: Int) -> (chances: [Double], cut: Bool, tail: Double) {
        guard n > 0, q > 0 else { return ([1], false, 0) }
        let logQ = log(q), logStop = log1p(-q)
        var logFactorials = logFactorials(through: n)
        var chances: [Double] = []
        var total = 0.0
        var k = 0
        while k <= limit {
            while logFactorials.count <= n + k { logFactorials.append(logFactorials[logFactorials.count - 1]
                                                                       + log(Double(logFactorials.count))) }
            // C(n + k - 1, k) q^k (1 - q)^n
            let choose = logFactorials[n + k - 1] - logFactorials[k] - logFactorials[n - 1]
            let p = exp(choose + Double(k) * logQ + Double(n) * logStop)
            chances.append(p)
            total += p
            // Past the mean, stop once what is left is below the cutoff. Each term there is the
            // last times r = q (n + k) / (k + 1), less than 1 and falling, so what is left is at
            // most p r / (1 - r): that tells it when 1 - total, rounded, cannot (a cutoff near
            // 1e-16, as `endsCutFiner` asks, left 3d6!'s going on to `limit`). 1 - total below
            // the cutoff is checked by the tail itself: under a cutoff finer than rounding (a
            // rare `given`) it is rounding, and `let p = 3d6!p in count(p, =6) + p` stopped
            // at 1e-17 left however fine the cutoff, so the rare condition was never reached.
            if Double(k) >= Double(n) * q / (1 - q) {
                if 1 - total < cutoff {
                    let left = tail(after: p, n, q, k, limit: limit)
                    if left < cutoff { return (chances, left > 0, left) }
                }
                let ratio = q * Double(n + k) / Double(k + 1)
                if ratio < 1 && p * ratio / (1 - ratio) < cutoff { return (chances, true, tail(after: p, n, q, k, limit: limit)) }
            }
            k += 1
        }
        return (chances, true, Swift.max(0, 1 - total))
    }

    /// The mass of a negative binomial's terms past the `k`-th, `p`, summed term by term
    /// until they no longer add to it, not taken as 1 less the terms kept: that is rounding
    /// where the tail is far below 1e-16 (`let p = 1d6! in count(p, =6) + p` under a finer
    /// cutoff said 1e-16 was cut where 1e-28 was). Past the mean the terms fall faster than
    /// geometrically, so few are needed.
    private static func tail(after p: Double, _ n: Int, _ q: Double, _ k: Int, limit: Int) -> Double {
        var term = p, sum = 0.0, j = k
        while j - k <= limit {
            term *= q * Double(n + j) / Double(j + 1)
            guard term > sum * 1e-17 else { break }
            sum += term
            j += 1
        }
        return sum
    }

    /// The chance of each `k` in `0...n` of a binomial with chance `q`.
    static func binomial(_ n: Int, _ q: Double) -> [Double] {
        guard q > 0 else { return [1] + [Double](repeating: 0, count: n) }
        guard q < 1 else { return [Double](repeating: 0, count: n) + [1] }
        let logQ = log(q), logStop = log1p(-q)
        let logFactorials = logFactorials(through: n)
        var chances: [Double] = []
        for k in 0...n {
            let choose = logFactorials[n] - logFactorials[k] - logFactorials[n - k]
            chances.append(exp(choose + Double(k) * logQ + Double(n - k) * logStop))
        }
        return chances
    }

    /// How many splits `parts` of `totals` dice make: a bound on the outcomes to work out.
    static func splitCount(_ parts: [Part], _ totals: [Int]) -> Double {
        var ways = 1.0
        for (part, total) in zip(parts, totals) {
            let k = part.classes.count
            guard k > 1 else { continue }
            // C(total + k - 1, k - 1)
            for index in 0..<(k - 1) { ways = ways * Double(total + index + 1) / Double(index + 1) }
        }
        return ways
    }

    /// Adds every split of `parts`, of `totals` dice each, with the chance `weight` of those totals.
    mutating func add(_ parts: [Part], _ totals: [Int], weight: Double) {
        guard weight > 0, let first = totals.first else { return }
        let largest = totals.max() ?? 0
        if logFactorials.count <= largest { logFactorials = BoundPoolSplits.logFactorials(through: largest) }
        var counts = [Int](repeating: 0, count: classCount)
        walk(parts, totals, part: 0, slot: 0, left: first,
             logWeight: log(weight) + logFactorials[first], counts: &counts)
    }

    /// Adds the split `counts`, met with chance `p`: to the chance of the same split when it was met before.
    mutating func add(_ counts: [Int], chance p: Double) {
        guard p > 0 else { return }
        if unique {
            splits.append(counts)
            chances.append(p)
        } else if let slot = slots.slot(of: counts), chances.indices.contains(slot) {
            chances[slot] += p
        } else {
            slots.insert(counts, at: splits.count)
            splits.append(counts)
            chances.append(p)
        }
    }

    /// Notes that a tail of explosions of `mass` was cut.
    mutating func noteCut(_ mass: Double) {
        cutTail = true
        cutMass += Swift.max(0, mass)
    }

    /// Splits the dice `left` of part `part` among its classes from `slot` on: the
    /// multinomial total! / (n1! n2! ...) · p1^n1 · p2^n2 ..., a class at a time, in logarithms
    /// (C(2000, 1000) is past a Double).
    private mutating func walk(_ parts: [Part], _ totals: [Int], part: Int, slot: Int, left: Int,
                               logWeight: Double, counts: inout [Int]) {
        if part == parts.count { return add(counts, chance: exp(logWeight)) }
        let classes = parts[part].classes
        guard slot < classes.count - 1 else {
            // The last class takes what is left; then the next part starts with all its dice.
            guard let last = classes.last else {
                if left == 0 { nextPart(parts, totals, after: part, logWeight: logWeight, counts: &counts) }
                return
            }
            let weight = logWeight - logFactorials[left] + (left == 0 ? 0 : Double(left) * log(last.p))
            counts[last.index] += left
            nextPart(parts, totals, after: part, logWeight: weight, counts: &counts)
            counts[last.index] -= left
            return
        }
        let (index, p) = classes[slot]
        let logP = log(p)
        for k in 0...left {
            let weight = logWeight - logFactorials[k] + (k == 0 ? 0 : Double(k) * logP)
            counts[index] += k
            walk(parts, totals, part: part, slot: slot + 1, left: left - k, logWeight: weight, counts: &counts)
            counts[index] -= k
        }
    }

    private mutating func nextPart(_ parts: [Part], _ totals: [Int], after part: Int, logWeight: Double,
                                   counts: inout [Int]) {
        let next = part + 1
        let total = next < totals.count ? totals[next] : 0
        walk(parts, totals, part: next, slot: 0, left: total, logWeight: logWeight + logFactorials[total],
             counts: &counts)
    }
}

/// The slots of vectors of counts, each count at most `largest`: a vector is packed into one
/// whole number (a digit of base `largest + 1` each) when they all fit, so that finding it
/// hashes one number, not an array. Shadowrun's `push(20, 7)` files 16,000 splits of its
/// classes and then as many outcomes of its counts: with arrays that was about 13 ms of its
/// 44 ms of CPU (perf, release, loaded machine), with packed numbers about 3 ms.
struct CountsIndex {
    private let radix: Int
    private let packs: Bool
    private var packed: [Int: Int] = [:]
    private var arrays: [[Int]: Int] = [:]

    /// An index of vectors of `length` counts from 0 to `largest`.
    init(length: Int, largest: Int) {
        radix = Swift.max(largest, 0) &+ 1
        var span = 1
        var fits = radix > 0
        for _ in 0..<Swift.max(length, 0) where fits {
            let (next, overflow) = span.multipliedReportingOverflow(by: radix)
            fits = !overflow
            span = next
        }
        packs = fits
    }

    /// `counts` as one number, or `nil` when the index holds arrays (or a count is out of range).
    private func pack(_ counts: [Int]) -> Int? {
        guard packs else { return nil }
        var key = 0
        for count in counts.reversed() {
            guard count >= 0, count < radix else { return nil }
            key = key &* radix &+ count
        }
        return key
    }

    /// The slot of `counts`, if it has one.
    func slot(of counts: [Int]) -> Int? {
        if let key = pack(counts) { return packed[key] }
        return arrays[counts]
    }

    /// Files `counts` under `slot`.
    mutating func insert(_ counts: [Int], at slot: Int) {
        if let key = pack(counts) { packed[key] = slot } else { arrays[counts] = slot }
    }
}
