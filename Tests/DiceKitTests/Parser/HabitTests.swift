import Testing
@testable import DiceKit

/// What a new user from another roller types, and the hint each gets (issue 24): every
/// hint is an error kind with data, and every suggestion parses.
@Suite struct HabitTests {
    static let parseHints: [ParseErrorCase] = [
        ParseErrorCase("1d20 ‸=> 15", .foreignModifier("=>", suggestion: "1d20 >= 15")),
        ParseErrorCase("1d20 + 5 ‸=< 15", .foreignModifier("=<", suggestion: "1d20 + 5 <= 15")),
        ParseErrorCase("attack ‸15 5", .foreignModifier("attack", suggestion: "attack(15, 5)")),
        ParseErrorCase("smite ‸2", .foreignModifier("smite", suggestion: "smite(2)")),
        ParseErrorCase("1d20‸adv", .foreignModifier("adv", suggestion: "2d20kh1")),
        ParseErrorCase("1d20‸adv + 5", .foreignModifier("adv", suggestion: "2d20kh1 + 5")),
        ParseErrorCase("2d20 ‸advantage", .foreignModifier("advantage", suggestion: "2d20kh1")),
        ParseErrorCase("2d20 ‸disadvantage + 3", .foreignModifier("disadvantage", suggestion: "2d20kl1 + 3")),
        ParseErrorCase("1d20+5 ‸vs 15", .foreignModifier("vs", suggestion: "1d20+5 >= 15")),
        ParseErrorCase("‸[[1d20+5]]", .inlineRoll(roll: "1d20+5")),
        // Still what they were: a statement after a space, a label with no term.
        ParseErrorCase("foo ‸1d6", .missingSeparator(.integer(1), suggestion: "foo; 1d6")),
        ParseErrorCase("‸[fire]", .annotationWithoutTerm),
        ParseErrorCase("1 ‸= 2", .unexpectedEquals),
        ParseErrorCase("3d6 ‸advantage", .unexpectedToken(.name("advantage"))),
    ]

    @Test(arguments: parseHints)
    func hintsAHabit(_ c: ParseErrorCase) {
        let marked = MarkedText(c.marked)
        let error = diceError { () throws(DiceError) in try Parser.parseProgram(marked.text) }
        #expect(error?.kind == c.expected)
        #expect(error?.position(in: marked.text) == TextPosition(line: marked.line ?? 0, column: marked.column ?? 0))
        if case .foreignModifier(_, let suggestion)? = error?.kind {
            #expect(Parser.parses(suggestion), "the suggestion \(suggestion) is itself an error")
        }
    }

    /// `attack 15 5` once suggested `attack; 15 5`, itself an error: a `;` suggestion must parse.
    @Test func aSeparatorSuggestionThatDoesNotParseIsLeftOut() {
        let error = diceError { () throws(DiceError) in try Parser.parseProgram("3d6 1d6 )") }
        #expect(error?.kind == .missingSeparator(.integer(1), suggestion: nil))
    }

    // MARK: - Names

    static func unknownName(_ program: String) -> DiceError.Kind? {
        var session = Session(seed: 1)
        do {
            for statement in try Parser.parseProgram(program) { _ = try session.execute(statement) }
            return nil
        } catch {
            return error.kind
        }
    }

    @Test func suggestionsWeighWhatWasTyped() {
        // `adv` is advantage, not `abs` (a function is no name to use bare).
        #expect(Self.unknownName("adv") == .unknownName("adv", suggestion: "2d20kh1"))
        #expect(Self.unknownName("dis") == .unknownName("dis", suggestion: "2d20kl1"))
        // A prefix first: after `:del str`, `str` is `strmod`, not `atk`.
        #expect(Self.unknownName("def atk = 1d20; strmod = 4; str") == .unknownName("str", suggestion: "strmod"))
        // Edit distance still finds typos.
        #expect(Self.unknownName("dex = 3; dx") == .unknownName("dx", suggestion: "dex"))
        // A bare name never suggests a function or a macro with parameters; a call does.
        #expect(Self.unknownName("abz") == .unknownName("abz", suggestion: nil))
        #expect(Self.unknownName("abz(3)") == .unknownName("abz", suggestion: "abs"))
        #expect(Self.unknownName("def smite(n) = n; smit") == .unknownName("smit", suggestion: nil))
        #expect(Self.unknownName("def smite(n) = n; smit(2)") == .unknownName("smit", suggestion: "smite"))
        #expect(Self.unknownName("x = 3; xx(2)") == .unknownName("xx", suggestion: nil))
    }

    // MARK: - Updates (`hp -= 5`)

    static func outcomes(_ program: String, seed: UInt64 = 1) throws -> [String] {
        var session = Session(seed: seed)
        return try Parser.parseProgram(program).map { OutcomeRenderer().text(for: try session.execute($0)) }
    }

