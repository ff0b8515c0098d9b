import Foundation
import Testing

@testable import dice

/// `stats e1, e2, ...` through the command, a script, `--stats -e`, `--total`, errors and
/// the REPL. The tables themselves are golden files (`StatsCLITests`) and snapshots
/// (`ComparisonRendererTests`).
@Suite struct CompareCLITests {
    static let advantage = "2d20kh1 + 5: mean 18.83, stdev 4.71, min 6, max 25, median 20\n"
        + "1d20 + 8:    mean 18.50, stdev 5.77, min 9, max 28, median 18\n"

    /// `--stats -e 'a, b'` is the comparison `stats a, b` prints; `-n` repeats rolls only.
    @Test func statsOptionComparesAListOfExpressions() throws {
        let option = try DiceProcess.run(["--stats", "-n", "3", "-e", "2d20kh1 + 5, 1d20 + 8"],
                                         environment: ["COLUMNS": "80", "LANG": "C.UTF-8"])
        let statement = try DiceProcess.run(["-e", "stats 2d20kh1 + 5, 1d20 + 8"],
                                            environment: ["COLUMNS": "80", "LANG": "C.UTF-8"])
        #expect(option.status == 0 && statement.status == 0, "\(option.stderr)\(statement.stderr)")
        #expect(option.stdout.hasPrefix(Self.advantage))
        #expect(option.stdout == statement.stdout)
    }

    /// A script's `stats a, b` prints the same as `-e`; its statements around it run as usual.
    @Test func scriptComparesToo() throws {
        let script = "def atk = 1d20 + 5\nstats 2d20kh1 + 5, 1d20 + 8\nstats atk >= 15, 2d20kh1 + 5 >= 15\n"
        let result = try DiceProcess.run(["-"], stdin: script, environment: ["COLUMNS": "80", "LANG": "C.UTF-8"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("def atk = 1d20 + 5\n" + Self.advantage))
        #expect(result.stdout.hasSuffix("""
            atk >= 15:         P = 55.00%   ██████████████████████████▍
            2d20kh1 + 5 >= 15: P = 79.75%   ██████████████████████████████████████▎

            """))
    }

    /// `--total`: one mean a line, in the order of the expressions.
    @Test func totalPrintsEachMean() throws {
        let result = try DiceProcess.run(["--total", "-e", "stats 2d20kh1 + 5, 1d20 + 8, 1d20 >= 11",
                                          "--stats", "-e", "3d6, 4d6kh3"])
        #expect(result.status == 0)
        #expect(result.stdout == "18.825\n18.5\n0.5\n10.5\n12.2446\n")
    }

    /// `--total` of outcomes with no mean (LANGUAGE.md §5b): a tally of each field's mean, or
    /// for texts the likeliest outcome, the first of equals; never a 0 that no outcome is.
    @Test func totalOfTalliesAndTexts() throws {
        let move = "def move(stat) = match 2d6 + stat { 6-: \"miss\", 7-9: \"weak hit\", 10+: \"strong hit\" }"
        let result = try DiceProcess.run(["-t", "--stats", "-e", "(a: 1d6, b: 1d4)", "-e", move,
                                          "-e", "move(2)", "-e", "move(-1), (h: 1d4 - 1d2) * 3, 1d4 + 1",
                                          "-e", "match 1d6 { 6: \"six\", else: 2 }",
                                          "-e", "stats match 1d6 { 6: \"six\", else: 1d6 } for x in 1..1"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "(a: 3.5, b: 2.5)\nweak hit\nmiss\n(h: 3)\n3.5\n2\nsix\n")
    }

    /// An error in any of the expressions points into that expression; nothing is printed
    /// for the others.
    @Test(arguments: [
        (["-e", "stats 1d6, 1d1!"], "<-e>:1:15: error: the explosion matches every face of the die, so it would never end\nstats 1d6, 1d1!\n              ^\n"),
        (["-e", "stats 1d6, 2d6,"], "<-e>:1:16: error: expected an expression to compare after ',', found the end of the input\nstats 1d6, 2d6,\n               ^\n"),
        (["--stats", "-e", "1d6, foo"], "<-e>:1:6: error: unknown name 'foo'\n1d6, foo\n     ^\n"),
        (["-e", "1d6, 2d6"], "<-e>:1:4: error: unexpected ','; separate statements with ';': did you mean '1d6; 2d6'?\n1d6, 2d6\n   ^\n"),
    ])
    func errorsPointIntoTheirExpression(_ arguments: [String], _ stderr: String) throws {
        let result = try DiceProcess.run(arguments)
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.stderr == stderr)
    }

    /// With `--json` an error is an object in its place, at the column of the expression.
    @Test func jsonErrorHasTheColumn() throws {
        let result = try DiceProcess.run(["--json", "-e", "stats 1d6, 1d0"])
        #expect(result.status == 1)
        #expect(result.stdout.contains(#""line":1,"column":14}"#))
    }

    /// In the REPL, `stats a, b` prints the table (80 columns, ASCII in a scripted session).
    @Test func replCompares() {
        let session = ScriptedSession(["stats 1d4, 1d6 - 1", "stats 1d4 >= 3, 1d6 >= 3"])
        #expect(session.run() == 0)
        #expect(session.transcript.error == "")
        #expect(session.transcript.responses(to: "stats 1d4, 1d6 - 1") == ["""
            1d4:     mean 2.50, stdev 1.12, min 1, max 4, median 2
            1d6 - 1: mean 2.50, stdev 1.71, min 0, max 5, median 2
                        1d4            1d6 - 1        1d4                1d6 - 1
            value       P at least        P at least
                0       - 100.00%   16.67% 100.00%   |                  |############
                1  25.00% 100.00%*  16.67%  83.33%   |##################|############
                2  25.00%  75.00%*  16.67%  66.67%   |##################|############
                3  25.00%  50.00%   16.67%  50.00%   |##################|############
                4  25.00%  25.00%   16.67%  33.33%*  |##################|############
                5       -       -   16.67%  16.67%*  |                  |############
            (* the highest chance of at least the row's value)

            """])
        #expect(session.transcript.responses(to: "stats 1d4 >= 3, 1d6 >= 3") == ["""
            1d4 >= 3: P = 50.00%   #############################
            1d6 >= 3: P = 66.67%   ######################################

            """])
    }
}
