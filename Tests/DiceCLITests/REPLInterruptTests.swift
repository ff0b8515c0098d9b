import Foundation
import Testing

/// Ctrl-C at a terminal while a statement runs: the statement is abandoned at once (the
/// prompt is back within a fraction of a second), and the session is kept.
@Suite(.serialized) struct REPLInterruptTests {
    let home: URL

    init() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("dice-interrupt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    }

    func cleanUp() {
        try? FileManager.default.removeItem(at: home)
    }

    /// 2^n uses of a0 through a chain of macros each using the last twice.
    func writeChain(_ levels: Int, to name: String, then extra: String = "") throws -> String {
        let path = home.appendingPathComponent(name).path
        let text = "def a0 = 1d6\n" + (1...levels).map { "def a\($0) = a\($0 - 1) + a\($0 - 1)\n" }.joined() + extra
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func start(executable: String = DiceProcess.binary, arguments: [String] = [],
               prompt: String = "dice> ") throws -> PseudoTerminal {
        let terminal = try PseudoTerminal(executable: executable, arguments: arguments,
                                          environment: ["HOME": home.path, "NO_COLOR": "1"])
        try terminal.waitFor(prompt, timeout: 10)
        return terminal
    }

    func enter(_ line: String, in terminal: PseudoTerminal) throws -> String {
        terminal.send(line + "\r")
        try terminal.waitFor(line + "\r\n")
        return PseudoTerminal.plainText(try terminal.waitFor("dice> ", timeout: 10))
    }

    /// Types `line`, lets it run for `after` seconds, presses Ctrl-C; returns how long the
    /// prompt took to come back, and what was shown.
    func interrupt(_ line: String, after: Double, in terminal: PseudoTerminal) throws -> (Double, String) {
        terminal.send(line + "\r")
        try terminal.waitFor(line + "\r\n")
        Thread.sleep(forTimeInterval: after)
        let start = Date()
        terminal.send("\u{3}")
        let shown = PseudoTerminal.plainText(try terminal.waitFor("dice> ", timeout: 10))
        return (Date().timeIntervalSince(start), shown)
    }

    @Test func ctrlCAbandonsAMacroChainAStatsAndALoad() throws {
        defer { cleanUp() }
        let chain = try writeChain(30, to: "chain.dice")
        let terminal = try start(arguments: ["--max-dice", "4000000000"])
        #expect(try enter("x = 5", in: terminal).contains("x = 5"))
        #expect(try enter(":load \(chain)", in: terminal).contains("loaded 31 macros, 0 variables from \(chain)"))

        // A chain of 2^30 macro uses, stopped after a second: its partial result is large,
        // and is freed after the prompt is back, not before.
        let (chainTime, chainShown) = try interrupt("a30", after: 1, in: terminal)
        #expect(chainShown.contains("error: interrupted"))
        #expect(chainTime < 1, "the prompt came back after \(chainTime) s")

        // A `stats` simulated today (exact in a later engine: then it simply finishes).
        let (statsTime, statsShown) = try interrupt("stats 1000d20!", after: 1, in: terminal)
        #expect(statsShown.contains("error: interrupted") || statsShown.contains("mean"))
        #expect(statsTime < 1, "the prompt came back after \(statsTime) s")

        // A long script: what ran before the interrupted statement stays, what follows never runs.
        let script = home.appendingPathComponent("long.dice").path
        try "before = 7\na30\nafter = 8\n".write(toFile: script, atomically: true, encoding: .utf8)
        let (loadTime, loadShown) = try interrupt(":load \(script)", after: 1, in: terminal)
        #expect(loadShown.contains("error: interrupted"))
        #expect(loadTime < 1, "the prompt came back after \(loadTime) s")

        // The session is whole: variables, macros, and the statements loaded before.
        #expect(try enter("x + before", in: terminal).contains("= 12"))
        #expect(try enter("after", in: terminal).contains("unknown name 'after'"))
        #expect(try enter("a2", in: terminal).contains("a2: "))
        terminal.send(":quit\r")
        #expect(try terminal.waitForExit(timeout: 10) == 0)
    }

    /// `make run` starts the REPL inside make's process group: Ctrl-C must reach the REPL
    /// only. make must still be there, and succeed, after `:quit`.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/make")))
    func ctrlCUnderMakeReachesTheREPLOnly() throws {
        defer { cleanUp() }
        let makefile = home.appendingPathComponent("Makefile").path
        try "run:\n\t@\(DiceProcess.binary) --max-dice 4000000000\n\t@echo make carried on\n".write(
            toFile: makefile, atomically: true, encoding: .utf8)
        let terminal = try start(executable: "/usr/bin/make", arguments: ["-s", "-f", makefile, "run"])
        #expect(try enter("y = 3", in: terminal).contains("y = 3"))
        // Ctrl-C at the prompt, then during a long roll.
        terminal.send("\u{3}")
        try terminal.waitFor("dice> ")
        let (_, shown) = try interrupt("repeat(1000000000, 1d6)", after: 0.5, in: terminal)
        #expect(shown.contains("error: interrupted"))
        #expect(try enter("y", in: terminal).contains("y (3) = 3"))
        terminal.send(":quit\r")
        try terminal.waitFor("make carried on", timeout: 10)
        #expect(try terminal.waitForExit(timeout: 10) == 0)
    }

    /// With stdout a file (`dice > log` at a terminal), the greeting, the prompt and the line
    /// being typed show on stderr, the terminal, as bash shows its prompt, and the results go to the file;
    /// Ctrl-C at the prompt abandons the line and the REPL prompts again.
    @Test func withOutputToAFileThePromptShowsOnTheTerminal() throws {
        defer { cleanUp() }
        let output = home.appendingPathComponent("out.txt").path
        let terminal = try PseudoTerminal(executable: "/bin/sh",
                                          arguments: ["-c", "exec \"$0\" > \"$1\"", DiceProcess.binary, output],
                                          environment: ["HOME": home.path, "NO_COLOR": "1"])
        func waitForOutput(_ text: String) throws {
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline {
                if let written = try? String(contentsOfFile: output, encoding: .utf8), written.contains(text) { return }
                Thread.sleep(forTimeInterval: 0.02)
            }
            Issue.record("no \(text.debugDescription) in the output: \((try? String(contentsOfFile: output, encoding: .utf8)) ?? "")")
        }
        // The greeting shows with the prompt, on the terminal, not in the file.
        try terminal.waitFor("Ctrl-D to quit.")
        try terminal.waitFor("dice> ")
        terminal.send("1 + 1\r")
        try waitForOutput("1 + 1 = 2")
        // The line typed is echoed on the terminal (libedit edits there), the result is not.
        let shown = PseudoTerminal.plainText(try terminal.waitFor("dice> "))
        #expect(shown.contains("1 + 1"))
        #expect(!shown.contains("= 2"))
        terminal.send("7d7 +\u{3}")
        try terminal.waitFor("^C")
        try terminal.waitFor("dice> ")
        terminal.send("2 + 2\r")
        try waitForOutput("2 + 2 = 4")
        let written = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        #expect(!written.contains("dice> "))
        #expect(!written.contains("Ctrl-D to quit"))
        #expect(!written.contains("7d7"))
        terminal.send(":quit\r")
        #expect(try terminal.waitForExit(timeout: 10) == 0)
    }
}
