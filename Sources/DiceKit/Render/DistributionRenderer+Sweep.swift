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
/// The columns are a list (`SweepColumn`), so a layout of one column per outcome can be
/// added beside these; every outcome and value is written by `OutcomeText`.
extension DistributionRenderer {
    /// The sweep of `expr`, lines joined by newlines (no trailing newline).
    ///
    /// - Complexity: O(*v* · *k*) for *v* values of *k* outcomes each.
    package func render(_ sweep: SweepReport, of expr: Expr) -> String {
        let columns = SweepColumn.columns(for: sweep)
        let labels = sweep.rows.map { OutcomeText.label(Number.integer($0.value)) }
        let labelWidth = Swift.max(DistributionRenderer.columns(sweep.name), labels.map(\.count).max() ?? 0)
        let cells = columns.map { column in sweep.rows.map { column.cell($0.report) } }
        let widths = columns.indices.map { index in
            Swift.max(columns[index].heading.count, cells[index].map(\.count).max() ?? 0)
        }
        var heading = DistributionRenderer.padRight(sweep.name, labelWidth)
        for (column, width) in zip(columns, widths) { heading += "  " + DistributionRenderer.pad(column.heading, width) }
        var lines = [TextEscaping.escapingControls(SweepReport.title(expr, sweep)), DistributionRenderer.trimmed(heading)]
        let used = labelWidth + widths.reduce(0) { $0 + $1 + 2 } + 2
        let barWidth = DistributionRenderer.barColumns(width - used)
        let scale = SweepColumn.barScale(sweep, columns: columns)
        for (index, row) in sweep.rows.enumerated() {
            var line = DistributionRenderer.padRight(labels[index], labelWidth)
            for column in columns.indices { line += "  " + DistributionRenderer.pad(cells[column][index], widths[column]) }
            if let scale, let barWidth, let measure = columns.first?.measure(row.report) {
                line += "  " + bar(scale.fraction(measure), width: barWidth)
            }
            lines.append(DistributionRenderer.trimmed(line))
        }
        for row in sweep.rows where row.report.truncatedMass > 0 {
            let name = "\(sweep.name) = \(row.value)"
            lines.append("(\(name): explosions cut where the probability left was below 1e-12; "
                         + "\(DistributionRenderer.scientific(row.report.truncatedMass)) of the total is not shown)")
        }
        return lines.joined(separator: "\n")
    }
}

/// One column of a sweep's table: a heading, and what each row shows under it.
struct SweepColumn {
    /// What the column shows of a value's distribution.
    enum Content: Equatable {
        /// The probability of 1, for a test.
        case probability
        /// The mean.
        case mean
        /// The standard deviation.
        case stdev
        /// The median.
        case median
        /// The probability of one outcome (a text or tally among the outcomes).
        case outcome(Value)
    }

    var heading: String
    var content: Content

    /// The columns of `sweep`: `P` when its expression is a test, else the mean,
    /// stdev and median.
    static func columns(for sweep: SweepReport) -> [SweepColumn] {
        if sweep.rows.contains(where: { $0.report.distribution.hasSymbolic }) {
            // Texts or tallies (degrees of success): a column an outcome, its chance by the value.
            return ComparisonTable.union(sweep.rows.map(\.report.distribution)).map { outcome in
                SweepColumn(heading: OutcomeText.label(outcome), content: .outcome(outcome))
            }
        }
        if sweep.isTest { return [SweepColumn(heading: "P", content: .probability)] }
        return [SweepColumn(heading: "mean", content: .mean), SweepColumn(heading: "stdev", content: .stdev),
                SweepColumn(heading: "median", content: .median)]
    }

    /// The column's number for `report`, which its bar shows.
    func measure(_ report: DistributionReport) -> Double {
        let distribution = report.distribution
        switch content {
        case .probability: return distribution.probability(of: .integer(1))
        case .mean: return distribution.mean
        case .stdev: return distribution.standardDeviation
        case .median: return distribution.quantile(0.5)?.doubleValue ?? 0
        case .outcome(let value): return distribution.probability(ofValue: value) / Swift.max(distribution.totalProbability, .leastNormalMagnitude)
        }
    }

    /// The column's text for `report`.
    func cell(_ report: DistributionReport) -> String {
        switch content {
        case .probability, .outcome: return DistributionRenderer.percent(measure(report))
        case .mean, .stdev: return DistributionRenderer.fixed(measure(report), 2)
        case .median: return report.distribution.quantile(0.5).map(OutcomeText.label) ?? "-"
        }
    }

    /// The bars' scale, from the first column: the whole width is 100% for probabilities,
    /// else the span from 0 (or the least value, below 0) to the largest value.
    static func barScale(_ sweep: SweepReport, columns: [SweepColumn]) -> BarScale? {
        guard let first = columns.first else { return nil }
        if case .outcome = first.content { return nil }
        if first.content == .probability { return BarScale(low: 0, high: 1) }
        let measures = sweep.rows.map { first.measure($0.report) }
        let low = Swift.min(0, measures.min() ?? 0), high = Swift.max(0, measures.max() ?? 0)
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
