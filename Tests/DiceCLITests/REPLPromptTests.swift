import DiceKit
import Testing

@testable import dice

/// The prompt's manners (issue 12): confirmations, plurals, `:history N`, `:max-dice`,
/// other programs' words, multi-line statements. In-process, with scripted lines.
@Suite struct REPLPromptTests {
    static let banner = ScriptedSession.banner

    @Test func confirmationsUsePlurals() {
        #expect(REPL.count(0, "macro") == "0 macros")
        #expect(REPL.count(1, "macro") == "1 macro")
        #expect(REPL.count(2, "die", plural: "dice") == "2 dice")
        #expect(REPL.count(1, "die", plural: "dice") == "1 die")
    }

    @Test func historyShowsTheLastNLinesAligned() {
        let lines = (1...11).map { "\($0) + 0" }
        let session = ScriptedSession(lines + [":history 3", ":history x", ":history"])
        session.run()
        // The command itself is the newest line.
        #expect(session.transcript.responses(to: ":history 3") == ["10  10 + 0\n11  11 + 0\n12  :history 3\n"])
        #expect(session.transcript.responses(to: ":history x") == ["dice: usage: :history [N]\n"])
        let all = session.transcript.responses(to: ":history").first ?? ""
        #expect(all.hasPrefix(" 1  1 + 0\n 2  2 + 0\n"))
        #expect(all.hasSuffix("13  :history x\n14  :history\n"))
    }

    /// `:vars` shows a text in its quotes, as `:save` writes it; `:quit` takes no argument.
    @Test func varsQuotesTextsAndQuitTakesNoArgument() {
        let session = ScriptedSession(["name = \"hello\"", "n = 7/2", "t = (s: 1)", ":vars", ":quit now", "1 + 1"])
        session.run()
        #expect(session.transcript.responses(to: ":vars") == ["n = 3.5\nname = \"hello\"\nt = (s: 1)\n"])
        #expect(session.transcript.responses(to: ":quit now") == ["dice: usage: :quit\n"])
        #expect(session.transcript.responses(to: "1 + 1") == ["1 + 1 = 2\n"])
    }

