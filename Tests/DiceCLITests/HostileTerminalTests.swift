#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing

/// The hostile-input table of issue 23, the rows that need the REPL on a terminal: FIFOs
/// for the log, history and init file, a full disk under the log, and Ctrl-C during a huge
/// statement. Each runs `dice` on a pseudo-terminal.
@Suite(.serialized) struct HostileTerminalTests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    func start(_ environment: [String: String] = [:], shell: String? = nil) throws -> PseudoTerminal {
        var full = ["HOME": directory.path, "NO_COLOR": "1"]
        full.merge(environment) { _, new in new }
        let terminal = shell.map {
            try? PseudoTerminal(executable: "/bin/sh", arguments: ["-c", $0, DiceProcess.binary], environment: full)
        } ?? (try? PseudoTerminal(executable: DiceProcess.binary, arguments: [], environment: full))
        guard let terminal else { throw PseudoTerminal.Failure(description: "cannot start dice") }
        _ = try terminal.waitFor("dice> ", timeout: 10)
        return terminal
    }

    @discardableResult
    func enter(_ line: String, in terminal: PseudoTerminal, timeout: Double = 10) throws -> String {
        terminal.send(line + "\r")
        _ = try terminal.waitFor(line + "\r\n", timeout: timeout)
        let chunk = try terminal.waitFor("dice> ", timeout: timeout)
        return PseudoTerminal.plainText(String(chunk.dropLast("dice> ".count)))
    }

    @Test func fifosAreNotOpenedBlocking() throws {
        defer { directory.remove() }
        let fifo = directory.path + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let started = Date()
        let terminal = try start(["DICE_LOG": fifo, "DICE_HISTORY": fifo, "DICE_INIT": fifo])
        let greeting = PseudoTerminal.plainText(terminal.output)
        #expect(greeting.contains("warning: history file \(fifo) is not a regular file"))
        #expect(greeting.contains("warning: \(fifo) is not a regular file; not run"))
        let roll = try enter("1d1 + 1", in: terminal)
        #expect(roll.contains("1d1 (1) + 1 = 2"))
        #expect(roll.contains("cannot write the log \(fifo): not a regular file"))
        #expect(try enter(":log", in: terminal).contains("not a regular file"))
        terminal.send(":quit\r")
        #expect(try terminal.waitForExit() == 0)
        #expect(Date().timeIntervalSince(started) < 10)
    }

    /// A file-size limit stands in for a full disk: every result's line is too long to fit.
    /// One warning, the REPL goes on, and the log never ends in a torn line.
    @Test func aFullDiskWarnsOnceAndTheLogStaysWhole() throws {
        defer { directory.remove() }
        let log = directory.path + "/log"
        let rc = try directory.write("def big = 1d1 [" + String(repeating: "z", count: 600) + "]\n", to: "rc.dice")
        let terminal = try start(["DICE_LOG": log, "DICE_HISTORY": directory.path + "/history", "DICE_INIT": rc],
                                 shell: "trap '' XFSZ; ulimit -f 1; exec \"$0\"")
        var shown = ""
        for _ in 0..<3 { shown += try enter("big", in: terminal) }
        #expect(shown.components(separatedBy: "cannot write the log").count == 2, "\(shown)")
        #expect(try enter("1 + 1", in: terminal).contains("1 + 1 = 2"))
        terminal.send(":quit\r")
        #expect(try terminal.waitForExit() == 0)
        let bytes = FileManager.default.contents(atPath: log) ?? Data()
        #expect(bytes.isEmpty || bytes.last == 0x0A)
    }

    /// Ctrl-C during a statement whose output would be gigabytes: the prompt comes back, the
    /// next statement answers at once, and the session's peak memory stays small.
    @Test func ctrlCStopsTheWorkNotOnlyTheWait() throws {
        defer { directory.remove() }
        let rc = try directory.write("def a = 1d6 [" + String(repeating: "x", count: 100_000) + "]\n", to: "rc.dice")
        let report = directory.path + "/peak"
        let terminal = try start(["DICE_INIT": rc, "DICE_LOG": directory.path + "/log"],
                                 shell: "exec /usr/bin/time -o '\(report)' -f %M \"$0\" --max-dice 4000000000")
        for huge in ["repeat(1000, repeat(1000, a))", "repeat(1000000000, 1d6)"] {
            terminal.send(huge + "\r")
            _ = try terminal.waitFor(huge + "\r\n")
            Thread.sleep(forTimeInterval: 0.3)
            terminal.send("\u{3}")
            _ = try terminal.waitFor("dice> ", timeout: 10)
            let started = Date()
            #expect(try enter("1d1", in: terminal).contains("1d1 (1) = 1"))
            #expect(Date().timeIntervalSince(started) < 1.0, "\(huge)")
        }
        terminal.send(":quit\r")
        #expect(try terminal.waitForExit() == 0)
        if let text = try? String(contentsOfFile: report, encoding: .utf8),
           let kilobytes = Int(text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "\n").last ?? "") {
            #expect(kilobytes < 400_000, "\(kilobytes) KB")
        }
    }
}
