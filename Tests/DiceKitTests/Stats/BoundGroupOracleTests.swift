import Testing
@testable import DiceKit

/// Groups and repeats bound by `let` and counted with `count(p, cp)` (LANGUAGE.md §4, §5b)
/// against the roller itself: every sequence of faces it could roll, followed through the
/// real evaluator (`EveryRoll`), with its probability. `stats` must be exact and agree.
struct BoundGroupOracleTests {
    static let cases = [
        // Groups of unequal members: counts alone, with the value, in a branch.
        "let p = {1d6, 1d8} in count(p, >=5)",
        "let p = {1d6, 1d8} in (hi: count(p, >=5), sum: p)",
        "let p = {1d4, 2d4, 1d6} in count(p, >=4) * 100 + p",
        "let p = {1d6, 1d8} in if count(p, =6) > 0 then \"six\" else p",
        "let p = {1d6, 1d8} [pair] in count(p, >=5) - count(p, =1)",
        "let p = {{1d4, 1d4}, 1d6, 3} in count(p, >=5) + count(p, =3)",
        "let p = {1d4 / 2, 1d6} in count(p, >=2) + p",
        // Keep/drop and counting over members: count sees the kept members only.
        "let p = {1d6, 1d8, 1d10}kh2 in (n: count(p, >=5), v: p)",
        "let p = {1d6, 1d8, 1d4}dl1dh1 in count(p, =3) + p",
        "let p = {1d6, 1d6, 1d8}kl1 in count(p, <=2)",
        "let p = {1d4, 1d6, 1d8, 1d4}kh3kl2 in (c: count(p, =4), v: p)",
        "let p = {1d4 / 2, 1d6, 1d3}kh2 in count(p, >=2) * 10 + p",
        "let p = {1d6, 1d8, 1d10}cs>=5 in p * 10 + count(p, =1)",
        "let p = {1d6, 1d8, 1d4}kh2cs>=4df1 in (v: p, c: count(p, >=3))",
        "let p = {1d6, 1d8}kh5 in count(p, >=5)",
        // A modifier argument rolled once, before the members are kept or counted.
        "let p = {1d6, 1d8, 1d4}kh(1d2) in (n: count(p, >=4), v: p)",
        "let p = {1d6, 1d8}cs>=(1d2 + 4) in p * 10 + count(p, =6)",
        "let p = repeat(3, 1d6)kh(1d2) in count(p, >=5) * 100 + p",
        "let p = repeat(1d3, 1d4)dl(1d2 - 1) in (n: count(p, =4), v: p)",
        // Repeats: alike members, a fixed or random number of them.
        "let p = repeat(3, 1d6) in (six: count(p, =6), sum: p)",
        "let p = repeat(4, 1d6) in count(p, =6) > count(p, =1)",
        "let p = repeat(4, 1d6)kh2 in (hi: count(p, >=5), sum: p)",
        "let p = repeat(3, 2d4)dl1 in p - count(p, >=6)",
        "let p = repeat(3, 1d6)cs>=5 in (v: p, six: count(p, =6))",
        "let p = repeat(1d3, 1d6) in count(p, =6) + p",
        "let p = repeat(1d3, 1d4)kh1 in count(p, =4) * 10 + p",
        "let p = repeat(1d3 - 1, 1d4) in count(p, =4)",
        "let p = repeat(0, 1d6) in count(p, =6)",
        // Texts and tallies as members; two bound groups at once.
        "let p = {d{\"hit\", \"miss\"}, d{\"hit\", \"miss\", \"miss\"}} in count(p, =\"hit\")",
        "let p = repeat(3, d{\"hit\", \"miss\"}) in count(p, =\"hit\") + count(p, !=\"hit\") * 10",
        "def s = (s: 1)\nlet p = repeat(2, d{(s: 1), (a: 1), ()}) in (n: count(p, =(s))) + p",
        "let p = {1d4, 1d6} in let q = repeat(2, 1d4)kh1 in count(p, >=3) * 10 + count(q, >=3) + q",
        // A compare point known only at the count: each member's value kept apart ("unknown name").
        "let p = {1d6, 1d8} in let x = 1d6 in count(p, <(x))",
        "let p = repeat(2, 1d4) in count(p, >(p - 4)) * 10 + p",
        "let p = {1d6, 1d8}kh1 in count(p, >=(1d8))",
        "let p = {1d4, 1d4, 1d6}kh2 in let x = 1d4 in (n: count(p, >=(x)), v: p + x)",
        "let p = repeat(2, d{\"a\", \"b\"}) in count(p, =(d{\"a\", \"b\"}))",
        "let p = repeat(1d2, 1d4)cs>=3 in count(p, =(1d4)) * 10 + p",
        "let p = repeat(3, 1d6) in count(p, >=(1d2 + 4)) * 10 + count(p, =1)",
        "let p = {1d6, 1d4, 2} in (a: count(p, <(1d3)), b: count(p, !=(1d2 * 2)))",
    ]

