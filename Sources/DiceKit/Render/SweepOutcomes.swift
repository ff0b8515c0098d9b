/// The outcomes of a sweep whose outcomes are not all numbers, with each one's chance for
/// each value: the columns of its table and the lines of its chart (LANGUAGE.md §7: "for
/// text outcomes, one column per outcome").
///
/// A sweep has up to 1,000 values, each with outcomes of its own: `match 1d(n) { 1: "fumble",
/// else: 1d(n) } for n in 1..1000` has 1,001 outcomes and 500,500 chances. Each chance is
/// read once and filed under its outcome, so K columns cost O(*c* + K · *v*) for *c* chances
/// over *v* values. Looked up in each value's distribution, a cell at a time (a scan of its
/// outcomes, and another for its total), that table took 24 s, and its chart 47 s.
///
/// Where not all fit (a table as wide as the terminal, a chart of at most `maxLines` lines),
/// the likeliest are shown: those whose highest chance over the values is greatest, in the
/// order of `stats`, and a note says how many are left out and how likely they are at most.
struct SweepOutcomes {
    /// Every outcome of some value, in the order of `stats` (`ComparisonTable.union`).
    let outcomes: [Value]
    /// For each outcome, its highest chance over the values.
    let peaks: [Double]
    /// For each outcome, the values (as indices of the sweep's rows) where it comes, with its chance there.
    private let entries: [[(row: Int, chance: Double)]]
    private let rowCount: Int

    /// The most lines a sweep's chart draws: ten colours, each solid and in three dashes
    /// (`ChartFrame.dash`), so that no two look alike.
    static let maxLines = ChartFrame.palette.count * ChartFrame.dashes.count

    /// The outcomes of `sweep` and their chances.
    ///
    /// - Complexity: O(*c* + *k* log *k*) for *c* chances in all over *k* distinct outcomes.
    init(_ sweep: SweepReport) {
        let distributions = sweep.rows.map(\.report.distribution)
        let outcomes = ComparisonTable.union(distributions)
        var position: [Value: Int] = [:]
        position.reserveCapacity(outcomes.count)
        for (index, value) in outcomes.enumerated() { position[value] = index }
        var peaks = [Double](repeating: 0, count: outcomes.count)
        var entries = [[(row: Int, chance: Double)]](repeating: [], count: outcomes.count)
        for (row, distribution) in distributions.enumerated() {
            // A value whose explosion tails were cut shows the chances of what is left.
            let total = Swift.max(distribution.totalProbability, .leastNormalMagnitude)
            distribution.forEachValue { value, probability in
                guard let index = position[value] else { return }
                let chance = probability / total
                entries[index].append((row, chance))
                peaks[index] = Swift.max(peaks[index], chance)
            }
        }
        self.outcomes = outcomes
        self.peaks = peaks
        self.entries = entries
        rowCount = distributions.count
    }

    /// The chance of outcome `index` (of `outcomes`) for each value, in order.
    ///
    /// - Complexity: O(*v*) for *v* values.
    func chances(of index: Int) -> [Double] {
        var chances = [Double](repeating: 0, count: rowCount)
        for entry in entries[index] { chances[entry.row] += entry.chance }
        return chances
    }

    /// The outcomes shown: the likeliest first, while `fits` takes each (asked of every one
    /// up to the first it refuses; the first is shown whatever it says), returned in the order
    /// of `stats`; and what is left out.
    ///
    /// - Complexity: O(*k* log *k*) for *k* outcomes, besides the work of `fits`.
    func likeliest(while fits: (Int) -> Bool) -> (shown: [Int], leftOut: LeftOut?) {
        let ranked = outcomes.indices.sorted { peaks[$0] != peaks[$1] ? peaks[$0] > peaks[$1] : $0 < $1 }
        var count = 0
        while count < ranked.count && (fits(ranked[count]) || count == 0) { count += 1 }
        let rest = ranked[count...]
        let leftOut = rest.first.map { LeftOut(count: rest.count, peak: peaks[$0]) }
        return (ranked.prefix(count).sorted(), leftOut)
    }

    /// The outcomes a table or chart leaves out: how many, and the highest chance of any of
    /// them for any value.
    struct LeftOut: Equatable {
        var count: Int
        var peak: Double

        /// `(… and 961 more outcomes, not shown: at most 0.20% each, for any n)`; `...` for
        /// `…` unless `unicode`.
        func note(_ verb: String, name: String, unicode: Bool = true) -> String {
            (unicode ? "(… and " : "(... and ") + "\(count) more " + (count == 1 ? "outcome" : "outcomes")
                + ", not \(verb): at most \(DistributionRenderer.percent(peak))" + (count == 1 ? "" : " each")
                + ", for any \(name))"
        }
    }
}
