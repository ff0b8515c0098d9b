#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Keep/drop over a pool of exploding (`!`) or penetrating (`!p`) dice, each die of a
/// chain a separate die, exact, whatever the keep/drop steps (both ends too: `dl1dh1`).
///
/// A chain is independent draws of the die until a face that does not explode, so the
/// pool's dice fall into a few groups of independent, identically distributed values:
/// of `N` chains, `K` first dice explode (`K` ~ Bin(N, q)) and `N - K` stop; the `K`
/// chains that go on add `K` extra dice that stop and `M` extra dice that explode. With
/// `!` the dice that stop (first or extra) are one group of `N` and those that explode
/// one group of `K + M`; with `!p` the extra dice count one less, so four groups. Given
/// the group sizes (the *latent*), keep/drop depends only on the sorted values.
///
/// When the groups' values do not interleave (each group's highest value is at most the
/// next group's lowest: `!` on the highest faces or `!<2`), the sorted pool is the groups
/// one after another. The kept ranks of a pool of `T` dice (`KeepDropStep.keptRange`)
/// then split into a window on each group, whose kept sum is the i.i.d. order-statistics
/// table of `KeepDP` (or a plain sum, or a constant for a group of one value), and the
/// latent's kept sum is the sum of those, independent given the latent. When they
/// interleave (`!p`, `!=3`), one table follows all groups at once
/// (`ExplodingKeep+Interleaved.swift`).
///
/// The chains are cut after `depth` extra dice, as everywhere: the latents' probabilities
/// are exactly those of the cut chains, and latents of negligible probability (the tail
/// below a thousandth of the cutoff, itself at most 1e-12) are left out, their mass part
/// of the reported cut.
///
/// - Complexity: O(*N* · *m* · *depth*) for the latents (*m* extra dice at most, where the
///   tail is cut), then per latent the sum of its groups' pieces; `keptSum` and
///   `interleavedKeptSum` estimate their work before starting.
struct ExplodingKeep {
    /// Dice of one kind: independent, each showing `values[i]` (ascending) with `probabilities[i]`.
    struct Group {
        var values: [Int]
        var probabilities: [Double]
        var contributions: [Number]
        var wholeContributions: [Int]?
        /// The largest spread of the contributions, for estimates.
        var spread: Double
    }

    /// The groups in ascending order of their lowest value.
    let groups: [Group]
    /// Whether each group's highest value is at most the next group's lowest, so that the
    /// sorted pool is the groups one after another; otherwise `interleavedKeptSum` applies.
    let separable: Bool
    /// Each latent: the size of each group (in `groups` order) and its probability.
    let latents: [(sizes: [Int], weight: Double)]
    let keeps: [KeepDropStep]
    let range: SourceRange

    /// What a group's kept dice add, for one size and window.
    private enum Piece {
        case constant(Number)
        case distribution(Distribution)
    }

    // MARK: - Making

