import Testing
@testable import DiceKit

/// Rolling the forms of LANGUAGE.md §5b and §7's `given` with scripted dice: the value, the
/// breakdown, exactly the faces drawn (so a branch or entry not taken draws none), and the value
/// path (`value(of:)`, what `-t` rolls) agreeing with the breakdown's value on the same dice.
@Suite struct OutcomeEvaluatorTests {
    struct RollCase: Sendable, CustomTestStringConvertible {
        var program: String
        var faces: [Int]
        var value: Value
        /// The breakdown, when the case pins it.
        var breakdown: String?
        /// How many faces are drawn, when not all of `faces`.
        var drawn: Int?

        init(_ program: String, _ faces: [Int], _ value: Value, _ breakdown: String? = nil, drawn: Int? = nil) {
            self.program = program
            self.faces = faces
            self.value = value
            self.breakdown = breakdown
            self.drawn = drawn
        }

        var testDescription: String { program.split(separator: "\n").last.map(String.init) ?? program }
    }

    static let move = "def move(stat) = match 2d6 + stat { 6-: \"miss\", 7-9: \"weak hit\", 10+: \"strong hit\" }\n"
    static let loot = "def loot = match 1d20 { 1-5: \"junk\", 6-12: \"potion\", 13-19: 2d6 * 10, 20: \"flame tongue\" }\n"

    static let texts: [RollCase] = [
        RollCase("\"weak hit\"", [], .text("weak hit")),
        RollCase("if 1d6 >= 4 then \"hit\" else \"miss\"", [5], .text("hit")),
        RollCase("if 1d6 >= 4 then \"hit\" else \"miss\"", [2], .text("miss")),
        RollCase("\"a\" == \"a\"", [], .integer(1)),
        RollCase("\"a\" != \"b\"", [], .integer(1)),
        // A text never equals a number.
        RollCase("\"1\" == 1", [], .integer(0)),
        RollCase("let m = \"orc\" in m == \"orc\"", [], .integer(1)),
        RollCase("def greet = \"hail\"\ngreet", [], .text("hail")),
        // A text or tally as written is shown once where it is bound or matched, as a number is.
        RollCase("let m = \"orc\" in m == \"orc\"", [], .integer(1), "let m = \"orc\" in m (\"orc\") == \"orc\" = 1"),
        RollCase("match \"b\" { \"a\": 1, \"b\": 2 }", [], .integer(2), "\"b\" → 2 = 2"),
        RollCase("let t = (s: 1) in t.s", [], .integer(1), "let t = (s: 1) in t.s = 1"),
        // A macro that rolled nothing shows its value once where it is bound, matched or tested.
        RollCase("def h(x) = x + 1\nmatch h(2) { 3: \"three\", else: \"no\" }", [], .text("three"), "h(2) (3) → three"),
        RollCase("def s = \"z\"\nlet a = s in a", [], .text("z"), "let a = s (\"z\") in a (z)"),
        RollCase("def s = \"z\"\nif s == \"z\" then \"y\" else \"n\"", [], .text("y"), "s (\"z\") == \"z\" → y"),
        RollCase("def t = 1\nif t then 5 else 6", [], .integer(5), "t (1) → 5 = 5"),
        // A field of a macro's result reads as the call's.
        RollCase("def t = (s: 2)\nt.s", [], .integer(2), "t.s = 2"),
        RollCase("def f(n) = (s: n)\nf(3).s + 1", [], .integer(4), "f(3).s + 1 = 4"),
        RollCase("\"say \\\"hi\\\" \\\\ bye\"", [], .text("say \"hi\" \\ bye")),
    ]

