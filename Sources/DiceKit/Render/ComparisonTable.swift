/// The rows of a comparison: the union of the outcomes of several distributions, in
/// order, with each distribution's probability of the row and its chance of at least the
/// row's value. Long tables are trimmed of far tails and grouped into ranges, as a single
/// distribution's table is.
struct ComparisonTable {
    struct Row {
        /// `7`, or `10–15` for a range of outcomes.
        var label: String
        /// Each distribution's probability of the row's outcomes.
        var probabilities: [Double]
        /// Each distribution's probability of at least the row's first outcome; exactly zero
        /// past its largest outcome.
        var atLeast: [Double]
        /// For a row of numbers, each distribution's chance of a number at least the row's
        /// first: what the `*` compares (`leader`). `nil` for a text or a tally, which no
        /// expression is more likely to reach than another.
        var reach: [Double]?
    }

    var rows: [Row] = []
    /// What was left out or grouped, in parentheses.
    var notes: [String] = []

    /// Rows past `maxRows` are grouped; more outcomes than `trimAbove` (`maxRows` unless
    /// given) are first trimmed of their far tails.
    ///
    /// - Complexity: O(*e* · *k* + *k* log *k*) for *e* distributions over *k* distinct outcomes.
    init(_ distributions: [Distribution], maxRows: Int, trimAbove: Int? = nil, unicode: Bool) {
        let values = ComparisonTable.union(distributions)
        guard !values.isEmpty else { return }
        var position: [Value: Int] = [:]
        for (index, value) in values.enumerated() { position[value] = index }
        var probabilities = [[Double]](repeating: [Double](repeating: 0, count: values.count), count: distributions.count)
        for (column, distribution) in distributions.enumerated() {
            for outcome in distribution.valueOutcomes {
                if let index = position[outcome.value] { probabilities[column][index] += outcome.probability }
            }
        }
        let symbolic = distributions.contains { $0.hasSymbolic }
        let atMost = probabilities.map(Distribution.sumsFromStart)
        let atLeast = probabilities.map(Distribution.sumsFromEnd)
        // The numbers come first: their chances of at least a number, texts and tallies left out.
        let numberCount = values.prefix { if case .number = $0 { return true } else { return false } }.count
        let reach = probabilities.map { Distribution.sumsFromEnd(Array($0[..<numberCount])) }
        var first = 0
        var last = values.count - 1
        if values.count > (trimAbove ?? maxRows) && !symbolic {
            // Trim far tails that would print as 0.00% in every column anyway.
            while first < last && atMost.allSatisfy({ $0[first] < 0.00005 }) { first += 1 }
            while last > first && atLeast.allSatisfy({ $0[last] < 0.00005 }) { last -= 1 }
            let trimmed = first + (values.count - 1 - last)
            if trimmed > 0 {
                notes.append("(\(trimmed) outcomes in the far tails, together under 0.01%, are not shown)")
            }
        }
        let shown = last - first + 1
        let groupSize = shown > maxRows && !symbolic ? (shown + maxRows - 1) / maxRows : 1
        var index = first
        while index <= last {
            let end = Swift.min(index + groupSize - 1, last)
            let label = index == end ? OutcomeText.label(values[index])
                : OutcomeText.label(values[index]) + (unicode ? "–" : "..") + OutcomeText.label(values[end])
            rows.append(Row(label: label, probabilities: probabilities.map { $0[index...end].reduce(0, +) },
                            atLeast: atLeast.map { $0[index] },
                            reach: index < numberCount ? reach.map { $0[index] } : nil))
            index = end + 1
        }
        if groupSize > 1 { notes.append("(outcomes grouped \(groupSize) to a row)") }
    }

    /// The outcomes of all `distributions`, each once, in the order of `stats`: numbers
    /// ascending, then texts as they first appear, then tallies by their fields; the order
    /// of each distribution's texts and fields kept (`Appearance.merged`).
    static func union(_ distributions: [Distribution]) -> [Value] {
        var numbers: [Number] = []
        for value in distributions.flatMap({ $0.outcomes.map(\.value) }).sorted() where numbers.last.map({ $0 < value }) ?? true {
            numbers.append(value)
        }
        var seen = Set<Value>()
        var others: [ValueOutcome] = []
        for outcome in distributions.flatMap(\.symbolic) where seen.insert(outcome.value).inserted { others.append(outcome) }
        let order = Appearance.merged(distributions.map { Appearance(of: $0.symbolic) })
        return numbers.map(Value.number) + ValueOrder.sorted(others, by: order).map(\.value)
    }

    /// The column whose chance of at least the row's value, shown to 0.01%, is the only
    /// highest; `nil` on a tie, with a single column, or for a text or tally row.
    static func leader(_ chances: [Double]?) -> Int? {
        guard let chances, chances.count > 1 else { return nil }
        let shown = chances.map { ($0 * 10_000).rounded() }
        guard let best = shown.max(), shown.filter({ $0 == best }).count == 1 else { return nil }
        return shown.firstIndex(of: best)
    }
}
