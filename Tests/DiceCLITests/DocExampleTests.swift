import Foundation
import Testing

@testable import dice

/// Docs that run (issue 24, point 8): every code block of README.md and of the DocC articles
/// that shows `$ dice ...` or a `dice>` session is run, and what it shows must be what it
/// prints. Whoever changes an output changes the docs with it.
///
/// - `$ dice ...` lines run the command (words split as a shell would for single quotes;
///   `# comment` ignored; `2>/dev/null` leaves standard error out, which otherwise follows
///   standard output); the lines under one, up to the next `$` line, are its output.
/// - `dice>` blocks are typed into a REPL in-process, line by line (`...> ` lines too), with a
///   home directory shown as `/home/you` and a log of its own; the whole block, prompts and
///   typed lines included, is the screen.
///
/// A seeded example (`--seed`, `:seed`) is compared exactly; an unseeded one by its shape:
/// every number stands for any number. Either way, `…` in a line stands for any text, and
/// a line of `…` alone for any number of lines. Unseeded examples are still run with a seed,
/// so that a shape (which die was dropped) cannot change from run to run.
@Suite struct DocExampleTests {
    struct Block: Sendable, CustomTestStringConvertible {
        var file: String
        var line: Int
        var lines: [String]
        var testDescription: String { "\(file):\(line)" }
    }

    /// README.md and the articles of the DocC catalog.
    static let documents: [String] = {
        let catalog = "Sources/DiceKit/Documentation.docc"
        let articles = (try? FileManager.default.contentsOfDirectory(
            atPath: DiceProcess.packageRoot.appendingPathComponent(catalog).path)) ?? []
        return ["README.md"] + articles.filter { $0.hasSuffix(".md") }.sorted().map { "\(catalog)/\($0)" }
    }()

