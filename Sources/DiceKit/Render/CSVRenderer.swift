/// Renders `stats` results as CSV for spreadsheets and plotting tools (`dice --csv`): a
/// header row, then one row an outcome.
///
/// ```
/// outcome,p,at_least,at_most
/// 1,0.25,1,0.25
/// 2,0.25,0.75,0.5
/// ```
/// A comparison has one row an outcome of any expression, and `p`, `at_least` and
/// `at_most` columns for each expression, headed `p (2d20kh1 + 5)`. A sweep is in long form:
/// one row for each value and outcome, `ac,mean,outcome,p,at_least,at_most` (the mean empty
/// when some outcome is a text or tally). Probabilities
/// (and means) have at most 12 significant digits, as in JSON; fields are quoted where CSV needs it, and
/// the user's control characters escaped (`\u{1b}`).
public struct CSVRenderer: Sendable {
    /// A renderer of CSV.
    public init() {}

    /// The CSV of a `stats` outcome, its lines ended by newlines; `nil` for any other outcome.
    ///
    /// - Complexity: O(*e* · *k*) for *e* expressions (or swept values) of *k* outcomes.
    public func csv(for outcome: Outcome) -> String? {
        switch outcome {
        case .stats(_, let report):
            return table(["outcome", "p", "at_least", "at_most"],
                         CSVRenderer.rows(report.distribution).map { [OutcomeText.cell($0.value)] + $0.numbers })
        case .compare(let exprs, let reports):
            return comparison(exprs.map(\.text), reports.map(\.distribution))
        case .sweep(_, let sweep):
            var rows: [[String]] = []
            for row in sweep.rows {
                let value = OutcomeText.cell(Number.integer(row.value))
                // Texts and tallies have no mean (JSON's null): the field is empty.
                let distribution = row.report.distribution
                let mean = distribution.hasSymbolic ? "" : JSONWriter.significantText(distribution.mean)
                for outcome in CSVRenderer.rows(row.report.distribution) {
                    rows.append([value, mean, OutcomeText.cell(outcome.value)] + outcome.numbers)
                }
            }
            return table([sweep.name, "mean", "outcome", "p", "at_least", "at_most"], rows)
        case .roll, .assignment, .definition, .system, .systems:
            return nil
        }
    }

    /// The columns of a comparison: each expression's three columns, over the union of outcomes.
    private func comparison(_ titles: [String], _ distributions: [Distribution]) -> String {
        var header = ["outcome"]
        for title in titles { header += ["p (\(title))", "at_least (\(title))", "at_most (\(title))"] }
        var values: [Number] = []
        for value in distributions.flatMap({ $0.outcomes.map(\.value) }).sorted()
        where values.last.map({ $0 < value }) ?? true {
            values.append(value)
        }
        let columns = distributions.map { distribution in
            let total = distribution.totalProbability
            var cumulative: [Number: Double] = [:]
            for entry in distribution.atMost { cumulative[entry.value] = entry.probability }
            // Each value's "at most", carried over the values the distribution does not have.
            var running = 0.0
            return values.map { value -> [String] in
                let p = distribution.probability(of: value)
                let below = running
                running = cumulative[value] ?? running
                return [p, Swift.max(0, total - below), running].map(JSONWriter.probabilityText)
            }
        }
        let rows = values.indices.map { index in [OutcomeText.cell(values[index])] + columns.flatMap { $0[index] } }
        return table(header, rows)
    }

    /// Each outcome of `distribution`, with its probability, "at least" and "at most" as text.
    private static func rows(_ distribution: Distribution) -> [(value: Value, numbers: [String])] {
        let total = distribution.totalProbability
        var below = 0.0
        return distribution.valueAtMost.map { entry in
            let p = distribution.probability(ofValue: entry.value)
            defer { below = entry.probability }
            return (entry.value, [p, Swift.max(0, total - below), entry.probability].map(JSONWriter.probabilityText))
        }
    }

    /// The header and rows as CSV lines.
    private func table(_ header: [String], _ rows: [[String]]) -> String {
        var text = ""
        for row in [header] + rows {
            text += row.map(CSVRenderer.field).joined(separator: ",")
            text += "\n"
        }
        return text
    }

    /// A field as CSV writes it: quoted, with its quotes doubled, when it holds a comma, a
    /// quote or a space at either end; control characters escaped.
    static func field(_ text: String) -> String {
        let escaped = TextEscaping.escapingControls(text)
        let needsQuotes = escaped.contains(where: { $0 == "," || $0 == "\"" })
            || escaped.first == " " || escaped.last == " "
        guard needsQuotes else { return escaped }
        var quoted = "\""
        for character in escaped {
            quoted.append(character)
            if character == "\"" { quoted.append("\"") }
        }
        return quoted + "\""
    }
}
