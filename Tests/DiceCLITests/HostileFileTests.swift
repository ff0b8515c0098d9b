#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing

@testable import dice

/// The hostile-input table of issue 23, the rows about files: temporary files that links
/// cannot redirect, saves through links, stale and interrupted temporary files, a log that
/// never keeps a torn line. In-process where no signal or terminal is needed.
///
/// Nothing here depends on permissions (CI runs as root): links, modes kept, and files
/// removed are checked, never a refusal to write.
@Suite struct HostileFileTests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    func entries() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    func mode(_ path: String) -> mode_t {
        var status = stat()
        return stat(path, &status) == 0 ? status.st_mode & 0o7777 : 0
    }

    // MARK: - Temporary files and links

    @Test func savingThroughALinkWritesItsTargetAndKeepsItsMode() throws {
        defer { directory.remove() }
        let target = try directory.write("old\n", to: "victim.txt")
        chmod(target, 0o600)
        let link = directory.path + "/x.dice"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "victim.txt")
        #expect(AtomicFile.write("x = 3\n", to: link) == nil)
        #expect(try directory.contents(of: "victim.txt") == "x = 3\n")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == "victim.txt")
        #expect(mode(target) == 0o600)
        #expect(try entries() == ["victim.txt", "x.dice"])
    }

    @Test func linksWhereTemporaryFilesWentAreNeverFollowed() throws {
        defer { directory.remove() }
        let victim = try directory.write("victim\n", to: "victim.txt")
        let pid = getpid()
        // The names the save, the log and the history used before: each a link to the victim.
        let log = directory.path + "/log"
        let history = directory.path + "/history"
        let save = directory.path + "/x.dice"
        for trap in ["\(save).tmp-\(pid)", "\(log).tmp-\(pid)", "\(history).tmp.\(pid)"] {
            try FileManager.default.createSymbolicLink(atPath: trap, withDestinationPath: victim)
        }
        #expect(AtomicFile.write("x = 3\n", to: save) == nil)
        var warnings: [String] = []
        let results = ResultLog(path: log, limit: 2, slack: 0, warn: { warnings.append($0) })
        for value in 1...4 { results.append(#"{"input":"\#(value)","value":\#(value),"text":"\#(value)"}"#) }
        var lines = HistoryFile(path: history, limit: 1, warn: { warnings.append($0) })
        _ = lines.load()
        for line in ["1d4", "1d6", "1d8", "1d10"] { lines.append(line) }
        #expect(warnings == [])
        #expect(try directory.contents(of: "victim.txt") == "victim\n")
        #expect(try directory.contents(of: "log").split(separator: "\n").count == 2)
        #expect(try directory.contents(of: "history").split(separator: "\n").count <= 2)
        // Only the targets and the links planted: no temporary file is left.
        #expect(try entries().filter { $0.contains("dice-tmp") } == [])
        for path in [save, log, history] {
            var status = stat()
            #expect(lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG)
        }
    }

    @Test func staleTemporaryFilesOfDeadProcessesAreRemovedAtStart() throws {
        defer { directory.remove() }
        let dead = try directory.write("partial", to: ".x.dice.dice-tmp-4194303-AbC123")
        let live = try directory.write("in progress", to: ".x.dice.dice-tmp-\(getpid())-AbC123")
        let other = try directory.write("mine", to: ".x.dice.dice-tmp-notes")
        AtomicFile.removeStale(besides: [directory.path + "/x.dice"])
        #expect(!FileManager.default.fileExists(atPath: dead))
        #expect(FileManager.default.fileExists(atPath: live))
        #expect(FileManager.default.fileExists(atPath: other))
        #expect(AtomicFile.stalePID(".log.dice-tmp-12-abcdef") == 12)
        #expect(AtomicFile.stalePID(".log.dice-tmp--abcdef") == nil)
        #expect(AtomicFile.stalePID("log") == nil)
    }

    /// SIGTERM while `:save` writes a large session: whenever it comes, no temporary file
    /// stays behind, and the old file is whole.
    @Test(arguments: [0.0, 0.02, 0.08])
    func aKilledSaveLeavesNoTemporaryFile(_ delay: Double) throws {
        defer { directory.remove() }
        let label = String(repeating: "x", count: 1 << 20)
        let macros = (0..<24).map { "def m\($0) = 1d6 [\(label)]\n" }.joined()
        let rc = try directory.write(macros, to: "rc.dice")
        let saved = try directory.write("# old\n", to: "session.dice")
        let terminal = try PseudoTerminal(
            executable: DiceProcess.binary, arguments: [],
            environment: ["HOME": directory.path, "DICE_INIT": rc, "NO_COLOR": "1"])
        _ = try terminal.waitFor("dice> ", timeout: 60)
        terminal.send(":save \(saved)\r")
        Thread.sleep(forTimeInterval: delay)
        terminal.sendSignal(SIGTERM)
        _ = try? terminal.waitForExit(timeout: 30)
        #expect(try entries().filter { $0.contains("tmp") } == [])
        let text = try directory.contents(of: "session.dice")
        #expect(text == "# old\n" || text.hasSuffix("]\n"))
    }

    // MARK: - The log

    @Test func aTornLastLineIsCutBeforeTheNextAppend() throws {
        defer { directory.remove() }
        let whole = #"{"time":"2026-12-01T00:00:00Z","input":"1d6","value":3,"text":"1d6 (3) = 3"}"#
        let path = try directory.write(whole + "\n" + #"{"time":"2026-12-01T00:00:01Z","input":"2d"#, to: "log")
        var warnings: [String] = []
        let log = ResultLog(path: path, warn: { warnings.append($0) })
        log.append(#"{"input":"1d20","value":17,"text":"1d20 (17) = 17"}"#, time: "2026-12-01T00:00:02Z")
        #expect(warnings == [])
        let lines = try directory.contents(of: "log").split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3 && lines[0] == Substring(whole) && lines[2].isEmpty)
        let (entries, skipped) = try log.newest(5)
        #expect(entries.map(\.input) == ["1d20", "1d6"])
        #expect(skipped == 0)
    }

    @Test func logIsReadFromItsEnd() throws {
        defer { directory.remove() }
        // A first line of 8 MB that `:log 2` never needs, then two results.
        let junk = String(repeating: "j", count: 8 << 20)
        let entry = { (n: Int) in #"{"time":"2026-12-01T00:00:0\#(n)Z","input":"\#(n)","value":\#(n),"text":"\#(n)"}"# }
        let path = try directory.write(junk + "\n" + entry(1) + "\n" + entry(2) + "\n", to: "log")
        let log = ResultLog(path: path, warn: { _ in })
        let (entries, skipped) = try log.newest(2)
        #expect(entries.map(\.input) == ["2", "1"])
        #expect(skipped == 0)
        let (all, junkLines) = try log.newest(10)
        #expect(all.count == 2 && junkLines == 1)
    }

    @Test func logShowsControlCharactersAsEscapes() throws {
        defer { directory.remove() }
        let log = ResultLog(path: directory.path + "/log", warn: { _ in })
        let session = ScriptedSession(["1d6 [a\u{1b}[2Jb\u{9b}]", ":log 1", "def m = 1d4 [\u{7}]", ":defs"], log: log)
        session.run()
        #expect(session.transcript.responses(to: ":defs") == ["def m = 1d4 [\\u{7}]\n"])
        let shown = session.transcript.responses(to: ":log 1").joined()
        #expect(shown.contains(#"[a\u{1b}[2Jb\u{9b}]"#), "\(shown)")
        #expect(!shown.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B })
        // The log itself keeps the exact text, in JSON's own escapes.
        #expect(try directory.contents(of: "log").contains(#"a\u001b[2Jb"#))
    }
}
