import Foundation
import Testing

/// `use` through the command (LANGUAGE.md §8a): `use` alone lists the systems, `use NAME`
/// lists the macros it defined with their descriptions, in text, Markdown and JSON, against
/// golden files (re-record with RECORD_SNAPSHOTS=1).
@Suite struct UseCLITests {
    static let cases: [(name: String, arguments: [String])] = [
        ("use-systems", ["-e", "use"]),
        ("use-systems-json", ["--json", "-e", "use"]),
        ("use-pbta", ["--seed", "5", "-e", "use pbta", "-e", "move(1)"]),
        ("use-pbta-json", ["--json", "-e", "use pbta"]),
        // A list for chat, as `\_` would push a column out of line.
        ("use-pbta-markdown", ["--markdown", "-e", "use pbta"]),
        ("use-systems-markdown", ["--markdown", "-e", "use"]),
        ("use-in-a-script", ["--seed", "5", "-e", "def move = 1d6; use pbta; move; use fate; ladder(2)"]),
    ]

    @Test(arguments: UseCLITests.cases.map(\.name))
    func printsWhatItsGoldenFileShows(_ name: String) throws {
        let arguments = try #require(UseCLITests.cases.first { $0.name == name }).arguments
        let result = try DiceProcess.run(arguments, environment: ["COLUMNS": "80", "LANG": "C.UTF-8"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let golden = DiceProcess.packageRoot.appendingPathComponent("Tests/DiceCLITests/Golden/\(name).out")
        if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] != nil {
            try result.stdout.write(to: golden, atomically: true, encoding: .utf8)
        }
        #expect(result.stdout == (try String(contentsOf: golden, encoding: .utf8)))
    }

    /// The JSON of both is one object a line, with the systems or the macros defined, in order.
    @Test func jsonNamesTheSystemsAndTheMacrosDefined() throws {
        let result = try DiceProcess.run(["--json", "-e", "use", "-e", "use pbta"])
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        let list = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(list["input"] as? String == "use")
        let systems = try #require(list["systems"] as? [[String: Any]])
        #expect(systems.compactMap { $0["name"] as? String } == ShowSystemCLITests.names)
        #expect(systems.allSatisfy { ($0["description"] as? String)?.isEmpty == false })
        let pbta = try #require(try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
        #expect(pbta["system"] as? String == "pbta")
        let defined = try #require(pbta["defined"] as? [[String: Any]])
        #expect(defined.compactMap { $0["name"] as? String } == ["move", "move_adv", "move_dis"])
        #expect(defined.first?["parameters"] as? [String] == ["stat"])
        // Each parameter's default, as the expression it is.
        #expect(defined.map { $0["defaults"] as? [String: String] } == [["stat": "0"], ["stat": "0"], ["stat": "0"]])
    }

    /// A `def`'s JSON gives its defaults too, in the same shape; none, no `defaults` at all.
    @Test func jsonOfADefGivesItsDefaults() throws {
        let result = try DiceProcess.run(["--json", "-e", "def atk(ac, bonus = 1d4 + 1, adv = 0) = 1d20 + bonus >= ac",
                                          "-e", "def plain(x) = x"])
        #expect(result.stdout == #"""
            {"input":"def atk(ac, bonus = 1d4 + 1, adv = 0) = 1d20 + bonus >= ac","defined":"atk","parameters":["ac","bonus","adv"],"defaults":{"bonus":"1d4 + 1","adv":"0"},"body":"1d20 + bonus >= ac"}
            {"input":"def plain(x) = x","defined":"plain","parameters":["x"],"body":"x"}

            """#)
    }

    /// With -q, `use` defines quietly, as `def` does; the macros still roll.
    @Test func quietUseDefinesWithoutTheList() throws {
        let result = try DiceProcess.run(["-q", "--seed", "5", "-e", "use pbta", "-e", "move(1)"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("move(1): 2d6 ("), "\(result.stdout)")
        #expect(result.stdout.split(separator: "\n").count == 1)
    }

    @Test func anUnknownSystemIsAnErrorThatNamesThem() throws {
        let result = try DiceProcess.run(["-e", "use pbt"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "<-e>:1:1: error: no game system named 'pbt'; the systems are "
            + ShowSystemCLITests.names.joined(separator: ", ") + "\nuse pbt\n^\n")
    }

    /// The game's name in any case: `use PF2E` said there was no such system.
    @Test func aSystemIsNamedInAnyCase() throws {
        let result = try DiceProcess.run(["-q", "--seed", "5", "-e", "use PF2E", "-e", "check(7, 20)"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("check(7, 20): let r = 1d20 ("), "\(result.stdout)")
        let shown = try DiceProcess.run(["--show-system", "DnD5e"])
        #expect(shown.status == 0 && shown.stdout.hasPrefix("# dnd5e"), "\(shown.stdout)")
    }

    /// On an 80-column terminal, pf2e's list put every description 63 columns in, after
    /// `damage(bonus, ac, n, sides, mod = 0, attack = 1, agile = 0)`, and the terminal broke
    /// each one mid-word (`against a D` / `C`). Now each line fits, broken between words, and
    /// a long name has its description on the lines below it; to a pipe, an entry is a line.
    @Test func onATerminalTheListWrapsBetweenWordsToItsWidth() throws {
        let terminal = try PseudoTerminal(executable: DiceProcess.binary, arguments: ["-e", "use pf2e"],
                                          environment: ["NO_COLOR": "1"], columns: 80)
        #expect(try terminal.waitForExit(timeout: 20) == 0)
        let lines = PseudoTerminal.plainText(terminal.output).split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { $0.count <= 80 }, "\(lines)")
        #expect(lines.contains("  flat(dc)                      A flat check: a d20 alone against a DC,"), "\(lines)")
        #expect(lines.contains("  damage(bonus, ac, n, sides, mod = 0, attack = 1, agile = 0)"), "\(lines)")
        #expect(lines.first == "use pf2e: Pathfinder 2nd edition: checks with four degrees of success, Strikes")
        #expect(lines.dropFirst().first == "          with the multiple attack penalty.")
        let piped = try DiceProcess.run(["-e", "use pf2e"], environment: ["COLUMNS": "80"])
        #expect(piped.stdout.split(separator: "\n").count == 6)
    }
}
