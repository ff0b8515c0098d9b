/// Renders `stats` results as CSV for spreadsheets and plotting tools (`dice --csv`): a
/// header row, then one row an outcome.
///
/// ```
/// outcome,p,at_least,at_most
/// 1,0.25,1,0.25
/// 2,0.25,0.75,0.5
/// ```
/// A comparison has one row an outcome of any expression (numbers ascending, then texts and
/// tallies in the order of `stats`), and `p`, `at_least` and `at_most` columns for each
/// expression, headed `p (2d20kh1 + 5)`. A sweep is in long form:
/// one row for each value and outcome, `ac,mean,outcome,p,at_least,at_most` (the mean empty
/// when some outcome is a text or tally). Probabilities
/// (and means) have at most 12 significant digits, as in JSON; fields are quoted where CSV needs it, and
/// the user's control characters escaped (`\u{1b}`).
public struct CSVRenderer: Sendable {
    /// A renderer of CSV.
    public init() {}

    /// The CSV of a `stats` outcome, its lines ended by newlines; `nil` for any other outcome,
    /// or when it would pass `maxBytes` (the output cap, `Limits.maxOutputBytes`), found out
    /// as it is written: a sweep of 1,000 values of 1d1000 held 216 MB of rows before the cap
    /// refused its 30 MB of text.
    ///
    /// - Complexity: O(*e* · *k*) for *e* expressions (or swept values) of *k* outcomes.
    public func csv(for outcome: Outcome, maxBytes: Int = .max) -> String? {
        var lines = Lines(maxBytes: maxBytes)
        switch outcome {
        case .stats(_, let report):
            lines.add(["outcome", "p", "at_least", "at_most"])
            for outcome in CSVRenderer.chances(report.distribution) where !lines.isOver {
                lines.add([OutcomeText.cell(outcome.value)] + outcome.numbers)
            }
        case .compare(let exprs, let reports):
            comparison(exprs.map(\.text), reports.map(\.distribution), into: &lines)
        case .sweep(_, let sweep):
            lines.add([sweep.name, "mean", "outcome", "p", "at_least", "at_most"])
            for row in sweep.rows where !lines.isOver {
                let value = OutcomeText.cell(Number.integer(row.value))
                // Texts and tallies have no mean (JSON's null): the field is empty.
                let distribution = row.report.distribution
                let mean = distribution.hasSymbolic ? "" : JSONWriter.significantText(distribution.mean)
                for outcome in CSVRenderer.chances(distribution) where !lines.isOver {
                    lines.add([value, mean, OutcomeText.cell(outcome.value)] + outcome.numbers)
                }
            }
        case .roll, .assignment, .definition, .system, .systems:
            return nil
        }
        return lines.isOver ? nil : lines.text
    }

    /// CSV lines written up to a number of bytes.
    private struct Lines {
        let maxBytes: Int
        private(set) var text = ""
        private(set) var isOver = false

        init(maxBytes: Int) { self.maxBytes = maxBytes }

        /// Adds a line of `fields`, unless the text is already past `maxBytes`.
        mutating func add(_ fields: [String]) {
            guard !isOver else { return }
            text += fields.map(CSVRenderer.field).joined(separator: ",")
            text += "\n"
            if text.utf8.count > maxBytes { (isOver, text) = (true, "") }
        }
    }

    /// The columns of a comparison: each expression's three columns, over the union of outcomes
    /// in the order of `stats` (`ComparisonTable.union`). Each column is what the expression's
    /// own CSV gives (`chances(_:)`), and for an outcome it lacks: p 0, "at least" what is left
    /// after its outcomes before the row, "at most" what they reached.
    private func comparison(_ titles: [String], _ distributions: [Distribution], into lines: inout Lines) {
        var header = ["outcome"]
        for title in titles { header += ["p (\(title))", "at_least (\(title))", "at_most (\(title))"] }
        let values = ComparisonTable.union(distributions)
        let columns = distributions.map { distribution in
            var own: [Value: Chances] = [:]
            for row in CSVRenderer.chances(distribution) { own[row.value] = row }
            let total = distribution.totalProbability
            var reached = 0.0
            return values.map { value -> [String] in
                let row = own[value] ?? Chances(value: value, p: 0, atLeast: Swift.max(0, total - reached), atMost: reached)
                reached = row.atMost
                return row.numbers
            }
        }
        lines.add(header)
        for index in values.indices where !lines.isOver {
            lines.add([OutcomeText.cell(values[index])] + columns.flatMap { $0[index] })
        }
    }

    /// One outcome's row.
    private struct Chances {
        var value: Value
        var p: Double
        var atLeast: Double
        var atMost: Double

        /// The probabilities as CSV writes them: p, at_least, at_most.
        var numbers: [String] { [p, atLeast, atMost].map(JSONWriter.probabilityText) }
    }

    /// Each outcome of `distribution` in the order of `stats`, with its probability, its
    /// "at least" (what is left from it on) and its "at most" (what is reached with it).
    ///
    /// - Complexity: O(*n*) for *n* outcomes.
    private static func chances(_ distribution: Distribution) -> [Chances] {
        let outcomes = distribution.valueOutcomes
        let probabilities = outcomes.map(\.probability)
        let atLeast = Distribution.sumsFromEnd(probabilities), atMost = Distribution.sumsFromStart(probabilities)
        return outcomes.indices.map { index in
            Chances(value: outcomes[index].value, p: probabilities[index], atLeast: atLeast[index], atMost: atMost[index])
        }
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
