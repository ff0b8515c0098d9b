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

    /// JSON's `"text"` stays plain: it is data, not a chat message.
    @Test func jsonTextStaysPlain() throws {
        let result = try DiceProcess.run(["--markdown", "--json", "--seed", "10", "-e", "1d20"])
        #expect(result.stdout.contains(#""text":"1d20 (20) = 20""#))
    }

    @Test func helpListsMarkdown() throws {
        #expect(try DiceProcess.run(["--help"]).stdout.contains("--markdown"))
    }
}
