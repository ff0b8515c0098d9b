/// The outcomes of a `Distribution` that are texts or tallies, in `ValueOrder`: a list, or
/// tallies of whole numbers packed in a `TallyTable` (made by sums of tallies), whose
/// `Tally` values are made only when something reads the list.
///
/// Two are equal when their lists are, however they are kept.
struct SymbolicOutcomes: Hashable, Sendable {
    private var list: [ValueOutcome] = []
    /// When set, the outcomes (and `list` is empty).
    private(set) var table: TallyTable?

    init() {}

    init(_ list: [ValueOutcome]) { self.list = list }

    init(table: TallyTable) {
        self.table = table.count > 0 ? table : nil
    }

    /// The outcomes as values.
    ///
    /// - Complexity: O(1) for a list; O(*n*·*f*) for a table of *n* outcomes of *f* fields.
    var outcomes: [ValueOutcome] { table?.valueOutcomes ?? list }

    var count: Int { table?.count ?? list.count }

    var isEmpty: Bool { count == 0 }

    /// The first outcome, made alone.
    var first: ValueOutcome? {
        guard let table else { return list.first }
        return table.first
    }

    var totalProbability: Double { table?.totalProbability ?? list.reduce(0) { $0 + $1.probability } }

    /// Whether some outcome is a tally.
    var holdsTallies: Bool {
        table != nil || list.contains { if case .tally = $0.value { return true } else { return false } }
    }

    /// Each probability mapped by `transform` (a scaling: none becomes 0 that was not).
    func mappingProbabilities(_ transform: (Double) -> Double) -> SymbolicOutcomes {
        if let table { return SymbolicOutcomes(table: table.mappingProbabilities(droppingZeros: false, transform)) }
        return SymbolicOutcomes(list.map { ValueOutcome($0.value, transform($0.probability)) })
    }

    static func == (lhs: SymbolicOutcomes, rhs: SymbolicOutcomes) -> Bool {
        lhs.count == rhs.count && lhs.outcomes == rhs.outcomes
    }

    func hash(into hasher: inout Hasher) { hasher.combine(outcomes) }
}

extension TallyTable {
    /// The first outcome as a value.
    var first: ValueOutcome? {
        guard let key = keys.first, let p = probabilities.first else { return nil }
        return ValueOutcome(.tally(tally(of: key)), p)
    }
}

extension Distribution {
    /// The outcomes that are texts or tallies, each once, in their order (`ValueOrder`):
    /// texts as they first appeared, then tallies by their fields. Numeric work never sees
    /// them: the stats engine asks for numbers where an operation needs them.
    ///
    /// - Complexity: O(1), or O(*n*·*f*) when they are packed (`tallyTable`).
    var symbolic: [ValueOutcome] {
        get { symbolicOutcomes.outcomes }
        set { symbolicOutcomes = SymbolicOutcomes(newValue) }
    }

    /// The tallies packed, when they are (then there are no texts).
    var tallyTable: TallyTable? { symbolicOutcomes.table }

    /// The distribution of the tallies of `table`.
    init(tallies table: TallyTable) {
        self.init(storage: .sparse([]))
        symbolicOutcomes = SymbolicOutcomes(table: table)
    }
}
