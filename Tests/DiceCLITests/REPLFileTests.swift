import Foundation
import Testing

@testable import dice

/// `:load`, `:save` and the init file, with files in a temporary directory.
@Suite struct REPLFileTests {
    static let banner = ScriptedSession.banner

    /// Rolls print; assignments and definitions are summed up in one line.
    @Test func loadRunsAScriptAndShowsItsResults() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let script = try directory.write("x = 2\n1d1 + x\ndef m = x + 1\n", to: "setup.dice")
        let session = ScriptedSession([":load \(script)", "m"])
        session.run()
        #expect(session.transcript.text == Self.banner + """
            dice> :load \(script)
            1d1 (1) + x (2) = 3
            loaded 1 macro, 1 variable from \(script)
            dice> m
            m (3) = 3

            """ + "dice> ")
    }

    /// An error in a loaded script names the file; what came before it has run, the rest
    /// has not, and the session goes on.
    @Test func loadStopsAtTheFirstErrorInTheScript() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let script = try directory.write("y = 1\n1/0\nz = 2\n", to: "broken.dice")
        let session = ScriptedSession([":load \(script)", ":vars"])
        session.run()
        #expect(session.transcript.text == Self.banner + """
            dice> :load \(script)
            \(script):2:2: error: division by zero
            1/0
             ^
            loaded 0 macros, 1 variable from \(script)
            dice> :vars
            y = 1

            """ + "dice> ")
    }

    @Test func tildeInAPathIsTheHomeDirectory() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try home.write("x = 4\n", to: "setup.dice")
        let session = ScriptedSession([":load ~/setup.dice", ":save ~/saved.dice", ":save ~"], home: home.path)
        session.run()
        #expect(session.transcript.responses(to: ":load ~/setup.dice") == ["loaded 0 macros, 1 variable from \(home.path)/setup.dice\n"])
        #expect(session.transcript.responses(to: ":save ~/saved.dice")
            == ["saved 1 variable and 0 macros to \(home.path)/saved.dice\n"])
        #expect(try home.contents(of: "saved.dice").hasSuffix("\nx = 4\n"))
        // `~` alone is the directory itself, which cannot be replaced by a file.
        #expect(session.transcript.responses(to: ":save ~").first?.hasPrefix("dice: cannot save \(home.path): ") == true)
    }

    @Test func saveThenLoadInANewSessionRestoresVariablesAndMacros() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let saved = directory.path + "/session.dice"
        let definitions = "a = 7 / 2; b = -4; def hit(bonus) = 1d20 + bonus >= 15; def dmg = 2d6! [fire]"
        let first = ScriptedSession([definitions, ":save \(saved)", ":vars", ":defs"])
        first.run()
        #expect(first.transcript.responses(to: ":save \(saved)") == ["saved 2 variables and 2 macros to \(saved)\n"])
        let script = try directory.contents(of: "session.dice")
        #expect(script.contains("\na = 3.5\nb = -4\n"))

        let second = ScriptedSession([":load \(saved)", ":vars", ":defs", ":save \(saved).again"])
        second.run()
        #expect(second.transcript.error == "")
        #expect(second.transcript.responses(to: ":vars") == ["a = 3.5\nb = -4\n"])
        #expect(second.transcript.responses(to: ":defs") == ["def dmg = 2d6! [fire]\ndef hit(bonus) = 1d20 + bonus >= 15\n"])
        #expect(second.transcript.responses(to: ":vars") == first.transcript.responses(to: ":vars"))
        #expect(second.transcript.responses(to: ":defs") == first.transcript.responses(to: ":defs"))
        #expect(try directory.contents(of: "session.dice.again") == script)
    }

    /// A game system's macros keep their descriptions through `:save` and `:load` (written as
    /// the `#:` doc comments of the system's own file), as a script's `#:` lines give them.
    @Test func saveThenLoadKeepsDescriptions() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let saved = directory.path + "/session.dice"
        let script = try directory.write("#: My attack.\ndef atk = 1d20 + 5\n", to: "mine.dice")
        let first = ScriptedSession(["use pbta", ":load \(script)", ":defs", ":save \(saved)"])
        first.run()
        let defs = try #require(first.transcript.responses(to: ":defs").first)
        #expect(defs.hasPrefix("def atk = 1d20 + 5\n  # My attack.\ndef move(stat = 0) = "))
        #expect(defs.contains("\n  # A move: 2d6 + stat; 6- \"miss\", 7-9 \"weak hit\", 10+ \"strong hit\".\n"))
        #expect(try directory.contents(of: "session.dice").contains("\n#: My attack.\ndef atk = 1d20 + 5\n#: A move: "))

        let second = ScriptedSession([":load \(saved)", ":defs"])
        second.run()
        #expect(second.transcript.error == "")
        #expect(second.transcript.responses(to: ":defs") == [defs])
    }

    /// `:save ~/.dicerc` keeps the session's macros for the next start.
    @Test func savedInitFileRestoresTheSessionAtTheNextStart() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let first = ScriptedSession(["def atk = 1d20 + 5", ":save ~/.dicerc"], home: home.path)
        first.run()
        #expect(first.transcript.responses(to: ":save ~/.dicerc") == ["saved 0 variables and 1 macro to \(home.path)/.dicerc\n"])
        let next = ScriptedSession([":defs"], home: home.path)
        next.run(initFile: home.path + "/.dicerc")
        #expect(next.transcript.text == Self.banner + "dice> :defs\ndef atk = 1d20 + 5\ndice> ")
    }

    @Test func initFileRunsQuietly() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let rc = try directory.write("x = 3\ndef m = 1d1\n1d6\nstats 1d6\n", to: "rc.dice")
        let session = ScriptedSession([":vars", ":defs"])
        session.run(initFile: rc)
        #expect(session.transcript.text == Self.banner + """
            dice> :vars
            x = 3
            dice> :defs
            def m = 1d1

            """ + "dice> ")
    }

    /// The first error in the init file shows before the banner; what came before it is
    /// defined, the rest is not, and the session starts.
    @Test func initFileErrorIsReportedAndTheSessionStarts() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let rc = try directory.write("def ok = 1d1\nbroken = (\nnever = 1\n", to: "rc.dice")
        let session = ScriptedSession(["ok", ":vars"])
        #expect(session.run(initFile: rc) == 0)
        // The open `(` goes on in the next line, where `=` cannot follow `never`.
        #expect(session.transcript.text == """
            \(rc):3:7: error: expected ')' to close '(', found '='
            never = 1
                  ^

            """ + Self.banner + """
            dice> ok
            ok: 1d1 (1) = 1
            dice> :vars
            no variables

            """ + "dice> ")
    }

    @Test func initFileThatIsNotTextIsReported() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let rc = try directory.write(Array("def ok = 1d1\n".utf8) + [0xFF, 0xFE, 0x00, 0x20, 0x3D, 0x0A], to: ".dicerc")
        let session = ScriptedSession(["ok"])
        session.run(initFile: rc)
        #expect(session.transcript.error.hasPrefix("\(rc):2:1: error: the input is not valid UTF-8\n"))
        #expect(session.transcript.responses(to: "ok") == ["ok: 1d1 (1) = 1\n"])
    }

    @Test func missingInitFileIsIgnored() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let session = ScriptedSession([])
        session.run(initFile: directory.path + "/.dicerc")
        #expect(session.transcript.text == Self.banner + "dice> ")
    }
}