    @Test(arguments: cases)
    func agreesWithEveryRoll(_ program: String) throws {
        try EveryRoll.expectAgreement(program)
    }

    /// A group whose members cannot be added has no value: reading it fails as it does rolled
    /// (the text named is the first of the roll, so only what needed a number is compared).
    @Test(arguments: ["let p = {\"a\", 1d6} in p + count(p, =1)", "let p = repeat(2, d{\"a\", \"b\"}) in count(p, =\"a\") + p",
                      "let p = {\"a\", 1d6}kh1 in count(p, =1)"])
    func failsAsRolled(_ program: String) throws {
        let (expr, environment) = try StatsHarness.prepare(program)
        var evaluator = Evaluator(environment: environment, source: Xoshiro256StarStar(seed: 1))
        var rolled: DiceError?
        do { _ = try evaluator.value(of: expr) } catch { rolled = error }
        var exact: DiceError?
        do { _ = try Stats.exactDistribution(of: expr, environment: environment) } catch let error as DiceError { exact = error }
        let (a, b) = try (#require(rolled), #require(exact))
        guard case .notANumber(_, let x) = a.kind, case .notANumber(_, let y) = b.kind else {
            Issue.record("rolled: \(a.message); stats: \(b.message)")
            return
        }
        #expect(x == y)
    }

    /// The example of LANGUAGE.md §4 and the brief: exact with the standard budget, and fast.
    @Test func abilityScoresCountedExactly() throws {
        let report = try StatsHarness.report("let p = repeat(6, 4d6kh3) in (high: count(p, >=15), total: p)")
        #expect(report.exact)
        var high = 0.0
        report.distribution.forEachValue { value, p in
            if case .tally(let tally) = value, let n = tally["high"].integerValue { high += Double(n) * p }
        }
        // Six alike members: the mean count is six times one member's chance of 15 or more.
        let one = try StatsHarness.report("4d6kh3 >= 15").distribution.probability(of: .integer(1))
        #expect(abs(high - 6 * one) < 1e-9)
    }
}

/// Every sequence of faces the roller could roll for an expression, followed through the
/// evaluator in order: a path is the faces of its first rolls, then 1s; the next path
/// raises the last face that is below its die's sides and forgets the rolls after it.
enum EveryRoll {
    /// Follows the faces of `path`, then rolls 1s, noting each roll's sides.
    struct Path: DieSource {
        var faces: [Int]
        var sides: [Int] = []

        mutating func roll(sides count: Int) -> Int {
            let face = sides.count < faces.count ? faces[sides.count] : 1
            sides.append(count)
            return face
        }
    }

    /// The probability of each value, over at most `limit` paths.
    static func distribution(of expr: Expr, environment: Environment, limit: Int = 200_000) throws -> [Value: Double] {
        var result: [Value: Double] = [:]
        var faces: [Int] = []
        for _ in 0..<limit {
            var evaluator = Evaluator(environment: environment, source: Path(faces: faces))
            evaluator.startStatement()
            let value = try evaluator.value(of: expr)
            let sides = evaluator.source.sides
            let shown = sides.indices.map { $0 < faces.count ? faces[$0] : 1 }
            result[value, default: 0] += sides.reduce(1.0) { $0 / Double($1) }
            guard let last = sides.indices.last(where: { shown[$0] < sides[$0] }) else { return result }
            faces = Array(shown[..<last]) + [shown[last] + 1]
        }
        throw TooManyPaths()
    }

    /// More paths than the test allows.
    struct TooManyPaths: Error {}

    /// Expects `program`'s exact `stats` (with nothing cut) to give every value of every roll
    /// its chance, and no other value.
    static func expectAgreement(_ program: String) throws {
        let (expr, environment) = try StatsHarness.prepare(program)
        let report = try Stats.exactDistribution(of: expr, environment: environment)
        #expect(report.exact)
        #expect(report.truncatedMass == 0)
        let want = try distribution(of: expr, environment: environment)
        var got: [Value: Double] = [:]
        report.distribution.forEachValue { value, p in got[value, default: 0] += p }
        for (value, p) in want {
            #expect(abs((got[value] ?? 0) - p) < 1e-12, "P(\(value)) = \(got[value] ?? 0), want \(p)")
        }
        for (value, p) in got where want[value] == nil { Issue.record("P(\(value)) = \(p), want 0") }
        #expect(got.count == want.count)
    }
}