    @Test func updatesChangeAVariable() throws {
        #expect(try Self.outcomes("hp = 30; hp -= 5; hp += 2; hp *= 1 + 1; hp -= 2 - 1") == [
            "hp = 30", "hp = hp (30) - 5 = 25", "hp = hp (25) + 2 = 27", "hp = hp (27) * (1 + 1) = 54",
            "hp = hp (54) - (2 - 1) = 53",
        ])
        var session = Session(seed: 1)
        for statement in try Parser.parseProgram("hp = 10; hp += 1d8") { _ = try session.execute(statement) }
        guard case .variable(let hp)? = session.environment["hp"] else {
            Issue.record("hp is not a variable")
            return
        }
        #expect(hp.number.map { $0 >= .integer(11) && $0 <= .integer(18) } == true)
        // `:save` writes the value as a plain assignment.
        #expect(SessionScript.text(of: session.environment).contains("\nhp = \(hp)\n"))
    }

    @Test func anUpdateParsesAndPrintsBack() throws {
        let statements = try Parser.parseProgram("hp -= 1d8 + 2; gold += 5; xp *= 2")
        #expect(statements.map(\.dump) == ["(-= hp (+ (dice 1 8) 2))", "(+= gold 5)", "(*= xp 2)"])
        #expect(statements.map(\.text) == ["hp -= 1d8 + 2", "gold += 5", "xp *= 2"])
        #expect(diceError { () throws(DiceError) in try Parser.parseProgram("hp -=") }?.kind
                == .expected(.updateValue(name: "hp", .subtract), found: .end))
        #expect(diceError { () throws(DiceError) in try Parser.parseProgram("abs += 1") }?.kind
                == .functionNameAssigned("abs"))
    }

    @Test func anUpdateOfNoVariableSuggestsTheAssignment() {
        #expect(Self.unknownName("hp -= 5") == .updateWithoutVariable("hp", isMacro: false, suggestion: "hp = -5"))
        #expect(Self.unknownName("hp += 1d8") == .updateWithoutVariable("hp", isMacro: false, suggestion: "hp = 1d8"))
        #expect(Self.unknownName("hp -= 1 + 2") == .updateWithoutVariable("hp", isMacro: false, suggestion: "hp = -(1 + 2)"))
        #expect(Self.unknownName("def atk = 1d20; atk *= 2")
                == .updateWithoutVariable("atk", isMacro: true, suggestion: "atk = 2"))
    }

    // MARK: - Notices

    static func notices(_ program: String) throws -> [Notice.Kind] {
        var session = Session(seed: 1)
        var result: [Notice.Kind] = []
        for statement in try Parser.parseProgram(program) {
            result += session.notices(for: statement).map(\.kind)
            _ = try session.execute(statement)
        }
        return result
    }

    @Test func aPoolComparedWithNoSpaceGetsANote() throws {
        #expect(try Self.notices("10d10>=8") == [.comparesTotal(suggestion: "10d10cs>=8")])
        #expect(try Self.notices("6d10>7") == [.comparesTotal(suggestion: "6d10cs>7")])
        #expect(try Self.notices("3d6==10") == [.comparesTotal(suggestion: "3d6cs=10")])
        // The comparison stands: the total is compared.
        #expect(try Self.outcomes("10d10>=8").first?.hasSuffix(">= 8 = 1") == true)
        // Spaces, one die, a count already, or an expression: nothing to tell.
        for quiet in ["10d10 >= 8", "1d20>=15", "d20>=15", "10d10cs>=8>=2", "1d20+5>=15", "x = 10d10>=8"] {
            #expect(try Self.notices(quiet) == [], "\(quiet)")
        }
        #expect(Notice(.comparesTotal(suggestion: "10d10cs>=8"), at: .at(0)).message
                == "this compares the total of the dice; to count the dice that match, write 10d10cs>=8")
    }

    @Test func replacingAVariableOrAMacroGetsANotice() throws {
        #expect(try Self.notices("str = 18; def str = 1d20") == [.replaced(name: "str", wasMacro: false)])
        #expect(try Self.notices("def atk = 1d20; atk = 3") == [.replaced(name: "atk", wasMacro: true)])
        #expect(try Self.notices("str = 18; str = 19; def atk = 1; def atk = 2") == [])
        let variable = Notice(.replaced(name: "str", wasMacro: false), at: .at(0))
        #expect(variable.message == "'str' was a variable: it is now a macro")
        #expect(variable.replacedKind == "variable")
        let macro = Notice(.replaced(name: "atk", wasMacro: true), at: .at(0))
        #expect(macro.message == "'atk' was a macro: it is now a variable")
        #expect(macro.replacedKind == "macro")
    }

    @Test func jsonCarriesTheNotices() throws {
        var session = Session(seed: 1)
        let statements = try Parser.parseProgram("str = 18; def str = 1d20")
        _ = try session.execute(statements[0])
        let notices = session.notices(for: statements[1])
        let json = OutcomeRenderer().json(for: try session.execute(statements[1]), input: "def str = 1d20",
                                          notices: notices)
        #expect(json == #"{"input":"def str = 1d20","defined":"str","parameters":[],"body":"1d20","#
                + #""replaced":"variable","notes":["'str' was a variable: it is now a macro"]}"#)
    }
}
