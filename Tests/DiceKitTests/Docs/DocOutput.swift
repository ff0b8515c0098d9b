import Foundation
import Testing

/// Runs the docs' Swift blocks copied into `DocSnippets` and checks them against the docs:
/// each copy is its block, verbatim, and each line a block prints matches the next of its
/// comments that it can (`print(x)   // 16`, or `// …` lines under it), in order: `…` in a
/// comment stands for any text, a comment of `…` alone for any lines, and a comment may go
/// on after the value with `:` or `,` (`// 0.55, exact`). A comment that matches nothing
/// printed is prose, passed over.
enum DocOutput {
    final class Capture: @unchecked Sendable {
        /// The block each run of printed text came from, by its number.
        var chunks: [(block: Int, text: String)] = []
    }

    @TaskLocal static var current: Capture?

    static func record(_ text: String) {
        guard let capture = current, !capture.chunks.isEmpty else { return }
        capture.chunks[capture.chunks.count - 1].text += text
    }

    /// What follows is printed by the document's block `number`.
    static func mark(_ number: Int) {
        current?.chunks.append((number, ""))
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Runs `body` (the document's blocks) and checks the copies and what they printed.
    static func check(_ document: String, copies file: String = #filePath, _ body: () throws -> Void) throws {
        let capture = Capture()
        try $current.withValue(capture) { try body() }
        let blocks = try swiftBlocks(of: String(contentsOf: root.appendingPathComponent(document), encoding: .utf8))
        let copies = try regions(of: document, in: String(contentsOfFile: file, encoding: .utf8))
        #expect(!blocks.isEmpty)
        #expect(copies.keys.sorted() == blocks.keys.sorted(), "\(document): the blocks copied are not the document's")
        for (number, lines) in blocks.sorted(by: { $0.key < $1.key }) {
            #expect(copies[number] == lines, "\(document), Swift block \(number): the copy in DocSnippets.swift differs")
        }
        #expect(capture.chunks.map(\.block) == blocks.keys.sorted(), "\(document): not every block ran")
        for chunk in capture.chunks {
            let printed = chunk.text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
            let shown = comments(in: blocks[chunk.block] ?? [])
            #expect(matches(printed, shown), """
                \(document), Swift block \(chunk.block): its comments do not show what it prints:
                \(chunk.text)
                """)
        }
    }

    /// The Swift blocks of a Markdown text by number from 1, without `import DiceKit`; a
    /// Package.swift fragment (first line `.package…`) keeps its number but is left out.
    static func swiftBlocks(of markdown: String) -> [Int: [String]] {
        var blocks: [Int: [String]] = [:]
        var current: [String]?
        var number = 0
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if current == nil, line.hasPrefix("```swift") {
                current = []
                number += 1
            } else if let lines = current, line.hasPrefix("```") {
                var code = lines.filter { !$0.hasPrefix("import DiceKit") }
                while code.first?.isEmpty == true { code.removeFirst() }
                if code.first?.hasPrefix(".") == false { blocks[number] = code }
                current = nil
            } else if current != nil {
                current?.append(line)
            }
        }
        return blocks
    }

    /// The copies in `source` marked `// snippet DOCUMENT N`, dedented.
    static func regions(of document: String, in source: String) -> [Int: [String]] {
        var regions: [Int: [String]] = [:]
        var current: (number: Int, indent: Int, lines: [String])?
        for line in source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let trimmed = line.drop(while: { $0 == " " })
            if trimmed.hasPrefix("// snippet \(document) "), let number = Int(trimmed.split(separator: " ").last ?? "") {
                current = (number, line.count - trimmed.count, [])
            } else if trimmed == "// end snippet", let region = current {
                regions[region.number] = region.lines
                current = nil
            } else if let region = current {
                current?.lines.append(String(line.dropFirst(min(region.indent, line.prefix(while: { $0 == " " }).count))))
            }
        }
        return regions
    }

    /// The text of each `//` comment of the code, in order (not `//` inside a string).
    static func comments(in code: [String]) -> [String] {
        code.compactMap { line in
            var quoted = false
            var previous: Character = " "
            for index in line.indices {
                let character = line[index]
                if character == "\"" && previous != "\\" { quoted.toggle() }
                if !quoted, character == "/", previous == "/" {
                    var text = line[line.index(after: index)...]
                    if text.first == " " { text.removeFirst() }
                    return String(text)
                }
                previous = character
            }
            return nil
        }
    }

    static func matches(_ printed: [String], _ comments: [String]) -> Bool {
        var next = 0
        for line in printed {
            var index = next
            var found = false
            while index < comments.count {
                let comment = comments[index]
                if comment.trimmingCharacters(in: .whitespaces) == "…" {
                    if index + 1 < comments.count, shows(comments[index + 1], line) {
                        next = index + 2
                    } else {
                        next = index  // still under the `…`
                    }
                    found = true
                    break
                }
                if shows(comment, line) {
                    next = index + 1
                    found = true
                    break
                }
                index += 1
            }
            if !found { return false }
        }
        return true
    }

    /// Whether `comment` shows `line`: the same, `…` standing for any text; or so up to its
    /// first `: ` or `, `, words about the value following (`// 0.55, exact`).
    static func shows(_ comment: String, _ line: String) -> Bool {
        for separator in [": ", ", "] {
            if let end = comment.range(of: separator), whole(String(comment[..<end.lowerBound]), line) { return true }
        }
        return whole(comment, line)
    }

    private static func whole(_ comment: String, _ line: String) -> Bool {
        guard !comment.isEmpty else { return line.isEmpty }
        let pattern = "^" + comment.components(separatedBy: "…").map(NSRegularExpression.escapedPattern(for:))
            .joined(separator: ".*") + "$"
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return false }
        return regex.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil
    }
}

/// The matching itself.
@Suite struct DocOutputTests {
    @Test func printedLinesMatchTheComments() {
        #expect(DocOutput.matches(["16", "4d6kh3 (1) = 16"], ["prose", "16", "4d6kh3 (…) = …"]))
        #expect(!DocOutput.matches(["17"], ["prose", "16"]))
        #expect(DocOutput.matches(["0.55"], ["0.55, exact"]))
        #expect(DocOutput.matches(["a", "1", "2", "z"], ["a", "    …", "z"]))
        #expect(!DocOutput.matches(["b", "a"], ["a", "b"]))
        #expect(DocOutput.comments(in: ["x = \"a // b\" // c", "// d", "y"]) == ["c", "d"])
    }
}
