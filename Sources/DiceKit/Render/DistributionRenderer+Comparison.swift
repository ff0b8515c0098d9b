/// `stats e1, e2, ...`: several distributions side by side.
///
/// ```
/// 2d20kh1 + 5: mean 18.83, stdev 4.71, min 6, max 25
/// 1d20 + 8:    mean 18.50, stdev 5.77, min 9, max 28
///         2d20kh1 + 5       1d20 + 8        2d20kh1 + 5        1d20 + 8
/// value       P at least        P at least
///    ...
///    18   6.25%  64.00%*   5.00%  55.00%   │███████████▌      │█████████▎
///    ...
///    26       -       -    5.00%  15.00%*  │                  │█████████▎
/// ```
/// One table over the union of the outcomes: for each expression its probability and its
/// chance of at least the row's value (`-` where there is none), a `*` on the highest of
/// those chances (the expression most likely to reach the value: on a row of numbers, its
/// chance of a number at least the row's; a text or tally row has none), and a bar of each
/// probability, all on one scale. Texts and tallies come after the numbers, in the order of
/// `stats`, their columns as each expression's own table shows them. An expression that is a test (a comparison such as
/// `atk >= 15`: `Stats.isTest`) prints its probability, `P = 55.00%`, in place of its moments and columns;
/// when all are, each probability gets a bar. When a title does not fit whole over its
/// columns, or two titles are the same, the columns are numbered and the lines of moments,
/// numbered alike, follow the table (`ComparisonHeadings`).
extension DistributionRenderer {
    /// The comparison of `reports`, each headed by its title (the user's text, control
    /// characters escaped), lines joined by newlines (no trailing newline).
    ///
    /// - Complexity: O(*e* · *k* + *k* log *k*) for *e* reports over *k* distinct outcomes.
    package func render(comparing reports: [(title: String, report: DistributionReport)]) -> String {
        let indicators = reports.map(\.report.isTest)
        let tabled = reports.indices.filter { !indicators[$0] }
        let table = tabled.isEmpty ? nil
            : ComparisonTable(tabled.map { reports[$0].report.distribution }, maxRows: maxRows, unicode: unicode)
        let labelWidth = Swift.max(5, table?.rows.map(\.label.count).max() ?? 0)
        // The numbers take `numbersWidth` columns an expression; the bars share what is left.
        let barWidth = Swift.max(4, (width - labelWidth - Self.numbersWidth * tabled.count - 2)
                                    / Swift.max(1, tabled.count) - 1)
        let headings = ComparisonHeadings(reports.map { TextEscaping.escapingControls($0.title) }, barWidth: barWidth,
                                          haveColumns: indicators.map { !$0 })

        var moments: [String] = []
        let titleWidth = headings.full.map(\.count).max() ?? 0
        for (index, entry) in reports.enumerated() {
            let distribution = entry.report.distribution
            let title = headings.full[index]
            let name = title + ":" + String(repeating: " ", count: titleWidth - title.count)
            if indicators[index] {
                let probability = distribution.probability(of: .integer(1))
                var line = "\(name) P = \(DistributionRenderer.percent(probability))"
                if tabled.isEmpty {
                    // Each probability's bar, on a scale where the whole width is 100%.
                    line = DistributionRenderer.padRight(line, titleWidth + 13)
                    line += "  " + bar(probability, width: Swift.max(10, width - line.count - 2))
                }
                moments.append(DistributionRenderer.trimmed(line))
            } else if distribution.hasSymbolic {
                let count = distribution.count
                moments.append("\(name) \(count) \(count == 1 ? "outcome" : "outcomes")")
            } else {
                var line = "\(name) mean \(DistributionRenderer.fixed(distribution.mean, 2))"
                line += ", stdev \(DistributionRenderer.fixed(distribution.standardDeviation, 2))"
                // The report's ends, as one expression's header has them: `2d6!` said max 190,
                // the end of its cut tails, where it has none.
                line += DistributionRenderer.extreme("min", entry.report.minimum, sample: distribution.minimum)
                    + DistributionRenderer.extreme("max", entry.report.maximum, sample: distribution.maximum)
                // The median alone: the percentiles would take a line past 80 columns.
                if let median = distribution.quantile(0.5) { line += ", median \(OutcomeText.label(median))" }
                moments.append(line)
            }
        }
        var lines: [String] = []
        if let table {
            lines = layout(table, labelWidth: labelWidth, barWidth: barWidth,
                           groupTitles: tabled.map { headings.group[$0] }, barTitles: tabled.map { headings.bar[$0] })
        }
        // Numbered columns: what the numbers stand for, under the table.
        lines = headings.listedBelow && table != nil ? lines + moments : moments + lines
        for (index, entry) in reports.enumerated() {
            let report = entry.report
            if !report.exact, let rolls = report.sampleCount {
                lines.append("(\(headings.full[index]): estimated from \(rolls) rolls: "
                             + "the exact distribution is too large to compute)")
            }
            if report.truncatedMass > 0, let note = DistributionRenderer.cutNote(report) {
                lines.append("(\(headings.full[index]): \(note))")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The table's two lines of headings, its rows, then its notes.
    private func layout(_ table: ComparisonTable, labelWidth: Int, barWidth: Int,
                        groupTitles: [String], barTitles: [String]) -> [String] {
        var titles = String(repeating: " ", count: labelWidth)
        var heads = DistributionRenderer.pad("value", labelWidth)
        for title in groupTitles {
            titles += DistributionRenderer.centred(title, Self.numbersWidth)
            heads += "       P at least "
        }
        titles += "  "
        for title in barTitles {
            titles += " " + DistributionRenderer.padRight(title, barWidth)
        }
        var lines = [DistributionRenderer.trimmed(titles), DistributionRenderer.trimmed(heads)]
        let largest = table.rows.flatMap(\.probabilities).max() ?? 0
        let separator = unicode ? "│" : "|"
        var marked = false
        for row in table.rows {
            let leader = ComparisonTable.leader(row.reach)
            if leader != nil { marked = true }
            var line = DistributionRenderer.pad(row.label, labelWidth)
            var bars = ""
            for column in row.probabilities.indices {
                line += DistributionRenderer.pad(DistributionRenderer.share(row.probabilities[column]), 8)
                line += DistributionRenderer.pad(DistributionRenderer.share(row.atLeast[column]), 8)
                line += leader == column ? "*" : " "
                let fraction = largest > 0 ? row.probabilities[column] / largest : 0
                bars += separator + DistributionRenderer.padRight(bar(fraction, width: barWidth), barWidth)
            }
            lines.append(DistributionRenderer.trimmed(line + "  " + bars))
        }
        if marked { lines.append("(* the highest chance of at least the row's value)") }
        return lines + table.notes
    }

    /// The columns of an expression's numbers: `P` (8), "at least" (8) and the `*` mark.
    private static let numbersWidth = 17

    /// A probability as a percentage; `-` for none at all.
    private static func share(_ probability: Double) -> String {
        probability == 0 ? "-" : percent(probability)
    }

    static func padRight(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: Swift.max(0, width - text.count))
    }

    private static func centred(_ text: String, _ width: Int) -> String {
        let left = Swift.max(0, (width - text.count) / 2)
        return padRight(String(repeating: " ", count: left) + text, width)
    }

    static func trimmed(_ line: String) -> String {
        var line = Substring(line)
        while line.last == " " { line.removeLast() }
        return String(line)
    }
}
