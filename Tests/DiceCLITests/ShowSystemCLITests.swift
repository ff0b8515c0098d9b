import Foundation
import Testing

/// `dice --show-system NAME`: the built-in game systems' sources, printed from the copy
/// compiled into the binary, and the usage error that names them.
@Suite struct ShowSystemCLITests {
    /// The systems of LANGUAGE.md §8a, in the order the command lists them.
    static let names = ["dnd5e", "pf2e", "pbta", "blades", "shadowrun", "wod", "coc", "savage", "fate",
                        "ironsworn", "yearzero", "genesys"]

    @Test(arguments: names)
    func printsTheSourceFileCompiledIn(_ name: String) throws {
        let result = try DiceProcess.run(["--show-system", name])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        let file = DiceProcess.packageRoot.appendingPathComponent("Sources/DiceKit/Systems/\(name).dice")
        #expect(result.stdout == (try String(contentsOf: file, encoding: .utf8)))
        #expect(result.stdout.hasPrefix("# \(name): "))
    }

    @Test func takesTheNameAfterAnEqualsSign() throws {
        let result = try DiceProcess.run(["--show-system=pbta"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("def move(stat = 0) = match 2d6 + stat"))
    }

    @Test func anUnknownNameIsAUsageErrorThatNamesTheSystems() throws {
        let result = try DiceProcess.run(["--show-system", "dnd"])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "dice: no game system named 'dnd'; the systems are "
            + Self.names.joined(separator: ", ") + "\nTry 'dice --help' for more information.\n")
    }

    @Test func theNameIsRequired() throws {
        let result = try DiceProcess.run(["--show-system"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("dice: --show-system needs a value\n"))
    }

    @Test func anUnknownNameIsQuotedWithoutControlCharacters() throws {
        let result = try DiceProcess.run(["--show-system", "a\u{1b}[31m"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("dice: no game system named 'a\\u{1b}[31m'"))
    }

    @Test func helpManualAndCompletionsNameTheOptionAndTheSystems() throws {
        let help = try DiceProcess.run(["--help"])
        #expect(help.stdout.contains("--show-system NAME"))
        let root = DiceProcess.packageRoot
        let manual = try String(contentsOf: root.appendingPathComponent("man/dice.1"), encoding: .utf8)
        #expect(manual.contains(".It Fl \\-show-system Ar NAME"))
        for name in Self.names {
            #expect(manual.contains(".It Li \(name)\n"), "man/dice.1 lists \(name)")
        }
        for file in ["completions/dice.bash", "completions/_dice", "completions/dice.fish"] {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            #expect(text.contains("show-system"), "\(file) completes --show-system")
            #expect(text.contains(Self.names.joined(separator: " ")), "\(file) completes the system names")
        }
    }
}
