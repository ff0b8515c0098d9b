import Testing
@testable import DiceKit

/// A bound pool's body that reads the pool only through counts is worked out with the counts
/// as names (`StatsEngine.replacingCounts`, `countedBodyDistribution`): checked here against
/// every roll of small pools enumerated one by one, and against the engine where the rewrite
/// must not apply.
struct CountedBodyTests {
    /// Every roll of `dice` dice of `sides` sides, each with its chance.
    private func rolls(_ dice: Int, _ sides: Int) -> [[Int]] {
        var all: [[Int]] = [[]]
        for _ in 0..<dice { all = all.flatMap { roll in (1...sides).map { roll + [$0] } } }
        return all
    }

    /// The probabilities of `program`'s outcomes, keyed by their text.
    private func table(_ program: String) throws -> [String: Double] {
        let report = try StatsHarness.report(program)
        #expect(report.exact)
        var table: [String: Double] = [:]
        for outcome in report.distribution.valueOutcomes { table["\(outcome.value)", default: 0] += outcome.probability }
        return table
    }

    private func expectTable(_ program: String, _ want: [String: Double]) throws {
        let got = try table(program)
        #expect(Set(got.keys) == Set(want.keys.filter { (want[$0] ?? 0) > 0 }), "\(program): \(got)")
        for (key, p) in want { #expect(abs((got[key] ?? 0) - p) < 1e-12, "\(program): \(key) \(got[key] ?? 0) want \(p)") }
    }

    /// Shadowrun's tally over 5d6, through a macro: every one of the 7,776 rolls.
    @Test func aTallyOfCountsThroughAMacroIsEveryRollsTally() throws {
        let program = """
            def outcome(hits, ones, rolled) = let g = ones * 2 > rolled in (hits: hits, glitch: g, critical_glitch: g and hits == 0)
            let p = 5d6 in outcome(count(p, >=5), count(p, =1), 5)
            """
        var want: [String: Double] = [:]
        let all = rolls(5, 6)
        for roll in all {
            let hits = roll.filter { $0 >= 5 }.count, ones = roll.filter { $0 == 1 }.count
            let glitch = ones * 2 > 5 ? 1 : 0
            let critical = glitch == 1 && hits == 0 ? 1 : 0
            want["(hits: \(hits), glitch: \(glitch), critical_glitch: \(critical))", default: 0] += 1 / Double(all.count)
        }
        try expectTable(program, want)
    }

    /// A second pool whose size is a count of the first (Shadowrun's Second Chance, small):
    /// each roll of the first, then each roll of the second.
    @Test func aPoolSizedByACountOfAnotherIsEveryPairOfRolls() throws {
        let program = """
            let p = 3d6 in let h = count(p, >=5) in let again = (3 - h)d6 in
            (hits: h + count(again, >=5), glitch: count(p, =1) * 2 > 3)
            """
        try expectTable(program, secondChanceTable(extraHits: 0))
        // The number of dice written as a count in place.
        try expectTable("let p = 3d6 in let q = (count(p, >=5))d4 in count(q, =4) + count(p, =1) * 10",
                        countedDiceTable())
    }

    private func countedDiceTable() -> [String: Double] {
        var want: [String: Double] = [:]
        for first in rolls(3, 6) {
            let h = first.filter { $0 >= 5 }.count, ones = first.filter { $0 == 1 }.count
            let second = rolls(h, 4)
            for roll in second {
                want["\(roll.filter { $0 == 4 }.count + ones * 10)", default: 0] += 1 / 216 / Double(second.count)
            }
        }
        return want
    }

    /// Three pools counted into one tally (Year Zero's roll, small), with `if` and `match`.
    @Test func threePoolsCountedTogetherAreEveryTripleOfRolls() throws {
        let program = """
            let b = 3d6 in let s = 2d6 in let g = 2d6 in
            (successes: count(b, =6) + count(s, =6) + count(g, =6), banes: count(b, =1),
             gear: if count(g, =1) > 0 then 1 else 0, band: match count(b, >=4) { 0: 0, 1-2: 1, else: 2 })
            """
        var want: [String: Double] = [:]
        let bs = rolls(3, 6), ss = rolls(2, 6), gs = rolls(2, 6)
        let each = 1 / Double(bs.count * ss.count * gs.count)
        for b in bs {
            let high = b.filter { $0 >= 4 }.count
            let band = high == 0 ? 0 : high <= 2 ? 1 : 2
            for s in ss {
                for g in gs {
                    let successes = (b + s + g).filter { $0 == 6 }.count
                    let key = "(successes: \(successes), banes: \(b.filter { $0 == 1 }.count), "
                        + "gear: \(g.contains(1) ? 1 : 0), band: \(band))"
                    want[key, default: 0] += each
                }
            }
        }
        try expectTable(program, want)
    }

    /// A `let` inside the second pool's body whose value reads only the first pool's counts
    /// (worked out once for all outcomes of the second) is the same roll's.
    @Test func aLetOfTheFirstPoolsCountsInsideTheSecondIsTheSameRoll() throws {
        let program = """
            def band(h, ones) = (hits: h, glitch: ones * 2 > 3)
            let p = 3d6 in let h = count(p, >=5) in let again = (3 - h)d6 in
            let first = band(h, count(p, =1)) in let kept = {1, 2} in
            (hits: first.hits + count(again, >=5) + count(kept, =2), glitch: first.glitch)
            """
        try expectTable(program, secondChanceTable(extraHits: 1))
    }

    /// Every roll of 3d6, then of its dice without a hit again: hits (5+ on either roll, plus
    /// `extraHits`) and the first roll's glitch (more than half of its dice showing 1).
    private func secondChanceTable(extraHits: Int) -> [String: Double] {
        var want: [String: Double] = [:]
        for first in rolls(3, 6) {
            let h = first.filter { $0 >= 5 }.count
            let glitch = first.filter { $0 == 1 }.count * 2 > 3 ? 1 : 0
            let second = rolls(3 - h, 6)
            for roll in second {
                let hits = h + roll.filter { $0 >= 5 }.count + extraHits
                want["(hits: \(hits), glitch: \(glitch))", default: 0] += 1 / 216 / Double(second.count)
            }
        }
        return want
    }

    /// A value that fails for every outcome of the pools fails the statement as the roller does.
    @Test func anInvariantValueThatFailsFailsTheStatement() throws {
        let error = try #require(StatsHarness.error("let p = 2d6 in let q = 2d6 in let r = 6 / count(p, >=7) in count(q, =6) + r"))
        #expect("\(error)".contains("zero"), "\(error)")
    }

    /// A `let` of the same name hides the outer pool: its counts are the inner pool's.
    @Test func aRebindingOfTheNameHidesTheOuterPool() throws {
        var want: [String: Double] = [:]
        for first in rolls(2, 6) {
            let h = first.filter { $0 >= 5 }.count
            let second = rolls(h + 1, 6)
            for roll in second {
                want["\(roll.filter { $0 == 6 }.count * 10 + h)", default: 0] += 1 / 36 / Double(second.count)
            }
        }
        try expectTable("let p = 2d6 in let h = count(p, >=5) in let p = (count(p, >=5) + 1)d6 in count(p, =6) * 10 + h",
                        want)
    }

    /// A macro's default is worked out where the macro is used, so it sees the pool by its
    /// name (as the roller does: `let p = 2d6 (1, 6) in f(1) (17)`): the pool stays bound, and
    /// the default's value or count is the same roll's.
    @Test func aDefaultThatReadsThePoolSeesTheSameRoll() throws {
        var counted: [String: Double] = [:], summed: [String: Double] = [:]
        for roll in rolls(3, 6) {
            let ones = roll.filter { $0 == 1 }.count, sixes = roll.filter { $0 == 6 }.count
            counted["\(ones * 10 + sixes)", default: 0] += 1.0 / 216
            summed["\(ones * 100 + roll.reduce(0, +))", default: 0] += 1.0 / 216
        }
        try expectTable("def f(x, y = count(p, =6)) = x * 10 + y\nlet p = 3d6 in f(count(p, =1))", counted)
        try expectTable("def f(x, y = p) = x * 100 + y\nlet p = 3d6 in f(count(p, =1))", summed)
    }

    /// An unknown name in the body is reported without the names counts are read through.
    @Test func anUnknownNameSuggestsNoCountName() throws {
        let typo = try #require(StatsHarness.error("let p = 3d6 in let cont = 1 in count(p, >=5) + cout"))
        #expect("\(typo)".contains("cont"))
        #expect(!"\(typo)".contains("#"))
    }
}
