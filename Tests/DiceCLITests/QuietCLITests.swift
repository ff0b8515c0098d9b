import Foundation
import Testing

/// `-q`, `--quiet` (issue 24, point 6): a character sheet's assignments and definitions run
/// without being printed; rolls and stats print as always, errors too.
@Suite struct QuietCLITests {
    static let sheet = ["-e", "str = 18", "-e", "def mod(s) = (s - 10) // 2", "-e", "def atk = 1d20 + mod(str)",
                        "-e", "atk", "-e", "stats 1d20 + 4 >= 15"]

    @Test(arguments: ["-q", "--quiet"])
    func quietPrintsRollsAndStatsOnly(_ flag: String) throws {
        let result = try DiceProcess.run([flag, "--seed", "7"] + Self.sheet)
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let loud = try DiceProcess.run(["--seed", "7"] + Self.sheet)
        let lines = loud.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        // The same rolls: the assignment and the definitions' lines are all that is gone.
        #expect(lines.prefix(3) == ["str = 18", "def mod(s) = (s - 10) // 2", "def atk = 1d20 + mod(str)"])
        #expect(result.stdout == lines.dropFirst(3).joined(separator: "\n"))
        #expect(result.stdout.hasPrefix("atk: 1d20 ("))
        #expect(result.stdout.hasSuffix("1d20 + 4 >= 15: P = 50.00%\n"))
    }

    @Test func quietJSONAndTotalsLeaveOutBindingsToo() throws {
        let json = try DiceProcess.run(["-q", "--json", "--seed", "7"] + Self.sheet)
        let objects = json.stdout.split(separator: "\n")
        #expect(objects.count == 2)
        #expect(objects.first?.hasPrefix("{\"input\":\"atk\",") == true)
        #expect(objects.last?.hasPrefix("{\"input\":\"stats 1d20 + 4 >= 15\",") == true)
        let totals = try DiceProcess.run(["-q", "-t", "--seed", "7", "-e", "x = 3", "-e", "x + 1d1"])
        #expect(totals.stdout == "4\n")
    }

    /// A script run quietly: only its rolls, and an error still stops it with its position.
    @Test func quietScriptStillReportsErrors() throws {
        let result = try DiceProcess.run(["-q", "-"], stdin: "x = 2\ndef m = x + 1d1\nm\ny = 1/0\nm\n")
        #expect(result.stdout == "m: x (2) + 1d1 (1) = 3\n")
        #expect(result.stderr.hasPrefix("<stdin>:4:6: error: division by zero"))
        #expect(result.status == 1)
    }
}
