/// `stats E for NAME in A..B`: one row a value of NAME.
///
/// ```
/// 1d20 + 5 >= ac for ac in 14..16
/// ac       P
/// 14  60.00%  ████████████▏
/// 15  55.00%  ███████████▏
/// 16  50.00%  ██████████▏
/// ```
/// A test (a hit: `Stats.isTest`) shows its probability, on a scale where the whole bar is
/// 100%; any other its mean, its stdev and its median, the bar scaled to the largest mean.
/// With texts or tallies among the outcomes, a column an outcome shows its chance: as many
/// as fit the width, the likeliest (`SweepOutcomes`), and a line under the table says how
/// many are left out. Every outcome and value is written by `OutcomeText`.
extension DistributionRenderer {
    /// The sweep of `expr`, lines joined by newlines (no trailing newline).
    ///
    /// - Complexity: O(*c* + *k* log *k* + *v* · *w*) for *v* values with *c* outcomes in all,
    ///   *k* of them distinct, *w* of them shown as columns.
    package func render(_ sweep: SweepReport, of expr: Expr) -> String {
        let labels = sweep.rows.map { OutcomeText.label(Number.integer($0.value)) }
        let labelWidth = Swift.max(DistributionRenderer.columns(sweep.name), labels.map(\.count).max() ?? 0)
        let (columns, leftOut) = SweepColumn.columns(for: sweep, room: width - labelWidth)
        var heading = DistributionRenderer.padRight(sweep.name, labelWidth)
        for column in columns { heading += "  " + DistributionRenderer.pad(column.heading, column.width) }
        var lines = [TextEscaping.escapingControls(SweepReport.title(expr, sweep)), DistributionRenderer.trimmed(heading)]
        let used = labelWidth + columns.reduce(0) { $0 + $1.width + 2 } + 2
        let barWidth = DistributionRenderer.barColumns(width - used)
        let scale = SweepColumn.barScale(columns)
        for index in sweep.rows.indices {
            var line = DistributionRenderer.padRight(labels[index], labelWidth)
            for column in columns { line += "  " + DistributionRenderer.pad(column.cells[index], column.width) }
            if let scale, let barWidth, let measure = columns.first?.measures[index] {
                line += "  " + bar(scale.fraction(measure), width: barWidth)
            }
            lines.append(DistributionRenderer.trimmed(line))
        }
        if let leftOut { lines.append(leftOut.note("shown", name: sweep.name, unicode: unicode)) }
        for row in sweep.rows where row.report.truncatedMass > 0 {
            if let note = DistributionRenderer.cutNote(row.report) { lines.append("(\(sweep.name) = \(row.value): \(note))") }
        }
        return lines.joined(separator: "\n")
    }
}

/// One column of a sweep's table: a heading, and what each row shows under it.
struct SweepColumn {
    /// What the column shows of a value's distribution, which sets its bar's scale.
    enum Content: Equatable {
        /// The probability of 1, for a test.
        case probability
        /// The mean, stdev or median.
        case number
        /// The chance of one outcome (a text or tally among the outcomes).
        case outcome
    }

    var heading: String
    var content: Content
    /// The column's number for each value, which a bar shows.
    var measures: [Double]
    /// The column's text for each value.
    var cells: [String]

    /// The columns it takes: its heading's or its widest cell's.
    let width: Int

    /// The columns of `sweep` in `room` columns of text: `P` when its expression is a test;
    /// the mean, stdev and median when its outcomes are numbers; else a column an outcome,
    /// as many of the likeliest as fit (at least one), and what is left out.
    static func columns(for sweep: SweepReport,
                        room: Int) -> (columns: [SweepColumn], leftOut: SweepOutcomes.LeftOut?) {
        let reports = sweep.rows.map(\.report)
        if reports.contains(where: { $0.distribution.hasSymbolic }) {
            // Texts or tallies (degrees of success): a column an outcome, its chance by the value.
            let outcomes = SweepOutcomes(sweep)
            var columns: [Int: SweepColumn] = [:]
            var left = room
            let (shown, leftOut) = outcomes.likeliest { index in
                let column = SweepColumn(outcome: outcomes.outcomes[index], chances: outcomes.chances(of: index))
                guard columns.isEmpty || column.width + 2 <= left else { return false }
                columns[index] = column
                left -= column.width + 2
                return true
            }
            return (shown.compactMap { columns[$0] }, leftOut)
        }
        if sweep.isTest {
            let chances = reports.map { $0.distribution.probability(of: .integer(1)) }
            return ([SweepColumn(heading: "P", content: .probability, measures: chances,
                                 cells: chances.map(DistributionRenderer.percent))], nil)
        }
        let means = reports.map(\.distribution.mean), stdevs = reports.map(\.distribution.standardDeviation)
        let medians = reports.map { $0.distribution.quantile(0.5) }
        let twoPlaces = { (value: Double) in DistributionRenderer.fixed(value, 2) }
        return ([SweepColumn(heading: "mean", content: .number, measures: means, cells: means.map(twoPlaces)),
                 SweepColumn(heading: "stdev", content: .number, measures: stdevs, cells: stdevs.map(twoPlaces)),
                 SweepColumn(heading: "median", content: .number, measures: medians.map { $0?.doubleValue ?? 0 },
                             cells: medians.map { $0.map(OutcomeText.label) ?? "-" })], nil)
    }

    /// The column of one outcome, its chance for each value.
    private init(outcome: Value, chances: [Double]) {
        self.init(heading: OutcomeText.label(outcome), content: .outcome, measures: chances,
                  cells: chances.map(DistributionRenderer.percent))
    }

    private init(heading: String, content: Content, measures: [Double], cells: [String]) {
        self.heading = heading
        self.content = content
        self.measures = measures
        self.cells = cells
        width = Swift.max(heading.count, cells.map(\.count).max() ?? 0)
    }

    /// The bars' scale, from the first column: the whole width is 100% for probabilities,
    /// else the span from 0 (or the least value, below 0) to the largest value; no bars
    /// beside the columns of outcomes.
    static func barScale(_ columns: [SweepColumn]) -> BarScale? {
        guard let first = columns.first, first.content != .outcome else { return nil }
        if first.content == .probability { return BarScale(low: 0, high: 1) }
        let low = Swift.min(0, first.measures.min() ?? 0), high = Swift.max(0, first.measures.max() ?? 0)
        return high > low ? BarScale(low: low, high: high) : nil
    }

    /// A linear scale from `low` to `high`.
    struct BarScale {
        var low: Double
        var high: Double

        /// Where `value` falls, from 0 to 1.
        func fraction(_ value: Double) -> Double {
            Swift.min(1, Swift.max(0, (value - low) / (high - low)))
        }
    }
}

extension SweepReport {
    /// `1d20 >= dc for dc in 18..21`: the statement without `stats`, its bounds as values.
    static func title(_ expr: Expr, _ sweep: SweepReport) -> String {
        let first = sweep.rows.first.map { OutcomeText.label(Number.integer($0.value)) } ?? ""
        let last = sweep.rows.last.map { OutcomeText.label(Number.integer($0.value)) } ?? ""
        return "\(expr.text) for \(sweep.name) in \(first)..\(last)"
    }
}
