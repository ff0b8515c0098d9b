/// Draws `stats` results as SVG charts (`dice --svg FILE`, `:svg FILE`): bars for one
/// expression, grouped bars with a colour per expression and a legend for a comparison,
/// lines for a sweep. Each has a title, axes with ticks and labels, and is sized for
/// 800 × 500.
///
/// ```swift
/// var session = Session()
/// let outcome = try session.execute(Parser.parseProgram("stats 2d6")[0])
/// let svg = ChartRenderer().svg(for: outcome)   // "<?xml ...><svg ...>...</svg>"
/// ```
/// The bars are `<rect class="bar series-N">` (N the expression's index), a sweep's line a
/// `<polyline class="line">` with a `<circle class="point">` for each value; the user's
/// text is escaped as XML. Long distributions are trimmed of far tails and grouped, as
/// their tables are.
public struct ChartRenderer: Sendable {
    /// The chart's width in pixels.
    package var width: Int
    /// The chart's height in pixels.
    package var height: Int
    /// The most bars of one series: more outcomes are grouped into ranges.
    package var maxBars: Int

    /// A renderer of charts `width` × `height` pixels.
    public init(width: Int = 800, height: Int = 500, maxBars: Int = 100) {
        self.width = Swift.min(Swift.max(width, 200), 10_000)
        self.height = Swift.min(Swift.max(height, 150), 10_000)
        self.maxBars = Swift.min(Swift.max(maxBars, 2), 1_000)
    }

    /// The chart of a `stats` outcome as an SVG document; `nil` for any other outcome.
    ///
    /// - Complexity: O(*e* · *k* + *k* log *k*) for *e* expressions (or swept values) of *k* outcomes.
    public func svg(for outcome: Outcome) -> String? {
        switch outcome {
        case .stats(let expr, let report):
            return bars(title: "stats " + expr.text, subtitle: ChartRenderer.summary(report), series: [report],
                        legend: [])
        case .compare(let exprs, let reports):
            let legend = zip(exprs, reports).enumerated().map { index, pair in
                let look = ChartFrame.barLook(index)
                return ChartFrame.LegendEntry(colour: look.colour, label: "\(pair.0.text): \(ChartRenderer.summary(pair.1))",
                                              opacity: look.opacity ?? 1, outline: look.outline)
            }
            return bars(title: "stats " + exprs.map(\.text).joined(separator: ", "),
                        subtitle: "the chance of each outcome, side by side", series: reports, legend: legend)
        case .sweep(let expr, let sweep):
            return lines(expr, sweep)
        case .roll, .assignment, .definition, .system, .systems:
            return nil
        }
    }

    /// The colour of series `index`.
    static func colour(_ index: Int) -> String {
        ChartFrame.palette[index % ChartFrame.palette.count]
    }

    /// `mean 4.50, stdev 2.29, median 4`, or `P = 55.00%` for a test; an estimate says so.
    static func summary(_ report: DistributionReport) -> String {
        let distribution = report.distribution
        var text: String
        if distribution.hasSymbolic {
            text = "\(distribution.count) outcomes"
        } else if report.isTest {
            text = "P = " + DistributionRenderer.percent(distribution.probability(of: .integer(1)))
        } else {
            text = "mean \(DistributionRenderer.fixed(distribution.mean, 2)), "
                + "stdev \(DistributionRenderer.fixed(distribution.standardDeviation, 2))"
            if let median = distribution.quantile(0.5) { text += ", median \(OutcomeText.label(median))" }
        }
        if !report.exact, let rolls = report.sampleCount { text += " (estimated from \(rolls) rolls)" }
        return text
    }

    // MARK: - Bars

