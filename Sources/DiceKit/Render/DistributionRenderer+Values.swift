/// A distribution with texts or tallies among its outcomes (LANGUAGE.md §5b): a row an
/// outcome in the order of `stats` (numbers, then texts as they first appear, then tallies),
/// with its probability, "at least" and "at most" in that order, and a bar.
///
/// ```
/// move(2): 3 outcomes
/// value             P  at least   at most
/// miss         16.67%   100.00%    16.67%  ████▏
/// weak hit     41.67%    83.33%    58.33%  ██████████▏
/// strong hit   41.67%    41.67%   100.00%  ██████████▏
/// ```
/// Tallies add each field's mean and standard deviation to the header.
extension DistributionRenderer {
    func writeValues(_ report: DistributionReport, title: String, into out: inout ByteWriter) {
        let distribution = report.distribution
        let outcomes = distribution.valueOutcomes
        out.write(text: title)
        out.write(": ")
        out.write(outcomes.count)
        out.write(outcomes.count == 1 ? " outcome" : " outcomes")
        if let fields = distribution.fieldMoments {
            out.write(text: "; " + fields.map { field in
                "\(TextEscaping.escapingControls(field.name)) mean \(DistributionRenderer.fixed(field.mean, 2)), "
                    + "stdev \(DistributionRenderer.fixed(field.stdev, 2))"
            }.joined(separator: "; "))
        }
        let labels = outcomes.map { OutcomeText.label($0.value) }
        // Closures, not key paths: a key path is read through the runtime, 8% of the time of a
        // 7,584-row table (Genesys's `check(0, 5, 0, 5, 2, 2)`).
        let labelColumns = labels.map(DistributionRenderer.columns)
        let labelWidth = Swift.max(5, labelColumns.max() ?? 0)
        let largest = outcomes.map { $0.probability }.max() ?? 0
        let barWidth = DistributionRenderer.barColumns(width - labelWidth - 31)
        out.write("\n")
        out.write(text: "value" + String(repeating: " ", count: labelWidth - 5))
        out.write("        P  at least   at most")
        let probabilities = outcomes.map { $0.probability }
        let atLeast = Distribution.sumsFromEnd(probabilities), atMost = Distribution.sumsFromStart(probabilities)
        for (index, (outcome, label)) in zip(outcomes, labels).enumerated() {
            out.write("\n")
            out.write(text: label)
            DistributionRenderer.appendSpaces(labelWidth - labelColumns[index], to: &out)
            DistributionRenderer.appendPercent(outcome.probability, width: 9, to: &out)
            DistributionRenderer.appendPercent(atLeast[index], width: 10, to: &out)
            DistributionRenderer.appendPercent(atMost[index], width: 10, to: &out)
            guard let barWidth else { continue }
            out.write("  ")
            out.write(text: bar(largest > 0 ? outcome.probability / largest : 0, width: barWidth))
        }
    }
}

extension Distribution {
    /// For a distribution of tallies alone, each field (in order of first appearance) with its
    /// mean and standard deviation, an absent field counting as 0; `nil` otherwise.
    ///
    /// - Complexity: O(*n* · *f*) for *n* outcomes of *f* fields.
    var fieldMoments: [(name: String, mean: Double, stdev: Double)]? {
        if let table = tallyTable, isNumericEmpty { return table.fieldMoments }
        var tallies: [(tally: Tally, p: Double)] = []
        forEachValue { value, p in if case .tally(let tally) = value { tallies.append((tally, p)) } }
        guard !tallies.isEmpty, tallies.count == count else { return nil }
        var names: [String] = []
        for entry in tallies {
            for field in entry.tally.fields where !names.contains(field.name) { names.append(field.name) }
        }
        let total = tallies.reduce(0) { $0 + $1.p }
        return names.map { name in
            let mean = tallies.reduce(0) { $0 + $1.tally[name].doubleValue * $1.p } / total
            let variance = tallies.reduce(0) { sum, entry in
                let deviation = entry.tally[name].doubleValue - mean
                return sum + deviation * deviation * entry.p
            } / total
            return (name, mean, variance.squareRoot())
        }
    }
}

extension DistributionRenderer {
    /// What `--total` prints for a `stats` result, one value as `-t` prints a roll's: the mean
    /// of numbers (`7`, `3.5`); of tallies, a tally of each field's mean
    /// (`(hits: 1.6667, glitch: 0.0355)`); of texts, or of a mix, which have no mean, the most
    /// likely outcome, the first of equals in the table's order (`weak hit`).
    ///
    /// - Complexity: O(*n* · *f*) for *n* outcomes of *f* fields.
    package static func total(_ distribution: Distribution) -> String {
        guard distribution.hasSymbolic else { return mean(distribution.mean) }
        if let fields = distribution.fieldMoments {
            let written = fields.map { "\(TextEscaping.escapingControls($0.name)): \(mean($0.mean))" }
            return "(" + written.joined(separator: ", ") + ")"
        }
        // Equals within rounding stay equal: the first of them is kept.
        var likeliest: ValueOutcome?
        for outcome in distribution.valueOutcomes where outcome.probability > (likeliest?.probability ?? 0) * (1 + 1e-9) {
            likeliest = outcome
        }
        return likeliest.map { OutcomeText.label($0.value) } ?? mean(0)
    }
}