    /// The fenced blocks (not Swift) of the documents that show a command or a session.
    static let blocks: [Block] = documents.flatMap { file -> [Block] in
        let url = DiceProcess.packageRoot.appendingPathComponent(file)
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        var blocks: [Block] = []
        var current: Block?
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).enumerated() {
            if line.hasPrefix("```") {
                if let block = current {
                    if block.lines.contains(where: { $0.hasPrefix("$ dice") || $0.hasPrefix("dice> ") }) { blocks.append(block) }
                    current = nil
                } else if line == "```" || line == "```text" || line == "```console" {
                    current = Block(file: file, line: index + 2, lines: [])
                } else {
                    current = Block(file: file, line: index + 2, lines: [])
                    current?.file = "-"  // a block in another language: skipped
                }
            } else {
                current?.lines.append(line)
            }
        }
        return blocks.filter { $0.file != "-" }
    }

    @Test func theDocsHaveExamplesToRun() {
        #expect(Self.blocks.filter { $0.file == "README.md" }.count >= 8)
        #expect(Self.blocks.contains { $0.lines.first?.hasPrefix("dice> ") == true })
        #expect(Self.blocks.contains { $0.lines.first?.hasPrefix("$ dice") == true })
    }

    @Test(arguments: DocExampleTests.blocks)
    func blockShowsWhatItPrints(_ block: Block) throws {
        if block.lines.first?.hasPrefix("dice> ") == true {
            try checkSession(block)
        } else {
            try checkCommands(block)
        }
    }

    // MARK: - Commands

    func checkCommands(_ block: Block) throws {
        var commands: [(line: String, output: [String])] = []
        for line in block.lines {
            if line.hasPrefix("$ ") {
                commands.append((line, []))
            } else if !commands.isEmpty {
                commands[commands.count - 1].output.append(line)
            } else if !line.isEmpty {
                Issue.record("\(block.file):\(block.line): a line before the block's first command: \(line)")
            }
        }
        for command in commands {
            var words = Self.words(of: String(command.line.dropFirst(2)))
            let withoutErrors = words.last == "2>/dev/null"
            if withoutErrors { words.removeLast() }
            guard words.first == "dice" else {
                Issue.record("\(block.file):\(block.line): only dice commands can run: \(command.line)")
                continue
            }
            let seeded = words.contains("--seed")
            let arguments = Array(words.dropFirst()) + (seeded ? [] : ["--seed", "1"])
            let result = try DiceProcess.run(arguments, environment: ["COLUMNS": "80", "LANG": "C.UTF-8"])
            let printed = result.stdout + (withoutErrors ? "" : result.stderr)
            var expected = command.output
            while expected.last == "" { expected.removeLast() }
            #expect(Self.matches(expected, Self.lines(of: printed), shape: !seeded),
                    "\(block.file):\(block.line): \(command.line)\nthe docs show:\n\(expected.joined(separator: "\n"))\nit prints:\n\(printed)")
        }
    }

    // MARK: - REPL sessions

    func checkSession(_ block: Block) throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        var typed: [String] = []
        for line in block.lines {
            if line.hasPrefix("dice> ") { typed.append(String(line.dropFirst(6))) }
            if line.hasPrefix("...> ") { typed.append(String(line.dropFirst(5))) }
        }
        let log = ResultLog(path: home.path + "/.dice_log", warn: { _ in })
        let session = ScriptedSession(typed, home: home.path, log: log, unicode: true)
        session.run()
        var screen = session.transcript.text
        if screen.hasPrefix(ScriptedSession.banner) { screen.removeFirst(ScriptedSession.banner.count) }
        if screen.hasSuffix("dice> ") { screen.removeLast(6) }
        screen = screen.replacingOccurrences(of: home.path, with: "/home/you")
        var expected = block.lines
        while expected.last == "" { expected.removeLast() }
        let seeded = typed.contains { $0.hasPrefix(":seed") }
        #expect(Self.matches(expected, Self.lines(of: screen), shape: !seeded),
                "\(block.file):\(block.line)\nthe docs show:\n\(expected.joined(separator: "\n"))\nthe REPL shows:\n\(screen)")
    }

    // MARK: - Matching

    static func lines(of text: String) -> [String] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while lines.last == "" { lines.removeLast() }
        return lines
    }

    /// Whether `actual` is what `expected` shows: line by line, `…` any text, a line of `…`
    /// any lines; with `shape`, any number where a number is shown. Trailing spaces aside.
    static func matches(_ expected: [String], _ actual: [String], shape: Bool) -> Bool {
        let patterns = expected.map { line -> NSRegularExpression? in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            return trimmed == "…" ? nil : pattern(for: line, shape: shape)
        }
        func match(_ e: Int, _ a: Int) -> Bool {
            if e == patterns.count { return a == actual.count }
            guard let pattern = patterns[e] else {
                // Any number of lines, as few as will do.
                return (a...actual.count).contains { match(e + 1, $0) }
            }
            guard a < actual.count else { return false }
            let line = rightTrimmed(actual[a])
            let range = NSRange(line.startIndex..., in: line)
            return pattern.firstMatch(in: line, range: range) != nil && match(e + 1, a + 1)
        }
        return match(0, 0)
    }

    static func pattern(for line: String, shape: Bool) -> NSRegularExpression? {
        var regex = "^"
        for (index, part) in rightTrimmed(line).components(separatedBy: "…").enumerated() {
            if index > 0 { regex += ".*" }
            if shape {
                var literal = ""
                var digits = false
                let characters = Array(part)
                for (offset, character) in characters.enumerated() {
                    if character.isASCII && character.isNumber {
                        if !digits { regex += NSRegularExpression.escapedPattern(for: literal) + "[0-9]+(?:\\.[0-9]+)?" }
                        literal = ""
                        digits = true
                    } else if digits && character == ".", offset + 1 < characters.count,
                              characters[offset + 1].isASCII && characters[offset + 1].isNumber {
                        // A decimal point inside a number: covered by the number's pattern (not
                        // the `..` of a range, `12..16`).
                        continue
                    } else {
                        literal.append(character)
                        digits = false
                    }
                }
                regex += NSRegularExpression.escapedPattern(for: literal)
            } else {
                regex += NSRegularExpression.escapedPattern(for: part)
            }
        }
        return try? NSRegularExpression(pattern: regex + "$")
    }

    static func rightTrimmed(_ line: String) -> String {
        var line = Substring(line)
        while line.last == " " { line.removeLast() }
        return String(line)
    }

    /// A command line split as a shell would, for words in single quotes and a `# comment`.
    static func words(of line: String) -> [String] {
        var words: [String] = []
        var word: String?
        var quoted = false
        for character in line {
            if character == "#" && !quoted && word == nil { break }
            if character == "'" {
                quoted.toggle()
                word = word ?? ""
            } else if character == " " && !quoted {
                if let done = word { words.append(done) }
                word = nil
            } else {
                word = (word ?? "") + String(character)
            }
        }
        if let word { words.append(word) }
        return words
    }

    /// The matcher itself: exact and by shape, with `…` in a line and alone.
    @Test func matchingIsExactOrByShape() {
        #expect(Self.matches(["1d20 (14) + 5 = 19"], ["1d20 (14) + 5 = 19"], shape: false))
        #expect(!Self.matches(["1d20 (14) + 5 = 19"], ["1d20 (3) + 5 = 8"], shape: false))
        #expect(Self.matches(["1d20 (14) + 5 = 19"], ["1d20 (3) + 5 = 8"], shape: true))
        #expect(!Self.matches(["1d20 (14) + 5 = 19"], ["1d20 (3) - 5 = 8"], shape: true))
        #expect(Self.matches(["mean 12.24, …"], ["mean 1.5, stdev 2"], shape: true))
        // `..` between numbers is no decimal point: each side is a number of its own.
        #expect(Self.matches(["for ac in 12..16"], ["for ac in 1..160"], shape: true))
        #expect(!Self.matches(["for ac in 12..16"], ["for ac in 12.16"], shape: true))
        #expect(Self.matches(["a", "…", "z"], ["a", "b", "c", "z"], shape: false))
        #expect(Self.matches(["a", "…", "z"], ["a", "z"], shape: false))
        #expect(!Self.matches(["a", "…", "z"], ["a", "b"], shape: false))
        #expect(!Self.matches(["a"], ["a", "b"], shape: false))
        #expect(Self.matches(["{\"value\":15,…}"], ["{\"value\":15,\"text\":\"x\"}"], shape: false))
        #expect(!Self.matches(["a", "…", "dice> def atk = 1d20 + 5", "dice> stats atk >= 15"],
                              ["a", "b", "dice> def atk = 1d20 + 5", "def atk = 1d20 + 5", "dice> stats atk >= 15", "x"], shape: true))
    }
}