    /// Bars of each report's probabilities over the union of their outcomes, grouped by outcome.
    private func bars(title: String, subtitle: String, series reports: [DistributionReport],
                      legend: [ChartFrame.LegendEntry]) -> String {
        var svg = SVGWriter(width: width, height: height, title: title)
        let table = ComparisonTable(reports.map(\.distribution), maxRows: maxBars,
                                    trimAbove: Swift.min(maxBars, DistributionRenderer.tableRows), unicode: true)
        let rows = table.rows
        // Texts and tallies (rows with no `reach`) are categories, not a scale to read
        // between: each has its label. Where labels across would be cut to a few characters
        // (40 texts: "…" under every bar), they stand upright, every `step`-th as one fits
        // beside the next (about 14 px each), the plot made shorter to hold them.
        let categorical = rows.contains { $0.reach == nil }
        let widest = rows.map { ChartFrame.textWidth($0.label, size: ChartFrame.labelSize) }.max() ?? 0
        let across = ChartFrame(width: width, height: height, legend: legend)
        let slot = across.plotWidth / Double(Swift.max(1, rows.count))
        let upright = categorical && widest > slot - 4 && slot < ChartFrame.textWidth("abcde", size: ChartFrame.labelSize)
        let frame = upright ? ChartFrame(width: width, height: height, legend: legend, uprightLabels: widest) : across
        let largest = table.rows.flatMap(\.probabilities).max() ?? 0
        let axis = ChartAxis(covering: 0, largest, percent: true)
        frame.drawLabels(&svg, title: title, subtitle: subtitle, xTitle: "outcome", yTitle: "probability",
                         notes: table.notes)
        frame.drawYAxis(&svg, axis)
        let groupWidth = slot * (rows.count < 6 ? 0.6 : 0.8)
        let barWidth = groupWidth / Double(Swift.max(1, reports.count))
        for (index, row) in rows.enumerated() {
            let start = frame.left + Double(index) * slot + (slot - groupWidth) / 2
            for (column, probability) in row.probabilities.enumerated() where probability > 0 {
                let y = frame.y(probability, axis)
                let tooltip = (reports.count > 1 ? "#\(column + 1) " : "") + "\(row.label): "
                    + DistributionRenderer.percent(probability)
                let look = ChartFrame.barLook(column)
                svg.rect(x: start + Double(column) * barWidth, y: y, width: Swift.max(0.5, barWidth * 0.92),
                         height: Swift.max(0.5, frame.bottom - y), fill: look.colour, className: "bar series-\(column)",
                         opacity: look.opacity, outline: look.outline, tooltip: tooltip)
            }
        }
        frame.drawXAxisLine(&svg)
        // Every label that fits beside its neighbours: each `step`-th; across, a category's
        // label is cut with `…` to its slot. No label runs past the chart's edges.
        let step: Int
        if upright {
            step = Swift.max(1, Int((14 / Swift.max(1, slot)).rounded(.up)))
        } else {
            step = categorical ? 1 : Swift.max(1, Int(((widest + 10) / Swift.max(1, slot)).rounded(.up)))
        }
        for index in Swift.stride(from: 0, to: rows.count, by: step) {
            let x = frame.left + (Double(index) + 0.5) * slot
            if upright {
                let label = ChartFrame.fitted(rows[index].label, width: ChartFrame.uprightLabelLength,
                                              size: ChartFrame.labelSize)
                frame.drawXTick(&svg, label, at: x, upright: true)
                continue
            }
            let room = Swift.min(Double(step) * slot - 4, 2 * (Double(width) - x) - 4, 2 * x - 4)
            frame.drawXTick(&svg, ChartFrame.fitted(rows[index].label, width: room, size: ChartFrame.labelSize), at: x)
        }
        return svg.finished()
    }

    // MARK: - Lines