    @Test func maxDiceChangesTheLimitAndTheErrorSaysHow() {
        let session = ScriptedSession(["20d6", ":max-dice 10", "20d6", "10d1", ":max-dice many"])
        session.run()
        #expect(session.transcript.responses(to: ":max-dice 10") == ["at most 10 dice per statement\n"])
        #expect(session.transcript.responses(to: "20d6").last == """
            <input>:1:1: error: more than 10 dice in one statement (raise it with :max-dice N)
            20d6
            ^

            """)
        #expect(session.transcript.responses(to: "10d1") == ["10d1 (1, 1, 1, 1, 1, 1, 1, 1, 1, 1) = 10\n"])
        #expect(session.transcript.responses(to: ":max-dice many")
            == ["dice: usage: :max-dice N (a whole number from 0 to 1000000000000; now 10)\n"])
    }

    @Test(arguments: ["help", "?", " help "])
    func helpWordsShowTheHelp(_ word: String) {
        let session = ScriptedSession([word])
        session.run()
        #expect(session.transcript.responses(to: word) == [REPL.help + "\n"])
    }

    @Test(arguments: ["quit", "exit"])
    func quitWordsLeave(_ word: String) {
        let session = ScriptedSession([word, "1 + 1"])
        #expect(session.run() == 0)
        #expect(session.reader.unread == ["1 + 1"])
    }

    @Test func aNameCalledHelpIsStillAName() {
        let session = ScriptedSession(["help = 3", "help", "def quit = 1d1", "quit"])
        #expect(session.run() == 0)
        #expect(session.transcript.responses(to: "help") == ["help (3) = 3\n"])
        #expect(session.transcript.responses(to: "quit") == ["quit: 1d1 (1) = 1\n"])
    }

    // MARK: - Multi-line input

    @Test func anOpenBracketContinuesUnderTheSecondPrompt() {
        let session = ScriptedSession(["{1d1 + 5,  # first", "2d1}kh1", "repeat(2,", "", "3d1)", "2d1 [fire", "and ice]"])
        #expect(session.run() == 0)
        #expect(session.transcript.text == Self.banner + """
            dice> {1d1 + 5,  # first
            ...> 2d1}kh1
            {1d1 (1) + 5 = 6, ~~2d1 (1, 1) = 2~~}kh1 = 6
            dice> repeat(2,
            ...> \n...> 3d1)
            {3d1 (1, 1, 1) = 3, 3d1 (1, 1, 1) = 3} = 6
            dice> 2d1 [fire
            ...> and ice]
            2d1 (1, 1) [fire and ice] = 2

            """ + "dice> ")
        // History keeps each statement as one entry.
        #expect(session.reader.history == ["{1d1 + 5, 2d1}kh1", "repeat(2, 3d1)", "2d1 [fire and ice]"])
    }

    /// LANGUAGE.md §5: a line that ends where its statement cannot (after an operator, `=`,
    /// `then`, `else`, `in`...) goes on under `...> ` too, as in scripts.
    @Test func aLineEndingWhereTheStatementCannotEndContinues() {
        let session = ScriptedSession(["x = 1d1 +", "2", "if x == 3 then", "\"three\" else  # or", "", "\"other\"",
                                       "def twice(a) =", "  let b = a in", "  b * 2", "twice(x)"])
        #expect(session.run() == 0)
        #expect(session.transcript.text == Self.banner + """
            dice> x = 1d1 +
            ...> 2
            x = 1d1 (1) + 2 = 3
            dice> if x == 3 then
            ...> "three" else  # or
            ...> \n...> "other"
            x (3) == 3 → three
            dice> def twice(a) =
            ...>   let b = a in
            ...>   b * 2
            def twice(a) = let b = a in b * 2
            dice> twice(x)

            """ + (session.transcript.responses(to: "twice(x)").first ?? "") + "dice> ")
        #expect(session.transcript.responses(to: "twice(x)").first?.hasSuffix(" = 6\n") == true)
        #expect(session.transcript.error == "")
        #expect(session.reader.history == ["x = 1d1 + 2", "if x == 3 then \"three\" else \"other\"",
                                           "def twice(a) = let b = a in b * 2", "twice(x)"])
    }

    @Test func ctrlCAbandonsTheWholePendingStatement() {
        let session = ScriptedSession(["x = (1 +", "\u{3}", "x = 2", "x"])
        #expect(session.run() == 0)
        #expect(session.transcript.text == Self.banner + """
            dice> x = (1 +
            ...> ^C
            dice> x = 2
            x = 2
            dice> x
            x (2) = 2

            """ + "dice> ")
    }

    @Test func anErrorInAContinuedStatementPointsIntoItsLines() {
        let session = ScriptedSession(["(1 +", "* 2)"])
        session.run()
        #expect(session.transcript.error == """
            <input>:2:1: error: expected an expression, found '*'
            * 2)
            ^

            """)
    }

    @Test(arguments: [
        ("{1d20 + 5,  # first\n1d20 + 5}kh1", "{1d20 + 5, 1d20 + 5}kh1"),
        ("2d6 [fire # and\nice] + 1", "2d6 [fire # and ice] + 1"),
        ("max(1,\n\n  2)  # done", "max(1, 2)"),
    ])
    func aContinuedStatementIsOneHistoryLine(_ typed: String, _ line: String) {
        #expect(Parser.oneLine(typed) == line)
    }

    @Test func anOpenBracketOrAnOperatorNeedsAnotherLine() {
        #expect(Parser.needsAnotherLine("{1d20 + 5,"))
        #expect(Parser.needsAnotherLine("2d6 [fire"))
        #expect(Parser.needsAnotherLine("max(1,\n2,"))
        #expect(Parser.needsAnotherLine("1 + # (comment"))
        #expect(Parser.needsAnotherLine("if 1d20 >= 10 then"))
        #expect(!Parser.needsAnotherLine("{1d20 + 5}"))
        #expect(!Parser.needsAnotherLine("1 # (comment"))
        #expect(!Parser.needsAnotherLine("1 + )"))
    }
}

/// Other rollers' habits at the prompt and in a piped script: the error says what to write.
@Suite struct HabitHintTests {
    static let hints: [(typed: String, hint: String)] = [
        ("/roll 1d20", "'/roll' is a chat command; here type the roll alone: did you mean '1d20'?"),
        ("1d20 => 15", "unexpected '=>'; did you mean '1d20 >= 15'?"),
        ("2d20 advantage", "unexpected 'advantage'; did you mean '2d20kh1'?"),
        ("4d6p1", "unexpected 'p1'; did you mean '4d6dl1'?"),
        ("1d20, 1d20", "unexpected ','; separate statements with ';': did you mean '1d20; 1d20'?"),
        ("3d6 1d6", "unexpected '1'; separate statements with ';': did you mean '3d6; 1d6'?"),
    ]

    @Test(arguments: zip(hints.map(\.typed), hints.map(\.hint)))
    func theErrorSaysWhatToWrite(_ typed: String, _ hint: String) {
        let session = ScriptedSession([typed])
        session.run()
        #expect(session.transcript.error.contains("error: \(hint)\n"))
    }

    @Test func aPromptCommandInAPipedScriptSaysWhereItWorks() throws {
        let result = try DiceProcess.run([], stdin: "x = 1\n:vars\n")
        #expect(result.status == 1)
        #expect(result.stdout == "x = 1\n")
        #expect(result.stderr.hasPrefix(
            "<stdin>:2:1: error: ':vars' is a command of the dice> prompt: it works there only, not in a script\n"))
    }
}
