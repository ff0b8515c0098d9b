import Foundation
import Testing

/// What only a terminal can show: keys (Up, Tab, Ctrl-U), Ctrl-C and Ctrl-D, history
/// across sessions, tab completion. Everything else the REPL does is tested in-process,
/// with scripted lines, in `REPLSessionTests` and `REPLFileTests`.
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

    @Test func keysRecallCompleteAndAbandonLines() throws {
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
        // Ctrl-C abandons the line being typed.
        terminal.send("99d6 + ")
        terminal.send("\u{3}")
        try terminal.waitFor("dice> ")
        terminal.send("1 + 1\r")
        let sum = try terminal.waitFor("dice> ")
        #expect(sum.contains("1 + 1 = 2"))
        #expect(!sum.contains("99d6"))
        // Ctrl-D on an empty line ends the session.
        terminal.send("\u{4}")
        #expect(try terminal.waitForExit() == 0)

        // The next session recalls the lines of this one with Up; Ctrl-U clears a line.
        let history = try String(contentsOf: home.appendingPathComponent(".dice_history"), encoding: .utf8)
        #expect(history == "def atk = 1d20 + 5\natk\n1 + 1\n")
        let next = try start()
        next.send("\u{1B}[A")
        try next.waitFor("1 + 1")
        // Two more Ups reach the macro's definition; Enter runs it again.
        next.send("\u{1B}[A\u{1B}[A\r")
        let defined = try next.waitFor("dice> ")
        #expect(defined.contains("def atk = 1d20 + 5\r\n"))
        next.send("junk\u{15}atk\r")
        let rolled = try next.waitFor("dice> ")
        #expect(rolled.contains("atk: 1d20 ("))
        #expect(!rolled.contains("error"))
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