    static let tables: [RollCase] = [
        RollCase(move + "move(1)", [4, 5], .text("strong hit"), "move(1): 2d6 (4, 5) + stat (1) = 10 → strong hit"),
        RollCase(move + "move(1)", [3, 4], .text("weak hit")),
        RollCase(move + "move(1)", [2, 3], .text("miss")),
        RollCase(move + "move(1)", [1, 4], .text("miss")),
        RollCase(move + "move(1)", [6, 2], .text("weak hit")),
        RollCase(loot + "loot", [15, 3, 4], .integer(70), "loot: 1d20 (15) → 2d6 (3, 4) * 10 = 70"),
        // An entry not chosen draws no dice.
        RollCase(loot + "loot", [20, 3, 4], .text("flame tongue"), drawn: 1),
        RollCase(loot + "loot", [5], .text("junk")),
        // N-M with negative bounds, N-, N+.
        RollCase("match 2d6 - 7 { -5--1: \"low\", 0: \"even\", 1+: \"high\" }", [3, 4], .text("even")),
        RollCase("match 2d6 - 7 { -5--1: \"low\", 0: \"even\", 1+: \"high\" }", [1, 1], .text("low")),
        RollCase("match 2d6 - 7 { -5--1: \"low\", 0: \"even\", 1+: \"high\" }", [6, 2], .text("high")),
        RollCase("match 1d6 { 2-: \"low\", else: \"high\" }", [2], .text("low")),
        RollCase("match 1d6 { 2-: \"low\", else: \"high\" }", [3], .text("high")),
        // Every compare point; the first entry that holds wins.
        RollCase("match 1d20 { =20: \"crit\", >=(5 + 10): \"hit\", <=1: \"fumble\", <5: \"low\", !=7: \"miss\", >6: \"seven\" }",
                 [20], .text("crit")),
        RollCase("match 1d20 { =20: \"crit\", >=(5 + 10): \"hit\", <=1: \"fumble\", <5: \"low\", !=7: \"miss\", >6: \"seven\" }",
                 [15], .text("hit")),
        RollCase("match 1d20 { =20: \"crit\", >=(5 + 10): \"hit\", <=1: \"fumble\", <5: \"low\", !=7: \"miss\", >6: \"seven\" }",
                 [1], .text("fumble")),
        RollCase("match 1d20 { =20: \"crit\", >=(5 + 10): \"hit\", <=1: \"fumble\", <5: \"low\", !=7: \"miss\", >6: \"seven\" }",
                 [4], .text("low")),
        RollCase("match 1d20 { =20: \"crit\", >=(5 + 10): \"hit\", <=1: \"fumble\", <5: \"low\", !=7: \"miss\", >6: \"seven\" }",
                 [9], .text("miss")),
        RollCase("match 1d20 { =20: \"crit\", >=(5 + 10): \"hit\", <=1: \"fumble\", <5: \"low\", !=7: \"miss\", >6: \"seven\" }",
                 [7], .text("seven")),
        // Text patterns; the entry's dice are drawn only when it is chosen.
        RollCase("match d{\"goblin\", \"orc\", \"troll\"} { \"orc\": 2d6, \"troll\": 3d6, else: 1d6 }", [2, 3, 4, 5],
                 .integer(7), drawn: 3),
        RollCase("match d{\"goblin\", \"orc\", \"troll\"} { \"orc\": 2d6, \"troll\": 3d6, else: 1d6 }", [1, 3, 4, 5],
                 .integer(3), drawn: 2),
        RollCase("match d{\"goblin\", \"orc\", \"troll\"} { \"orc\": 2d6, \"troll\": 3d6, else: 1d6 }", [3, 3, 4, 5],
                 .integer(12), drawn: 4),
        // Every bound is rolled before the entries are tried: the second bound's die is drawn
        // although the first entry holds.
        RollCase("match 1d20 { <=(1d4): \"low\", >=(1d6 + 10): \"hit\", else: \"miss\" }", [1, 1, 6], .text("low")),
        RollCase("match 1d20 { <=(1d4): \"low\", >=(1d6 + 10): \"hit\", else: \"miss\" }", [12, 1, 1], .text("hit")),
        RollCase("match 1d20 { <=(1d4): \"low\", >=(1d6 + 10): \"hit\", else: \"miss\" }", [12, 1, 6], .text("miss")),
        RollCase("dc = 12\nmatch 1d20 { >=(dc): \"pass\", else: \"fail\" }", [12], .text("pass")),
        // An entry's error happens only when it is chosen.
        RollCase("match 1d6 { 1: 1 / 0, else: 2d6 }", [3, 2, 2], .integer(4)),
        RollCase("match 1d6 { 1: 1 / 0, else: 2d6 }", [3, 1, 1, 1], .integer(2), drawn: 3),
        // A table's result may be a tally or a number; a match is a value like any other.
        RollCase("match 1d6 { 1-3: (a: 1), else: 7 }", [2], .tally(["a": 1])),
        RollCase("1 + (match 1d6 { 1-3: 10, else: 20 })", [4], .integer(21)),
    ]

