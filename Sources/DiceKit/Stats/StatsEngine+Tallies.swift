/// Sums of tallies and maps of their fields on packed keys (`TallyTable`), for the tally dice
/// of LANGUAGE.md §5b: the same outcomes, in the same order, with the same probabilities (each
/// added up in the same order) as the value by value walk (`combineValues`, `mapValues`,
/// a `let` body worked out for each outcome), which stays for what does not pack.
///
/// What it buys (release build, 2026-12-02, CPU time, median of 15 on a loaded machine):
/// `dice -e 'use genesys' -e 'stats check(0, 5, 0, 5, 2, 2)'` (87,097 joint tallies before
/// netting) from "too expensive" after 376 ms to exact in 18 ms whole process, 7 ms with `-t`
/// (the rest prints its 7,584 rows); DiceBench `stats-statement` of F3's `genesys(3, 2)` from
/// about 2.2 ms to 0.25 ms first call, 1.8 ms to 0.05 ms warm.
extension StatsEngine {
    /// `lhs + rhs` (or `lhs - rhs`) for independent values: packed when both sides are tallies
    /// of whole numbers (or one side the number 0), else value by value.
    func addValues(_ lhs: Distribution, _ rhs: Distribution, subtracting: Bool,
                   at range: SourceRange) throws(StatsFailure) -> Distribution {
        if lhs.hasSymbolic || rhs.hasSymbolic, let a = StatsEngine.packed(lhs), let b = StatsEngine.packed(rhs),
           let plan = a.sumPlan(b, subtracting: subtracting) {
            try meter.charge(plan.work)
            guard let sum = a.sum(b, plan: plan, limit: meter.budget.maxOutcomes) else {
                throw .tooExpensive("a distribution would have more than \(meter.budget.maxOutcomes) outcomes")
            }
            return try meter.checkSize(Distribution(tallies: sum))
        }
        let op: BinaryOperator = subtracting ? .subtract : .add
        return try combineValues(lhs, rhs, at: range) { (a, b) throws(ArithmeticFault) in try Value.apply(op, a, b) }
    }

    /// The tallies of `distribution` packed: its table, or its list when it packs, or the empty
    /// tally for the number 0 (`0 + t` is `t`); nil for anything else.
    static func packed(_ distribution: Distribution) -> TallyTable? {
        if let table = distribution.tallyTable { return distribution.isNumericEmpty ? table : nil }
        if distribution.hasSymbolic { return distribution.isNumericEmpty ? TallyTable(distribution.symbolic) : nil }
        guard distribution.constantValue == .integer(0) else { return nil }
        return TallyTable.empty(probability: distribution.totalProbability)
    }

    /// `t.name` of packed tallies `t`: each outcome's field, in order (`mapValues`' sum).
    func packedField(_ tallies: Distribution, _ name: String) throws(StatsFailure) -> Distribution? {
        guard let table = tallies.tallyTable, tallies.isNumericEmpty else { return nil }
        try meter.charge(tallies.storageSize)
        var coefficients = [Int](repeating: 0, count: table.names.count)
        var low = 0
        if let index = table.names.firstIndex(of: name) {
            coefficients[index] = 1
            low = table.lows[index]
        }
        var result = DistributionAccumulator()
        for (value, p) in zip(table.linearMap(base: low, coefficients: coefficients), table.probabilities) {
            result.add(value, p)
        }
        return try meter.checkSize(result.build())
    }
}

// MARK: - A tally made of a bound tally's fields

