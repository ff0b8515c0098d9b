import Foundation
import Testing

/// Issue 24's REPL at a real terminal (a pseudo-terminal): what Tab adds after a command, a
/// function and a macro; the width read again after the window is resized; Ctrl-D under
/// `...> `; the limits set at the prompt.
@Suite(.serialized) struct REPLTerminalSettingsTests {
    let home: URL

    init() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("dice-settings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    }

    func cleanUp() {
        try? FileManager.default.removeItem(at: home)
    }

    func start(columns: UInt16 = 80) throws -> PseudoTerminal {
        let terminal = try PseudoTerminal(executable: DiceProcess.binary, arguments: [],
                                          environment: ["HOME": home.path, "NO_COLOR": "1"], columns: columns)
        try terminal.waitFor("dice> ", timeout: 10)
        return terminal
    }

    func enter(_ line: String, in terminal: PseudoTerminal) throws -> String {
        terminal.send(line + "\r")
        try terminal.waitFor(line + "\r\n")
        return PseudoTerminal.plainText(try terminal.waitFor("dice> ", timeout: 10))
    }

    @Test func tabAddsAParenthesisAfterFunctionsAndASpaceAfterCommands() throws {
        defer { cleanUp() }
        let terminal = try start()
        _ = try enter("def smite(n) = (n + 1)d8", in: terminal)
        terminal.send("flo\t")
        try terminal.waitFor("or(")
        terminal.send("2.5)\r")
        #expect(try terminal.waitFor("dice> ").contains("floor(2.5) = 2"))
        terminal.send("smi\t")
        try terminal.waitFor("te(")
        terminal.send("1) >= 2\r")
        #expect(try terminal.waitFor("dice> ").contains("smite(1)"))
        // `:sa` gives `:save ` with its space: the file name follows at once.
        terminal.send(":sa\t")
        try terminal.waitFor("ve ")
        terminal.send(home.path + "/session.dice\r")
        #expect(try terminal.waitFor("dice> ").contains("saved 0 variables and 1 macro to \(home.path)/session.dice"))
        terminal.send("\u{4}")
        #expect(try terminal.waitForExit(timeout: 10) == 0)
    }

    @Test func ctrlDUnderTheContinuationPromptDropsTheStatementNotTheREPL() throws {
        defer { cleanUp() }
        let terminal = try start()
        terminal.send("{1d1 + 5,\r")
        try terminal.waitFor("...> ")
        terminal.send("\u{4}")
        try terminal.waitFor("the unfinished statement was dropped (Ctrl-D again quits)")
        // Typed before the prompt is back, the line would be echoed by the terminal and again
        // by the line editor.
        try terminal.waitFor("dice> ")
        #expect(try enter("1 + 1", in: terminal).contains("1 + 1 = 2"))
        terminal.send("\u{4}")
        #expect(try terminal.waitForExit(timeout: 10) == 0)
    }

    /// A table drawn after the window grows is as wide as the window is then.
    @Test func aResizedWindowGetsTablesOfItsNewWidth() throws {
        defer { cleanUp() }
        let terminal = try start(columns: 60)
        let narrow = try enter("stats 1d4", in: terminal)
        terminal.resize(columns: 120)
        let wide = try enter("stats 1d4", in: terminal)
        func widest(_ text: String) -> Int { text.split(separator: "\n").map { (line: Substring) in line.count }.max() ?? 0 }
        #expect(widest(narrow) <= 60 && widest(narrow) > 40, "\(narrow)")
        #expect(widest(wide) > 100, "\(wide)")
        terminal.send("\u{4}")
        #expect(try terminal.waitForExit(timeout: 10) == 0)
    }

    @Test func limitsSetAtThePromptAreNamedByTheirErrors() throws {
        defer { cleanUp() }
        let terminal = try start()
        #expect(try enter(":stats-seconds 0.01", in: terminal).contains("stats may take up to 0.01 s"))
        #expect(try enter("stats 66d206d!p", in: terminal).contains("(raise it with :stats-seconds S)"))
        #expect(try enter(":max-dice 5", in: terminal).contains("at most 5 dice per statement"))
        #expect(try enter("6d6", in: terminal).contains("(raise it with :max-dice N)"))
        terminal.send(":quit\r")
        #expect(try terminal.waitForExit(timeout: 10) == 0)
    }
}