    /// A sweep: the mean (or the probability of a test) against the swept value, with the
    /// band from the 10th to the 90th percentile when there is a spread; texts or tallies
    /// (degrees of success) a line an outcome, its chance.
    private func lines(_ expr: Expr, _ sweep: SweepReport) -> String {
        let title = "stats " + SweepReport.title(expr, sweep)
        var svg = SVGWriter(width: width, height: height, title: title)
        let perOutcome = SweepSeries.isPerOutcome(sweep)
        // Probabilities on the y axis: of a test, or of each outcome.
        let indicator = sweep.isTest || perOutcome
        let (series, leftOut) = SweepSeries.series(for: sweep)
        let legend = series.count > 1 || !indicator ? series.enumerated().map { index, line in
            ChartFrame.LegendEntry(colour: ChartRenderer.colour(index), label: line.name, isLine: true,
                                   dash: ChartFrame.dash(index))
        } + (indicator ? [] : [ChartFrame.LegendEntry(colour: ChartRenderer.colour(0), label: "10th to 90th percentile",
                                                       opacity: 0.2)]) : []
        let frame = ChartFrame(width: width, height: height, legend: legend)
        let values = sweep.rows.map { Double($0.value) }
        let xAxis = ChartAxis(covering: values.first ?? 0, values.last ?? 0, count: 8, whole: true, tight: true)
        let band = indicator ? [] : sweep.rows.map { row -> (low: Double, high: Double) in
            let distribution = row.report.distribution
            return (distribution.quantile(0.1)?.doubleValue ?? 0, distribution.quantile(0.9)?.doubleValue ?? 0)
        }
        let measures = series.flatMap(\.values) + band.flatMap { [$0.low, $0.high] }
        let yAxis = ChartAxis(covering: Swift.min(0, measures.min() ?? 0), Swift.max(0, measures.max() ?? 0),
                              percent: indicator)
        var subtitle = perOutcome ? "the chance of each outcome by \(sweep.name)"
            : indicator ? "the chance by \(sweep.name)" : "the mean by \(sweep.name)"
        // Past `SweepOutcomes.maxLines`, the likeliest are drawn; the note under the plot says what is not.
        if let leftOut { subtitle += ": the \(series.count) likeliest of \(series.count + leftOut.count)" }
        frame.drawLabels(&svg, title: title, subtitle: subtitle, xTitle: sweep.name, yTitle: indicator ? "probability" : "mean",
                         notes: leftOut.map { [$0.note("drawn", name: sweep.name)] } ?? [])
        frame.drawYAxis(&svg, yAxis)
        if !band.isEmpty {
            let upper = zip(values, band).map { (x: frame.x($0, xAxis), y: frame.y($1.high, yAxis)) }
            let lower = zip(values, band).map { (x: frame.x($0, xAxis), y: frame.y($1.low, yAxis)) }
            svg.polygon(upper + lower.reversed(), fill: ChartRenderer.colour(0), opacity: 0.2, className: "band")
        }
        frame.drawXAxisLine(&svg)
        for tick in xAxis.ticks { frame.drawXTick(&svg, xAxis.label(tick), at: frame.x(tick, xAxis)) }
        for (index, line) in series.enumerated() {
            let colour = ChartRenderer.colour(index)
            let points = zip(values, line.values).map { (x: frame.x($0, xAxis), y: frame.y($1, yAxis)) }
            svg.polyline(points, stroke: colour, width: 2.5, dash: ChartFrame.dash(index), className: "line series-\(index)")
            guard points.count <= 200 else { continue }
            for (row, point) in zip(sweep.rows, zip(points, line.values)) {
                let shown = indicator ? DistributionRenderer.percent(point.1) : DistributionRenderer.fixed(point.1, 2)
                svg.circle(x: point.0.x, y: point.0.y, radius: points.count <= 40 ? 3.5 : 2, fill: colour,
                           className: "point series-\(index)", tooltip: "\(sweep.name) = \(row.value): \(shown)")
            }
        }
        return svg.finished()
    }
}

/// One line of a sweep's chart: a name for the legend and a number for each value swept.
/// The mean (the probability of a test), or with texts or tallies among the outcomes the
/// chance of each outcome, as the text table's columns (`SweepColumn`): of the likeliest
/// `SweepOutcomes.maxLines` outcomes.
struct SweepSeries {
    var name: String
    var values: [Double]

    /// Whether `sweep` is drawn a line an outcome: some outcome is a text or tally.
    static func isPerOutcome(_ sweep: SweepReport) -> Bool {
        sweep.rows.contains { $0.report.distribution.hasSymbolic }
    }

    /// The lines of `sweep`, and the outcomes left out.
    static func series(for sweep: SweepReport) -> (series: [SweepSeries], leftOut: SweepOutcomes.LeftOut?) {
        if isPerOutcome(sweep) {
            let outcomes = SweepOutcomes(sweep)
            var count = 0
            let (drawn, leftOut) = outcomes.likeliest { _ in
                count += 1
                return count <= SweepOutcomes.maxLines
            }
            return (drawn.map { SweepSeries(name: OutcomeText.label(outcomes.outcomes[$0]), values: outcomes.chances(of: $0)) },
                    leftOut)
        }
        let test = sweep.isTest
        let values = sweep.rows.map { row in
            test ? row.report.distribution.probability(of: .integer(1)) : row.report.distribution.mean
        }
        return ([SweepSeries(name: test ? "P" : "mean", values: values)], nil)
    }
}
