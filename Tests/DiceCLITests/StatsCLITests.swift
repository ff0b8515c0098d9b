import Foundation
import Testing

/// `stats` and `--stats` through the command: human tables against golden files
/// (re-record with RECORD_SNAPSHOTS=1), JSON against the contract's shape.
@Suite struct StatsCLITests {
    static let cases: [(name: String, arguments: [String])] = [
        ("stats-4d6kh3", ["--stats", "-e", "4d6kh3"]),
        ("stats-hit-macro", ["-e", "def atk = 1d20 + 5", "-e", "stats atk >= 15", "-e", "stats atk"]),
        ("stats-explode", ["--stats", "-e", "1d6!"]),
        ("stats-binned", ["--stats", "-e", "100d6"]),
        ("stats-decimals", ["--stats", "-e", "1d6 / 4"]),
        ("stats-compare-advantage", ["--stats", "-e", "2d20kh1 + 5, 1d20 + 8"]),
        ("stats-compare-script", ["-e", "def atk = 1d20 + 5", "-e", "def atk2 = 2d20kh1 + 5",
                                  "-e", "stats atk >= 15, atk2 >= 15", "-e", "stats atk, atk2 >= 15",
                                  "-e", "stats 4d6kh3, 3d6"]),
        ("stats-compare-json", ["--json", "-e", "stats 2d20kh1+5, 1d20+8", "--stats", "-e", "1d4, (1d4 >= 3)"]),
        // Tests are written as tests (`P = …`); a count that is 0 or 1 has its table.
        ("stats-test-forms", ["-e", "def hit = 1d20 + 5 >= 15", "-e", "stats let h = hit in h", "-e", "stats count(1d6, =6)",
                              "-e", "stats hit, 1d2 - 1", "-e", "stats count(1d6, >=(x)) for x in 5..6"]),
        // Thirteen outcomes: the likeliest nine fit 80 columns, and a line says what is left out.
        ("stats-sweep-wide", ["-e", #"stats match 1d(n) { 1: "fumble", else: 1d(n) } for n in 1..12"#]),
    ]

    @Test(arguments: StatsCLITests.cases.map(\.name))
    func humanTableMatchesGolden(_ name: String) throws {
        let arguments = try #require(StatsCLITests.cases.first { $0.name == name }).arguments
        let result = try DiceProcess.run(arguments, environment: ["COLUMNS": "80", "LANG": "C.UTF-8"])
        #expect(result.status == 0, "\(result.stderr)")
        let golden = DiceProcess.packageRoot.appendingPathComponent("Tests/DiceCLITests/Golden/\(name).out")
        if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] != nil {
            try result.stdout.write(to: golden, atomically: true, encoding: .utf8)
        }
        #expect(result.stdout == (try String(contentsOf: golden, encoding: .utf8)))
    }

    @Test func asciiBarsWithoutUTF8() throws {
        let result = try DiceProcess.run(["--stats", "-e", "2d6"], environment: ["LANG": "C", "LC_ALL": "C"])
        #expect(result.stdout.contains("#"))
        #expect(!result.stdout.contains("█"))
    }

    @Test func jsonHasTheContractShape() throws {
        let result = try DiceProcess.run(["--json", "--stats", "-e", "x = 2", "-e", "4d6kh3 + x"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
        let stats = try #require(object["stats"] as? [String: Any])
        #expect(stats["exact"] as? Bool == true)
        #expect(abs((stats["mean"] as? Double ?? 0) - 14.2445987654321) < 1e-9)
        #expect(lines[1].contains("\"min\":5,\"max\":20"))
        let distribution = try #require(stats["distribution"] as? [[Double]])
        #expect(distribution.count == 16)
        #expect(abs(distribution.reduce(0) { $0 + $1[1] } - 1) < 1e-12)
    }

    @Test func estimateSaysSo() throws {
        let result = try DiceProcess.run(["--json", "--stats", "--seed", "1", "-e", "1d3000000 > 1500000"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("\"exact\":false,\"rolls\":1000000"))
    }

    @Test func statsErrorsArePositioned() throws {
        let result = try DiceProcess.run(["-e", "stats 1d1!"])
        #expect(result.status == 1)
        // At the explosion that never ends, as rolling points.
        #expect(result.stderr.hasPrefix("<-e>:1:10: error: the explosion matches every face"))
    }
}
