import Foundation
import Testing

@testable import dice

/// `--csv`, `--svg FILE` and `:svg FILE` through the command and the REPL, and sweeps in
/// scripts, `-e`, `--stats` and `--json`.
@Suite struct ChartCLITests {
    /// A new empty directory for the files a test writes.
    static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("dice-charts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func csvOfOneDistributionAComparisonAndASweep() throws {
        let result = try DiceProcess.run(["--csv", "-e", "stats 1d2", "-e", "1 + 1", "-e", "stats 1d2, 2",
                                          "-e", "stats x for x in 1..2"])
        #expect(result.status == 0, "\(result.stderr)")
        // A roll still prints as text; the tables are set apart by an empty line.
        #expect(result.stdout == """
            outcome,p,at_least,at_most
            1,0.5,1,0.5
            2,0.5,0.5,1
            1 + 1 = 2

            outcome,p (1d2),at_least (1d2),at_most (1d2),p (2),at_least (2),at_most (2)
            1,0.5,1,0.5,0,1,0
            2,0.5,0.5,1,1,1,1

            x,mean,outcome,p,at_least,at_most
            1,1,1,1,1,1
            2,2,2,1,1,1

            """)
        let script = try DiceProcess.run(["--csv", "-"], stdin: "def d = 1d2\nstats d\n")
        #expect(script.stdout == "def d = 1d2\noutcome,p,at_least,at_most\n1,0.5,1,0.5\n2,0.5,0.5,1\n")
    }

    @Test(arguments: [
        (["--csv", "--json", "-e", "stats 1d6"], "dice: --csv goes with neither --json nor --total: each prints stats its own way"),
        (["--csv", "-t", "-e", "stats 1d6"], "dice: --csv goes with neither --json nor --total: each prints stats its own way"),
        (["--svg", "", "-e", "stats 1d6"], "dice: --svg needs a file name"),
        (["-e", "stats 1d6", "--svg"], "dice: --svg needs a value"),
        (["--csv=1", "-e", "stats 1d6"], "dice: --csv takes no value (given '--csv=1')"),
    ])
    func usageErrors(_ arguments: [String], _ message: String) throws {
        let result = try DiceProcess.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix(message + "\n"), "\(result.stderr)")
    }

    /// The first chart gets the name given, the next ones a number before its extension;
    /// nothing else is left in the directory (each written atomically).
    @Test func svgWritesEachStatsResultNumbered() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try DiceProcess.run(["--svg", "odds.svg", "-e", "stats 1d8", "-e", "1d4", "-e", "stats 1d4, 1d6",
                                          "-e", "stats 1d20 >= dc for dc in 10..12"], directory: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(files == ["odds-2.svg", "odds-3.svg", "odds.svg"])
        let first = try String(contentsOf: directory.appendingPathComponent("odds.svg"), encoding: .utf8)
        #expect(first.contains("<title>stats 1d8</title>") && first.hasSuffix("</svg>\n"))
        let third = try String(contentsOf: directory.appendingPathComponent("odds-3.svg"), encoding: .utf8)
        #expect(third.contains("class=\"line series-0\""))
        // The output is what it is without --svg.
        #expect(result.stdout.hasPrefix("1d8: mean 4.50"))
    }

    @Test(arguments: [
        ("chart.svg", 2, "chart-2.svg"), ("chart.svg", 1, "chart.svg"), ("out/chart", 3, "out/chart-3"),
        ("a.b/chart", 2, "a.b/chart-2"), (".hidden", 2, ".hidden-2"), ("x.tar.svg", 10, "x.tar-10.svg"),
    ])
    func chartsAreNumberedBeforeTheExtension(_ path: String, _ n: Int, _ expected: String) {
        #expect(ChartFiles.numbered(path, n) == expected)
    }

    /// A chart that cannot be written stops the run with status 1, after the table printed.
    @Test func anUnwritableChartIsAnError() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try DiceProcess.run(["--svg", "missing/odds.svg", "-e", "stats 1d4", "-e", "1d6"],
                                         directory: directory)
        #expect(result.status == 1)
        #expect(result.stdout.hasPrefix("1d4: mean 2.50"))
        #expect(!result.stdout.contains("1d6"))
        #expect(result.stderr == "dice: cannot write the chart missing/odds.svg: no such file or directory\n")
    }

    /// With `--json` the failure is also an error object on stdout, in its place after the
    /// statement's result, as every error is (a bot saw a result, then nothing, and status 1).
    @Test func anUnwritableChartIsAJSONErrorToo() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try DiceProcess.run(["--json", "--svg", "missing/odds.svg", "-e", "x = 1", "-e", "stats 1d4",
                                          "-e", "1d6"], directory: directory)
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 3 && lines[1].hasPrefix(#"{"input":"stats 1d4","stats":"#))
        #expect(lines.last.map(String.init) == #"{"input":"stats 1d4","error":{"message":"cannot write the chart missing/odds.svg: "#
                + #"no such file or directory","line":2,"column":1}}"#)
        #expect(result.stderr == "dice: cannot write the chart missing/odds.svg: no such file or directory\n")
    }

    @Test func sweepsRunInEveryMode() throws {
        let statement = try DiceProcess.run(["-e", "stats 1d20 + 5 >= ac for ac in 15..16"], environment: ["LANG": "C"])
        #expect(statement.stdout == "1d20 + 5 >= ac for ac in 15..16\nac       P\n15  55.00%  "
                + String(repeating: "#", count: 37) + "\n16  50.00%  " + String(repeating: "#", count: 34) + "\n")
        let option = try DiceProcess.run(["--stats", "-e", "1d20 + 5 >= ac for ac in 15..16"], environment: ["LANG": "C"])
        #expect(option.stdout == statement.stdout)
        let total = try DiceProcess.run(["-t", "-e", "stats 1d6 + x for x in 0..2"])
        #expect(total.stdout == "3.5\n4.5\n5.5\n")
        let json = try DiceProcess.run(["--json", "-e", "stats x for x in 1..2"])
        #expect(json.stdout.hasPrefix(#"{"input":"stats x for x in 1..2","name":"x","sweep":[{"x":1,"exact":true,"mean":1,"#))
        let error = try DiceProcess.run(["-e", "stats 1d6 for x in 5..1"])
        #expect(error.status == 1)
        #expect(error.stderr == "<-e>:1:20: error: the sweep ends below its start: 5..1 has no values (write 1..5)\n"
                + "stats 1d6 for x in 5..1\n                   ^\n")
    }

    /// A sweep of 1,001 outcomes draws 40 lines and says so; its table keeps to the width
    /// (`WideSweepTests` has the numbers); its CSV lists every chance (of 101 outcomes here).
    @Test func aWideSweepIsCutInTextAndChartAlone() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let statement = #"stats match 1d(n) { 1: "fumble", else: 1d(n) }"#
        let result = try DiceProcess.run(["--svg", "wide.svg", "-e", statement + " for n in 1..1000"],
                                         environment: ["COLUMNS": "80", "LANG": "C.UTF-8"], directory: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 1003 && lines.dropFirst().allSatisfy { $0.unicodeScalars.count <= 80 })
        #expect(lines.last == "(… and 992 more outcomes, not shown: at most 9.88% each, for any n)")
        let svg = try String(contentsOf: directory.appendingPathComponent("wide.svg"), encoding: .utf8)
        #expect(svg.components(separatedBy: "<polyline").count - 1 == 40)
        #expect(svg.contains("(… and 961 more outcomes, not drawn: at most 2.44% each, for any n)"))
        let csv = try DiceProcess.run(["--csv", "-e", statement + " for n in 1..100"])
        // A row for fumble at n = 1, and for fumble and 1 to n at each n from 2: 1 + (3 + … + 101).
        #expect(csv.status == 0 && csv.stdout.split(separator: "\n").count == 1 + 5_149)
    }

    /// `:svg FILE` draws the last `stats` of the session; before any, it says so.
    @Test func replDrawsTheLastStats() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("last.svg").path
        let session = ScriptedSession([":svg \(path)", "stats 1d4", "stats 1d6 >= x for x in 1..3", "1d6",
                                       ":svg \(path)", ":svg", ":svg \(directory.path)/missing/x.svg"])
        #expect(session.run() == 0)
        #expect(session.transcript.responses(to: ":svg \(path)") == [
            "dice: no stats yet: :svg draws the last stats result (try stats 2d6 first)\n",
            "wrote the chart of stats 1d6 >= x for x in 1..3 to \(path)\n",
        ])
        let svg = try String(contentsOf: URL(fileURLWithPath: path), encoding: .utf8)
        #expect(svg.contains("<title>stats 1d6 &gt;= x for x in 1..3</title>"))
        #expect(session.transcript.error == """
            dice: no stats yet: :svg draws the last stats result (try stats 2d6 first)
            dice: usage: :svg FILE (the last stats as a chart)
            dice: cannot write \(directory.path)/missing/x.svg: no such file or directory

            """)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["last.svg"])
    }

    @Test func replCompletesSvgAndItsFileName() {
        #expect(REPL.commands.contains(":svg"))
        #expect(REPL.commandsWithArgument.contains(":svg"))
        #expect(REPL.completesFileName(":svg ch"))
        #expect(REPL.help.contains(":svg FILE"))
    }
}
