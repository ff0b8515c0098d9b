import Foundation
import Testing

/// What the prompt of issue 12 does at a real terminal: the log across sessions (one of
/// them killed), continued lines, file name and keyword completion.
@Suite(.serialized) struct REPLPromptTerminalTests {
    let home: URL

    init() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("dice-prompt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    }

    func cleanUp() {
        try? FileManager.default.removeItem(at: home)
    }

    func start(directory: String? = nil) throws -> PseudoTerminal {
        let terminal = try PseudoTerminal(executable: "/bin/sh", arguments: ["-c", "cd '\(directory ?? home.path)' && exec '\(DiceProcess.binary)'"],
                                          environment: ["HOME": home.path, "NO_COLOR": "1"])
        try terminal.waitFor("dice> ", timeout: 10)
        return terminal
    }

    func enter(_ line: String, in terminal: PseudoTerminal) throws -> String {
        terminal.send(line + "\r")
        try terminal.waitFor(line + "\r\n")
        return PseudoTerminal.plainText(try terminal.waitFor("dice> ", timeout: 10))
    }

    @Test func theLogOutlivesAKilledSession() throws {
        defer { cleanUp() }
        let first = try start()
        #expect(try enter("--seed", in: first).contains("error"))
        #expect(try enter(":seed 7", in: first).contains("seed 7"))
        let rolled = try enter("4d6kh3 + 100", in: first)
        #expect(rolled.contains("4d6kh3 ("))
        first.sendSignal(SIGKILL)
        _ = try? first.waitForExit(timeout: 10)
        let log = try String(contentsOf: home.appendingPathComponent(".dice_log"), encoding: .utf8)
        #expect(log.split(separator: "\n").count == 1)
        #expect(log.contains("\"input\":\"4d6kh3 + 100\""))

        let second = try start()
        #expect(try enter("x = 5", in: second).contains("x = 5"))
        let shown = try enter(":log", in: second)
        // Newest first: the assignment of this session, then the roll of the killed one.
        let assignment = try #require(shown.range(of: "  x = 5\n    5\n"))
        let roll = try #require(shown.range(of: "  4d6kh3 + 100\n    4d6kh3 ("))
        #expect(assignment.lowerBound < roll.lowerBound)
        second.send("\u{4}")
        #expect(try second.waitForExit(timeout: 10) == 0)
    }

    @Test func anOpenBracketContinuesAndCtrlCAbandonsIt() throws {
        defer { cleanUp() }
        let terminal = try start()
        terminal.send("{1d1 + 5,\r")
        try terminal.waitFor("...> ")
        terminal.send("1d1 + 7}kh1\r")
        let shown = PseudoTerminal.plainText(try terminal.waitFor("dice> "))
        #expect(shown.contains("{~~1d1 (1) + 5 = 6~~, 1d1 (1) + 7 = 8}kh1 = 8"))
        terminal.send("(2 +\r")
        try terminal.waitFor("...> ")
        terminal.send("\u{3}")
        try terminal.waitFor("dice> ")
        #expect(try enter("3 * 3", in: terminal).contains("3 * 3 = 9"))
        // Up recalls the continued statement as one entry.
        terminal.send("\u{1B}[A\u{1B}[A\r")
        #expect(PseudoTerminal.plainText(try terminal.waitFor("= 8\r\n")).contains("kh1"))
        terminal.send(":quit\r")
        #expect(try terminal.waitForExit(timeout: 10) == 0)
        let history = try String(contentsOf: home.appendingPathComponent(".dice_history"), encoding: .utf8)
        #expect(history.hasPrefix("{1d1 + 5, 1d1 + 7}kh1\n3 * 3\n"))
    }

    /// LANGUAGE.md §5 at a real terminal: after an operator, `then` or `else` the statement
    /// goes on under `...> `, and Up recalls it as one line.
    @Test func aLineEndingInAnOperatorOrThenContinues() throws {
        defer { cleanUp() }
        let terminal = try start()
        terminal.send("x = 2 *\r")
        try terminal.waitFor("...> ")
        terminal.send("3\r")
        #expect(PseudoTerminal.plainText(try terminal.waitFor("dice> ")).contains("x = 2 * 3 = 6"))
        terminal.send("if x > 5 then\r")
        try terminal.waitFor("...> ")
        terminal.send("\"big\" else\r")
        try terminal.waitFor("...> ")
        terminal.send("\"small\"\r")
        #expect(PseudoTerminal.plainText(try terminal.waitFor("dice> ")).contains("x (6) > 5 → big"))
        terminal.send("\u{1B}[A\r")
        #expect(PseudoTerminal.plainText(try terminal.waitFor("dice> ")).contains("if x > 5 then \"big\" else \"small\""))
        terminal.send(":quit\r")
        #expect(try terminal.waitForExit(timeout: 10) == 0)
    }

    @Test func tabCompletesFileNamesAfterLoadAndSaveAndTheKeywords() throws {
        defer { cleanUp() }
        let sheets = home.appendingPathComponent("sheets")
        try FileManager.default.createDirectory(at: sheets, withIntermediateDirectories: true)
        try "fighter = 16\n".write(to: sheets.appendingPathComponent("fighter.dice"), atomically: true, encoding: .utf8)
        let terminal = try start(directory: home.path)
        // libedit redraws the line as it completes: wait for the letters it adds.
        terminal.send(":load she\t")
        try terminal.waitFor("ets/")
        terminal.send("fi\t")
        try terminal.waitFor("ghter.dice")
        terminal.send("\r")
        #expect(PseudoTerminal.plainText(try terminal.waitFor("dice> ")).contains("loaded 0 macros, 1 variable from sheets/fighter.dice"))
        terminal.send(":save sheets/fighter.dice.new\r")
        try terminal.waitFor("saved 1 variable and 0 macros")
        try terminal.waitFor("dice> ")
        terminal.send(":save sheets/fighter.dice.n\t")
        try terminal.waitFor("ew")
        terminal.send("\r")
        try terminal.waitFor("saved 1 variable and 0 macros to sheets/fighter.dice.new\r\n")
        try terminal.waitFor("dice> ")
        terminal.send("sta\t")
        try terminal.waitFor("ts")
        terminal.send("1d2\r")
        #expect(PseudoTerminal.plainText(try terminal.waitFor("dice> ")).contains("1d2: mean 1.50"))
        terminal.send("de\t")
        try terminal.waitFor("f")
        terminal.send("m = 1\r")
        #expect(PseudoTerminal.plainText(try terminal.waitFor("dice> ")).contains("def m = 1\n"))
        terminal.send("\u{4}")
        #expect(try terminal.waitForExit(timeout: 10) == 0)
    }
}
