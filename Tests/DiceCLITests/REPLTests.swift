import Foundation
import Testing

/// The REPL as a person uses it, through a pseudo-terminal: typing, Up, Tab,
/// errors, Ctrl-C, Ctrl-D, history across sessions, :save and the init file.
@Suite(.serialized) struct REPLTests {
    let home: URL

    init() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("dice-repl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    }

    func start(_ extra: [String: String] = [:], arguments: [String] = []) throws -> PseudoTerminal {
        var environment = ["HOME": home.path, "NO_COLOR": "1"]
        for (key, value) in extra { environment[key] = value }
        let terminal = try PseudoTerminal(executable: DiceProcess.binary, arguments: arguments, environment: environment)
        try terminal.waitFor("dice> ")
        return terminal
    }

    @Test func aNewUsersFirstSession() throws {
        defer { try? FileManager.default.removeItem(at: home) }
        let terminal = try start()
        terminal.send("def atk = 1d20 + 5\r")
        try terminal.waitFor("def atk = 1d20 + 5\r\n")
        try terminal.waitFor("dice> ")
        terminal.send("atk\r")
        let first = try terminal.waitFor("dice> ")
        #expect(first.contains("atk: 1d20 ("))
        // Up and Enter rolls the macro again.
        terminal.send("\u{1B}[A\r")
        let again = try terminal.waitFor("dice> ")
        #expect(again.contains("atk: 1d20 ("))
        // Tab completes the macro's name.
        terminal.send("at\t\r")
        let completed = try terminal.waitFor("dice> ")
        #expect(completed.contains("atk: 1d20 ("))
        // A typo: an error with a caret, and the REPL goes on.
        terminal.send("2d6 + * 3\r")
        let error = try terminal.waitFor("dice> ")
        #expect(error.contains("<input>:1:7: error: expected an expression, found '*'"))
        #expect(error.contains("2d6 + * 3\r\n      ^"))
        // Ctrl-C abandons the line being typed.
        terminal.send("99d6 + ")
        terminal.send("\u{3}")
        try terminal.waitFor("dice> ")
        terminal.send("1 + 1\r")
        let sum = try terminal.waitFor("dice> ")
        #expect(sum.contains("1 + 1 = 2"))
        #expect(!sum.contains("99d6"))
        #expect(try enter(":save ~/.dicerc", in: terminal).contains("saved 0 variables and 1 macros"))
        terminal.send("\u{4}")
        #expect(try terminal.waitForExit() == 0)

        // The next session has the history and, from ~/.dicerc, the macro.
        let history = try String(contentsOf: home.appendingPathComponent(".dice_history"), encoding: .utf8)
        #expect(history.contains("def atk = 1d20 + 5\natk\n"))
        let next = try start()
        next.send("\u{1B}[A")
        try next.waitFor(":save ~/.dicerc")
        next.send("\u{15}atk\r")
        let rolled = try next.waitFor("dice> ")
        #expect(rolled.contains("atk: 1d20 ("))
        next.send(":quit\r")
        #expect(try next.waitForExit() == 0)
    }

    /// Types `line` and Enter at a prompt; returns what it printed before the next prompt.
    func enter(_ line: String, in terminal: PseudoTerminal) throws -> String {
        terminal.send(line + "\r")
        try terminal.waitFor(line + "\r\n")
        let chunk = try terminal.waitFor("dice> ")
        return String(chunk.dropLast("dice> ".count))
    }

    @Test func commandsManageTheSession() throws {
        defer { try? FileManager.default.removeItem(at: home) }
        let terminal = try start()
        #expect(try enter("x = 3", in: terminal) == "x = 3\r\n")
        _ = try enter("def m(a) = a + x", in: terminal)
        #expect(try enter(":vars", in: terminal) == "x = 3\r\n")
        #expect(try enter(":defs", in: terminal) == "def m(a) = a + x\r\n")
        #expect(try enter(":del x", in: terminal) == "")
        #expect(try enter("m(1)", in: terminal).contains("in macro 'm': unknown name 'x'"))
        _ = try enter(":seed 42", in: terminal)
        let firstRoll = try enter("3d6", in: terminal)
        _ = try enter(":seed 42", in: terminal)
        let secondRoll = try enter("3d6", in: terminal)
        #expect(firstRoll.hasPrefix("3d6 ("))
        #expect(firstRoll == secondRoll)
        #expect(try enter(":history", in: terminal).hasPrefix("1  x = 3\r\n2  def m(a) = a + x\r\n"))
        #expect(try enter(":bogus", in: terminal).contains("unknown command ':bogus'"))
        #expect(try enter(":help", in: terminal).contains(":save FILE"))
        terminal.send(":quit\r")
        #expect(try terminal.waitForExit() == 0)
    }

    @Test func saveAndLoadRestoreTheEnvironment() throws {
        defer { try? FileManager.default.removeItem(at: home) }
        let file = home.appendingPathComponent("session.dice").path
        let terminal = try start()
        terminal.send("a = 7 / 2; b = -4; def hit(bonus) = 1d20 + bonus >= 15; def dmg = 2d6! [fire]\r")
        try terminal.waitFor("def dmg")
        terminal.send(":save \(file)\r")
        try terminal.waitFor("saved 2 variables and 2 macros")
        terminal.send(":quit\r")
        _ = try terminal.waitForExit()
        let saved = try String(contentsOfFile: file, encoding: .utf8)
        let fresh = try start()
        fresh.send(":load \(file)\r")
        try fresh.waitFor("dice> ")
        fresh.send(":save \(file).again\r")
        try fresh.waitFor("saved 2 variables and 2 macros")
        fresh.send(":quit\r")
        _ = try fresh.waitForExit()
        #expect(try String(contentsOfFile: file + ".again", encoding: .utf8) == saved)
        #expect(saved.contains("a = 3.5\nb = -4\n"))
    }

    @Test func initFileErrorsAreReportedAndTheREPLStarts() throws {
        defer { try? FileManager.default.removeItem(at: home) }
        let rc = home.appendingPathComponent("rc.dice")
        try "def ok = 1d4\nbroken = (\n".write(to: rc, atomically: true, encoding: .utf8)
        let terminal = try PseudoTerminal(executable: DiceProcess.binary, arguments: [],
                                          environment: ["HOME": home.path, "DICE_INIT": rc.path, "NO_COLOR": "1"])
        let banner = try terminal.waitFor("dice> ")
        #expect(banner.contains("rc.dice:2:11: error:"))
        #expect(try enter("ok", in: terminal).contains("ok: 1d4 ("))
        terminal.send("\u{4}")
        #expect(try terminal.waitForExit() == 0)
    }

    @Test func unwritableHistoryWarnsOnceAndGoesOn() throws {
        defer { try? FileManager.default.removeItem(at: home) }
        let terminal = try start(["DICE_HISTORY": "/nonexistent/dir/history"])
        #expect(try enter("1d1", in: terminal).contains("1d1 (1) = 1"))
        #expect(try enter("2d1", in: terminal).contains("2d1 (1, 1) = 2"))
        terminal.send("\u{4}")
        #expect(try terminal.waitForExit() == 0)
        let warnings = terminal.output.components(separatedBy: "warning").count - 1
        #expect(warnings == 1)
    }

    @Test func ctrlCAbandonsALongRollButNotTheSession() throws {
        defer { try? FileManager.default.removeItem(at: home) }
        let terminal = try start(arguments: ["--max-dice", "4000000000"])
        terminal.send("x = 5\r")
        try terminal.waitFor("x = 5\r\n")
        terminal.send("3000000000d6\r")
        Thread.sleep(forTimeInterval: 0.5)
        terminal.send("\u{3}")
        try terminal.waitFor("error: interrupted", timeout: 10)
        try terminal.waitFor("dice> ")
        #expect(try enter("x", in: terminal).contains("x (5) = 5"))
        terminal.send("\u{4}")
        #expect(try terminal.waitForExit() == 0)
    }
}
