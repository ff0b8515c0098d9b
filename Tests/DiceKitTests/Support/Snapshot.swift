import Foundation
import Testing

/// Golden files for long renderings, kept in a `Snapshots` folder next to the
/// test file that asks for them (found through `#filePath`).
///
/// Run the tests with `RECORD_SNAPSHOTS=1` to write the current output as the
/// new golden files; review the diff before committing them. A missing golden
/// file is written and reported as a failure, so a new snapshot is never
/// silently taken as correct.
enum Snapshot {
    static var isRecording: Bool {
        ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1"
    }

    /// Compares `actual` with `Snapshots/<name>.txt` beside the calling test file.
    static func assert(
        _ actual: String,
        named name: String,
        filePath: StaticString = #filePath,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        let directory = URL(fileURLWithPath: "\(filePath)").deletingLastPathComponent()
            .appendingPathComponent("Snapshots", isDirectory: true)
        let file = directory.appendingPathComponent(name + ".txt")
        let text = actual.hasSuffix("\n") ? actual : actual + "\n"
        let existing = try? String(contentsOf: file, encoding: .utf8)
        if isRecording || existing == nil {
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                try text.write(to: file, atomically: true, encoding: .utf8)
            } catch {
                Issue.record("could not write snapshot \(file.path): \(error)", sourceLocation: sourceLocation)
                return
            }
            if existing == nil && !isRecording {
                Issue.record("recorded a new snapshot \(file.lastPathComponent); check it and run again",
                             sourceLocation: sourceLocation)
            }
            return
        }
        if existing != text {
            Issue.record("""
                snapshot \(file.lastPathComponent) differs (re-record with RECORD_SNAPSHOTS=1)
                --- expected
                \(existing ?? "")
                --- actual
                \(text)
                """, sourceLocation: sourceLocation)
        }
    }
}
