#if os(Linux)
import Foundation
import Testing

/// Ctrl-C stops the work, not only the wait (issue 23): a statement abandoned at the REPL
/// stops within 0.2 s and gives its memory back, and the next statement does not wait for it.
///
/// `dice` runs on a pseudo-terminal; what it does after Ctrl-C is read from /proc: its
/// threads (a statement runs on a thread of its own, so the work has stopped when the process
/// is back to one), the CPU time it uses, and its resident memory. The bound of 0.2 s is on
/// CPU time, which a busy machine does not stretch; the wall-clock bounds only allow for one.
@Suite(.serialized) struct AbandonedWorkTests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    /// The CPU seconds abandoned work may take after Ctrl-C before its thread is gone.
    static let stopCPU = 0.2

    /// `/proc/PID` of the child.
    struct Child {
        let pid: Int32

        var threads: Int {
            (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task").count) ?? 0
        }

        /// User and system CPU seconds so far (in clock ticks of 10 ms).
        var cpuSeconds: Double {
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let end = text.lastIndex(of: ")") else { return 0 }
            // After the command's name: state is field 3, utime 14 and stime 15.
            let fields = text[text.index(after: end)...].split(separator: " ")
            guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
            return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
        }

        /// A field of /proc/PID/status in kilobytes: `VmRSS` now, `VmHWM` the peak.
        func kilobytes(_ field: String) -> Int {
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return 0 }
            for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
                return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
            }
            return 0
        }

        /// Waits until the process is down to its main thread; how long that took.
        func waitForOneThread(timeout: Double = 10) -> Double? {
            let start = Date()
            while Date().timeIntervalSince(start) < timeout {
                if threads == 1 { return Date().timeIntervalSince(start) }
                usleep(2_000)
            }
            return nil
        }
    }

    /// What became of one abandoned statement.
    struct Stop {
        var shown: String
        /// Wall-clock seconds from Ctrl-C to the prompt, and to the work's thread gone.
        var prompt: Double
        var gone: Double?
        /// CPU seconds the process used from Ctrl-C until the work's thread was gone.
        var cpu: Double
        /// Wall-clock seconds a `1d1` typed at once took to answer.
        var next: Double
        /// Resident memory at Ctrl-C and once the work's thread was gone, in KB.
        var memoryAtInterrupt: Int
        var memoryAfter: Int
    }

    func start(_ arguments: [String] = ["--max-dice", "4000000000"]) throws -> (PseudoTerminal, Child) {
        let chain = "def b0 = 1d6\n" + (1...40).map { "def b\($0) = b\($0 - 1) + b\($0 - 1)\n" }.joined()
        let rc = try directory.write(chain, to: "rc.dice")
        let environment = ["HOME": directory.path, "NO_COLOR": "1", "DICE_INIT": rc,
                           "DICE_LOG": directory.path + "/log", "DICE_HISTORY": directory.path + "/history"]
        let terminal = try PseudoTerminal(executable: DiceProcess.binary, arguments: arguments, environment: environment)
        try terminal.waitFor("dice> ", timeout: 10)
        let child = Child(pid: terminal.pid)
        #expect(child.waitForOneThread() != nil)
        return (terminal, child)
    }

    @discardableResult
    func enter(_ line: String, in terminal: PseudoTerminal) throws -> String {
        terminal.send(line + "\r")
        try terminal.waitFor(line + "\r\n", timeout: 10)
        return PseudoTerminal.plainText(try terminal.waitFor("dice> ", timeout: 10))
    }

    /// Types `line`, lets it work for 0.3 s (and until it has taken `grown` KB more memory, for
    /// at most 10 s), presses Ctrl-C and at once types `1d1`; then waits for the work's thread to go.
    func interrupt(_ line: String, grown: Int = 0, in terminal: PseudoTerminal, _ child: Child) throws -> Stop {
        let before = child.kilobytes("VmRSS")
        terminal.send(line + "\r")
        try terminal.waitFor(line + "\r\n", timeout: 10)
        Thread.sleep(forTimeInterval: 0.3)
        let started = Date()
        while child.kilobytes("VmRSS") < before + grown, Date().timeIntervalSince(started) < 10 {
            usleep(5_000)
        }
        #expect(child.threads == 2, "\(line) is not running")
        let memory = child.kilobytes("VmRSS")
        let cpu = child.cpuSeconds
        let interrupted = Date()
        terminal.send("\u{3}")
        let shown = PseudoTerminal.plainText(try terminal.waitFor("dice> ", timeout: 10))
        let prompt = Date().timeIntervalSince(interrupted)
        let typed = Date()
        let answer = try enter("1d1", in: terminal)
        let next = Date().timeIntervalSince(typed)
        #expect(answer.contains("1d1 (1) = 1"), "\(answer)")
        let gone = child.waitForOneThread().map { _ in Date().timeIntervalSince(interrupted) }
        return Stop(shown: shown, prompt: prompt, gone: gone, cpu: child.cpuSeconds - cpu, next: next,
                    memoryAtInterrupt: memory, memoryAfter: child.kilobytes("VmRSS"))
    }

    func expectStopped(_ stop: Stop, _ line: String) {
        #expect(stop.shown.contains("error: interrupted"), "\(line): \(stop.shown)")
        #expect(stop.cpu < Self.stopCPU, "\(line): \(stop.cpu) s of CPU after Ctrl-C")
        #expect(stop.gone.map { $0 < 2 } == true, "\(line): the work ran on \(stop.gone ?? -1) s")
        #expect(stop.prompt < 0.5, "\(line): the prompt came back after \(stop.prompt) s")
        #expect(stop.next < 0.5, "\(line): 1d1 right after took \(stop.next) s")
    }

    @Test func ctrlCStopsHugeRollsMacroChainsAndLoads() throws {
        defer { directory.remove() }
        let (terminal, child) = try start()
        // A long line of a script: the parser asks too (2,000,000 terms, past the token limit).
        let wide = try directory.write(String(repeating: "1d6+", count: 2_000_000) + "1\n", to: "wide.dice")
        let chain = try directory.write("before = 7\nb35\nafter = 8\n", to: "chain.dice")
        for line in ["repeat(1000000000, 1d6)", "1000000000d6kh1", "1000000000d6!", "b35",
                     ":load \(chain)", ":load \(wide)"] {
            expectStopped(try interrupt(line, in: terminal, child), line)
        }
        // The session is whole: what the script bound before the statement abandoned is there.
        #expect(try enter("before + 1", in: terminal).contains("before (7) + 1 = 8"))
        #expect(try enter("after", in: terminal).contains("unknown name 'after'"))
        terminal.send(":quit\r")
        #expect(try terminal.waitForExit() == 0)
    }

    /// Exact distributions under a long budget: a product of two large sums (its pairs were
    /// made in one go, without a poll) and a keep over many dice.
    @Test func ctrlCStopsALongStats() throws {
        defer { directory.remove() }
        let (terminal, child) = try start()
        #expect(try enter(":stats-seconds 1000", in: terminal).contains("1000 s"))
        for line in ["stats 100d100 * 100d100", "stats 300d300kh150", "stats b30"] {
            expectStopped(try interrupt(line, in: terminal, child), line)
        }
        terminal.send(":quit\r")
        #expect(try terminal.waitForExit() == 0)
    }

    /// A macro chain builds a breakdown of hundreds of megabytes if left alone: stopped, the
    /// process grows no more, and gives back what the statement took.
    @Test func anAbandonedStatementGivesItsMemoryBack() throws {
        defer { directory.remove() }
        let (terminal, child) = try start()
        let before = child.kilobytes("VmRSS")
        var largest = 0
        for _ in 0..<3 {
            let stop = try interrupt("b35", grown: 30_000, in: terminal, child)
            expectStopped(stop, "b35")
            let grown = stop.memoryAtInterrupt - before
            #expect(grown >= 30_000, "b35 took only \(grown) KB: the test shows nothing")
            #expect(stop.memoryAfter < before + grown / 3,
                    "\(before) KB before, \(stop.memoryAtInterrupt) KB at Ctrl-C, \(stop.memoryAfter) KB after")
            // No more growth after Ctrl-C than the moment it took to be seen, and each statement
            // starts from what the last gave back: the peak is one statement's, not three.
            largest = max(largest, stop.memoryAtInterrupt)
            let peak = child.kilobytes("VmHWM")
            #expect(peak < largest + 30_000, "peak \(peak) KB, \(largest) KB at the largest Ctrl-C")
        }
        terminal.send(":quit\r")
        #expect(try terminal.waitForExit() == 0)
    }
}
#endif
