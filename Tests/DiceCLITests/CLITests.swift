import Foundation
import Testing

@Suite struct CLITests {
    @Test func rollsAnExpression() throws {
        let result = try DiceProcess.run(["--seed", "1", "-e", "4d6kh3 + 2"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("4d6kh3 ("))
        #expect(result.stdout.contains("~~"))
        #expect(result.stderr.isEmpty)
    }

    @Test func statementAfterDashEMayStartWithMinus() throws {
        for seed in 1...20 {
            let result = try DiceProcess.run(["-t", "--seed", "\(seed)", "-e", "-2d6"])
            #expect(result.status == 0)
            let value = try #require(Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
            #expect((-12)...(-2) ~= value)
        }
    }

    @Test func seedMakesOutputReproducible() throws {
        let arguments = ["--json", "--seed", "99", "-n", "20", "-e", "8d10!cs>=8df=1", "-e", "4d6kh3"]
        let first = try DiceProcess.run(arguments)
        let second = try DiceProcess.run(arguments)
        #expect(first.status == 0)
        #expect(first.stdout == second.stdout)
        let other = try DiceProcess.run(["--json", "--seed", "100", "-n", "20", "-e", "8d10!cs>=8df=1", "-e", "4d6kh3"])
        #expect(other.stdout != first.stdout)
    }

    @Test func repeatsExpressionsButNotAssignments() throws {
        let result = try DiceProcess.run(["-t", "-n", "3", "-e", "x = 2", "-e", "x + 1d1"])
        #expect(result.stdout == "2\n3\n3\n3\n")
    }

    @Test func jsonLinesHaveTheContractShape() throws {
        let result = try DiceProcess.run(["--json", "--seed", "5", "-e", "x = 3", "-e", "def atk = 1d20+5", "-e", "4d6kh3+2"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        let objects = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(objects[0]?["name"] as? String == "x")
        #expect(lines[0].contains("\"value\":3"))
        #expect(objects[1]?["defined"] as? String == "atk")
        #expect(objects[2]?["input"] as? String == "4d6kh3+2")
        #expect((objects[2]?["rolls"] as? [Any])?.count == 1)
        #expect((objects[2]?["text"] as? String)?.hasSuffix("= \(objects[2]?["value"] ?? "")") == true)
    }

    @Test func statementErrorExitsOneWithCaret() throws {
        let result = try DiceProcess.run(["-e", "2d6 + * 3"])
        #expect(result.status == 1)
        #expect(result.stderr == "<-e>:1:7: error: expected an expression, found '*'\n2d6 + * 3\n      ^\n")
        #expect(result.stdout.isEmpty)
    }

    /// A text member of a group or `repeat` is named at its own column, rolled and in `stats`
    /// alike, with what needed a number (no `+` was typed).
    @Test func aTextMemberOfASumIsNamedWhereItStands() throws {
        let cases = [(#"{1, "b"}"#, #"text "b" is not a number: a group's sum needs numbers"#, 5),
                     (#"repeat(2, "a")"#, #"text "a" is not a number: a repeat's sum needs numbers"#, 11)]
        for (program, message, column) in cases {
            let expected = "<-e>:1:\(column): error: \(message)\n\(program)\n"
                + String(repeating: " ", count: column - 1) + "^\n"
            for arguments in [["-e", program], ["--stats", "-e", program]] {
                let result = try DiceProcess.run(arguments)
                #expect(result.status == 1)
                #expect(result.stderr == expected, "\(arguments)")
            }
        }
    }

    @Test func jsonErrorGoesToStdoutAndStderr() throws {
        let result = try DiceProcess.run(["--json", "-e", "1 + 1", "-e", "1//0"])
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[1].contains("\"error\":{\"message\":\"division by zero\",\"line\":2,\"column\":2}"))
        #expect(result.stderr.contains("error: division by zero"))
    }

    @Test(arguments: [
        ["--bogus"], ["-n"], ["-n", "x", "-e", "1"], ["--max-dice", "many", "-e", "1d6"],
        ["/nonexistent/file.dice"], ["/"], ["a.dice", "b.dice"], ["--stats", "x.dice"],
    ])
    func usageErrorsExitTwo(_ arguments: [String]) throws {
        let result = try DiceProcess.run(arguments)
        #expect(result.status == 2)
        #expect(!result.stderr.isEmpty)
        #expect(result.stdout.isEmpty)
    }

    @Test func helpAndVersion() throws {
        let help = try DiceProcess.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("usage: dice"))
        #expect(help.stdout.contains("--max-dice N"))
        // In an 80-column terminal a line of 104 broke mid-word (`--markdown`'s, then `usage:`).
        let long = help.stdout.split(separator: "\n").filter { $0.count > 80 }
        #expect(long.isEmpty, "\(long)")
        let version = try DiceProcess.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("dice "))
    }

    @Test func scriptStopsAtFirstErrorWithPosition() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dice-cli-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try "# header\r\n\r\n5d1\r\nx = 2 +\r\n* 7d1\r\n1d1\r\n".write(to: directory.appendingPathComponent("sheet.dice"), atomically: true, encoding: .utf8)
        let result = try DiceProcess.run(["sheet.dice"], directory: directory)
        #expect(result.status == 1)
        #expect(result.stdout == "5d1 (1, 1, 1, 1, 1) = 5\n")
        #expect(result.stderr.hasPrefix("sheet.dice:5:1: error: expected an expression, found '*'\n* 7d1\n^"))
    }

    @Test func shebangScriptRunsAsAProgram() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dice-cli-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("sheet.dice")
        try "#!/usr/bin/env dice\nstr = 3\n2d1 + str\n".write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        let process = Process()
        process.executableURL = script
        var environment = ProcessInfo.processInfo.environment
        let binDirectory = URL(fileURLWithPath: DiceProcess.binary).deletingLastPathComponent().path
        environment["PATH"] = binDirectory + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["NO_COLOR"] = "1"
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(text == "str = 3\n2d1 (1, 1) + str (3) = 5\n")
    }

    @Test func stdinScriptIsNamedStdin() throws {
        let result = try DiceProcess.run([], stdin: "x = 2\n2d6 + y\n")
        #expect(result.status == 1)
        #expect(result.stdout == "x = 2\n")
        #expect(result.stderr.hasPrefix("<stdin>:2:7: error: unknown name 'y'"))
    }

    @Test func maxDiceLimitIsAnError() throws {
        let result = try DiceProcess.run(["--max-dice", "10", "-e", "11d6"])
        #expect(result.status == 1)
        // The library's message does not know the option; the command adds it.
        #expect(result.stderr.hasPrefix("<-e>:1:1: error: more than 10 dice in one statement (raise it with --max-dice)\n"))
        let json = try DiceProcess.run(["--max-dice", "10", "--json", "-e", "11d6"])
        #expect(json.stdout.contains(#""message":"more than 10 dice in one statement (raise it with --max-dice)""#))
        let ok = try DiceProcess.run(["--max-dice", "10", "-t", "-e", "10d1"])
        #expect(ok.stdout == "10\n")
    }

    @Test func closedPipeExitsQuietly() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "'\(DiceProcess.binary)' -n 1000000 -e 1d6 | head -1; echo status ${PIPESTATUS:-done}"]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = Pipe()
        try process.run()
        process.waitUntilExit()
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(errors.isEmpty)
    }
}
