import Testing
@testable import DiceKit

/// The forms of LANGUAGE.md §5b, §7 (`given`) and §8a (`use`): texts, tables, tallies and
/// fields, bound pools, logic, text and tally faces, unique dice, default parameters.
@Suite struct OutcomeParserTests {
    // MARK: - Texts, tables

    static let tables: [DumpCase] = [
        DumpCase(#""weak hit""#, #""weak hit""#),
        DumpCase(#""""#, #""""#),
        DumpCase(##""# not a comment [nor a label]""##, ##""# not a comment [nor a label]""##),
        DumpCase(#"match 9 { 6-: "miss", 7-9: "weak hit", 10+: "strong hit" }"#,
                 #"(match 9 [6-: "miss"] [7-9: "weak hit"] [10+: "strong hit"])"#),
        DumpCase(#"match 2d6 + stat { 6-: "miss", 7-9: "weak hit", else: "strong hit" }"#,
                 #"(match (+ (dice 2 6) stat) [6-: "miss"] [7-9: "weak hit"] [else: "strong hit"])"#),
        DumpCase("match x { -3--1: 1, 0: 2, +1-+2: 3 }", "(match x [-3--1: 1] [0: 2] [1-2: 3])"),
        DumpCase("match x { - 3 - - 1: 1 }", "(match x [-3--1: 1])"),
        DumpCase("match x { >=(dc + 10): 1, >5: 2, <=-1: 3, <0: 4, =7: 5, !=8: 6, <>9: 7, ==1: 8 }",
                 "(match x [>=((+ dc 10)): 1] [>5: 2] [<=-1: 3] [<0: 4] [=7: 5] [<>8: 6] [<>9: 7] [=1: 8])"),
        DumpCase(#"match r { "orc": 1, !="troll": 2 }"#, #"(match r ["orc": 1] [<>"troll": 2])"#),
        DumpCase("match x { (lo)-(hi): 1, (lo): 2, (hi)+: 3 }", "(match x [(lo)-(hi): 1] [(lo): 2] [(hi)+: 3])"),
        DumpCase("match x / 2 { 1.5: 1 }", "(match (/ x 2) [1.5: 1])"),
        DumpCase("match x { else: 1 }", "(match x [else: 1])"),
        DumpCase("match x { 1: 2, }", "(match x [1: 2])"),
        DumpCase(#"match 1d20 { 1-5: "junk", 13-19: 2d6 * 10 }"#,
                 #"(match (dice 1 20) [1-5: "junk"] [13-19: (* (dice 2 6) 10)])"#),
        DumpCase("match x { 1: match y { 1: 2 }, 2: 3 }", "(match x [1: (match y [1: 2])] [2: 3])"),
        DumpCase("match x { 1: if a then 1 else 2, 2: let r = 1 in r }",
                 "(match x [1: (if a 1 2)] [2: (let r 1 r)])"),
        DumpCase("match a given b { 1: 2 }", "(match (given a b) [1: 2])"),
        DumpCase("match a or b {1:2}", "(match (or a b) [1: 2])"),
        DumpCase("if x then match y { 1: 2 } else 3", "(if x (match y [1: 2]) 3)"),
        DumpCase("1 + (match x { 1: 2 })", "(+ 1 (match x [1: 2]))"),
    ]

    // MARK: - Tallies, fields, bound pools

    static let tallies: [DumpCase] = [
        DumpCase("(hits: 3, glitch: 1)", "(tally [hits 3] [glitch 1])"),
        DumpCase("()", "(tally)"),
        DumpCase("( )", "(tally)"),
        DumpCase("(s: 1) + (a: 2)", "(+ (tally [s 1]) (tally [a 2]))"),
        DumpCase("(s: 1) == (s: 1, a: 0)", "(== (tally [s 1]) (tally [s 1] [a 0]))"),
        DumpCase("(count: 1, repeat: 2)", "(tally [count 1] [repeat 2])"),
        DumpCase("(x: if a then 1 else 2)", "(tally [x (if a 1 2)])"),
        DumpCase("(x)", "x"),
        DumpCase("t.hits", "(. t hits)"),
        DumpCase("(p).x", "(. p x)"),
        DumpCase("t.a.b", "(. (. t a) b)"),
        DumpCase("t.d6", "(. t d6)"),
        DumpCase("((s: 2) + (a: 1, s: -1)).a", "(. (+ (tally [s 2]) (tally [a 1] [s (neg 1)])) a)"),
        DumpCase("(s: 1, a: 2).a", "(. (tally [s 1] [a 2]) a)"),
        DumpCase("f(x).s + repeat(2, d{(s: 1)}).s", "(+ (. (call f x) s) (. (repeat 2 (dice _ {(s: 1)})) s))"),
        DumpCase("-t.hits * 2", "(* (neg (. t hits)) 2)"),
        DumpCase("t.n^2", "(^ (. t n) 2)"),
        DumpCase("(t.n)d6", "(dice (. t n) 6)"),
        // A field touching the end of a dice term reads the roll's (it said "unexpected '.'").
        DumpCase("2d{(s: 1), (a: 1)}.s", "(. (dice 2 {(s: 1),(a: 1)}) s)"),
        DumpCase("4dF.s", "(. (dice 4 F) s)"),
        DumpCase("4d6kh3.s.t", "(. (. (dice 4 6 kh3) s) t)"),
        DumpCase("{a, b}kh1.s", "(. (group [a b] kh1) s)"),
        DumpCase("count(p, >=5)", "(count p >=5)"),
        DumpCase("count(p, =1) + count(p,==2) + count(p, 3)", "(chain (count p =1) + (count p =2) + (count p =3))"),
        DumpCase(#"count(p, ="hit")"#, #"(count p ="hit")"#),
        DumpCase("count(p, != -1)", "(count p <>-1)"),
        DumpCase("count(p, >(x))", "(count p >(x))"),
        DumpCase("count(12d6, >= 5)", "(count (dice 12 6) >=5)"),
        DumpCase("count(repeat(6, 4d6kh3), >=15)", "(count (repeat 6 (dice 4 6 kh3)) >=15)"),
        DumpCase("let p = 12d6 in (hits: count(p, >=5), glitch: count(p, =1) > 6)",
                 "(let p (dice 12 6) (tally [hits (count p >=5)] [glitch (> (count p =1) 6)]))"),
    ]

    // MARK: - Logic, given

    static let logic: [DumpCase] = [
        DumpCase("a and b or c", "(or (and a b) c)"),
        DumpCase("a or b and c", "(or a (and b c))"),
        DumpCase("a or b or c", "(or (or a b) c)"),
        DumpCase("not a and b", "(and (not a) b)"),
        DumpCase("not 2 > 3", "(not (> 2 3))"),
        DumpCase("not not x", "(not (not x))"),
        DumpCase("not -1", "(not (neg 1))"),
        DumpCase("r == 1 and w == 1", "(and (== r 1) (== w 1))"),
        DumpCase("0 and 5 // 0", "(and 0 (// 5 0))"),
        DumpCase("1d20 and 1d4or 1", "(or (and (dice 1 20) (dice 1 4)) 1)"),
        DumpCase("a given b", "(given a b)"),
        DumpCase("a given b or c", "(given a (or b c))"),
        DumpCase("a or b given c", "(given (or a b) c)"),
        DumpCase("a given b given c", "(given (given a b) c)"),
        DumpCase("let r = 1d20 in r given r >= 18", "(let r (dice 1 20) (given r (>= r 18)))"),
        DumpCase("if a then b else c given d", "(if a b (given c d))"),
    ]

    // MARK: - Text and tally faces, unique dice

    static let dice: [DumpCase] = [
        DumpCase(#"d{"goblin", "orc", "troll"}"#, #"(dice _ {"goblin","orc","troll"})"#),
        DumpCase(#"4d{"hit","miss","miss"}cs="hit""#, #"(dice 4 {"hit","miss","miss"} cs="hit")"#),
        DumpCase(#"2d{"a", "b"}r="b"ro!="a""#, #"(dice 2 {"a","b"} r="b" ro<>"a")"#),
        DumpCase("d{(), (s: 1), (s: 1, a: 1)}", "(dice _ {(),(s: 1),(s: 1, a: 1)})"),
        DumpCase("d{(s: -1, a: +2)}", "(dice _ {(s: -1, a: 2)})"),
        DumpCase(#"d{1, "a", -2}"#, #"(dice _ {1,"a",-2})"#),
        DumpCase("d{1, -2}", "(dice _ {1,-2})"),
        DumpCase("3d8u", "(dice 3 8 u)"),
        DumpCase("4d6ukh3", "(dice 4 6 u kh3)"),
        DumpCase("4d6kh3u", "(dice 4 6 kh3 u)"),
        DumpCase("10d20u", "(dice 10 20 u)"),
        DumpCase("repeat(3, 1d6)u", "(repeat 3 (dice 1 6) u)"),
    ]

    @Test(arguments: tables + tallies + logic + dice)
    func parsesExpression(_ c: DumpCase) throws {
        #expect(try Parser.parseExpression(c.input).dump == c.dump)
    }

    /// Escapes are resolved; the text is what is between the quotes.
    @Test func textsResolveTheirEscapes() throws {
        #expect(try Parser.parseExpression(#""say \"hi\" \\ bye""#).kind == .text(#"say "hi" \ bye"#))
        #expect(try Parser.parseExpression(#""é 🎲""#).kind == .text("é 🎲"))
        let longest = "\"" + String(repeating: "é", count: Lexer.maxTextLength) + "\""
        #expect(try Parser.parseExpression(longest).kind == .text(String(repeating: "é", count: Lexer.maxTextLength)))
    }

    /// The tree of a text face and a tally face is the value the face shows.
    @Test func symbolFacesAreValues() throws {
        let expr = try Parser.parseExpression(#"d{"orc", (s: 1, a: -1), ()}"#)
        guard case .dice(let term) = expr.kind else {
            Issue.record("not a dice term: \(expr.dump)")
            return
        }
        #expect(term.sides == .symbols([.text("orc"), .tally(DiceKit.Tally([("s", .integer(1)), ("a", .integer(-1))])),
                                        .tally(DiceKit.Tally())]))
        #expect(try Parser.parseExpression("d{3, -1}").dump == "(dice _ {3,-1})")
    }

    // MARK: - Statements

    static let programs: [ProgramCase] = [
        ProgramCase("def atk(bonus = 0) = 1d20 + 5 + bonus", ["(def atk [bonus=0] (chain (dice 1 20) + 5 + bonus))"]),
        ProgramCase("def f(a, b = 1d4, c = if x then 1 else 2) = a",
                    ["(def f [a b=(dice 1 4) c=(if x 1 2)] a)"]),
        // A default may bind a parameter's name again with `let`, and read any other name.
        ProgramCase("def f(x, y = let x = 2 in x + z) = y", ["(def f [x y=(let x 2 (+ x z))] y)"]),
        ProgramCase("def dmg(n = 1) = (n)d1 + 2; dmg; dmg(3)", ["(def dmg [n=1] (+ (dice n 1) 2))", "dmg", "(call dmg 3)"]),
        ProgramCase("use pbta", ["(use pbta)"]),
        ProgramCase("use dnd5e\nuse", ["(use dnd5e)", "(use)"]),
        ProgramCase("use; 1", ["(use)", "1"]),
        ProgramCase(#"def move(stat) = match 2d6 + stat { 6-: "miss", 7-9: "weak hit", 10+: "strong hit" }"#,
                    [#"(def move [stat] (match (+ (dice 2 6) stat) [6-: "miss"] [7-9: "weak hit"] [10+: "strong hit"]))"#]),
        // A table over lines: line breaks separate the entries, with or without commas.
        ProgramCase("match x {\n  1: \"a\"  # one\n  2: \"b\",\n\n  -3: 4\n  else: \"c\"\n}\n3",
                    [#"(match x [1: "a"] [2: "b"] [-3: 4] [else: "c"])"#, "3"]),
        ProgramCase("match x { 1: 2,\n 3: 4,\n }", ["(match x [1: 2] [3: 4])"]),
        ProgramCase("x = (s: 1); x.s", ["(= x (tally [s 1]))", "(. x s)"]),
    ]

    @Test(arguments: programs)
    func parsesProgram(_ c: ProgramCase) throws {
        #expect(try Parser.parseProgram(c.input).map(\.dump) == c.dumps)
    }

    /// In the REPL a newline inside brackets continues the statement, but between the
    /// entries of a `match` it still separates them: `-3` starts an entry, not `2 - 3`.
    @Test func replLinesSeparateTheEntriesOfAMatch() throws {
        let text = "match x {\n  1: 2\n  -3: y\n  (z): f\n  (w): {1,\n 2}\n}"
        #expect(Parser.needsAnotherLine("match x {\n  1: 2"))
        var parser = Parser(SourceFile(name: "<input>", text: text))
        #expect(try parser.nextStatement()?.dump == "(match x [1: 2] [-3: y] [(z): f] [(w): (group [1 2])])")
        #expect(try parser.nextStatement() == nil)
    }

    /// A table typed over lines is one history line that reads back as the same table: a
    /// `,` where a line break alone separated entries, and a `#` or `[` in a text kept.
    @Test(arguments: [
        ("match x {\n  1: \"a # b\"  # one\n  2: \"[c\",\n\n  else: 4\n}", #"match x { 1: "a # b", 2: "[c", else: 4 }"#),
        ("match x {  # a table\n  1: 2\n  # a comment\n  -3: 4 }", "match x { 1: 2, -3: 4 }"),
        ("{1,\n match y { 1: 2\n 3: 4 }}", "{1, match y { 1: 2, 3: 4 }}"),
    ])
    func aTableOverLinesIsOneHistoryLine(_ typed: String, _ line: String) throws {
        #expect(Parser.oneLine(typed) == line)
        var parser = Parser(SourceFile(name: "<input>", text: typed))
        #expect(try Parser.parseExpression(line).dump == parser.nextStatement()?.dump)
    }

    /// `dice --stats` reads an expression statement as `stats`, but `use` stays `use`.
    @Test func useIsAStatementUnderTheStatsOption() throws {
        var parser = Parser(SourceFile(name: "<-e>", text: "use pbta\nmove(1)"), expressionsAreStats: true)
        #expect(try parser.nextStatement()?.dump == "(use pbta)")
        #expect(try parser.nextStatement()?.dump == "(stats (call move 1))")
    }

    /// A tally's field and a pattern's range cover their text.
    @Test func rangesCoverTheirText() throws {
        let text = "match t.hits { 7-9: 1, >=(dc): 2 }"
        let source = SourceFile(name: "<test>", text: text)
        let expr = try Parser.parseExpression(text)
        #expect(source.text(of: expr.range) == text)
        guard case .match(let subject, let entries, nil) = expr.kind else {
            Issue.record("not a match: \(expr.dump)")
            return
        }
        #expect(source.text(of: subject.range) == "t.hits")
        #expect(entries.map { source.text(of: $0.patternRange) } == ["7-9", ">=(dc)"])
        #expect(entries.map { source.text(of: $0.result.range) } == ["1", "2"])
    }

    // MARK: - Errors and their columns

    static let errors: [ParseErrorCase] = [
        ParseErrorCase(#"‸"abc"#, .unterminatedText),
        ParseErrorCase("1 + ‸\"abc\n2", .unterminatedText),
        ParseErrorCase(#""a‸\nb""#, .invalidEscape(#"\n"#)),
        ParseErrorCase(#""a‸\é""#, .invalidEscape(#"\é"#)),
        ParseErrorCase(#""a‸\"#, .invalidEscape(#"\"#)),
        ParseErrorCase("‸\"" + String(repeating: "x", count: Lexer.maxTextLength + 1) + "\"",
                       .textTooLong(limit: Lexer.maxTextLength)),
        // Too long before its end is read (`dice` reads a long script in parts): it said "no
        // closing quote" of a 2,000,000-character text.
        ParseErrorCase("‸\"" + String(repeating: "é", count: 5 * Lexer.maxTextLength), .textTooLong(limit: Lexer.maxTextLength)),
        ParseErrorCase("‸\"" + String(repeating: "e\u{301}", count: 900), .unterminatedText),
        ParseErrorCase("match x ‸1: 2", .expected(.matchBrace, found: .integer(1))),
        ParseErrorCase("match‸", .expected(.operand(after: "match"), found: .end)),
        ParseErrorCase("match x { ‸: 1 }", .expected(.pattern, found: .colon)),
        ParseErrorCase("match x {‸}", .expected(.pattern, found: .rightBrace)),
        ParseErrorCase("match x { 1: 2, ‸, 3: 4 }", .expected(.pattern, found: .comma)),
        ParseErrorCase(#"match x { 7-9 ‸"hit" }"#, .expected(.entryColon, found: .text("hit"))),
        ParseErrorCase("match x { 1: ‸}", .expected(.entryResult, found: .rightBrace)),
        ParseErrorCase("match x { 1: 2 ‸3: 4 }", .expected(.entrySeparator, found: .integer(3))),
        ParseErrorCase("match x { 1: 2‸", .expected(.entrySeparator, found: .end)),
        ParseErrorCase("match x { else: 1, ‸2: 3 }", .entryAfterElse),
        // A match ends at its `}`: an operator after it says how to go on.
        ParseErrorCase("match 2d6 { 7+: \"hit\", else: \"miss\" } ‸given 1d6 > 2", .operatorAfterMatch(.keyword(.given))),
        ParseErrorCase("match x { else: 1 } ‸+ 1", .operatorAfterMatch(.plus)),
        ParseErrorCase("match x { else: 1 } ‸== 1", .operatorAfterMatch(.equalEqual)),
        ParseErrorCase("match x { else: 1\n‸else: 3 }", .entryAfterElse),
        // A range of literal ends whose low end is above its high end is always a mistake.
        ParseErrorCase("match 5 { ‸3-1: 1, else: 0 }", .emptyRange(low: "3", high: "1")),
        ParseErrorCase("match x { 1: 0, ‸-1--3: 1 }", .emptyRange(low: "-1", high: "-3")),
        ParseErrorCase("match x { ‸2.5-1: 1 }", .emptyRange(low: "2.5", high: "1")),
        ParseErrorCase("match x { 1-‸y: 2 }", .expected(.patternBound, found: .name("y"))),
        ParseErrorCase("match x { >=‸y: 2 }", .expected(.patternBound, found: .name("y"))),
        ParseErrorCase("match x { ‸y: 2 }", .expected(.pattern, found: .name("y"))),
        ParseErrorCase("1 + ‸match x { 1: 2 }", .expected(.expression, found: .keyword(.match))),
        ParseErrorCase("1 + ‸not x", .expected(.expression, found: .keyword(.not))),
        ParseErrorCase("(hits: 3, ‸4)", .expected(.tallyField, found: .integer(4))),
        ParseErrorCase("(hits: 3, glitch ‸1)", .expected(.tallyColon(field: "glitch"), found: .integer(1))),
        ParseErrorCase("(hits: ‸)", .expected(.tallyValue(field: "hits"), found: .rightParen)),
        ParseErrorCase("(hits: 3 ‸glitch: 1)", .expected(.tallySeparator, found: .name("glitch"))),
        ParseErrorCase("(s: 1, ‸s: 2)", .fieldNamedTwice("s")),
        ParseErrorCase("d{(s: 1, ‸s: 2)}", .fieldNamedTwice("s")),
        ParseErrorCase("d{(s: ‸x)}", .expected(.faceTallyField, found: .name("x"))),
        ParseErrorCase("d{(‸1)}", .expected(.faceTallyField, found: .integer(1))),
        ParseErrorCase(#"d{"a", ‸x}"#, .expected(.face, found: .name("x"))),
        ParseErrorCase("t‸. hits", .unexpectedCharacter("'.'")),
        ParseErrorCase("1‸.x", .unexpectedCharacter("'.'")),
        ParseErrorCase("t ‸.x", .unexpectedCharacter("'.'")),
        ParseErrorCase("3d6 ‸.s", .unexpectedCharacter("'.'")),
        ParseErrorCase("count(p‸)", .expected(.countPoint, found: .rightParen)),
        ParseErrorCase("count(p, >=5 ‸6)", .expected(.closingParenthesisAfterCount, found: .integer(6))),
        ParseErrorCase("count(p, ‸x)", .expected(.compareValue, found: .name("x"))),
        ParseErrorCase("count(‸)", .expected(.expression, found: .rightParen)),
        ParseErrorCase("‸count", .functionNotCalled("count")),
        ParseErrorCase("‸count = 3", .functionNameAssigned("count")),
        ParseErrorCase("def f(a = 1, ‸b) = a + b", .requiredParameterAfterDefault("b")),
        ParseErrorCase("def f(a = ‸) = a", .expected(.defaultValue(parameter: "a"), found: .rightParen)),
        ParseErrorCase("def f(a = 1, ‸a = 2) = a", .parameterNamedTwice("a")),
        // A default is worked out where the macro is used: it reads no parameter of its own.
        ParseErrorCase("def f(x, y = ‸x) = x + y", .defaultReadsParameter(parameter: "y", read: "x")),
        ParseErrorCase("def f(x, y = 1d6 + ‸x * 2) = y", .defaultReadsParameter(parameter: "y", read: "x")),
        ParseErrorCase("def f(y = ‸x + 1, x = 2) = y", .defaultReadsParameter(parameter: "y", read: "x")),
        ParseErrorCase("def f(x, y = let z = 1 in ‸x(z)) = y", .defaultReadsParameter(parameter: "y", read: "x")),
        ParseErrorCase("def f(x, y = let x = ‸x in x) = y", .defaultReadsParameter(parameter: "y", read: "x")),
        ParseErrorCase("def f(p, n = count(‸p, =1)) = n", .defaultReadsParameter(parameter: "n", read: "p")),
        ParseErrorCase("use ‸3", .expected(.systemName, found: .integer(3))),
        ParseErrorCase("use pbta ‸dnd5e", .unexpectedToken(.name("dnd5e"))),
        ParseErrorCase("‸use = 3", .reservedWord("use")),
        ParseErrorCase("let ‸and = 1 in 2", .reservedWord("and")),
        ParseErrorCase("def ‸match = 1", .reservedWord("match")),
        ParseErrorCase("def f(‸not) = 1", .reservedWord("not")),
        ParseErrorCase("1 and‸", .expected(.operand(after: "and"), found: .end)),
        ParseErrorCase("1 or ‸)", .expected(.operand(after: "or"), found: .rightParen)),
        ParseErrorCase("not‸", .expected(.operand(after: "not"), found: .end)),
        ParseErrorCase("1 given ‸", .expected(.operand(after: "given"), found: .end)),
        ParseErrorCase("4d6 ‸u", .modifierAfterSpace("u")),
        ParseErrorCase(#"4d{"a"}cs=‸x"#, .expected(.compareValue, found: .name("x"))),
        ParseErrorCase("x ‸: 1", .unexpectedToken(.colon)),
    ]

    @Test(arguments: errors)
    func reportsErrorAtColumn(_ c: ParseErrorCase) {
        c.expectReported()
    }

    /// Only a range of two literal ends, the low above the high, is an empty range: one of
    /// a single value, in order, or with a computed end parses.
    @Test(arguments: ["match 5 { 3-3: 1, else: 0 }", "match 5 { -3--1: 1, else: 0 }", "match 5 { (3)-1: 1, else: 0 }",
                      "match 5 { 3-(1): 1, else: 0 }", "match 5 { 1.5-2: 1, else: 0 }"])
    func rangesInOrderParse(_ source: String) throws {
        let expr = try Parser.parseExpression(source)
        // Printed (`:save`), `(3)-1` keeps its parentheses, so it parses again.
        #expect(try Parser.parseExpression(expr.text).dump == expr.dump, "\(expr.text)")
    }
}