extension StatsEngine {
    /// `let name = E in (f: ..., g: ...)` where `E`'s tallies are packed and each field of the
    /// body adds and subtracts whole numbers and fields of `name` (Genesys's netting,
    /// `(success: g.success - g.failure, ...)`): each outcome's tally by a linear map of its
    /// key, summed in the order of `E`'s outcomes as the walk of the body for each sums them.
    /// Nil when the body is of another form or a value could leave `Int` (the walk says where).
    ///
    /// What it buys (release build, 2026-12-02): the 87,097 outcomes of the joint tally of
    /// Genesys's `check(0, 5, 0, 5, 2, 2)` netted in about a millisecond (linearMap and this,
    /// 10% of a 9 ms process), where the walk of the body for each took microseconds an outcome.
    func packedTallyBody(_ name: String, _ bound: Distribution, _ body: Expr) throws(StatsFailure) -> Distribution? {
        guard let table = bound.tallyTable, bound.isNumericEmpty, case .tally(let fields) = body.kind else { return nil }
        // Each field's form, flat (an array of forms costs its type's lookup on the first call).
        var names: [String] = [], constants: [Int] = [], terms: [Int] = []
        var lows: [Int] = [], spans: [Int] = []
        for field in fields {
            guard !names.contains(field.name), let form = LinearForm(field.value, of: name, in: table) else { return nil }
            let (width, o1) = form.high.subtractingReportingOverflow(form.low)
            let (span, o2) = width.addingReportingOverflow(1)
            guard !o1, !o2 else { return nil }
            names.append(field.name)
            constants.append(form.constant)
            terms += form.coefficients
            lows.append(form.low)
            spans.append(span)
        }
        guard var result = TallyTable(names: names, lows: lows, spans: spans) else { return nil }
        try meter.charge(WorkMeter.product(table.count, WorkMeter.packedTallyPairCost))
        // The key of an outcome, Σ stride_j (value_j - low_j), is linear in the bound tally's
        // digits; worked out modulo 2^64, which gives the true key since that fits.
        let fieldCount = table.names.count
        var base = 0
        var coefficients = [Int](repeating: 0, count: fieldCount)
        for j in names.indices {
            var constant = constants[j] &- lows[j]
            for i in 0..<fieldCount {
                let term = terms[j * fieldCount + i]
                constant = constant &+ term &* table.lows[i]
                coefficients[i] = coefficients[i] &+ term &* result.strides[j]
            }
            base = base &+ constant &* result.strides[j]
        }
        let keys = table.linearMap(base: base, coefficients: coefficients)
        let size = spans.reduce(1, WorkMeter.product)
        if TallyTable.spreadsDensely(size, outcomes: keys.count) {
            try meter.charge(size)
            var slots = [Double](repeating: 0, count: size)
            for (key, p) in zip(keys, table.probabilities) { slots[key] += p }
            result.append(slots: slots)
        } else {
            var sums: [Int: Double] = [:]
            for (key, p) in zip(keys, table.probabilities) where p != 0 { sums[key, default: 0] += p }
            result.append(sums: sums)
        }
        return try meter.checkSize(Distribution(tallies: result))
    }
}

/// A whole-number expression of a bound tally's fields, `constant + Σ coefficients[i] · field i`,
/// with the least and greatest values it and each of its parts may take over the table's ranges
/// (every part checked to stay in `Int`, so that its value is the same however it is summed).
struct LinearForm {
    var constant: Int
    var coefficients: [Int]
    var low: Int
    var high: Int

    /// `expr` as a form over `table`'s fields, where `name` is the bound tally: whole numbers,
    /// `name.field`, `+`, `-` and unary minus; nil for anything else.
    init?(_ expr: Expr, of name: String, in table: TallyTable) {
        switch expr.kind {
        case .number(.integer(let n)):
            self.init(constant: n, fields: table.names.count)
        case .field(let base, let field):
            guard case .name(name) = base.kind else { return nil }
            self.init(constant: 0, fields: table.names.count)
            if let index = table.names.firstIndex(of: field) {
                coefficients[index] = 1
                (low, high) = (table.lows[index], table.lows[index] + (table.spans[index] - 1))
            }
        case .unary(let op, let operand):
            guard let inner = LinearForm(operand, of: name, in: table) else { return nil }
            self = inner
            if op == .negate { guard negate() else { return nil } }
        case .chain(let first, let rest):
            guard var sum = LinearForm(first, of: name, in: table) else { return nil }
            for operation in rest {
                guard operation.op == .add || operation.op == .subtract,
                      var term = LinearForm(operation.operand, of: name, in: table) else { return nil }
                if operation.op == .subtract { guard term.negate() else { return nil } }
                guard sum.add(term) else { return nil }
            }
            self = sum
        default:
            return nil
        }
    }

    private init(constant: Int, fields: Int) {
        self.constant = constant
        coefficients = [Int](repeating: 0, count: fields)
        (low, high) = (constant, constant)
    }

    /// `-self`; false when a value could leave `Int`.
    private mutating func negate() -> Bool {
        guard constant != .min, low != .min, coefficients.allSatisfy({ $0 != .min }) else { return false }
        constant = -constant
        coefficients = coefficients.map { -$0 }
        (low, high) = (-high, -low)
        return true
    }

    /// `self + other`; false when a value could leave `Int`.
    private mutating func add(_ other: LinearForm) -> Bool {
        let (c, o1) = constant.addingReportingOverflow(other.constant)
        let (l, o2) = low.addingReportingOverflow(other.low)
        let (h, o3) = high.addingReportingOverflow(other.high)
        guard !o1, !o2, !o3 else { return false }
        for index in coefficients.indices {
            let (k, o) = coefficients[index].addingReportingOverflow(other.coefficients[index])
            guard !o else { return false }
            coefficients[index] = k
        }
        (constant, low, high) = (c, l, h)
        return true
    }
}