    static let tallies: [RollCase] = [
        RollCase("(s: 1) + (a: 2)", [], .tally(["s": 1, "a": 2]), "(s: 1) + (a: 2) = (s: 1, a: 2)"),
        RollCase("(s: 3, a: 1) - (s: 1)", [], .tally(["s": 2, "a": 1])),
        RollCase("(s: 1) + (a: 2) * 2 - (s: 3)", [], .tally(["s": -2, "a": 4]), "(s: 1) + (a: 2) * 2 - (s: 3) = (s: -2, a: 4)"),
        RollCase("(s: 1, a: -1) * 3", [], .tally(["s": 3, "a": -3])),
        RollCase("2 * (s: 2)", [], .tally(["s": 4])),
        // A macro that rolled nothing shows its tally in the tally's own parentheses, not in more.
        RollCase("def result(h) = (hits: h, glitch: 0)\nlet p = 2d6 in result(count(p, >=5))", [5, 2],
                 .tally(["hits": 1, "glitch": 0]), "let p = 2d6 (5, 2) in result(1) (hits: 1, glitch: 0)"),
        // The number 0 is the empty tally in + and -.
        RollCase("0 + (s: 1)", [], .tally(["s": 1])),
        RollCase("(s: 1) - 0", [], .tally(["s": 1])),
        RollCase("0 - (s: 1)", [], .tally(["s": -1])),
        RollCase("repeat(0, d{(s: 1)}) + (s: 2)", [], .tally(["s": 2])),
        // ... and in reading a field: its every field is 0 (any other number has none).
        RollCase("repeat(0, d{(s: 1)}).s", [], .integer(0), "{}.s = 0"),
        RollCase("let g = 0 in g.s", [], .integer(0), "let g = 0 in g.s = 0"),
        RollCase("(1 - 1).s", [], .integer(0)),
        // == with absent fields 0.
        RollCase("(s: 1) == (s: 1, a: 0)", [], .integer(1)),
        RollCase("() == (a: 0)", [], .integer(1)),
        RollCase("(s: 1) != (s: 2)", [], .integer(1)),
        RollCase("(s: 1) == (a: 1)", [], .integer(0)),
        RollCase("(s: 0) == 0", [], .integer(0)),
        // Fields: read, absent, of a bound tally, of a macro's result.
        RollCase("(hits: 1d6, glitch: 2).hits", [4], .integer(4)),
        RollCase("(s: 1).z", [], .integer(0)),
        RollCase("let t = (s: 1d4) + (a: 1d2) in t.s * t.a", [3, 2], .integer(6)),
        RollCase("def g = (s: 1d6 - 1d6)\ng.s + 1", [5, 2], .integer(4)),
        // Worked-out fields are followed by the tally itself, as worked-out numbers are by theirs.
        RollCase("(hits: 1d6, glitch: 2)", [5], .tally(["hits": 5, "glitch": 2]), "(hits: 1d6 (5), glitch: 2) = (hits: 5, glitch: 2)"),
    ]