    /// The model of `count` chains of `die`.
    ///
    /// - Parameters:
    ///   - explodes: whether a face goes on.
    ///   - penetrates: `!p`: extra dice count one less.
    ///   - depth: extra dice per chain at most.
    ///   - cutoff: the budget's explosion cutoff; latents below a thousandth of it are left out.
    static func make(die: Distribution, explodes: (Int) -> Bool, penetrates: Bool, depth: Int, count: Int,
                     counting: PoolRules.Counting, keeps: [KeepDropStep], cutoff: Double, range: SourceRange,
                     meter: inout WorkMeter) throws(StatsFailure) -> ExplodingKeep {
        var stop: [(Int, Double)] = [], go: [(Int, Double)] = []
        var q = 0.0
        die.forEachWholeOutcome { face, p in
            if explodes(face) {
                go.append((face, p))
                q += p
            } else {
                stop.append((face, p))
            }
        }
        let shift = penetrates ? -1 : 0
        func group(_ faces: [(Int, Double)], shift: Int) throws(StatsFailure) -> Group? {
            guard !faces.isEmpty else { return nil }
            let mass = faces.reduce(0.0) { $0 + $1.1 }
            var values: [Int] = [], probabilities: [Double] = [], contributions: [Number] = []
            var whole: [Int]? = []
            for (face, p) in faces {
                let value = try StatsFailure.arithmetic(at: range) { () throws(ArithmeticFault) in
                    let (value, overflow) = face.addingReportingOverflow(shift)
                    guard !overflow else { throw .overflow }
                    return value
                }
                values.append(value)
                probabilities.append(p / mass)
                let contribution = try StatsFailure.arithmetic(at: range) { () throws(ArithmeticFault) in
                    try counting.contribution(of: .integer(value))
                }
                contributions.append(contribution)
                if case .integer(let n) = contribution { whole?.append(n) } else { whole = nil }
            }
            let doubles = contributions.map(\.doubleValue)
            let spread = (doubles.max() ?? 0) - (doubles.min() ?? 0)
            return Group(values: values, probabilities: probabilities, contributions: contributions,
                         wholeContributions: whole, spread: spread)
        }
        // The groups, each with how its size follows from (K, M); `nil` groups never have dice.
        var made: [(group: Group, size: (Int, Int) -> Int)] = []
        if penetrates {
            if let g = try group(stop, shift: 0) { made.append((g, { k, _ in count - k })) }
            if let g = try group(go, shift: 0) { made.append((g, { k, _ in k })) }
            if let g = try group(stop, shift: shift) { made.append((g, { k, _ in k })) }
            if let g = try group(go, shift: shift) { made.append((g, { _, m in m })) }
        } else {
            if let g = try group(stop, shift: 0) { made.append((g, { _, _ in count })) }
            if let g = try group(go, shift: 0) { made.append((g, { k, m in k + m })) }
        }
        made.sort { ($0.group.values[0], $0.group.values.last ?? 0) < ($1.group.values[0], $1.group.values.last ?? 0) }
        var separable = true
        for index in made.indices.dropFirst() {
            guard let previousHighest = made[index - 1].group.values.last,
                  previousHighest <= made[index].group.values[0] else {
                separable = false
                break
            }
        }

        let counts = try chainCounts(chains: count, q: q, depth: depth,
                                     latentCut: Swift.min(cutoff, 1e-12) * 1e-3, meter: &meter)
        var merged: [[Int]: Double] = [:]
        for row in counts {
            for (m, weight) in row.probabilities.enumerated() where weight > 0 {
                merged[made.map { $0.size(row.k, m) }, default: 0] += weight
            }
        }
        // In increasing order of size, so that a group's plain sums are built in order.
        let latents = merged.map { (sizes: $0.key, weight: $0.value) }.sorted { $0.sizes.lexicographicallyPrecedes($1.sizes) }
        return ExplodingKeep(groups: made.map(\.group), separable: separable, latents: latents, keeps: keeps,
                             range: range)
    }

