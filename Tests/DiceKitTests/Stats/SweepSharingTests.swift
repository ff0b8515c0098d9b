import Testing
@testable import DiceKit

/// A sweep shares the parts that cannot depend on its name (`SweepSharing`): each row is still
/// exactly what `stats` gives for the expression with the name set to the row's value, what
/// the shared parts noted included (cut tails, `given`), whatever shadows the name.
struct SweepSharingTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var program: String
        var why: String
        var testDescription: String { why }
    }

    static let attack = "def attack(ac, bonus) = let r = 1d20 in if r == 20 then 2d8 + 3 "
        + "else if r + bonus >= ac then 1d8 + 3 else 0; "

    static let cases: [Case] = [
        Case(program: attack + "stats attack(ac, 7) for ac in 10..30", why: "the crit attack of LANGUAGE.md §5a"),
        Case(program: attack + "stats attack(15, 7) + attack(ac, 7) for ac in 10..14",
             why: "a use of the macro that does not read the name beside one that does"),
        Case(program: "def f(ac) = 1d20 >= ac; stats f(12) + 2 * f(ac) for ac in 10..13",
             why: "a parameter shadows the name"),
        Case(program: "stats (let ac = 1d6 in ac + ac) + (1d8 >= ac) + (let x = ac in x + 2d4) for ac in 1..4",
             why: "a let name shadows the name; a let of it does not"),
        Case(program: "def hit = 1d20 + 5 >= ac; def twice = hit + hit; stats twice + 3d6 for ac in 15..18",
             why: "macros read the swept variable, directly and through another macro"),
        Case(program: "def f(x = ac) = x + 1d4; stats f() + f(2) for ac in 1..3",
             why: "a default reads the name where the macro is used"),
        Case(program: "def f(x = ac) = x + 1d4; stats (let ac = 5 in f()) + (let ac = 1d6 in f()) for ac in 1..3",
             why: "a default reads a let name where the macro is used"),
        Case(program: "stats 2d6 + (let p = 6d6 in count(p, >=5)) + count(4d6, >=(ac)) + count(4d6, >=5) for ac in 3..5",
             why: "counts: a bound pool, and a recounted pool with the range of the pool"),
        Case(program: "stats (2d6 given 1d4 >= 2) + (1d20 >= ac) for ac in 18..20",
             why: "a shared part conditions the statement"),
        Case(program: "stats 3d6! + (1d20 >= ac) for ac in 19..20", why: "a shared part cuts explosion tails"),
        Case(program: "stats 30000d6 + (1d4 >= x) for x in 3..4", why: "a shared part cuts the tails of a sum"),
        Case(program: #"stats (match 1d6 { 1-2: "low", else: "high" }) == (if 1d2 >= n then "low" else "high") for n in 1..3"#,
             why: "texts"),
        Case(program: "stats x for x in 1..3", why: "the name alone"),
    ]

    /// Each row is the report `stats` gives alone with the name set to the row's value.
    @Test(arguments: SweepSharingTests.cases)
    func eachRowIsItsOwnStatement(_ c: Case) throws {
        let (expr, sweep, session) = try SweepTests.sweep(c.program)
        #expect(!sweep.rows.isEmpty)
        for row in sweep.rows {
            var environment = session.environment
            environment.setVariable(sweep.name, to: .integer(row.value))
            let alone = try Stats.exactDistribution(of: expr, environment: environment)
            #expect(row.report == alone, "\(sweep.name) = \(row.value)")
        }
    }

    /// The parts that do not read the name are worked out once: the sweep's work is about one
    /// part's and the rest's for each value, far less than when the part reads the name.
    @Test func aSharedPartIsWorkedOutOnce() throws {
        let shared = try Self.leastBudget("stats repeat(3, 4d6kh3) + (1d20 >= ac) for ac in 1..20")
        let unshared = try Self.leastBudget("stats repeat(3, 4d6kh3 + 0 * ac) + (1d20 >= ac) for ac in 1..20")
        #expect(shared * 8 <= unshared, "\(shared) steps shared, \(unshared) not")
    }

    /// The least power of 2 of steps that `program`'s sweep fits.
    static func leastBudget(_ program: String) throws -> Int {
        var limits = Limits.standard
        for exponent in 4..<40 {
            limits.stats = StatsBudget(maxWork: 1 << exponent)
            do {
                _ = try SweepTests.sweep(program, limits: limits)
                return 1 << exponent
            } catch let error as DiceError where error.kind == .sweepTooExpensive(seconds: 1) {
                continue
            }
        }
        throw SweepTests.SweepTestFailure.notASweep(program)
    }

    /// A shared part met deeper than where it was worked out fails as it would alone, past the
    /// depth of macro uses.
    @Test func aSharedPartKeepsTheDepthBound() throws {
        var limits = Limits.standard
        limits.maxMacroDepth = 3
        let program = "def d = 1d6; def a = d; def b = a; def c = b; stats a + c + x for x in 1..2"
        #expect(throws: DiceError.self) { _ = try SweepTests.sweep(program, limits: limits) }
        var shallow = Limits.standard
        shallow.maxMacroDepth = 4
        #expect(try SweepTests.sweep(program, limits: shallow).1.rows.count == 2)
    }
}