    static let genesys = "def ability = d{(), (s: 1), (s: 1), (s: 2), (a: 1), (a: 1), (s: 1, a: 1), (a: 2)}\n"
        + "def difficulty = d{(), (f: 1), (f: 2), (t: 1), (t: 1), (t: 1), (t: 2), (f: 1, t: 1)}\n"
        + "def genesys(n, k) = let g = repeat(n, ability) + repeat(k, difficulty) in (success: g.s - g.f, advantage: g.a - g.t)\n"

    static let faces: [RollCase] = [
        RollCase("d{\"goblin\", \"orc\", \"troll\"}", [2], .text("orc"), "d{\"goblin\", \"orc\", \"troll\"} (\"orc\") = orc"),
        RollCase("1d{\"goblin\", \"orc\", \"troll\"} == \"troll\"", [3], .integer(1)),
        RollCase("4d{\"hit\", \"miss\", \"miss\"}cs=\"hit\"", [1, 2, 3, 1], .integer(2),
                 "4d{\"hit\", \"miss\", \"miss\"}cs=\"hit\" (\"hit\"*, \"miss\", \"miss\", \"hit\"*) = 2"),
        // Rerolls of text dice: each miss is rolled again until it is no miss.
        RollCase("4d{\"hit\", \"miss\", \"miss\"}r=\"miss\"cs=\"hit\"", [2, 1, 1, 3, 1, 1], .integer(4)),
        RollCase("3d{\"hit\", \"miss\"}cf=\"miss\"", [1, 2, 2], .integer(2)),
        // One tally die's face; tally dice add up.
        RollCase("d{(s: 1), (a: 1)}", [2], .tally(["a": 1])),
        RollCase("3d{(), (h: 1), (h: 1, c: 1)}", [3, 1, 3], .tally(["h": 2, "c": 2]),
                 "3d{(), (h: 1), (h: 1, c: 1)} ((h: 1, c: 1), (), (h: 1, c: 1)) = (h: 2, c: 2)"),
        RollCase("0d{(s: 1)}", [], .tally([:])),
        RollCase("repeat(2, d{(s: 1), (a: 1)}) + d{(f: 1)}", [1, 2, 1], .tally(["s": 1, "a": 1, "f": 1])),
        RollCase(genesys + "genesys(2, 1)", [4, 7, 8], .tally(["success": 2, "advantage": 0])),
        // No dice of a kind: its empty `repeat` is the number 0, whose fields are 0.
        RollCase(genesys + "genesys(0, 0)", [], .tally(["success": 0, "advantage": 0]),
                 "genesys(0, 0): let g = {} + {} = 0 in (success: g.s - g.f (0), advantage: g.a - g.t (0)) "
                 + "= (success: 0, advantage: 0)"),
        RollCase(genesys + "genesys(0, 1)", [8], .tally(["success": -1, "advantage": -1])),
        RollCase(genesys + "genesys(1, 0)", [7], .tally(["success": 1, "advantage": 1])),
        // Numbered custom dice with u, text dice with u counted.
        RollCase("2d{\"a\", \"b\", \"c\"}ucs=\"a\"", [1, 1, 2], .integer(1)),
    ]

