/// A distribution over tallies whose fields are whole numbers, each outcome packed into one
/// `Int`: the fields are digits of a mixed radix, field `i` ranging over
/// `lows[i] ..< lows[i] + spans[i]`, the first field the most significant.
///
/// Increasing keys are the order of `ValueOrder` (tallies by their fields in order of first
/// appearance, each ascending), so the outcomes are kept sorted by key, and the tallies are
/// made (`valueOutcomes`) only when they are shown. Sums of tallies (`adding`) and the maps
/// of a tally's fields (`StatsEngine+Tallies`) work on the keys: an outcome costs a few
/// integer operations rather than a `Tally` made, hashed and compared by field names.
struct TallyTable: Sendable {
    /// The fields, in order of first appearance: every outcome shows each of them.
    let names: [String]
    /// Each field's least value and the width of its range.
    let lows: [Int]
    let spans: [Int]
    /// `strides[i]` is the product of the spans after `i` (1 for the last field).
    let strides: [Int]
    /// The outcomes, keys strictly increasing, no probability negative.
    private(set) var keys: [Int]
    private(set) var probabilities: [Double]

    /// How many outcomes there are.
    var count: Int { keys.count }

    /// The sum of the probabilities.
    var totalProbability: Double { probabilities.reduce(0, +) }

    /// A table of `names` over the given ranges; nil when the product of the spans does not fit in an `Int`.
    init?(names: [String], lows: [Int], spans: [Int]) {
        var strides = [Int](repeating: 1, count: names.count)
        var size = 1
        for index in names.indices.reversed() {
            strides[index] = size
            let (next, overflow) = size.multipliedReportingOverflow(by: spans[index])
            guard !overflow, spans[index] >= 1 else { return nil }
            size = next
        }
        (self.names, self.lows, self.spans, self.strides) = (names, lows, spans, strides)
        (keys, probabilities) = ([], [])
    }

    /// The tally outcomes `outcomes` in `ValueOrder` (as `ValueAccumulator` builds them);
    /// nil unless each is a tally of whole numbers and their ranges pack into an `Int`.
    init?(_ outcomes: [ValueOutcome]) {
        var names: [String] = []
        var lows: [Int] = [], highs: [Int] = []
        for outcome in outcomes {
            guard case .tally(let tally) = outcome.value else { return nil }
            for field in tally.fields where !names.contains(field.name) {
                names.append(field.name)
                lows.append(0)
                highs.append(0)
            }
        }
        guard !outcomes.isEmpty else { return nil }
        // Row by row, one flat array (an array of arrays costs its type's lookup on the first call).
        var values = [Int](repeating: 0, count: outcomes.count * names.count)
        for (row, outcome) in outcomes.enumerated() {
            guard case .tally(let tally) = outcome.value else { return nil }
            for (index, name) in names.enumerated() {
                guard let value = tally[name].integerValue else { return nil }
                lows[index] = row == 0 ? value : Swift.min(lows[index], value)
                highs[index] = row == 0 ? value : Swift.max(highs[index], value)
                values[row * names.count + index] = value
            }
        }
        var spans: [Int] = []
        for index in names.indices {
            let (width, o1) = highs[index].subtractingReportingOverflow(lows[index])
            let (span, o2) = width.addingReportingOverflow(1)
            guard !o1, !o2 else { return nil }
            spans.append(span)
        }
        guard var table = TallyTable(names: names, lows: lows, spans: spans) else { return nil }
        for (row, outcome) in outcomes.enumerated() {
            var key = 0
            for index in names.indices {
                key += (values[row * names.count + index] - lows[index]) * table.strides[index]
            }
            guard table.keys.last.map({ $0 < key }) ?? true, outcome.probability > 0 else { return nil }
            table.append(key, outcome.probability)
        }
        self = table
    }

    /// Makes room for `count` outcomes.
    mutating func reserve(_ count: Int) {
        keys.reserveCapacity(count)
        probabilities.reserveCapacity(count)
    }

    /// Adds an outcome after the last (its key larger than theirs).
    mutating func append(_ key: Int, _ probability: Double) {
        keys.append(key)
        probabilities.append(probability)
    }

    /// Appends the outcomes of `slots`, a probability a key from 0, those not 0, in order.
    mutating func append(slots: [Double]) {
        for (key, p) in slots.enumerated() where p != 0 { append(key, p) }
    }

