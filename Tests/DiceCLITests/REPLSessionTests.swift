import Testing

@testable import dice

/// The REPL run in-process: scripted lines in, exactly what it showed out (standard output
/// and standard error interleaved as they were flushed). Keys, Ctrl-C and completion need
/// a terminal: they are in `REPLTests`.
@Suite struct REPLSessionTests {
    /// A line typed at the prompt and what it shows before the next prompt.
    struct Exchange: Sendable, CustomTestStringConvertible {
        var typed: String
        var shows: String
        var testDescription: String { typed }
    }

    static let banner = ScriptedSession.banner

    // MARK: - Statements

    static let statements: [Exchange] = [
        Exchange(typed: "1 + 1", shows: "1 + 1 = 2\n"),
        Exchange(typed: "  1 + 1  ", shows: "1 + 1 = 2\n"),
        Exchange(typed: "3d1 + 2", shows: "3d1 (1, 1, 1) + 2 = 5\n"),
        Exchange(typed: "4d1kh3", shows: "4d1kh3 (1, 1, 1, ~~1~~) = 3\n"),
        Exchange(typed: "1d1 + 5 >= 6", shows: "1d1 (1) + 5 >= 6 = 1\n"),
        Exchange(typed: "x = 3", shows: "x = 3\n"),
        Exchange(typed: "x = 2; x * 3", shows: "x = 2\nx (2) * 3 = 6\n"),
        Exchange(typed: "def m(a) = a + 1", shows: "def m(a) = a + 1\n"),
        Exchange(typed: "# only a comment", shows: ""),
        Exchange(typed: "stats 1d4", shows: """
            1d4: mean 2.50, stdev 1.12, min 1, max 4, median 2, p10 1, p90 4
            value        P  at least   at most
                1   25.00%   100.00%    25.00%  ############################################
                2   25.00%    75.00%    50.00%  ############################################
                3   25.00%    50.00%    75.00%  ############################################
                4   25.00%    25.00%   100.00%  ############################################

            """),
    ]

    @Test(arguments: statements)
    func statementShowsItsResult(_ exchange: Exchange) {
        let session = ScriptedSession([exchange.typed])
        #expect(session.run() == 0)
        #expect(session.transcript.text == Self.banner + "dice> \(exchange.typed)\n\(exchange.shows)dice> ")
        #expect(session.transcript.error == "")
    }

    @Test func blankLinesAreSkipped() {
        let session = ScriptedSession(["", "   ", "1 + 1"])
        session.run()
        #expect(session.transcript.text == Self.banner + "dice> \ndice>    \ndice> 1 + 1\n1 + 1 = 2\ndice> ")
    }

    // MARK: - Errors

    static let errors: [Exchange] = [
        Exchange(typed: "2d6 + * 3", shows: """
            <input>:1:7: error: expected an expression, found '*'
            2d6 + * 3
                  ^

            """),
        Exchange(typed: "1/0", shows: """
            <input>:1:2: error: division by zero
            1/0
             ^

            """),
        Exchange(typed: "y + 1", shows: """
            <input>:1:1: error: unknown name 'y'
            y + 1
            ^

            """),
        Exchange(typed: "2d0", shows: """
            <input>:1:3: error: the number of sides must be a whole number of at least 1, not 0
            2d0
              ^

            """),
    ]

