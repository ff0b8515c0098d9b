import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Faults from outside: files that cannot be written or read, corrupt history and init
/// files, invalid UTF-8, a 100 MB script, a reader that goes away, Ctrl-C in the middle of
/// a long statement. Nothing may crash, hang or lose what the user had.
///
/// The tests run as root in CI, so "cannot write" uses paths that fail for root too: under
/// a file (`/dev/null/x`), in `/proc`, a directory where the temporary file should go, a
/// file-size limit (`ulimit -f`) for a write that fails half-way, and `/dev/full`.
@Suite(.serialized) struct FaultTests {
    let home: URL

    init() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("dice-fault-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    }

    func cleanUp() {
        try? FileManager.default.removeItem(at: home)
    }

    // MARK: - REPL helpers

    func start(_ extra: [String: String] = [:], arguments: [String] = [],
               shell: String? = nil) throws -> PseudoTerminal {
        var environment = ["HOME": home.path, "NO_COLOR": "1"]
        for (key, value) in extra { environment[key] = value }
        let terminal: PseudoTerminal
        if let shell {
            // `sh -c SHELL dice ARGS...`: the shell sets limits, then becomes dice.
            terminal = try PseudoTerminal(executable: "/bin/sh", arguments: ["-c", shell, DiceProcess.binary] + arguments,
                                          environment: environment)
        } else {
            terminal = try PseudoTerminal(executable: DiceProcess.binary, arguments: arguments, environment: environment)
        }
        try terminal.waitFor("dice> ")
        return terminal
    }

    /// Types `line` and Enter at a prompt; returns what it printed before the next prompt.
    @discardableResult
    func enter(_ line: String, in terminal: PseudoTerminal, timeout: Double = 10) throws -> String {
        terminal.send(line + "\r")
        try terminal.waitFor(line + "\r\n", timeout: timeout)
        let chunk = try terminal.waitFor("dice> ", timeout: timeout)
        return PseudoTerminal.plainText(String(chunk.dropLast("dice> ".count)))
    }

    func quit(_ terminal: PseudoTerminal) throws {
        terminal.send(":quit\r")
        #expect(try terminal.waitForExit() == 0)
    }

    func contents(_ path: String) -> Data? {
        FileManager.default.contents(atPath: path)
    }

    // MARK: - History that cannot be written

    static let unwritableHistories = [
        "/dev/full", "/dev/null/x/dice_history", "/proc/dice_history", "FILE/history", "/nonexistent/dir/dice_history",
    ]

    @Test(arguments: unwritableHistories)
    func historyThatCannotBeWrittenWarnsOnceAndTheREPLGoesOn(_ path: String) throws {
        defer { cleanUp() }
        let file = home.appendingPathComponent("FILE")
        try Data("a file, not a directory\n".utf8).write(to: file)
        let historyPath = path.replacingOccurrences(of: "FILE", with: file.path)
        let terminal = try start(["DICE_HISTORY": historyPath])
        #expect(try enter("x = 2", in: terminal).contains("x = 2"))
        #expect(try enter("1d1 + x", in: terminal).contains("1d1 (1) + x (2) = 3"))
        #expect(try enter("x", in: terminal).contains("x (2) = 2"))
        try quit(terminal)
        let output = PseudoTerminal.plainText(terminal.output)
        #expect(output.components(separatedBy: "warning:").count - 1 == 1, "\(output)")
        #expect(output.contains("history will not be saved"))
        #expect(contents(file.path) == Data("a file, not a directory\n".utf8))
    }

    // MARK: - :save that fails

    @Test func failedSavesWarnAndKeepTheOldFile() throws {
        defer { cleanUp() }
        let saved = home.appendingPathComponent("session.dice").path
        let terminal = try start()
        try enter("x = 3; def atk = 1d20 + x", in: terminal)
        #expect(try enter(":save \(saved)", in: terminal).contains("saved 1 variable and 1 macro"))
        let old = try #require(contents(saved))
        try enter("x = 4; def dmg = 2d6", in: terminal)

        // Cannot be created: under a file, in /proc.
        #expect(try enter(":save /dev/null/x/session.dice", in: terminal)
            .contains("dice: cannot save /dev/null/x/session.dice: not a directory"))
        #expect(try enter(":save /proc/session.dice", in: terminal).contains("dice: cannot save /proc/session.dice"))
        // A link where the temporary file used to go is never followed: the save makes a
        // file of its own (created exclusively), and what the link names stays as it was.
        let victim = home.appendingPathComponent("victim.txt").path
        try Data("victim\n".utf8).write(to: URL(fileURLWithPath: victim))
        let trap = "\(saved).tmp-\(terminal.pid)"
        try FileManager.default.createSymbolicLink(atPath: trap, withDestinationPath: victim)
        #expect(try enter(":save \(saved)", in: terminal).contains("saved 1 variable and 2 macros"))
        #expect(contents(victim) == Data("victim\n".utf8))
        #expect(contents(saved) != old)
        try FileManager.default.removeItem(atPath: trap)

        // The session is intact and a later save works.
        #expect(try enter("x", in: terminal).contains("x (4) = 4"))
        #expect(try enter(":save \(saved)", in: terminal).contains("saved 1 variable and 2 macros"))
        try quit(terminal)
        let final = try String(contentsOfFile: saved, encoding: .utf8)
        #expect(final.contains("x = 4\ndef atk = 1d20 + x\ndef dmg = 2d6\n"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path).filter { $0.contains("tmp") }.isEmpty)
    }

