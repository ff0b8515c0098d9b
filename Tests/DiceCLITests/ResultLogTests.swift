import Foundation
import Testing

@testable import dice

/// The log of past results (`:log`, `~/.dice_log`): JSON Lines written as results are
/// shown, read back newest first, capped, shared safely by sessions at once.
@Suite struct ResultLogTests {
    /// Collects warnings; one per problem.
    final class Warnings: @unchecked Sendable {
        var messages: [String] = []
        func warn(_ message: String) { messages.append(message) }
    }

    @Test func resultsAreLoggedAsShownAndListedNewestFirst() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/log"
        let warnings = Warnings()
        let session = ScriptedSession(["3d1 + 2", "x = 2d1", "def m = 1", "stats 1d2", "1/0", ":log", ":log 1"],
                                      log: ResultLog(path: path, warn: warnings.warn))
        #expect(session.run() == 0)
        // Rolls and assignments are results; definitions, stats and errors are not.
        let lines = try directory.contents(of: "log").split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix("{\"time\":\""))
        #expect(lines[0].hasSuffix("\",\"input\":\"3d1 + 2\",\"value\":5,\"text\":\"3d1 (1, 1, 1) + 2 = 5\",\"rolls\":[{\"notation\":\"3d1\",\"value\":3,\"dice\":[{\"value\":1,\"kept\":true},{\"value\":1,\"kept\":true},{\"value\":1,\"kept\":true}]}]}"))
        #expect(lines[1].contains("\"input\":\"x = 2d1\",\"name\":\"x\",\"value\":2"))
        let shown = session.transcript.responses(to: ":log").first ?? ""
        let shownLines = shown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(shownLines.count == 5)
        #expect(shownLines[0].hasSuffix("  x = 2d1"))
        #expect(shownLines[1] == "    2d1 (1, 1) = 2")
        #expect(shownLines[2].hasSuffix("  3d1 + 2"))
        #expect(shownLines[3] == "    3d1 (1, 1, 1) + 2 = 5")
        // The time is local, to the second: 2026-12-01 06:20:22.
        #expect(shownLines[0].range(of: #"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d  "#, options: .regularExpression) != nil)
        #expect(session.transcript.responses(to: ":log 1").first?.split(separator: "\n").count == 2)
        #expect(warnings.messages.isEmpty)
    }

    /// `:log 0` asks for no results: it lists none, and does not claim there are none
    /// ("no results yet" is for an empty log).
    @Test func logZeroListsNothing() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let session = ScriptedSession(["1d1", ":log 0", ":log 5"], log: ResultLog(path: directory.path + "/log", warn: { _ in }))
        #expect(session.run() == 0)
        #expect(session.transcript.responses(to: ":log 0").joined() == "")
        #expect(session.transcript.responses(to: ":log 5").joined().contains("1d1 (1) = 1"))
        let empty = ScriptedSession([":log"], log: ResultLog(path: directory.path + "/empty", warn: { _ in }))
        empty.run()
        #expect(empty.transcript.responses(to: ":log").joined().contains("no results yet"))
    }

    @Test func theLogIsKeptAcrossSessions() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/log"
        ScriptedSession(["1d1 + 10"], log: ResultLog(path: path, warn: { _ in })).run()
        let second = ScriptedSession(["2d1", ":log"], log: ResultLog(path: path, warn: { _ in }))
        second.run()
        let shown = second.transcript.responses(to: ":log").first ?? ""
        #expect(shown.contains("2d1 (1, 1) = 2\n"))
        #expect(shown.contains("1d1 (1) + 10 = 11\n"))
        #expect(shown.range(of: "2d1 (1, 1)")!.lowerBound < shown.range(of: "1d1 (1)")!.lowerBound)
    }

    @Test func aCutOrCorruptLineIsSkippedWithOneWarning() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let good = #"{"time":"2026-12-01T05:00:00Z","input":"1d6","value":4,"text":"1d6 (4) = 4","rolls":[]}"#
        let path = try directory.write(good + "\n" + #"{"time":"2026-12-01T05:01:00Z","input":"2d6","va"# + "\nnot json\n"
                                       + good.replacingOccurrences(of: "1d6", with: "3d6") + "\n", to: "log")
        let session = ScriptedSession([":log"], log: ResultLog(path: path, warn: { _ in }))
        session.run()
        #expect(session.transcript.error == "dice: warning: skipped 2 lines of \(path) that are not a whole result\n")
        let shown = session.transcript.standard.components(separatedBy: ":log\n").last ?? ""
        #expect(shown.contains("    3d6 (4) = 4\n"))
        #expect(shown.contains("    1d6 (4) = 4\n"))
    }

    @Test func anUnwritableLogWarnsOnceAndTheSessionGoesOn() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let warnings = Warnings()
        let path = directory.path + "/no/such/dir/log"
        let session = ScriptedSession(["1d1", "2d1", "3d1"], log: ResultLog(path: path, warn: warnings.warn))
        #expect(session.run() == 0)
        #expect(warnings.messages == ["cannot write the log \(path): no such file or directory; results will not be logged"])
        #expect(session.transcript.responses(to: "3d1") == ["3d1 (1, 1, 1) = 3\n"])
    }

    @Test func theLogIsCappedAtItsNewestLines() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/log"
        let log = ResultLog(path: path, limit: 5, slack: 2, warn: { _ in })
        for index in 1...20 { log.append("{\"input\":\"\(index)\",\"text\":\"\(index)\"}") }
        let lines = try directory.contents(of: "log").split(separator: "\n")
        #expect(lines.count >= 5 && lines.count <= 7)
        #expect(lines.last?.contains("\"input\":\"20\"") == true)
        let (entries, skipped) = try log.newest(3)
        #expect(entries.map(\.input) == ["20", "19", "18"])
        #expect(skipped == 0)
    }

    /// Two sessions writing at once: every line arrives whole; with compactions in
    /// between, every line left is whole and the cap holds.
    @Test(arguments: [(10_000, 0), (50, 10)])
    func twoWritersAtOnceNeverCorruptTheLog(_ limit: Int, _ slack: Int) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/log"
        let padding = String(repeating: "x", count: 3000)  // past one page, to catch torn writes
        DispatchQueue.concurrentPerform(iterations: 2) { writer in
            let log = ResultLog(path: path, limit: limit, slack: slack, warn: { Issue.record("\($0)") })
            for index in 0..<300 {
                log.append("{\"input\":\"w\(writer)-\(index)\",\"text\":\"\(padding)\"}")
            }
        }
        let lines = try directory.contents(of: "log").split(separator: "\n")
        for line in lines { #expect(ResultLog.entry(Array(line.utf8)) != nil, "\(line.prefix(60))") }
        let inputs = lines.compactMap { ResultLog.entry(Array($0.utf8))?.input }
        if limit >= 600 {
            #expect(Set(inputs) == Set((0..<2).flatMap { writer in (0..<300).map { "w\(writer)-\($0)" } }))
        } else {
            #expect(lines.count >= limit && lines.count <= limit + slack + 1)
            #expect(Set(inputs).count == inputs.count)
        }
    }

    @Test(arguments: [
        (#"{"time":"t","input":"a\"b\\c\u00e9\ud83c\udfb2","text":"x"}"#, "a\"b\\cé🎲"),
        (#"{"time":"t","input":"i","text":"x","rolls":[{"dice":[1,2,{"a":null}],"v":-1.5e3}]}"#, "i"),
    ])
    func jsonStringsAreDecoded(_ line: String, _ input: String) {
        #expect(ResultLog.entry(Array(line.utf8))?.input == input)
    }

    @Test(arguments: [#"{"time":"t","input":"i","text":"x""#, #"{"time":"t","input":"i"}"#, "[]", "",
                      #"{"time":"t","input":"i","text":"x"} trailing"#, #"{"time":"t","input":"\x","text":"x"}"#])
    func malformedLinesAreNotEntries(_ line: String) {
        #expect(ResultLog.entry(Array(line.utf8)) == nil)
    }

    @Test func timesAreISO8601InUTC() {
        let now = ResultLog.now()
        #expect(now.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$"#, options: .regularExpression) != nil)
        #expect(ResultLog.localTime("garbage") == "garbage")
    }
}