    /// For each `k` (chains whose first die explodes), the probabilities of `m` extra
    /// exploding dice among them, joint with `k`: chains cut after `depth` extra dice, rows
    /// trimmed where the tail left is below `latentCut`.
    ///
    /// A chain with extra dice has `j + 1` of them (`j` exploding) with probability
    /// `q^(j+1) (1 - q)`, `j < depth`; one without, `1 - q`. So per chain the total is
    /// `s = 1 - q^(depth+1)`, `K` is binomial with `q (1 - q^depth) / s`, and `M` given `K`
    /// is the `K`-fold sum of a geometric cut at `depth - 1`, each row a distribution.
    ///
    /// - Complexity: O(*N* · *m* · *depth*) for rows of *m* entries.
    static func chainCounts(chains n: Int, q: Double, depth: Int, latentCut: Double,
                            meter: inout WorkMeter) throws(StatsFailure) -> [(k: Int, probabilities: [Double])] {
        let chainMass = 1 - pow(q, Double(depth + 1))
        let goOn = depth > 0 ? q * (1 - pow(q, Double(depth))) / chainMass : 0
        // One chain's exploding extra dice, given it goes on: geometric, cut.
        var geometric: [Double] = []
        if depth > 0 {
            let norm = (1 - q) / (1 - pow(q, Double(depth)))
            var p = norm
            for _ in 0..<depth {
                geometric.append(p)
                p *= q
            }
        }
        guard n <= meter.budget.maxOutcomes else {
            throw .tooExpensive("keep/drop over more than \(meter.budget.maxOutcomes) exploding dice")
        }
        try meter.charge(WorkMeter.product(n + 1, 8))
        // P(K = k), scaled to sum to 1: the log-factorials of a large pool carry relative
        // errors near 1e-12, which would otherwise show as mass above 1.
        var chances = [Double](repeating: 0, count: n + 1)
        if goOn <= 0 {
            chances[0] = 1
        } else if goOn >= 1 {
            chances[n] = 1
        } else {
            var logFactorial = [Double](repeating: 0, count: n + 1)
            for i in stride(from: 2, through: n, by: 1) { logFactorial[i] = logFactorial[i - 1] + log(Double(i)) }
            var total = 0.0
            for k in 0...n {
                chances[k] = exp(logFactorial[n] - logFactorial[k] - logFactorial[n - k]
                                 + Double(k) * log(goOn) + Double(n - k) * log1p(-goOn))
                total += chances[k]
            }
            if total > 0 { for k in 0...n { chances[k] /= total } }
        }
        let scale = exp(Double(n) * log(chainMass))
        var result: [(k: Int, probabilities: [Double])] = []
        var row: [Double] = [1]
        for k in 0...n {
            if k > 0 {
                guard !geometric.isEmpty else { break }
                try meter.charge(WorkMeter.product(row.count, geometric.count))
                row = Distribution.convolve(row, geometric)
                // Trim the tail below the cut (summed from the end, where it is accurate).
                var tail = 0.0, keep = row.count
                while keep > 1 && tail + row[keep - 1] < latentCut {
                    tail += row[keep - 1]
                    keep -= 1
                }
                if keep < row.count { row.removeLast(row.count - keep) }
                if row.count > meter.budget.maxOutcomes {
                    throw .tooExpensive("an exploding pool with more than \(meter.budget.maxOutcomes) extra dice")
                }
            }
            let weight = scale * chances[k]
            if weight < latentCut / Double(n + 1) {
                // Past the most likely `k`, the weights only fall.
                if Double(k) > Double(n + 1) * goOn { break }
                continue
            }
            result.append((k, row.map { $0 * weight }))
        }
        return result
    }

    // MARK: - Kept sums

    /// The kept sum over the latents, each weighted by its probability (so the total is the
    /// mass the chains' cut leaves).
    ///
    /// - Complexity: O(*latents* · *W*) plus the kept-sum tables of each group, each made
    ///   once per size and window, for kept sums of width *W*.
    func keptSum(meter: inout WorkMeter) throws(StatsFailure) -> Distribution {
        if !separable { return try interleavedKeptSum(ValueTable(groups), meter: &meter) }
        try meter.ensureAffordable(estimate(maxOutcomes: meter.budget.maxOutcomes))
        var pieces: [[Int]: Piece] = [:]
        var sums: [[Distribution]] = groups.map { _ in [Distribution(constant: .integer(0))] }
        var result = DistributionAccumulator()
        for latent in latents {
            let window = KeepDropStep.keptRange(keeps, total: latent.sizes.reduce(0, +))
            var shift = Number.integer(0)
            var spread: Distribution?
            var offset = 0
            for (index, size) in latent.sizes.enumerated() {
                let low = Swift.max(0, window.lowerBound - offset)
                let high = Swift.min(size, window.upperBound - offset)
                offset += size
                guard low < high else { continue }
                let key = [index, size, low, high]
                let piece: Piece
                if let known = pieces[key] {
                    piece = known
                } else {
                    piece = try self.piece(index, size: size, kept: low..<high, sums: &sums, meter: &meter)
                    pieces[key] = piece
                }
                switch piece {
                case .constant(let value):
                    shift = try StatsFailure.arithmetic(at: range) { () throws(ArithmeticFault) in try shift.adding(value) }
                case .distribution(let distribution):
                    if let sofar = spread {
                        try meter.charge(WorkMeter.pairWork(sofar, distribution))
                        spread = try meter.checkSize(StatsFailure.arithmetic(at: range) { () throws(ArithmeticFault) in
                            try sofar.adding(distribution)
                        })
                    } else {
                        spread = distribution
                    }
                }
            }
            let kept = spread ?? Distribution(constant: .integer(0))
            try meter.charge(kept.storageSize + 8)
            let amount = shift
            try StatsFailure.arithmetic(at: range) { () throws(ArithmeticFault) in
                try result.add(kept, shiftedBy: amount, times: latent.weight)
            }
        }
        return try meter.checkSize(result.build())
    }

