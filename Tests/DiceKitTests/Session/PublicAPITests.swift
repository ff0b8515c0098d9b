import Foundation
import Testing

/// Public is a promise (STYLE.md): every `public` declaration of DiceKit carries a `///`
/// summary. Reads Sources/DiceKit as text, so it checks what a reader of the source sees.
///
/// The public declarations are also held to a checked-in list, `PublicAPI.txt` beside this
/// file (a line each: the file and the declaration), changed on purpose when the API changes:
/// `DICE_RECORD_API=1 swift test --filter PublicAPITests` writes it anew.
@Suite struct PublicAPITests {
    /// A line that declares something public: attributes and modifiers, then `public`
    /// (or `open`), as in `public init`, `@inline(__always) public func`, `public internal(set) var`.
    static let declaration =
        #"^(@\w+(\([^)]*\))?\s+)*((static|class|final|nonisolated|override|convenience|required|mutating|indirect|lazy)\s+)*(public|open)(\(\w+\))?\s+\w"#
    /// A line of attributes alone, between a doc comment and its declaration.
    static let attributes = #"^@\w+(\([^)]*\))?(\s+@\w+(\([^)]*\))?)*$"#

    struct PublicDeclaration {
        var path: String
        var line: Int
        var text: String
        var documented: Bool
    }

    static var sourceRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/DiceKit", isDirectory: true)
    }

    /// Every public declaration of Sources/DiceKit, by path relative to it.
    static func publicDeclarations() throws -> [PublicDeclaration] {
        let declaration = try Regex(Self.declaration)
        let attributes = try Regex(Self.attributes)
        let root = sourceRoot.standardizedFileURL
        let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }
            .filter { $0.pathExtension == "swift" } ?? []
        var found: [PublicDeclaration] = []
        for file in files {
            let path = String(file.standardizedFileURL.path.dropFirst(root.path.count + 1))
            let lines = try String(contentsOf: file, encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            for (index, line) in lines.enumerated() where line.prefixMatch(of: declaration) != nil {
                var above = index - 1
                while above >= 0, lines[above].wholeMatch(of: attributes) != nil { above -= 1 }
                let documented = above >= 0 && lines[above].hasPrefix("///")
                found.append(PublicDeclaration(path: path, line: index + 1, text: line, documented: documented))
            }
        }
        return found.sorted { ($0.path, $0.line) < ($1.path, $1.line) }
    }

    @Test func everyPublicDeclarationIsDocumented() throws {
        let declarations = try Self.publicDeclarations()
        #expect(declarations.count > 100, "found too few public declarations: is \(Self.sourceRoot.path) right?")
        let undocumented = declarations.filter { !$0.documented }
        if !undocumented.isEmpty {
            Issue.record("""
                \(undocumented.count) public declarations without a `///` summary on the line above \
                (or above their attributes):
                \(undocumented.map { "Sources/DiceKit/\($0.path):\($0.line): \($0.text)" }.joined(separator: "\n"))
                """)
        }
    }

    /// The most public declarations DiceKit may have (issue 22): what a bot or an app needs.
    /// What only the `dice` command needs has `package` access.
    static let mostDeclarations = 200

    @Test func atMostTwoHundredPublicDeclarations() throws {
        let count = try Self.publicDeclarations().count
        #expect(count <= Self.mostDeclarations, """
            DiceKit has \(count) public declarations, more than \(Self.mostDeclarations): make what only the \
            `dice` command needs `package`, and what only tests need internal
            """)
    }

    static var listURL: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("PublicAPI.txt")
    }

    /// The list's lines: a declaration's file and text, sorted, without line numbers (which
    /// move with every edit).
    static func listLines() throws -> [String] {
        try publicDeclarations().map { "\($0.path): \($0.text)" }.sorted()
    }

    @Test func publicDeclarationsAreTheCheckedInList() throws {
        let lines = try Self.listLines()
        if ProcessInfo.processInfo.environment["DICE_RECORD_API"] == "1" {
            try (lines.joined(separator: "\n") + "\n").write(to: Self.listURL, atomically: true, encoding: .utf8)
        }
        let listed = try String(contentsOf: Self.listURL, encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        let added = Set(lines).subtracting(listed).sorted()
        let removed = Set(listed).subtracting(lines).sorted()
        #expect(added.isEmpty && removed.isEmpty, """
            the public API differs from Tests/DiceKitTests/Session/PublicAPI.txt (record it anew with \
            DICE_RECORD_API=1 when the change is meant):
            added:
            \(added.joined(separator: "\n"))
            removed:
            \(removed.joined(separator: "\n"))
            """)
    }
}