    static let pools: [RollCase] = [
        RollCase("let p = 12d6 in (hits: count(p, >=5), glitch: count(p, =1) > 6)",
                 [5, 2, 6, 6, 6, 6, 1, 1, 3, 1, 4, 5], .tally(["hits": 6, "glitch": 0]),
                 "let p = 12d6 (5, 2, 6, 6, 6, 6, 1, 1, 3, 1, 4, 5) in (hits: count(p, >=5) (6), glitch: (count(p, =1) > 6) (0)) = (hits: 6, glitch: 0)"),
        RollCase("let p = 12d6 in (hits: count(p, >=5), glitch: count(p, =1) > 6)",
                 [1, 1, 1, 1, 1, 1, 1, 6, 5, 2, 3, 4], .tally(["hits": 2, "glitch": 1])),
        // p is the pool's value too.
        // A count of a bound pool shows its value, as the pool's name does.
        RollCase("let p = 4d6 in p + count(p, =6)", [6, 2, 6, 3], .integer(19),
                 "let p = 4d6 (6, 2, 6, 3) in p (17) + count(p, =6) (2) = 19"),
        RollCase("let p = 3d6 in if count(p, >=4) >= 2 then \"ok\" else \"no\"", [6, 6, 3], .text("ok"),
                 "let p = 3d6 (6, 6, 3) in count(p, >=4) (2) >= 2 → ok"),
        RollCase("let p = 4d6kh2 in p * 10 + count(p, <=2)", [6, 2, 1, 3], .integer(90)),
        RollCase("let p = 4d6kh2 in count(p, <=3)", [6, 2, 1, 3], .integer(1)),
        RollCase("let p = 6d10cs>=8 in p + count(p, =10)", [10, 8, 1, 2, 10, 9], .integer(6)),
        // count over pools, groups and repeat written in place: kept dice or members only.
        RollCase("count(5d6, =6)", [5, 2, 6, 6, 6], .integer(3)),
        RollCase("count(4d6kh2, >=5)", [6, 5, 5, 1], .integer(2)),
        RollCase("count({1d6, 1d8, 3}, >=3)", [5, 3], .integer(3)),
        RollCase("count({1d6, 1d8, 3}kh2, >=4)", [5, 3], .integer(1)),
        RollCase("count(repeat(3, 1d6), >=4)", [4, 3, 6], .integer(2)),
        RollCase("count(repeat(6, 4d6kh3), >=15)", [6, 6, 6, 1, 1, 1, 1, 1, 5, 5, 5, 5, 2, 2, 2, 2, 6, 5, 4, 3, 3, 3, 3, 3],
                 .integer(3)),
        RollCase("count(3d6!, =6)", [6, 6, 2, 3, 4], .integer(2)),
        RollCase("count(4d{\"hit\", \"miss\"}cs=\"hit\", =\"miss\")", [1, 2, 2, 1], .integer(2)),
    ]

    static let logic: [RollCase] = [
        // The right side is drawn only when needed.
        RollCase("1d6 >= 4 and 1d6 >= 4", [2, 6], .integer(0), drawn: 1),
        RollCase("1d6 >= 4 and 1d6 >= 4", [5, 6], .integer(1)),
        RollCase("1d6 >= 4 and 1d6 >= 4", [5, 1], .integer(0)),
        RollCase("1d6 >= 4 or 1d6 >= 4", [5, 1], .integer(1), drawn: 1),
        RollCase("1d6 >= 4 or 1d6 >= 4", [1, 5], .integer(1)),
        RollCase("1d6 >= 4 or 1d6 >= 4", [1, 1], .integer(0)),
        // An error on the right happens only when the right side is evaluated.
        RollCase("1d6 > 6 and 1 / 0", [3], .integer(0)),
        RollCase("1d6 < 7 or 1 / 0", [3], .integer(1)),
        RollCase("not 1d6 == 6", [6], .integer(0)),
        RollCase("not 1d6 == 6", [5], .integer(1)),
        // Numbers other than 0 are true; the result is 1 or 0.
        RollCase("1d6 and 2d6", [3, 1, 1], .integer(1)),
        RollCase("1d4 - 1 or 0", [1], .integer(0)),
        RollCase("let r = 1d20 in let w = 1d20 in r == 1 and w == 1 or r == 20", [20, 5], .integer(1)),
        RollCase("let r = 1d20 in let w = 1d20 in r == 1 and w == 1 or r == 20", [1, 1], .integer(1)),
        RollCase("let r = 1d20 in let w = 1d20 in r == 1 and w == 1 or r == 20", [1, 2], .integer(0)),
        RollCase("not 0 and not 0", [], .integer(1)),
    ]

