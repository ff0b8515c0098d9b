import Testing
@testable import DiceKit

/// Sums of tally dice on packed keys (`TallyTable`, `StatsEngine+Tallies`): each distribution
/// against every roll of its dice enumerated here, and the packed sum against the value by
/// value sum it replaces, probability for probability (the same `Double`s, in the same order).
@Suite struct TallySumTests {
    /// A tally die: its faces, each a list of (field, count).
    typealias Die = [[(String, Int)]]

    /// Every roll of `dice` (the last `negated` of them subtracted): the tallies over `fields`
    /// and their probabilities.
    static func enumerate(_ dice: [Die], negated: Int = 0, fields: [String]) -> [[Int]: Double] {
        var result: [[Int]: Double] = [[Int](repeating: 0, count: fields.count): 1]
        for (index, die) in dice.enumerated() {
            let sign = index >= dice.count - negated ? -1 : 1
            var next: [[Int]: Double] = [:]
            for (sum, p) in result {
                for face in die {
                    var values = sum
                    for (name, count) in face {
                        guard let at = fields.firstIndex(of: name) else { continue }
                        values[at] += sign * count
                    }
                    next[values, default: 0] += p / Double(die.count)
                }
            }
            result = next
        }
        return result
    }

    /// The report's tallies as lists of `fields`, after checking each shows exactly those fields in order.
    static func tallies(_ report: DistributionReport, fields: [String]) throws -> [([Int], Double)] {
        try report.distribution.valueOutcomes.map { outcome in
            let tally = try #require({ if case .tally(let t) = outcome.value { return t } else { return nil } }())
            #expect(tally.fields.map(\.name) == fields)
            return (try fields.map { try #require(tally[$0].integerValue) }, outcome.probability)
        }
    }

    static func expectMatches(_ program: String, _ want: [[Int]: Double], fields: [String]) throws {
        let report = try StatsHarness.report(program)
        #expect(report.exact)
        let got = try tallies(report, fields: fields)
        #expect(got.count == want.count, "\(program): \(got.count) outcomes, want \(want.count)")
        for (values, p) in got {
            let expected = want[values] ?? 0
            #expect(abs(p - expected) < 1e-12, "\(program): P\(values) = \(p), want \(expected)")
        }
        // In ValueOrder: by the fields in order, each ascending.
        #expect(zip(got, got.dropFirst()).allSatisfy { $0.0.lexicographicallyPrecedes($1.0) })
    }

    static let a: Die = [[("a", 1)], [("b", 2)], []]
    static let b: Die = [[("x", 1)], [("y", 1)]]
    static let c: Die = [[("y", 1)], [("x", 2)]]

    @Test func aPoolOfTallyDice() throws {
        try Self.expectMatches("3d{(a: 1), (b: 2), ()}", Self.enumerate([Self.a, Self.a, Self.a], fields: ["a", "b"]),
                               fields: ["a", "b"])
        try Self.expectMatches("repeat(5, d{(a: 1), (b: 2), ()})", Self.enumerate(Array(repeating: Self.a, count: 5),
                                                                                  fields: ["a", "b"]), fields: ["a", "b"])
    }

    /// The number 0 among tally faces is the empty tally (LANGUAGE.md §5b): several such dice
    /// add up, rolled, bound and in `stats`. It said "a sum of several text dice needs numbered dice".
    @Test func zeroAmongTallyFacesIsTheEmptyTally() throws {
        for program in ["3d{(s: 1), 0, (a: 2)}", "let p = 3d{(s: 1), 0, (a: 2)} in p", "3d{(s: 1), 0, (a: 2)}u"] {
            let rolled = try ScriptedProgram(program, faces: [1, 2, 3])
            #expect(rolled.roll.value == .tally(["s": 1, "a": 2]), "\(program)")
        }
        let report = try StatsHarness.report("2d{(s: 1), 0}")
        #expect(report.exact)
        let outcomes = report.distribution.valueOutcomes.map { ($0.value, $0.probability) }
        #expect(outcomes.map(\.0) == [.integer(0), .tally(["s": 1]), .tally(["s": 2])])
        #expect(outcomes.map(\.1) == [0.25, 0.5, 0.25])
    }

    @Test func sumsAndDifferencesWithSharedFields() throws {
        try Self.expectMatches("2d{(x: 1), (y: 1)} + 2d{(y: 1), (x: 2)}",
                               Self.enumerate([Self.b, Self.b, Self.c, Self.c], fields: ["x", "y"]), fields: ["x", "y"])
        try Self.expectMatches("2d{(x: 1), (y: 1)} - 2d{(y: 1), (x: 2)}",
                               Self.enumerate([Self.b, Self.b, Self.c, Self.c], negated: 2, fields: ["x", "y"]),
                               fields: ["x", "y"])
        // The fields of the right side after the left's, in its own order reversed here.
        try Self.expectMatches("0 - 2d{(y: 1), (x: 2)}", Self.enumerate([Self.c, Self.c], negated: 2, fields: ["y", "x"]),
                               fields: ["y", "x"])
    }

    /// Fields apart (as Genesys's positive and negative dice): each pair its own outcome.
    @Test func sumsOfDiceWithFieldsApart() throws {
        let up: Die = [[], [("s", 1)], [("s", 2), ("a", 1)], [("t", 1)]]
        let down: Die = [[("f", 1)], [], [("h", 2)], [("f", 1), ("h", -1)]]
        let fields = ["s", "a", "t", "f", "h"]
        try Self.expectMatches("() + repeat(3, d{(), (s: 1), (s: 2, a: 1), (t: 1)}) + repeat(2, d{(f: 1), (), (h: 2), (f: 1, h: -1)})",
                               Self.enumerate([up, up, up, down, down], fields: fields), fields: fields)
        try Self.expectMatches("2d{(), (s: 1), (s: 2, a: 1), (t: 1)} - 2d{(f: 1), (), (h: 2), (f: 1, h: -1)}",
                               Self.enumerate([up, up, down, down], negated: 2, fields: fields), fields: fields)
        // The right side's fields in another order than the sum's: `y` comes first on the left.
        let left: Die = [[("y", 0)], [("y", 0), ("z", 1)]]
        let right: Die = [[("x", 1)], [("y", 2), ("x", -1)], [("x", 2), ("y", 1)]]
        try Self.expectMatches("d{(y: 0), (y: 0, z: 1)} + 2d{(x: 1), (y: 2, x: -1), (x: 2, y: 1)}",
                               Self.enumerate([left, right, right], fields: ["y", "z", "x"]), fields: ["y", "z", "x"])
    }

    /// Far-apart values: the sum's range is too wide to spread densely, and goes through a dictionary.
    @Test func sumsOverWideRanges() throws {
        let wide: Die = [[("a", 1_000_000)], [("b", -1_000_000)], [("c", 999_999)], []]
        try Self.expectMatches("4d{(a: 1000000), (b: -1000000), (c: 999999), ()}",
                               Self.enumerate(Array(repeating: wide, count: 4), fields: ["a", "b", "c"]),
                               fields: ["a", "b", "c"])
    }

    /// A tally made of a bound tally's fields: each outcome mapped, summed over the joint outcomes.
    @Test func aTallyOfABoundTallysFields() throws {
        var want: [[Int]: Double] = [:]
        for (values, p) in Self.enumerate([Self.a, Self.a, Self.a], fields: ["a", "b"]) {
            want[[values[0] - values[1] + 1, -values[1], values[0] + values[0]], default: 0] += p
        }
        try Self.expectMatches("let t = 3d{(a: 1), (b: 2), ()} in (x: t.a - t.b + 1, y: -t.b, z: t.a + t.a)", want,
                               fields: ["x", "y", "z"])
        var fields: [Int: Double] = [:]
        for (values, p) in Self.enumerate([Self.a, Self.a, Self.a], fields: ["a", "b"]) { fields[values[1], default: 0] += p }
        let report = try StatsHarness.report("(3d{(a: 1), (b: 2), ()}).b")
        #expect(differences(report.distribution, fields.map { (.integer($0.key), $0.value) }, tolerance: 1e-12).isEmpty)
    }

    /// The sum the engine walked value by value before: every pair through `Value.apply`, merged.
    static func walked(_ lhs: Distribution, _ rhs: Distribution, _ op: BinaryOperator) throws -> Distribution {
        var result = ValueAccumulator()
        for a in lhs.valueOutcomes {
            for b in rhs.valueOutcomes { result.add(try Value.apply(op, a.value, b.value), a.probability * b.probability) }
        }
        return result.build()
    }

    /// Each way of adding up (`TallyTable.Method`), adding and subtracting.
    @Test(arguments: [
        ("3d{(a: 1), (b: 2), ()}", "2d{(b: 1), (c: -3), (a: 2, c: 1)}", "window"),
        ("2d{(s: 1), (s: 2, a: 1), ()}", "3d{(f: 1), (t: 2), (f: 1, t: 1)}", "inOrder"),
        ("4d{(a: 1000000), (b: -1000000), ()}", "2d{(a: 1), (b: 7)}", "hashed"),
        ("(a: 1d40000)", "d{(a: 0), (a: 100000), (a: 3)}", "dense"),
        ("(y: 1d3, x: 1d2)", "2d{(x: 1), (y: 1), (z: 1)}", "window"),
    ])
    func packedSumsAreTheWalkedSumsExactly(_ left: String, _ right: String, _ method: String) throws {
        let lhs = try StatsHarness.report(left).distribution, rhs = try StatsHarness.report(right).distribution
        for op in [BinaryOperator.add, .subtract] {
            let a = try #require(StatsEngine.packed(lhs)), b = try #require(StatsEngine.packed(rhs))
            let plan = try #require(a.sumPlan(b, subtracting: op == .subtract))
            let made: String
            switch plan.method {
            case .inOrder: made = "inOrder"
            case .window: made = "window"
            case .dense: made = "dense"
            case .hashed: made = "hashed"
            }
            // Subtracting, the right side's outcomes come in decreasing order: not in order.
            #expect(made == (method == "inOrder" && op == .subtract ? "window" : method), "\(left) \(op) \(right)")
            let packed = Distribution(tallies: try #require(a.sum(b, plan: plan)))
            #expect(packed.tallyTable != nil)
            #expect(packed.valueOutcomes == (try Self.walked(lhs, rhs, op)).valueOutcomes, "\(left) \(op) \(right)")
        }
    }

    @Test func tablesRoundTrip() throws {
        let list = try StatsHarness.report("(b: 1d3 - 2, a: 2d4, c: 0)").distribution.valueOutcomes
        let table = try #require(TallyTable(list))
        #expect(table.names == ["b", "a", "c"])
        #expect(table.valueOutcomes == list)
        // Fractions and texts do not pack.
        #expect(TallyTable([ValueOutcome(.tally(DiceKit.Tally([("a", Number.fraction(numerator: 1, denominator: 2))])), 1)]) == nil)
        #expect(TallyTable([ValueOutcome(.text("x"), 1)]) == nil)
    }

    /// Genesys's check with a large pool is exact, as the netting of the positive and negative
    /// dice enumerated apart here.
    @Test func genesysNetsExactly() throws {
        let ability: Die = [[], [("s", 1)], [("s", 1)], [("s", 2)], [("a", 1)], [("a", 1)], [("s", 1), ("a", 1)], [("a", 2)]]
        let difficulty: Die = [[], [("f", 1)], [("f", 2)], [("t", 1)], [("t", 1)], [("t", 1)], [("t", 2)], [("f", 1), ("t", 1)]]
        let up = Self.enumerate(Array(repeating: ability, count: 4), fields: ["s", "a"])
        let down = Self.enumerate(Array(repeating: difficulty, count: 3), fields: ["f", "t"])
        var want: [[Int]: Double] = [:]
        for (u, p) in up { for (d, q) in down { want[[u[0] - d[0], u[1] - d[1]], default: 0] += p * q } }
        try Self.expectMatches(OutcomeStatsTests.genesys + "genesys(4, 3)", want, fields: ["success", "advantage"])
    }

    /// A sum far past the budget stops before its work, with the budget's error.
    @Test func aHugeSumStopsWithinItsBudget() throws {
        // Sixteen dice have 20,349 outcomes: their square, 400 million pairs, is far past the budget.
        let program = "repeat(1000, d{(a: 1), (b: 1), (c: 1), (d: 1), (e: 1), ()})"
        let clock = ContinuousClock()
        let start = clock.now
        let error = StatsHarness.error(program)
        #expect(clock.now - start < .seconds(10))  // a debug build on a loaded machine: about 1 s
        let failure = try #require(error as? StatsError)
        #expect(failure == .tooExpensive("the exact distribution needs more than 100000000 steps"))
    }
}