    /// Appends the outcomes of `sums`, a probability by key, in the keys' order.
    mutating func append(sums: [Int: Double]) {
        for key in sums.keys.sorted() { append(key, sums[key] ?? 0) }
    }

    /// The value of field `index` in the outcome `key`.
    func value(ofField index: Int, in key: Int) -> Int {
        lows[index] + (key / strides[index]) % spans[index]
    }

    /// The outcomes as tallies that show every field, in order.
    ///
    /// - Complexity: O(*n*·*f*) for *n* outcomes of *f* fields.
    var valueOutcomes: [ValueOutcome] {
        var result: [ValueOutcome] = []
        result.reserveCapacity(keys.count)
        for (key, p) in zip(keys, probabilities) { result.append(ValueOutcome(.tally(tally(of: key)), p)) }
        return result
    }

    /// The outcome `key` as a tally that shows every field, in order.
    func tally(of key: Int) -> Tally {
        var fields: [(String, Number)] = []
        fields.reserveCapacity(names.count)
        for index in names.indices { fields.append((names[index], .integer(value(ofField: index, in: key)))) }
        return Tally(fields)
    }

    /// The same outcomes, each probability mapped by `transform`; those that become 0 are
    /// dropped when `droppingZeros` (as `ValueAccumulator` drops them), else kept (as a list's
    /// outcomes scaled are).
    func mappingProbabilities(droppingZeros: Bool, _ transform: (Double) -> Double) -> TallyTable {
        var result = self
        result.keys.removeAll(keepingCapacity: true)
        result.probabilities.removeAll(keepingCapacity: true)
        for (key, p) in zip(keys, probabilities) {
            let q = transform(p)
            if q != 0 || !droppingZeros { result.append(key, q) }
        }
        return result
    }

    /// `base + Σ digit[i] · coefficients[i]` for each outcome in order, where `digit[i]` is field
    /// `i`'s value less its low: the outcomes' keys in another packing, or any linear map of
    /// their fields. The caller bounds the results (the arithmetic wraps).
    ///
    /// The digits are followed from key to key by adding the difference and carrying, so an
    /// outcome costs a division only where a digit wraps, not one per field (a 64-bit division
    /// is tens of cycles; Genesys's `check(0, 5, 0, 5, 2, 2)` maps 87,097 outcomes of six fields).
    ///
    /// - Complexity: O(*n*·*f*)
    func linearMap(base: Int, coefficients: [Int]) -> [Int] {
        var result = [Int](repeating: base, count: keys.count)
        let fields = names.count
        guard fields > 0, let first = keys.first else { return result }
        var digits = [Int](repeating: 0, count: fields)
        for index in 0..<fields { digits[index] = (first / strides[index]) % spans[index] }
        var previous = first
        for (position, key) in keys.enumerated() {
            var carry = key &- previous
            var index = fields - 1
            while carry > 0 && index >= 0 {
                let digit = digits[index] &+ carry
                if digit < spans[index] {
                    digits[index] = digit
                    carry = 0
                } else {
                    carry = digit / spans[index]
                    digits[index] = digit &- carry &* spans[index]
                    index -= 1
                }
            }
            previous = key
            var value = base
            for index in 0..<fields { value = value &+ digits[index] &* coefficients[index] }
            result[position] = value
        }
        return result
    }
}

extension TallyTable {
    /// Each field with its mean and standard deviation (`Distribution.fieldMoments`), summed
    /// over the outcomes in order as that sums them over the tallies, without making them.
    var fieldMoments: [(name: String, mean: Double, stdev: Double)] {
        let total = probabilities.reduce(0, +)
        var result: [(name: String, mean: Double, stdev: Double)] = []
        for index in names.indices {
            let values = linearMap(base: lows[index], coefficients: names.indices.map { $0 == index ? 1 : 0 })
            var weighted = 0.0
            for (value, p) in zip(values, probabilities) { weighted = weighted + Double(value) * p }
            let mean = weighted / total
            var squares = 0.0
            for (value, p) in zip(values, probabilities) {
                let deviation = Double(value) - mean
                squares = squares + deviation * deviation * p
            }
            result.append((names[index], mean, (squares / total).squareRoot()))
        }
        return result
    }
}