    /// The work of `keptSum`, before it starts: each group's tables (as `KeepDP` estimates
    /// them, or the plain sums one die at a time), then each latent's sum of its pieces.
    func estimate(maxOutcomes: Int) -> Int {
        var total = 0.0
        var seen = Set<[Int]>()
        var largestSum = [Int](repeating: 0, count: groups.count)
        for latent in latents {
            let window = KeepDropStep.keptRange(keeps, total: latent.sizes.reduce(0, +))
            var widths = 1.0
            var offset = 0
            for (index, size) in latent.sizes.enumerated() {
                let low = Swift.max(0, window.lowerBound - offset)
                let high = Swift.min(size, window.upperBound - offset)
                offset += size
                guard low < high else { continue }
                let group = groups[index]
                let width = Swift.min(Double(high - low) * group.spread + 1, Double(maxOutcomes))
                if group.values.count > 1 { widths *= width }
                guard group.values.count > 1, seen.insert([index, size, low, high]).inserted else { continue }
                if low == 0 && high == size {
                    largestSum[index] = Swift.max(largestSum[index], size)
                } else {
                    // KeepDP counts from the nearer end of the kept ranks.
                    let upper = size - low < high ? size - low : high
                    total += Double(group.values.count) * Double(upper) * Double(size) * width / 2
                }
            }
            total += widths + 8
        }
        for (index, size) in largestSum.enumerated() where size > 0 {
            // Plain sums of 1...size dice, each one more die than the last.
            let n = Double(size), m = Double(groups[index].values.count)
            total += m * (n * (n + 1) / 2 * groups[index].spread + n)
        }
        return total < 9e18 ? Int(total) : Int.max
    }

    /// The kept sum of ranks `kept` (ascending) of `size` dice of group `index`.
    private func piece(_ index: Int, size: Int, kept: Range<Int>, sums: inout [[Distribution]],
                       meter: inout WorkMeter) throws(StatsFailure) -> Piece {
        let group = groups[index]
        if group.values.count == 1 {
            return .constant(try StatsFailure.arithmetic(at: range) { () throws(ArithmeticFault) in
                try group.contributions[0].multiplying(by: .integer(kept.count))
            })
        }
        if kept == 0..<size {
            // Every die kept: the plain sum, built one die at a time and kept for larger sizes.
            if sums[index].count == 1 {
                var one = DistributionAccumulator()
                for (contribution, p) in zip(group.contributions, group.probabilities) { one.add(contribution, p) }
                sums[index].append(one.build())
            }
            while sums[index].count <= size {
                guard let last = sums[index].last else { throw .invariant("no plain sums") }
                let one = sums[index][1]
                try meter.charge(WorkMeter.pairWork(last, one))
                sums[index].append(try meter.checkSize(StatsFailure.arithmetic(at: range) { () throws(ArithmeticFault) in
                    try last.adding(one)
                }))
            }
            return .distribution(sums[index][size])
        }
        if let whole = group.wholeContributions {
            return .distribution(try KeepDP.keptSum(probabilities: group.probabilities, contributions: whole,
                                                    dice: size, kept: kept, meter: &meter, at: range))
        }
        return .distribution(try KeepDP.keptSum(probabilities: group.probabilities, contributions: group.contributions,
                                                dice: size, kept: kept, meter: &meter, at: range))
    }
}