    /// A write that fails half-way (the file-size limit stands in for a full disk): the
    /// old file is untouched, the partial temporary file is removed, the REPL goes on.
    @Test func saveThatRunsOutOfSpaceKeepsTheOldFile() throws {
        defer { cleanUp() }
        let saved = home.appendingPathComponent("session.dice").path
        // 1 block: 512 bytes. SIGXFSZ ignored, so an oversized write fails with EFBIG.
        let terminal = try start(["DICE_HISTORY": home.appendingPathComponent("history").path],
                                 shell: "trap '' XFSZ; ulimit -f 1; exec \"$0\" \"$@\"")
        try enter("x = 3", in: terminal)
        #expect(try enter(":save \(saved)", in: terminal).contains("saved 1 variable and 0 macros"))
        let old = try #require(contents(saved))
        let body = Array(repeating: "1d6", count: 200).joined(separator: " + ")
        try enter("def big = \(body)", in: terminal)
        #expect(try enter(":save \(saved)", in: terminal).contains("dice: cannot save \(saved): file too large"))
        #expect(contents(saved) == old)
        #expect(try enter("x + 1", in: terminal).contains("x (3) + 1 = 4"))
        try quit(terminal)
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path).filter { $0.contains("tmp") }.isEmpty)
    }

    // MARK: - Corrupt history and init files

    @Test func binaryHistoryIsLeftUntouched() throws {
        defer { cleanUp() }
        let history = home.appendingPathComponent(".dice_history")
        let junk = Data([0x31, 0x64, 0x36, 0x0A, 0x00, 0xFF, 0xFE, 0x0A, 0xC3, 0x28, 0x0A] + (0..<256).map { UInt8($0) })
        try junk.write(to: history)
        let terminal = try start()
        #expect(try enter("1 + 1", in: terminal).contains("1 + 1 = 2"))
        terminal.send("\u{1B}[A")  // Up: nothing from the corrupt file, nothing crashes
        terminal.send("\u{15}2 + 2\r")
        try terminal.waitFor("2 + 2 = 4")
        try terminal.waitFor("dice> ")
        try quit(terminal)
        let output = PseudoTerminal.plainText(terminal.output)
        #expect(output.contains("is not UTF-8 text, left untouched"))
        #expect(contents(history.path) == junk)
    }

    @Test func invalidUTF8HistoryLineIsLeftUntouched() throws {
        defer { cleanUp() }
        let history = home.appendingPathComponent("history")
        let text = Data("1d6\n".utf8) + Data([0xE2, 0x82, 0x0A]) + Data("2d6\n".utf8)
        try text.write(to: history)
        let terminal = try start(["DICE_HISTORY": history.path])
        #expect(try enter("3 * 3", in: terminal).contains("3 * 3 = 9"))
        try quit(terminal)
        #expect(contents(history.path) == text)
    }

    @Test func corruptInitFileIsReportedAndTheREPLStarts() throws {
        defer { cleanUp() }
        let rc = home.appendingPathComponent(".dicerc")
        try (Data("def ok = 1d4\n".utf8) + Data([0xFF, 0xFE, 0x00, 0x20, 0x3D, 0x20, 0x33, 0x0A])).write(to: rc)
        let terminal = try start()
        let banner = PseudoTerminal.plainText(terminal.output)
        #expect(banner.contains(".dicerc:2:1: error: the input is not valid UTF-8"), "\(banner)")
        #expect(try enter("ok", in: terminal).contains("ok: 1d4 ("))
        try quit(terminal)
    }

    @Test(arguments: [[UInt8]([0x00, 0x01, 0x02, 0xFF]), Array("\u{FEFF}@@@ = 1\n".utf8), [0x7F, 0x1B, 0x5B, 0x32, 0x4A]])
    func binaryInitFilesAreReported(_ bytes: [UInt8]) throws {
        defer { cleanUp() }
        let rc = home.appendingPathComponent("init.dice")
        try Data(bytes).write(to: rc)
        let terminal = try start(["DICE_INIT": rc.path])
        #expect(PseudoTerminal.plainText(terminal.output).contains("init.dice:1:"))
        #expect(try enter("2d1", in: terminal).contains("2d1 (1, 1) = 2"))
        try quit(terminal)
    }

    // MARK: - Scripts

    @Test func scriptWithInvalidUTF8StopsWithAPosition() throws {
        defer { cleanUp() }
        let script = home.appendingPathComponent("bad.dice")
        try (Data("1d1\nx = ".utf8) + Data([0xFF, 0xFE]) + Data("\n1d1\n".utf8)).write(to: script)
        let result = try DiceProcess.run([script.path])
        #expect(result.status == 1)
        #expect(result.stdout == "1d1 (1) = 1\n")
        #expect(result.stderr.hasPrefix("\(script.path):2:5: error: the input is not valid UTF-8\n"))
        let nul = try DiceProcess.run(["-"], stdin: "1d1\n\u{0}\n")
        #expect(nul.status == 1)
        #expect(nul.stderr.hasPrefix("<stdin>:2:1: error: unexpected character U+0000"))
    }

    /// 100 MB: a statement, then one line of 100 MB of junk. It ends at once with the
    /// result and a clear error, in memory near the file's size.
    @Test func hundredMegabyteScriptEndsWithAnErrorInBoundedMemory() throws {
        defer { cleanUp() }
        let script = home.appendingPathComponent("big.dice")
        var bytes = [UInt8]("1d1\n@".utf8)
        bytes += [UInt8](repeating: 0xFF, count: 100 * 1024 * 1024 - bytes.count - 1)
        bytes.append(0x0A)
        try Data(bytes).write(to: script)
        bytes = []
        let (result, peakKB) = try Self.runMeasured([DiceProcess.binary, script.path])
        #expect(result.status == 1)
        #expect(result.stdout == "1d1 (1) = 1\n")
        #expect(result.stderr == "\(script.path):2:1: error: unexpected character '@'\n@"
            + String(repeating: "\u{FFFD}", count: 59) + "…\n^\n")
        if let peakKB { #expect(peakKB < 700_000, "peak RSS \(peakKB) KB") }
    }

    /// Runs `command` under `/usr/bin/time` (when there is one) with a 4 GB address-space
    /// limit; returns the result and the peak resident set in KB.
    static func runMeasured(_ command: [String]) throws -> (DiceProcess.Result, Int?) {
        let timer = FileManager.default.isExecutableFile(atPath: "/usr/bin/time")
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("dice-rss-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: report) }
        let quoted = command.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let line = "ulimit -v 4000000; exec " + (timer ? "/usr/bin/time -o '\(report.path)' -f %M " : "") + quoted
        let result = try Self.shell(line)
        let peak = timer ? (try? String(contentsOf: report, encoding: .utf8)).flatMap {
            Int($0.split(separator: "\n").last.map(String.init) ?? "")
        } : nil
        return (result, peak)
    }

    /// Runs `line` with bash; stderr goes through a file, so both streams are read in full.
    static func shell(_ line: String) throws -> DiceProcess.Result {
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("dice-err-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: errors) }
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", line]
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment.removeValue(forKey: "DICE_INIT")
        environment.removeValue(forKey: "DICE_HISTORY")
        process.environment = environment
        let out = Pipe()
        let errorHandle = try FileHandle(forWritingTo: errors)
        process.standardOutput = out
        process.standardError = errorHandle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let outBytes = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try errorHandle.close()
        return DiceProcess.Result(status: process.terminationStatus,
                                  stdout: String(decoding: outBytes, as: UTF8.self),
                                  stderr: (try? String(contentsOf: errors, encoding: .utf8)) ?? "")
    }

    // MARK: - A reader that goes away

    static let pipedCommands: [[String]] = [
        ["-n", "1000000", "-e", "1d6"],
        ["-t", "-n", "1000000", "-e", "1d6"],
        ["--json", "-n", "1000000", "-e", "4d6kh3"],
        ["--stats", "-e", "100d6"],
    ]

    @Test(arguments: pipedCommands)
    func closedPipeEndsQuietly(_ arguments: [String]) throws {
        let quoted = ([DiceProcess.binary] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let result = try Self.shell("\(quoted) | head -1; echo \"status=${PIPESTATUS[0]}\"")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(result.stdout)")
        #expect(lines.last == "status=0")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
    }

    // MARK: - Ctrl-C in the middle of long work

    @Test func ctrlCAbandonsLongStatementsAndKeepsTheSession() throws {
        defer { cleanUp() }
        // Each macro uses the last twice: `a40` alone ends with the breakdown's budget, a
        // repeat of small ones runs long (uses count like repeat members, not like dice).
        let rc = home.appendingPathComponent("macros.dice")
        try ("def a0 = 1\n" + (1...40).map { "def a\($0) = a\($0 - 1) + a\($0 - 1)\n" }.joined()).write(
            to: rc, atomically: true, encoding: .utf8)
        let terminal = try start(["DICE_INIT": rc.path], arguments: ["--max-dice", "4000000000"])
        try enter("x = 5", in: terminal)
        for long in ["100000000d6", "repeat(1000000000, 1d6)", "repeat(1000000000, a3)", "1000000000d6kh1"] {
            terminal.send(long + "\r")
            try terminal.waitFor(long + "\r\n")
            Thread.sleep(forTimeInterval: 0.3)
            terminal.send("\u{3}")
            let chunk = PseudoTerminal.plainText(try terminal.waitFor("dice> ", timeout: 20))
            #expect(chunk.contains("error: interrupted"), "\(long): \(chunk)")
        }
        // A long `stats`, too.
        terminal.send("stats 200d206d!p\r")
        try terminal.waitFor("stats 200d206d!p\r\n")
        Thread.sleep(forTimeInterval: 0.3)
        terminal.send("\u{3}")
        #expect(PseudoTerminal.plainText(try terminal.waitFor("dice> ", timeout: 20)).contains("interrupted"))
        // The variables and macros are all there.
        #expect(try enter("x", in: terminal).contains("x (5) = 5"))
        #expect(try enter("a3", in: terminal).contains("= 8"))
        #expect(try enter(":defs", in: terminal).contains("def a40 = a39 + a39"))
        try quit(terminal)
    }

    // MARK: - The limits themselves

    /// Past `--max-dice` a statement fails before rolling, at once; within it, the largest
    /// statements finish (their time and memory in release are in README.md, "Limits: time
    /// and memory").
    @Test func statementsPastTheDiceLimitFailAtOnce() throws {
        let result = try DiceProcess.run(["-e", "10000001d6"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("error: more than 10000000 dice in one statement"))
        let repeated = try DiceProcess.run(["-e", "repeat(10000001, 1)"])
        #expect(repeated.stderr.contains("error: more than 10000000 dice in one statement"))
        let small = try DiceProcess.run(["--max-dice", "1000", "-e", "def m = 1; def n = m + m; repeat(400, n)"])
        #expect(small.status == 1)
        #expect(small.stderr.contains("error: more than 1000 dice in one statement"))
        // 2^40 macro uses stop at the breakdown's budget, long before the dice limit.
        let chain = "def a0 = 1d6; " + (1...40).map { "def a\($0) = a\($0 - 1) + a\($0 - 1); " }.joined() + "a40"
        for arguments in [["-e", chain], ["-t", "-e", chain]] {
            let doubling = try DiceProcess.run(arguments)
            #expect(doubling.status == 1)
            #expect(doubling.stderr.contains("error: the statement needs more than 1500000 parts of its breakdown"))
        }
        let (within, peakKB) = try Self.runMeasured([DiceProcess.binary, "-t", "--seed", "1", "-e", "1000000d6kh1"])
        #expect(within.status == 0)
        #expect(within.stdout == "6\n")
        if let peakKB { #expect(peakKB < 200_000, "peak RSS \(peakKB) KB") }
    }
}