    static let defaults: [RollCase] = [
        RollCase("def atk(bonus = 0) = 1d20 + 5 + bonus\natk", [10], .integer(15)),
        RollCase("def atk(bonus = 0) = 1d20 + 5 + bonus\natk()", [10], .integer(15)),
        RollCase("def atk(bonus = 0) = 1d20 + 5 + bonus\natk(2)", [10], .integer(17)),
        RollCase("def dmg(n, sides = 6) = (n)d(sides)\ndmg(2)", [6, 5], .integer(11)),
        // The scripted 6 is clamped to the four sides passed.
        RollCase("def dmg(n, sides = 6) = (n)d(sides)\ndmg(2, 4)", [6, 5], .integer(8)),
        RollCase("def dmg(n, sides = 6) = (n)d(sides)\ndmg(1d2)", [2, 6, 5], .integer(11)),
        // A default is rolled afresh at each use.
        RollCase("def f(x = 1d6) = x * 10\nf + f", [2, 3], .integer(50)),
        RollCase("def f(a = 1, b = 2) = a * 10 + b\nf(5)", [], .integer(52)),
        RollCase("def f(a = \"hi\") = a\nf", [], .text("hi")),
    ]

    static let givens: [RollCase] = [
        RollCase("let r = 1d20 in r given r >= 18", [3, 10, 19], .integer(19)),
        RollCase("let r = 1d20 in r given r >= 18", [20], .integer(20)),
        // E and C are rolled again together.
        RollCase("2d6 given 1d6 == 6", [1, 1, 3, 4, 5, 6], .integer(9)),
        RollCase("let a = 1d6 in let b = 1d6 in a + b given a == b", [1, 2, 3, 3], .integer(6)),
        RollCase("let p = 4d6 in p given count(p, =6) >= 2", [6, 1, 1, 1, 6, 6, 2, 3], .integer(17)),
        RollCase(move + "let m = move(1) in m given m != \"miss\"", [1, 1, 4, 4], .text("weak hit")),
        // The breakdown ends in the condition: the text follows it, as a number does.
        RollCase("\"a\" given 1d6 > 2", [5], .text("a"), "\"a\" given (1d6 (5) > 2) = a"),
        RollCase("let r = 1d20 in (if r > 10 then \"hit\" else \"miss\") given r > 5", [19], .text("hit"),
                 "let r = 1d20 (19) in (r (19) > 10 → \"hit\") given (r > 5) = hit"),
    ]

    static let all = texts + tables + tallies + faces + pools + logic + defaults + givens

    @Test(arguments: all)
    func rolls(_ c: RollCase) throws {
        let run = try ScriptedProgram(c.program, faces: c.faces)
        #expect(run.roll.value == c.value)
        #expect(run.drawn == c.drawn ?? c.faces.count, "drew \(run.drawn) of \(c.faces)")
        if let breakdown = c.breakdown {
            #expect(RollRenderer.plain.render(run.roll) == breakdown)
        }
    }

    /// `-t` rolls the value alone: the same value from the same dice.
    @Test(arguments: all)
    func theValuePathAgrees(_ c: RollCase) throws {
        let run = try ScriptedProgram(c.program, faces: c.faces)
        let value = try ScriptedProgram.value(c.program, faces: c.faces)
        #expect(value.value == run.roll.value)
        #expect(value.drawn == run.drawn)
    }

    /// `count(p, ="hit")` counts text dice (LANGUAGE.md §5b), as `cs="hit"` does, written in
    /// place or bound, and the members of a `repeat`; `stats` counts them. The pool's own value
    /// (a sum of several text dice) fails only where it is used.
    @Test(arguments: [
        ("count(4d{\"hit\", \"miss\"}, =\"hit\")", [1, 2, 2, 1]),
        ("let p = 4d{\"hit\", \"miss\"} in count(p, =\"hit\")", [1, 2, 2, 1]),
        ("count(repeat(4, d{\"hit\", \"miss\"}), =\"hit\")", [1, 2, 2, 1]),
    ] as [(String, [Int])])
    func countsTextDice(_ text: String, _ faces: [Int]) throws {
        let run = try ScriptedProgram(text, faces: faces)
        #expect(run.roll.value == .integer(2))
    }
}
