import Foundation
import Testing

/// Results that cannot be written are a failure, said on stderr (status 1); a reader that
/// went away (`dice ... | head -1`) is not.
@Suite struct WriteErrorTests {
    static func run(_ arguments: [String], stdout: FileHandle) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: DiceProcess.binary)
        process.arguments = arguments
        let errors = Pipe()
        process.standardOutput = stdout
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    @Test func aFullDiskIsAnError() throws {
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let result = try Self.run(["-e", "1d6"], stdout: full)
        #expect(result.status == 1)
        #expect(result.stderr == "dice: write error: no space left on device\n")
    }

    @Test func aClosedPipeEndsQuietly() throws {
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()
        let result = try Self.run(["-n", "100000", "-e", "1d6"], stdout: pipe.fileHandleForWriting)
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
    }
}
