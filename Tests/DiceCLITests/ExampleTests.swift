import Foundation
import Testing

/// Every script in examples/ runs with a fixed seed and matches its golden output
/// (re-record with RECORD_SNAPSHOTS=1).
@Suite struct ExampleTests {
    static let examples: [String] = {
        let directory = DiceProcess.packageRoot.appendingPathComponent("examples")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".dice") }.sorted()
    }()

    @Test func thereAreAtLeastSixExamples() {
        #expect(ExampleTests.examples.count >= 6)
    }

    @Test(arguments: ExampleTests.examples)
    func exampleMatchesGoldenOutput(_ name: String) throws {
        let script = DiceProcess.packageRoot.appendingPathComponent("examples/\(name)")
        let result = try DiceProcess.run(["--seed", "2026", script.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let golden = DiceProcess.packageRoot.appendingPathComponent("Tests/DiceCLITests/Golden/\(name).out")
        if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] != nil {
            try result.stdout.write(to: golden, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: golden, encoding: .utf8)
        #expect(result.stdout == expected)
    }

    @Test(arguments: ExampleTests.examples)
    func exampleRunsAsAProgram(_ name: String) throws {
        let script = DiceProcess.packageRoot.appendingPathComponent("examples/\(name)")
        let text = try String(contentsOf: script, encoding: .utf8)
        #expect(text.hasPrefix("#!/usr/bin/env dice\n"))
    }
}