    @Test(arguments: errors)
    func errorPointsAtItsColumnAndTheSessionGoesOn(_ exchange: Exchange) {
        let session = ScriptedSession([exchange.typed, "1 + 1"])
        #expect(session.run() == 0)
        #expect(session.transcript.text
            == Self.banner + "dice> \(exchange.typed)\n\(exchange.shows)dice> 1 + 1\n1 + 1 = 2\ndice> ")
        #expect(session.transcript.error == exchange.shows)
        #expect(session.transcript.standard == Self.banner + "1 + 1 = 2\n")
    }

    /// Statements before the error on its line have run and printed, before the error
    /// shows; the rest of the line has not run.
    @Test func resultsBeforeAnErrorShowFirstAndStay() {
        let session = ScriptedSession(["a = 1; 1/0; b = 2", ":vars"])
        session.run()
        #expect(session.transcript.responses(to: "a = 1; 1/0; b = 2") == ["""
            a = 1
            <input>:1:9: error: division by zero
            a = 1; 1/0; b = 2
                    ^

            """])
        #expect(session.transcript.responses(to: ":vars") == ["a = 1\n"])
    }

    // MARK: - Commands

    @Test(arguments: [":help", ":h", ":?"])
    func helpListsTheCommands(_ typed: String) {
        let session = ScriptedSession([typed])
        session.run()
        #expect(session.transcript.text == Self.banner + "dice> \(typed)\n\(REPL.help)\ndice> ")
        for command in REPL.commands where command != ":help" {
            #expect(REPL.help.contains(command), "\(command)")
        }
        // The language's words too (LANGUAGE.md §5, §5a).
        for word in ["def ", "stats ", "if ", " then ", " else ", "let ", " in ", "repeat("] {
            #expect(REPL.help.contains(word), "\(word)")
        }
        // In an 80-column terminal a line of 107 (`:save FILE ...`) broke mid-word.
        let long = REPL.help.split(separator: "\n").filter { $0.count > 80 }
        #expect(long.isEmpty, "\(long)")
    }

    @Test func varsAndDefsListTheSessionByName() {
        let session = ScriptedSession([
            ":vars", ":defs",
            "b = 1", "a = 5", "b = 7", "def z = 1", "def m(n) = n + b",
            ":vars", ":defs",
        ])
        session.run()
        #expect(session.transcript.responses(to: ":vars") == ["no variables\n", "a = 5\nb = 7\n"])
        #expect(session.transcript.responses(to: ":defs") == ["no macros\n", "def m(n) = n + b\ndef z = 1\n"])
    }

    @Test(arguments: [":del", ":delete"])
    func delForgetsAVariableOrAMacro(_ del: String) {
        let session = ScriptedSession(["x = 3", "def m(a) = a + x", "\(del) x", "m(1)", "\(del) m", ":vars", ":defs"])
        session.run()
        #expect(session.transcript.text == Self.banner + """
            dice> x = 3
            x = 3
            dice> def m(a) = a + x
            def m(a) = a + x
            dice> \(del) x
            deleted variable x
            dice> m(1)
            <input>:1:1: error: in macro 'm': unknown name 'x'; did you mean 'a'?
            m(1)
            ^
            dice> \(del) m
            deleted macro m
            dice> :vars
            no variables
            dice> :defs
            no macros

            """ + "dice> ")
    }

    /// `:seed N` makes the rolls after it repeatable, the same as `--seed N`; negative
    /// seeds are taken as their 64-bit pattern.
    @Test(arguments: [("0", 0), ("42", 42), ("18446744073709551615", UInt64.max), ("-1", UInt64.max)] as [(String, UInt64)])
    func seedMakesTheFollowingRollsRepeatable(_ typed: String, _ seed: UInt64) {
        let rolls = ["3d6", "4d20kh1", "1d100!"]
        let session = ScriptedSession([":seed \(typed)"] + rolls + [":seed \(typed)"] + rolls)
        session.run()
        let confirmation = "seed \(typed): the rolls that follow are repeatable\n"
        #expect(session.transcript.responses(to: ":seed \(typed)") == [confirmation, confirmation])
        var options = Options()
        options.seed = seed
        let seeded = ScriptedSession(rolls, options: options)
        seeded.run()
        for roll in rolls {
            let shown = session.transcript.responses(to: roll)
            #expect(shown.count == 2)
            #expect(shown.first?.hasPrefix(roll + " (") == true, "\(shown)")
            #expect(shown.first == shown.last)
            #expect(seeded.transcript.responses(to: roll) == [shown.first ?? ""])
        }
    }

    @Test func historyListsEveryLineTypedExceptBlankOnes() {
        let session = ScriptedSession(["x = 3", "", "   ", "  1 + 1", ":bogus", "2d6 + * 3", ":history"])
        session.run()
        #expect(session.transcript.responses(to: ":history") == ["""
            1  x = 3
            2    1 + 1
            3  :bogus
            4  2d6 + * 3
            5  :history

            """])
        #expect(session.reader.history == ["x = 3", "  1 + 1", ":bogus", "2d6 + * 3", ":history"])
    }

    @Test(arguments: [":quit", ":q", ":exit", "  :quit  "])
    func quitEndsTheSessionAtOnce(_ quit: String) {
        let session = ScriptedSession(["1 + 1", quit, "2 + 2"])
        #expect(session.run() == 0)
        #expect(session.transcript.text == Self.banner + "dice> 1 + 1\n1 + 1 = 2\ndice> \(quit)\n")
        #expect(session.reader.unread == ["2 + 2"])
    }

    @Test func endOfInputEndsTheSession() {
        let session = ScriptedSession(["x = 1"])
        #expect(session.run() == 0)
        #expect(session.transcript.text == Self.banner + "dice> x = 1\nx = 1\ndice> ")
        #expect(session.reader.prompts == 2)
        #expect(session.transcript.error == "")
    }

    // MARK: - Mistakes in commands

    /// Wrong commands and arguments: one line on standard error, and the session goes on.
    static let commandProblems: [Exchange] = [
        Exchange(typed: ":bogus", shows: "dice: unknown command ':bogus' (:help lists the commands)\n"),
        Exchange(typed: ":x", shows: "dice: unknown command ':x' (:help lists the commands)\n"),
        Exchange(typed: ":sav", shows: "dice: unknown command ':sav'; did you mean ':save'? (:help lists the commands)\n"),
        Exchange(typed: ":hist", shows: "dice: unknown command ':hist'; did you mean ':history'? (:help lists the commands)\n"),
        Exchange(typed: ":var", shows: "dice: unknown command ':var'; did you mean ':vars'? (:help lists the commands)\n"),
        Exchange(typed: ":systems", shows: "dice: unknown command ':systems'; 'use' alone lists the game systems (:help lists the commands)\n"),
        Exchange(typed: ":QUIT", shows: "dice: unknown command ':QUIT' (:help lists the commands)\n"),
        Exchange(typed: ":del", shows: "dice: usage: :del NAME\n"),
        Exchange(typed: ":del nothing", shows: "dice: 'nothing' is not defined\n"),
        Exchange(typed: ":seed", shows: "dice: usage: :seed N (a whole number)\n"),
        Exchange(typed: ":seed 1.5", shows: "dice: usage: :seed N (a whole number)\n"),
        Exchange(typed: ":seed 18446744073709551616", shows: "dice: usage: :seed N (a whole number)\n"),
        Exchange(typed: ":load", shows: "dice: usage: :load FILE\n"),
        Exchange(typed: ":load /nonexistent/setup.dice",
                 shows: "dice: cannot read /nonexistent/setup.dice: no such file or directory\n"),
        Exchange(typed: ":load /", shows: "dice: cannot read /: is a directory\n"),
        Exchange(typed: ":save", shows: "dice: usage: :save FILE\n"),
        Exchange(typed: ":save /dev/null/x/session.dice",
                 shows: "dice: cannot save /dev/null/x/session.dice: not a directory\n"),
    ]

    @Test(arguments: commandProblems)
    func commandProblemIsOneLineOnStandardError(_ exchange: Exchange) {
        let session = ScriptedSession(["x = 1", exchange.typed, "x"])
        #expect(session.run() == 0)
        #expect(session.transcript.responses(to: exchange.typed) == [exchange.shows])
        #expect(session.transcript.error == exchange.shows)
        #expect(session.transcript.responses(to: "x") == ["x (1) = 1\n"])
    }

    /// Tab offers the words of the language, `if`/`let` and those of tables, tallies and logic
    /// included, beside names.
    @Test(arguments: [("i", ["if ", "in "]), ("th", ["then "]), ("el", ["else "]), ("le", ["let "]),
                      ("de", ["def "]), ("rep", ["repeat("]), ("ma", ["match ", "max("]), ("an", ["and "]),
                      ("o", ["or "]), ("no", ["not "]), ("cou", ["count("]), ("gi", ["given "]), ("us", ["use "])])
    func completesTheWordsOfTheLanguage(_ word: String, _ expected: [String]) {
        let session = ScriptedSession([])
        #expect(session.repl.completions(for: word) == expected)
    }

    /// An attack with a critical hit, typed at the prompt: the branch not taken is not shown.
    @Test func rollsConditionalsAtThePrompt() {
        let session = ScriptedSession(["def attack(ac, bonus) = let r = 1d20 in if r == 20 then 2d8 + 3 else if r + bonus >= ac then 1d8 + 3 else 0",
                                       "attack(15, 5)", "stats attack(15, 5) > 0"])
        session.run()
        let responses = session.transcript.responses(to: "attack(15, 5)")
        #expect(responses.first?.hasPrefix("attack(15, 5): let r = 1d20 (") == true, "\(responses)")
        #expect(session.transcript.responses(to: "stats attack(15, 5) > 0") == ["attack(15, 5) > 0: P = 55.00%\n"])
    }
}
