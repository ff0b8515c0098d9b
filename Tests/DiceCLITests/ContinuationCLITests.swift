import Foundation
import Testing

/// LANGUAGE.md §5 through the command: a statement that cannot end where its line does goes
/// on in the next line of a script, and in the next `-e` (several `-e` form one program, an
/// `-e` a line); errors name the line and column where they are.
@Suite struct ContinuationCLITests {
    @Test func anEThatCannotEndGoesOnInTheNext() throws {
        let result = try DiceProcess.run(["--seed", "1", "-e", "x = 1d1 +", "-e", "2", "-e", "if x == 3 then",
                                          "-e", "\"three\" else", "-e", "\"other\"", "-e", "x"])
        #expect(result.status == 0)
        #expect(result.stdout == "x = 1d1 (1) + 2 = 3\nx (3) == 3 → three\nx (3) = 3\n")
        #expect(result.stderr.isEmpty)
    }

    @Test func eachEIsALineOfTheProgram() throws {
        let result = try DiceProcess.run(["-e", "x = 1", "-e", "(2 +", "-e", "* 3)"])
        #expect(result.status == 1)
        #expect(result.stdout == "x = 1\n")
        #expect(result.stderr == "<-e>:3:1: error: expected an expression, found '*'\n* 3)\n^\n")
        let json = try DiceProcess.run(["--json", "-e", "x = 1", "-e", "1 + * 2"])
        #expect(json.stdout.split(separator: "\n").last
                == #"{"input":"1 + * 2","error":{"message":"expected an expression, found '*'","line":2,"column":5}}"#)
    }

    @Test func theLastEEndingInTheMiddleOfAStatementIsAnErrorAtItsEnd() throws {
        let result = try DiceProcess.run(["-e", "1d1", "-e", "x = 1 +"])
        #expect(result.status == 1)
        #expect(result.stdout.hasPrefix("1d1 (1) = 1\n"))
        #expect(result.stderr == "<-e>:2:8: error: expected an expression, found the end of the input\nx = 1 +\n       ^\n")
    }

    /// `--stats` and `-n` see the statement the lines make.
    @Test func optionsApplyToTheContinuedStatement() throws {
        let stats = try DiceProcess.run(["--stats", "-t", "-e", "1d6 +", "-e", "1d6"])
        #expect(stats.stdout == "7\n")
        let repeated = try DiceProcess.run(["-t", "-n", "3", "-e", "1d1 *", "-e", "2"])
        #expect(repeated.stdout == "2\n2\n2\n")
    }

    static let script = """
        #!/usr/bin/env dice
        # A definition over lines, as the built-in systems write them.
        def check(mod, dc) = let r = 1d20 in let t = r + mod in
            match (t >= dc + 10) + (t >= dc) - (t <= dc - 10) + (r == 20) - (r == 1) {
                <=-1: "critical failure", 0: "failure",
                1: "success"
                else: "critical success" }
        bonus = 2 +  # proficiency
            3        # ability
        total = {1d1 + bonus,
                 1d1 + bonus}kh1
        check(bonus, 1)
        bonus >= 5 and
            total == 6

        """

    @Test func aScriptReadsStatementsOverLines() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("dice-lines-\(UUID().uuidString).dice")
        try Self.script.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try DiceProcess.run(["--seed", "1", file.path])
        #expect(result.stderr.isEmpty)
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 5)
        #expect(lines.first?.hasPrefix("def check(mod, dc) = let r = 1d20 in let t = r + mod in match ") == true)
        #expect(lines.first?.hasSuffix(#"{ <=-1: "critical failure", 0: "failure", 1: "success", else: "critical success" }"#) == true)
        #expect(Array(lines[1...2]) == ["bonus = 2 + 3 = 5", "total = {~~1d1 (1) + bonus (5) = 6~~, 1d1 (1) + bonus (5) = 6}kh1 = 6"]
                || Array(lines[1...2]) == ["bonus = 2 + 3 = 5", "total = {1d1 (1) + bonus (5) = 6, ~~1d1 (1) + bonus (5) = 6~~}kh1 = 6"])
        #expect(lines[3].hasPrefix("check(bonus (5), 1): let r = 1d20 (") && lines[3].hasSuffix("success"))
        #expect(lines[4] == "bonus (5) >= 5 and total (6) == 6 = 1")
        // The same through standard input, read as it arrives.
        let piped = try DiceProcess.run(["--seed", "1"], stdin: Self.script)
        #expect(piped.stdout == result.stdout)
    }

    @Test func aScriptEndingInTheMiddleOfAStatementIsAnErrorAtItsEnd() throws {
        let result = try DiceProcess.run([], stdin: "1d1\nx = max(1,\n   2  # and\n\n")
        #expect(result.status == 1)
        #expect(result.stdout == "1d1 (1) = 1\n")
        #expect(result.stderr == """
            <stdin>:3:5: error: expected ')' or ',' in the arguments of max, found the end of the input
               2  # and
                ^

            """)
    }
}
