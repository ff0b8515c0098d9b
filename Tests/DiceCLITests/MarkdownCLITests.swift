import Foundation
import Testing

/// `--markdown` (LANGUAGE.md §6): breakdowns for chat against a golden file
/// (re-record with RECORD_SNAPSHOTS=1).
@Suite struct MarkdownCLITests {
    static let arguments = [
        "--markdown", "--seed", "10", "-n", "3",
        "-e", "1d20", "-e", "4d6kh3 + 2", "-e", "{1d20 + 5, 1d20 + 5}kh1", "-e", "2d20kl1",
        "-e", "8d10!cs>=8df=1", "-e", "4dF + 2", "-e", "3d6!!", "-e", "repeat(3, 4d6kh3)cs>=12",
        "-e", "x = 2d6", "-e", "def atk = 1d20 + 5", "-e", "atk",
    ]

    @Test func breakdownsMatchGolden() throws {
        let result = try DiceProcess.run(Self.arguments)
        #expect(result.status == 0, "\(result.stderr)")
        let golden = DiceProcess.packageRoot.appendingPathComponent("Tests/DiceCLITests/Golden/markdown.out")
        if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] != nil {
            try result.stdout.write(to: golden, atomically: true, encoding: .utf8)
        }
        #expect(result.stdout == (try String(contentsOf: golden, encoding: .utf8)))
        #expect(result.stdout.contains("**20**") && result.stdout.contains("**1**") && result.stdout.contains("~~"))
    }

    @Test func markdownHasNoColourEvenWhenColourIsForced() throws {
        let result = try DiceProcess.run(["--markdown", "--color", "--seed", "10", "-e", "1d20"])
        #expect(result.stdout == "1d20 (**20**) = 20\n")
    }

    /// The same rolls as plain text: only the markup differs.
    @Test func markdownIsPlainWithMarkup() throws {
        let markdown = try DiceProcess.run(Self.arguments).stdout
        let plain = try DiceProcess.run(Self.arguments.filter { $0 != "--markdown" }).stdout
        let unmarked = markdown.replacingOccurrences(of: "**", with: "")
            .replacingOccurrences(of: #"\*"#, with: "*").replacingOccurrences(of: #"\_"#, with: "_")
        #expect(unmarked == plain)
        #expect(markdown != plain)
    }

    /// `cf` counts failures, and every output marks them as failures (issue 22: they were `1*`).
    @Test func countedFailuresAreMarkedAsFailures() throws {
        let arguments = ["--seed", "4", "-e", "11d6cf=1"]
        let text = try DiceProcess.run(arguments).stdout
        #expect(text == "11d6cf=1 (2, 6, 3, 6, 2, 4, 3, 5, 1_, 3, 1_) = 2\n")
        let markdown = try DiceProcess.run(["--markdown"] + arguments).stdout
        #expect(markdown == #"11d6cf=1 (2, **6**, 3, **6**, 2, 4, 3, 5, **1\_**, 3, **1\_**) = 2"# + "\n")
        let json = try DiceProcess.run(["--json"] + arguments).stdout
        #expect(json.contains(#"{"value":1,"kept":true,"failure":true,"min":true}"#))
        #expect(!json.contains("success"))
    }

    /// A `stats` table is a code block, as chat keeps its columns only there; the fence is
    /// longer than any run of backticks the user wrote in it.
    @Test func statsTablesAreCodeBlocks() throws {
        let plain = try DiceProcess.run(["--stats", "-e", "2d6"]).stdout
        let markdown = try DiceProcess.run(["--markdown", "--stats", "-e", "2d6"]).stdout
        #expect(markdown == "```\n" + plain + "```\n")
        let statement = #"stats match 1d2 { 1: "a```b", else: "c" }"#
        let fenced = try DiceProcess.run(["--markdown", "-e", statement]).stdout
        let table = try DiceProcess.run(["-e", statement]).stdout
        #expect(fenced == "````\n" + table + "````\n")
        // Means alone are a line each, with no block.
        #expect(try DiceProcess.run(["--markdown", "--total", "--stats", "-e", "3d6"]).stdout == "10.5\n")
    }

    /// JSON's `"text"` stays plain: it is data, not a chat message.
    @Test func jsonTextStaysPlain() throws {
        let result = try DiceProcess.run(["--markdown", "--json", "--seed", "10", "-e", "1d20"])
        #expect(result.stdout.contains(#""text":"1d20 (20) = 20""#))
    }

    @Test func helpListsMarkdown() throws {
        #expect(try DiceProcess.run(["--help"]).stdout.contains("--markdown"))
    }
}
