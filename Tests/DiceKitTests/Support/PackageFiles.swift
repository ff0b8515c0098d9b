import Foundation

/// Files of the package read as text by path, as the golden and snapshot tests read theirs.
enum PackageFiles {
    /// The package's root folder, found from this file's path.
    static var root: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()   // Support
            .deletingLastPathComponent()   // DiceKitTests
            .deletingLastPathComponent()   // Tests
            .deletingLastPathComponent()
    }

    /// The text of the file at `path`, relative to the package root.
    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The paths, relative to the package root, of the `.swift` files in `folder`, sorted.
    static func swiftFiles(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)
            .filter { $0.hasSuffix(".swift") }
            .sorted()
            .map { "\(folder)/\($0)" }
    }
}
