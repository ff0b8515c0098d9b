import Foundation
import Testing

/// README.md quotes output of the command: every `$ dice ...` line with `--seed` in a code
/// block is run, and the lines under it (up to the next `$` line or the end of the block)
/// must be exactly what it prints. Unseeded examples illustrate and are not checked.
@Suite struct ReadmeTests {
    struct Example: Sendable, CustomTestStringConvertible {
        var command: String
        var arguments: [String]
        var output: String
        var testDescription: String { command }
    }

    static let examples: [Example] = {
        let readme = DiceProcess.packageRoot.appendingPathComponent("README.md")
        guard let text = try? String(contentsOf: readme, encoding: .utf8) else { return [] }
        var examples: [Example] = []
        var inBlock = false
        var current: Example?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("```") {
                if let example = current { examples.append(example) }
                current = nil
                inBlock.toggle()
            } else if inBlock && line.hasPrefix("$ ") {
                if let example = current { examples.append(example) }
                current = nil
                let words = words(of: String(line.dropFirst(2)))
                if words.first == "dice" && words.contains("--seed") {
                    current = Example(command: line, arguments: Array(words.dropFirst()), output: "")
                }
            } else if inBlock, current != nil {
                current?.output += line + "\n"
            }
        }
        return examples
    }()

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

    @Test func readmeHasSeededExamples() {
        #expect(!Self.examples.isEmpty)
    }

    @Test(arguments: ReadmeTests.examples)
    func outputIsWhatTheCommandPrints(_ example: Example) throws {
        let result = try DiceProcess.run(example.arguments)
        #expect(result.stdout == example.output)
    }
}
