import Foundation
import Testing

@testable import dice

/// The pseudo-terminal harness, checked against `/bin/sh` so REPL tests can trust it.
@Suite struct PseudoTerminalTests {
    @Test func typesALineAndReadsTheAnswer() throws {
        let terminal = try PseudoTerminal(
            executable: "/bin/sh", arguments: ["-c", "printf 'name? '; read x; echo got:$x; exit 7"],
            environment: [:])
        try terminal.waitFor("name? ")
        terminal.send("hello\r")
        let answer = try terminal.waitFor("got:hello")
        #expect(answer.hasPrefix("hello\r\ngot:hello"))  // and whatever else was read
        #expect(try terminal.waitForExit() == 7)
        #expect(terminal.output == "name? hello\r\ngot:hello\r\n")
    }

    @Test func childHasATerminalOfTheGivenSizeAndEnvironment() throws {
        let terminal = try PseudoTerminal(
            executable: "/bin/sh",
            arguments: ["-c", "[ -t 0 ] && [ -t 1 ] && echo tty; stty size; echo \"$TERM $DICE_HISTORY\""],
            environment: ["DICE_HISTORY": "/tmp/h"])
        #expect(try terminal.waitForExit() == 0)
        #expect(terminal.output == "tty\r\n24 80\r\nxterm /tmp/h\r\n")
    }

    @Test func ctrlCSendsSIGINTToTheChild() throws {
        let terminal = try PseudoTerminal(
            executable: "/bin/sh",
            arguments: ["-c", "trap 'echo caught; exit 3' INT; echo ready; while :; do sleep 0.05; done"],
            environment: [:])
        try terminal.waitFor("ready")
        terminal.send("\u{3}")
        try terminal.waitFor("caught")
        #expect(try terminal.waitForExit() == 3)
    }

    @Test func killedChildReportsTheSignal() throws {
        let terminal = try PseudoTerminal(
            executable: "/bin/sh", arguments: ["-c", "echo ready; exec sleep 30"], environment: [:])
        try terminal.waitFor("ready")
        terminal.sendSignal(SIGKILL)
        #expect(try terminal.waitForExit() == 128 + SIGKILL)
    }

    @Test func waitForFailsWithTheOutputWhenTheChildExits() throws {
        let terminal = try PseudoTerminal(
            executable: "/bin/sh", arguments: ["-c", "echo something else"], environment: [:])
        #expect {
            try terminal.waitFor("never printed", timeout: 2)
        } throws: { error in
            "\(error)".contains("the program exited") && "\(error)".contains("something else")
        }
    }

    @Test func plainTextDropsEscapesAndCarriageReturns() {
        let raw = "\r\u{1b}[Kdice> 1d\u{1b}[11G6\r\n\u{7}ok"
        #expect(PseudoTerminal.plainText(raw) == "dice> 1d6\nok")
    }
}

/// The history file behind `LineEditor`, without a terminal.
@Suite struct HistoryFileTests {
    /// A fresh directory and a recorder for warnings.
    final class Fixture {
        let directory: String
        var warnings: [String] = []

        init() throws {
            directory = NSTemporaryDirectory() + "dice-history-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(atPath: directory) }

        func file(_ name: String = "history", limit: Int = 1000) -> HistoryFile {
            HistoryFile(path: directory + "/" + name, limit: limit) { [unowned self] in
                self.warnings.append($0)
            }
        }

        func contents(_ name: String = "history") throws -> String {
            try String(contentsOfFile: directory + "/" + name, encoding: .utf8)
        }
    }

    @Test func missingFileIsEmptyAndCreatedOnFirstAppend() throws {
        let fixture = try Fixture()
        var file = fixture.file()
        #expect(file.load() == [])
        file.append("1d20")
        file.append("4d6kh3")
        #expect(try fixture.contents() == "1d20\n4d6kh3\n")
        #expect(fixture.warnings == [])
        var again = fixture.file()
        #expect(again.load() == ["1d20", "4d6kh3"])
    }

    @Test func loadKeepsTheNewestLinesAndAcceptsWindowsLineEndings() throws {
        let fixture = try Fixture()
        try "a\r\nb\r\n\r\nc\nd".write(toFile: fixture.directory + "/history", atomically: true, encoding: .utf8)
        var file = fixture.file(limit: 3)
        #expect(file.load() == ["b", "c", "d"])
    }

    @Test func growsToTwiceTheLimitThenKeepsTheNewest() throws {
        let fixture = try Fixture()
        var file = fixture.file(limit: 3)
        _ = file.load()
        for line in ["1", "2", "3", "4", "5", "6"] { file.append(line) }
        #expect(try fixture.contents() == "1\n2\n3\n4\n5\n6\n")
        file.append("7")
        #expect(try fixture.contents() == "5\n6\n7\n")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: fixture.directory)
        #expect(leftovers == ["history"])
    }

    @Test func rewriteKeepsLinesOtherSessionsAppended() throws {
        let fixture = try Fixture()
        var mine = fixture.file(limit: 2)
        var theirs = fixture.file(limit: 2)
        _ = mine.load()
        _ = theirs.load()
        for line in ["m1", "m2", "m3", "m4"] { mine.append(line) }
        theirs.append("t1")
        mine.append("m5")  // five lines as far as `mine` knows: rewrite, re-reading first
        #expect(try fixture.contents() == "t1\nm5\n")
    }

    @Test(arguments: [
        ("NUL byte", [0x61, 0x00, 0x62, 0x0a] as [UInt8]),
        ("invalid UTF-8", [0x6f, 0x6b, 0x0a, 0xff, 0xfe, 0x0a]),
    ])
    func corruptFileWarnsOnceAndIsLeftAlone(kind: String, bytes: [UInt8]) throws {
        let fixture = try Fixture()
        let path = fixture.directory + "/history"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        var file = fixture.file()
        #expect(file.load() == [])
        file.append("1d20")
        file.append("2d6")
        #expect(fixture.warnings.count == 1)
        #expect(fixture.warnings.first?.contains("not UTF-8 text") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(bytes))
    }

    @Test func unreadableFileWarnsOnce() throws {
        let fixture = try Fixture()
        try FileManager.default.createDirectory(
            atPath: fixture.directory + "/history", withIntermediateDirectories: false)
        var file = fixture.file()
        #expect(file.load() == [])
        file.append("1d20")
        #expect(fixture.warnings.count == 1)
        #expect(fixture.warnings.first?.contains("cannot read history file") == true)
    }

    @Test func unwritableFileWarnsOnce() throws {
        let fixture = try Fixture()
        var file = fixture.file("no-such-directory/history")
        #expect(file.load() == [])
        file.append("1d20")
        file.append("2d6")
        #expect(fixture.warnings.count == 1)
        #expect(fixture.warnings.first?.contains("cannot write history file") == true)
        #expect(fixture.warnings.first?.hasSuffix("history will not be saved") == true)
    }

    @Test func completionListIsLaidOutInColumns() {
        let items = [":defs", ":del", ":help", ":history", ":load", ":quit", ":save"]
        #expect(LineEditor.columns(items, width: 30) == """
            :defs     :history  :save
            :del      :load
            :help     :quit

            """)
        #expect(LineEditor.columns(["alpha"], width: 3) == "alpha\n")
    }
}
