import Foundation

/// Runs the built `dice` binary as a subprocess.
enum DiceProcess {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The `dice` built beside this test bundle (`DICE_BINARY` overrides).
    static var binary: String {
        if let path = ProcessInfo.processInfo.environment["DICE_BINARY"] { return path }
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        var directory = URL(fileURLWithPath: exe).deletingLastPathComponent()
        // On macOS the test bundle is a directory: climb out of it.
        while directory.pathComponents.count > 1 && directory.path.contains(".xctest") {
            directory = directory.deletingLastPathComponent()
        }
        return directory.appendingPathComponent("dice").path
    }

    /// The package's root, for examples/ and golden files.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func run(_ arguments: [String], stdin: String? = nil, environment extra: [String: String] = [:],
                    directory: URL? = nil) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment.removeValue(forKey: "DICE_INIT")
        environment.removeValue(forKey: "DICE_HISTORY")
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try? input.fileHandleForWriting.close()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus,
                      stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }
}
