import Testing
@testable import DiceKit

/// Other rollers' spellings (LANGUAGE.md §3a): each means what its peer of this language
/// means, and the breakdown echoes it as typed.
@Suite struct SpellingTests {
    /// A spelling, the expression of this language it means (the same tree), and its echo.
    struct Spelling: Sendable, CustomTestStringConvertible {
        var typed: String
        var same: String
        var testDescription: String { typed }
        init(_ typed: String, _ same: String) {
            self.typed = typed
            self.same = same
        }
    }

    static let spellings: [Spelling] = [
        Spelling("1D20", "1d20"),
        Spelling("2D6+1", "2d6+1"),
        Spelling("(1)D6", "(1)d6"),
        // Without a count too, as `d20` is a die, never a name (§2).
        Spelling("D20", "d20"),
        Spelling("2 * D6", "2 * d6"),
        Spelling("D%", "d%"),
        Spelling("DF", "dF"),
        Spelling("DFcs=1", "dFcs=1"),
        Spelling("D{1, 2}", "d{1, 2}"),
        Spelling("4df", "4dF"),
        Spelling("4dF.2", "4dF"),
        Spelling("4dF.1", "4d{-1,0,0,0,0,1}"),
        Spelling("1D20kh1", "1d20kh1"),
        Spelling("100d6rr5", "100d6r5"),
        Spelling("1d20rr>1", "1d20r>1"),
        Spelling("1d6rr", "1d6r"),
        Spelling("1d6x", "1d6!"),
        Spelling("1d6x>=5", "1d6!>=5"),
        Spelling("1d6e6", "1d6!6"),
        Spelling("1d6e>=5", "1d6!>=5"),
        Spelling("4d10min3max6", "4d10mi3ma6"),
        Spelling("4d10min(1+1)", "4d10mi(1+1)"),
        Spelling("(1d4, 2+2, 3d6kl1)kh1", "{1d4, 2+2, 3d6kl1}kh1"),
        Spelling("(1, 2)", "{1, 2}"),
        Spelling("(1d20+5, 1d20+5)kh1 + 2", "{1d20+5, 1d20+5}kh1 + 2"),
        Spelling("4d6k3", "4d6kh3"),
        Spelling("6d10!cs>=8df=1", "6d10!cs>=8df1"),
    ]

    @Test(arguments: spellings)
    func meansTheSameAsItsPeer(_ c: Spelling) throws {
        #expect(try Parser.parseExpression(c.typed).dump == Parser.parseExpression(c.same).dump)
    }

    /// The breakdown, JSON's `notation` and `Expr.text` keep the words as typed.
    static let echoes: [String] = [
        "1D20", "D20", "D%", "DF", "4df", "4dF.2", "4dF.1", "100d6rr5", "1d6x", "1d6x>=5", "1d6e6", "3d6xo", "3d6xo>=5",
        "4d10min3max6", "4d6k3", "4d6d1", "4d6s", "6d10!cs>=8df=1", "1d10cs=10", "1d10cs==10", "2d6!<>4",
        "2d6!!=4", "2d6r!=3",
    ]

    @Test(arguments: echoes)
    func echoesWhatWasTyped(_ typed: String) throws {
        let expr = try Parser.parseExpression(typed)
        #expect(expr.text == typed)
        #expect(try Parser.parseExpression(expr.text) == expr)
        let roll = try Dice.roll(typed, seed: 7)
        #expect(RollRenderer.plain.render(roll).hasPrefix(typed + " ("))
        #expect(OutcomeRenderer().json(for: .roll(roll), input: typed).contains("\"notation\":\"\(typed)\""))
    }

    /// A group written d20's way keeps its parentheses in its text, breakdown and `stats` title.
    @Test func parenthesizedGroupsEchoAsTyped() throws {
        let typed = "(1d20 + 5, 1d20 + 5)kh1 + 2"
        let expr = try Parser.parseExpression(typed)
        #expect(expr.text == typed)
        #expect(try Parser.parseExpression(expr.text) == expr)
        var dice = ScriptedDice([15, 11])
        let roll = try Dice.roll(typed, using: &dice)
        #expect(RollRenderer.plain.render(roll) == "(1d20 (15) + 5 = 20, ~~1d20 (11) + 5 = 16~~)kh1 + 2 = 22")
        #expect(try Parser.parseExpression("{1d20 + 5, 1d20 + 5}kh1").text == "{1d20 + 5, 1d20 + 5}kh1")
    }

