import Foundation

/// Runs one test in a child process of this test binary, so that a crash (a trap or
/// a stack overflow) fails the parent test instead of taking every test down with it.
///
/// The child test is declared with `.enabled(if: IsolatedTest.isChild("name"))`, so it
/// only runs in the child; the parent calls `IsolatedTest.run("name", test: "function")`
/// and checks that the child exited normally.
enum IsolatedTest {
    static let variable = "DICE_ISOLATED_TEST"

    /// Whether this process is the child started to run the test called `name`.
    static func isChild(_ name: String) -> Bool {
        ProcessInfo.processInfo.environment[variable] == name
    }

    /// How the child ended.
    struct Outcome: CustomStringConvertible {
        var exitedNormally: Bool
        var status: Int32
        var output: String

        /// The name of the child's test function, to check that it did run.
        var test: String

        /// Whether the child ran its test and the test passed.
        var passed: Bool {
            exitedNormally && status == 0 && output.contains("Test \(test) passed")
        }

        var description: String {
            (exitedNormally ? "exit status \(status)" : "killed by signal \(status)") + "\n" + output.suffix(2_000)
        }
    }

    /// Runs the test function named `test` (as `name()`) in a child of this binary, with `name`
    /// marked as the child's test.
    static func run(_ name: String, test: String) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["--testing-library", "swift-testing", "--filter", test]
        var environment = ProcessInfo.processInfo.environment
        environment[variable] = name
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(exitedNormally: process.terminationReason == .exit, status: process.terminationStatus,
                       output: String(decoding: data, as: UTF8.self), test: test)
    }
}
