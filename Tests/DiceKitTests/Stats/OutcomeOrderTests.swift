import Testing
@testable import DiceKit

/// The order of texts and tally fields in `stats` (LANGUAGE.md §7): as they first appear when
/// the expression is read left to right with its macros expanded, however the engine (or the
/// simulation) meets its cases: a bound pool's splits, a `let`'s values, a sweep's rows.
struct OutcomeOrderTests {
    struct OrderCase: Sendable, CustomTestStringConvertible {
        var program: String
        /// The texts, in order; or the tally fields, in order, of every tally listed.
        var texts: [String] = []
        var fields: [String] = []
        var testDescription: String { program }
    }

    static let cases: [OrderCase] = [
        // A bound pool counted: its splits come most dice in the first class first.
        OrderCase(program: #"let p = 3d6 in match count(p, >=5) { 0: "a", 1: "b", else: "c" }"#,
                  texts: ["a", "b", "c"]),
        OrderCase(program: "let p = 3d6 in if count(p, =6) == 0 then (a: 1) else (b: 1)", fields: ["a", "b"]),
        // The bound pool's value read as well as counted.
        OrderCase(program: #"let p = 2d6 in if p + count(p, =6) > 7 then "high" else "low""#,
                  texts: ["high", "low"]),
        // A name used twice: its values are met ascending.
        OrderCase(program: #"let r = 1d6 in match r + 0 * r { 6: "crit", else: "meh" }"#, texts: ["crit", "meh"]),
        OrderCase(program: "let r = 1d6 in if r * r == 36 then (crit: 1) else (hit: r)", fields: ["crit", "hit"]),
        // A `let`'s value is read where it is written, before its body, whatever reads its
        // name (a branch, a table's entry, a macro's argument) or whether any does; a field
        // read is a number, and adds nothing.
        OrderCase(program: #"let q = "m" in if 1d2 == 1 then "n" else q"#, texts: ["m", "n"]),
        OrderCase(program: #"let q = "m" in if 1d2 == 1 then "n" else "m""#, texts: ["m", "n"]),
        OrderCase(program: #"let q = "m" in match 1d3 { 1: "n", 2: q, else: "o" }"#, texts: ["m", "n", "o"]),
        OrderCase(program: #"let t = match 1d2 { 1: "b", else: "a" } in if 1d2 == 1 then "c" else t"#,
                  texts: ["b", "a", "c"]),
        OrderCase(program: """
                  def f(x) = if 1d2 == 1 then "n" else x
                  let q = "m" in f(q)
                  """, texts: ["m", "n"]),
        OrderCase(program: """
                  def pick = d{"y", "x"}
                  let q = pick in if 1d3 == 1 then "z" else q
                  """, texts: ["y", "x", "z"]),
        OrderCase(program: "let t = (a: 1d2, b: 1) in (sum: t.a + t.b, a: t.a)", fields: ["a", "sum"]),
        OrderCase(program: "let t = (a: 1d2, b: 1) in (x: t.b, b: 1, a: t.a)", fields: ["a", "b", "x"]),
        // Macros read where they are used, parameters as their arguments.
        OrderCase(program: """
                  def a = d{"p", "q"}
                  def b = d{"r", "p"}
                  if 1d2 == 1 then b else a
                  """, texts: ["r", "p", "q"]),
        OrderCase(program: """
                  def pick(x, y) = let r = 1d6 in if r + 0 * r >= 6 then y else x
                  pick("x", "y")
                  """, texts: ["y", "x"]),
        OrderCase(program: """
                  def f(q = "m") = if 1d2 == 1 then "n" else q
                  f
                  """, texts: ["n", "m"]),
        // A parameter shadowed by a `let` is not read where the name is.
        OrderCase(program: """
                  def f(q) = let q = "b" in if 1d2 == 1 then "a" else q
                  f("c")
                  """, texts: ["b", "a"]),
    ]

    @Test(arguments: cases) func textsAndFieldsComeInReadingOrder(_ c: OrderCase) throws {
        let outcomes = try StatsHarness.report(c.program).distribution.valueOutcomes
        #expect(Self.texts(outcomes) == c.texts)
        #expect(Self.fields(outcomes) == c.fields)
    }

    /// A simulation meets outcomes in the order its rolls show them: it lists them in reading order too.
    @Test func aSimulationListsTextsInReadingOrder() throws {
        let (expr, environment) = try StatsHarness.prepare(
            #"match 1d20 * 1d20 { 400: "top", 361-399: "high", else: "rest" }"#)
        let report = try Stats.distribution(of: expr, environment: environment,
                                            limits: Limits(stats: StatsBudget(maxWork: 10)))
        #expect(!report.exact)
        #expect(Self.texts(report.distribution.valueOutcomes) == ["top", "high", "rest"])
    }

    /// A sweep's columns: the rows merged, each row's order kept.
    @Test func aSweepsColumnsKeepTheReadingOrder() throws {
        let (expr, environment) = try StatsHarness.prepare(
            #"let p = (n)d6 in match count(p, >=5) { 0: "a", 1: "b", else: "c" }"#)
        let sweep = try Stats.sweep(expr, name: "n", from: Parser.parseExpression("1"),
                                    to: Parser.parseExpression("3"), environment: environment)
        #expect(ComparisonTable.union(sweep.rows.map(\.report.distribution)) == [.text("a"), .text("b"), .text("c")])
    }

    /// Columns that each say part of the order: merged so that none is broken.
    @Test func unionsMergeEachDistributionsOrder() {
        var first = Appearance(), second = Appearance()
        for text in ["b", "c"] { first.noteText(text) }
        for text in ["a", "b", "c"] { second.noteText(text) }
        #expect(Appearance.merged([first, second]).texts == ["a", "b", "c"])
        var third = Appearance()
        for text in ["c", "b"] { third.noteText(text) }
        // Where the columns disagree, the first one's order wins.
        #expect(Appearance.merged([first, third]).texts == ["b", "c"])
    }

    static func texts(_ outcomes: [ValueOutcome]) -> [String] {
        outcomes.compactMap { if case .text(let text) = $0.value { return text } else { return nil } }
    }

    /// The fields of the tallies listed; every tally must list the same.
    static func fields(_ outcomes: [ValueOutcome]) -> [String] {
        var orders: [[String]] = []
        for case .tally(let tally) in outcomes.map(\.value) { orders.append(tally.fields.map(\.name)) }
        #expect(Set(orders.map { $0.joined(separator: ",") }).count <= 1, "\(orders)")
        return orders.first ?? []
    }
}