    /// Capitals other than §3a's, and `df` after a pool, stay what they were.
    @Test func otherCapitalsAndDfAfterAPoolAreUnchanged() throws {
        #expect(try Parser.parseExpression("6d10cs>=8df1").dump == "(dice 6 10 cs>=8 df=1)")
        #expect(try Parser.parseExpression("df").dump == "df")
        // `D` alone, and before `(`, is still a name: a macro `D(x)` is called.
        #expect(try Parser.parseExpression("D").dump == "D")
        #expect(try Parser.parseExpression("D(2)").dump == "(call D 2)")
        #expect(diceError { () throws(DiceError) in try Parser.parseExpression("1d20KH1") } != nil)
        #expect(diceError { () throws(DiceError) in try Parser.parseExpression("4dF.3") } != nil)
        // A call's parentheses are no set: `max(1, 2)d6` still rolls max(1, 2) dice.
        #expect(try Parser.parseExpression("max(1, 2)d6").dump == "(dice (max 1 2) 6)")
    }

    /// A statement ending in `D%` or `D6` ends there: with them read as names, `def h() = D%`
    /// then `1` (two `-e`s, one program, a line each) was one statement, `D % 1`.
    @Test func aCapitalDieWithoutACountEndsItsStatement() throws {
        for die in ["D%", "D6", "DF"] {
            let program = try Parser.parseProgram("def h() = \(die)\n1")
            #expect(program.count == 2, "\(die)")
        }
    }

    /// `e` needs its compare point, like d20's, and the error names it as written.
    @Test func bareEIsAnError() throws {
        let error = try #require(diceError { () throws(DiceError) in try Parser.parseExpression("1d6e") })
        #expect(error.kind == .modifierNeedsComparePoint(.explodeE))
        #expect(error.message == "expected a compare point after 'e', as in e>=8")
        let min = try #require(diceError { () throws(DiceError) in try Parser.parseExpression("4d6min") })
        #expect(min.message == "expected a number after 'min', as in 3d6min2")
    }

    // MARK: - Rolls

    /// `100d6rr5` rerolls every 5 until it is no 5; `1d20rr>1` rerolls until a 1 shows.
    @Test func rerollUntilMatchesOnlyItsPoint() throws {
        for seed in UInt64(0)..<20 {
            let roll = try Dice.roll("100d6rr5", seed: seed)
            let kept = roll.pools[0].dice.filter { !$0.flags.contains(.rerolled) }
            #expect(kept.count == 100)
            #expect(!kept.contains { $0.value == 5 })
            #expect(try Dice.roll("1d20rr>1", seed: seed).value == .integer(1))
        }
    }

    /// `xo`: a matching die adds one die, and that one never explodes, even on a match.
    @Test func explodeOnceAddsOneDieThatDoesNotExplode() throws {
        let roll = try rollScripted("2d6xo", faces: [6, 6, 3])
        #expect(describeDice(roll) == [["6 exploded", "6 extra", "3"]])
        #expect(roll.value == .integer(15))
        let always = try rollScripted("2d6xo>=1", faces: [2, 5, 1, 4])
        #expect(describeDice(always) == [["2 exploded", "5 extra", "1 exploded", "4 extra"]])
        #expect(try rollScripted("1d6x", faces: [6, 6, 2]).value == .integer(14))
    }

    /// Fate spellings roll Fate dice; `dF.1` shows a blank four times in six.
    @Test func fateSpellingsRollFateFaces() throws {
        #expect(try rollScripted("4df", faces: [1, 2, 3, 3]).value == .integer(1))
        #expect(try rollScripted("4dF.2", faces: [1, 1, 2, 3]).value == .integer(-1))
        #expect(try rollScripted("3dF.1", faces: [1, 2, 6]).value == .integer(0))
        #expect(try rollScripted("3dF.1", faces: [6, 6, 5]).value == .integer(2))
    }

    /// `min`/`max` clamp like `mi`/`ma`.
    @Test func minAndMaxClamp() throws {
        #expect(try rollScripted("4d10min3max6", faces: [1, 2, 9, 5]).value == .integer(3 + 3 + 6 + 5))
    }

    // MARK: - Stats

    @Test func statsOfSpellingsAreExact() throws {
        let once = try StatsHarness.report("1d6xo")
        #expect(once.exact)
        #expect(once.truncatedMass == 0)
        #expect(once.maximum == .value(.integer(12)))
        #expect(abs(once.distribution.mean - 49.0 / 12) < 1e-12)
        #expect(abs(once.distribution.probability(of: .integer(12)) - 1.0 / 36) < 1e-12)
        #expect(try StatsHarness.report("2d6xokh1").maximum == .value(.integer(6)))
        #expect(try StatsHarness.report("1d20rr>1").distribution.probability(of: .integer(1)) == 1)
        let fateOne = try StatsHarness.report("1dF.1").distribution
        #expect(abs(fateOne.probability(of: .integer(0)) - 4.0 / 6) < 1e-12)
        let set = try StatsHarness.report("(1d4, 2+2, 3d6kl1)kh1").distribution
        var group: [(Number, Double)] = []
        try StatsHarness.report("{1d4, 2+2, 3d6kl1}kh1").distribution.forEachOutcome { group.append(($0, $1)) }
        #expect(differences(set, group, tolerance: 1e-12).isEmpty)
    }
}
