import Foundation
import Testing

/// Public is a promise (STYLE.md): every `public` declaration of DiceKit carries a `///`
/// summary. Reads Sources/DiceKit as text, so it checks what a reader of the source sees.
///
/// The count of public declarations is printed, not asserted: it is a number to watch
/// (341 before issue 10 part 5, 268 after it), not a limit.
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

    @Test func countsPublicDeclarations() throws {
        let declarations = try Self.publicDeclarations()
        let byFolder = Dictionary(grouping: declarations) { declaration in
            declaration.path.split(separator: "/").count > 1
                ? String(declaration.path.split(separator: "/")[0]) + "/" : declaration.path
        }
        let lines = byFolder.keys.sorted().map { "  \($0): \(byFolder[$0]?.count ?? 0)" }
        print("DiceKit has \(declarations.count) public declarations:\n" + lines.joined(separator: "\n"))
    }
}
