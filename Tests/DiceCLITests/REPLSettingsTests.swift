import Testing

@testable import dice

/// What a new user tripped over at the prompt (issue 24, point 7), in-process: the limits
/// set from the REPL and named by their errors, the width read again before each
/// statement, completion that adds what comes next, Ctrl-D under `...> `, `--quiet`.
@Suite struct REPLSettingsTests {
    static let banner = ScriptedSession.banner

    /// `:stats-seconds S` changes the time bound of `stats`, and the error of that bound
    /// names the command, not the option that needs a restart.
    @Test func statsSecondsIsSetAtThePromptAndNamedByItsError() {
        let session = ScriptedSession([":stats-seconds 0.01", "stats 66d206d!p", ":stats-seconds 2.5", ":stats-seconds 0",
                                       ":stats-seconds", ":stats-seconds 100000", ":stats-seconds 0.0001"])
        session.run()
        #expect(session.transcript.responses(to: ":stats-seconds 0.01") == ["stats may take up to 0.01 s\n"])
        let error = session.transcript.responses(to: "stats 66d206d!p").first ?? ""
        #expect(error.contains("more than the 0.01 s allowed (raise it with :stats-seconds S)"), "\(error)")
        #expect(session.transcript.responses(to: ":stats-seconds 2.5") == ["stats may take up to 2.5 s\n"])
        // The range of --stats-seconds, as its usage error says.
        for rejected in [":stats-seconds 0", ":stats-seconds", ":stats-seconds 100000", ":stats-seconds 0.0001"] {
            #expect(session.transcript.responses(to: rejected)
                == ["dice: usage: :stats-seconds S (seconds, from 0.001 to 86400; now 2.5)\n"])
        }
    }

    /// The dice limit's error names `:max-dice N`, and `:max-dice` raises it.
    @Test func maxDiceIsSetAtThePromptAndNamedByItsError() {
        let session = ScriptedSession([":max-dice 10", "11d6", ":max-dice 20", "11d1", ":max-dice 1000000000001"])
        session.run()
        #expect(session.transcript.responses(to: ":max-dice 10") == ["at most 10 dice per statement\n"])
        #expect(session.transcript.responses(to: "11d6").first?.contains("(raise it with :max-dice N)") == true)
        #expect(session.transcript.responses(to: "11d1") == ["11d1 (1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1) = 11\n"])
        // The range of --max-dice.
        #expect(session.transcript.responses(to: ":max-dice 1000000000001")
            == ["dice: usage: :max-dice N (a whole number from 0 to 1000000000000; now 20)\n"])
    }

    /// The width is asked for before each statement: a table drawn after a resize fits the
    /// new width.
    @Test func theWidthIsReadAgainBeforeEachStatement() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let script = try directory.write("stats 1d4\n", to: "odds.dice")
        let session = ScriptedSession(["stats 1d4", "stats 1d4", ":load \(script)"])
        var widths = [120, 50, 70]
        session.repl.readsWidth = { widths.removeFirst() }
        session.run()
        let tables = session.transcript.responses(to: "stats 1d4") + session.transcript.responses(to: ":load \(script)")
        #expect(tables.count == 3 && widths.isEmpty)
        // The rows of each table (not `:load`'s summary line, which names the file).
        let widest = tables.map { $0.split(separator: "\n").filter { $0.contains("%") }.map(\.count).max() ?? 0 }
        #expect(widest == [120, 50, 70], "\(tables)")
    }

    /// Tab completes a function or a macro with parameters up to its `(`, a variable or a
    /// macro without parameters to its name, and a command that needs an argument with a space.
    @Test(arguments: [("flo", ["floor("]), ("ro", ["round("]), ("smi", ["smite("]), ("at", ["atk"]),
                      ("str", ["strength"]), (":sa", [":save "]), (":l", [":load ", ":log"]), (":q", [":quit"]),
                      (":st", [":stats-seconds "]), (":d", [":defs", ":del "]), ("rep", ["repeat("])])
    func completionAddsWhatComesNext(_ word: String, _ expected: [String]) {
        let session = ScriptedSession(["strength = 3", "def smite(n) = (n + 1)d8", "def atk = 1d20 + strength"])
        session.run()
        #expect(session.repl.completions(for: word) == expected)
    }

    /// Ctrl-D under `...> ` drops the statement being typed and the prompt comes back; a
    /// second Ctrl-D quits.
    @Test func ctrlDUnderTheContinuationPromptDropsTheStatement() {
        let session = ScriptedSession(["{1d1 + 5,", "\u{4}", "1 + 1", "\u{4}", "2 + 2"])
        #expect(session.run() == 0)
        #expect(session.transcript.text == Self.banner + """
            dice> {1d1 + 5,
            ...> 
            dice: the unfinished statement was dropped (Ctrl-D again quits)
            dice> 1 + 1
            1 + 1 = 2
            dice> 

            """)
        #expect(session.reader.unread == ["2 + 2"])
    }

    /// A command under `...> ` drops the statement being typed and runs: who typed `1 +`, then
    /// `:quit`, means to leave (it was read as `1 + :quit`, an error). A line starting with
    /// `:` and no command word still goes on the statement: `(hits` then `: 3)` is a tally.
    @Test func aCommandUnderTheContinuationPromptDropsTheStatement() {
        let session = ScriptedSession(["x = 1 +", ":vars", "(hits", ": 3)", "{1,", ":quit", "2 + 2"])
        #expect(session.run() == 0)
        #expect(session.transcript.text == Self.banner + """
            dice> x = 1 +
            ...> :vars
            dice: the unfinished statement was dropped
            no variables
            dice> (hits
            ...> : 3)
            (hits: 3)
            dice> {1,
            ...> :quit
            dice: the unfinished statement was dropped

            """)
        #expect(session.reader.unread == ["2 + 2"])
        #expect(session.reader.history == [":vars", "(hits : 3)", ":quit"])
    }

    /// `--quiet` at the prompt: rolls and stats print, assignments and definitions do not.
    @Test func quietShowsRollsOnly() {
        var options = ScriptedSession.options
        options.quiet = true
        let session = ScriptedSession(["x = 3", "def atk = 1d1 + x", "atk", "stats 1d2 >= 2", ":vars"], options: options)
        session.run()
        #expect(session.transcript.text == Self.banner + """
            dice> x = 3
            dice> def atk = 1d1 + x
            dice> atk
            atk: 1d1 (1) + x (3) = 4
            dice> stats 1d2 >= 2
            1d2 >= 2: P = 50.00%
            dice> :vars
            x = 3
            dice> 
            """)
    }

    /// `:load` sums up what it bound in one line, counting each name once and only as what
    /// it is at the end; the rolls in the file still print, and so does the note of a name
    /// that changed what it is (`dex`).
    @Test func loadSumsUpWhatItBound() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let script = try directory.write("""
            str = 16
            str = 18
            dex = 14
            def mod(score) = (score - 10) // 2
            def atk = 1d20 + mod(str)
            def dex = 1d1
            1d1 + mod(str)
            """, to: "sheet.dice")
        let session = ScriptedSession([":load \(script)"])
        session.run()
        #expect(session.transcript.responses(to: ":load \(script)")
            == ["\(script):6:1: note: 'dex' was a variable: it is now a macro\n"
                + "1d1 (1) + mod(18) (4) = 5\nloaded 3 macros, 1 variable from \(script)\n"])
    }
}
