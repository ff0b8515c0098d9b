#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Runs `dice` as a child with arguments given as bytes (so invalid UTF-8 reaches it as
/// written), and reports what the hostile-input tests bound: the bytes it wrote to stdout,
/// its stderr, its exit status, and its peak memory and CPU time. These come from GNU
/// `/usr/bin/time` around the child when it is there: `wait4`'s `rusage` of a child made by
/// `posix_spawn` (a vfork) counts the memory of the test process it was spawned from.
enum BoundedProcess {
    struct Result {
        var status: Int32
        /// How many bytes the child wrote to stdout, and the first megabyte of them.
        var stdoutBytes: Int
        var stdout: String
        var stderr: String
        /// The child's peak resident memory, in bytes.
        var peakMemory: Int
        /// The child's CPU time, user and system, in seconds.
        var cpuSeconds: Double
    }

    /// Runs the built `dice` with `arguments`, `stdin` as its standard input, and
    /// `environment` on top of the test's own (NO_COLOR set, DICE_INIT and DICE_HISTORY unset).
    static func run(_ arguments: [[UInt8]], stdin: [UInt8] = [], environment extra: [String: String] = [:],
                    executable: String = DiceProcess.binary) throws -> Result {
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment.removeValue(forKey: "DICE_INIT")
        environment.removeValue(forKey: "DICE_HISTORY")
        for (key, value) in extra { environment[key] = value }
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("dice-stdin-\(UUID().uuidString)")
        try Data(stdin).write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }

        var outPipe: [Int32] = [0, 0], errPipe: [Int32] = [0, 0]
        guard pipe(&outPipe) == 0, pipe(&errPipe) == 0 else { throw Failure(description: "pipe failed") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input.path, O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        for descriptor in outPipe + errPipe { posix_spawn_file_actions_addclose(&actions, descriptor) }

        let argv = [Array(executable.utf8)] + arguments
        let cArguments = argv.map { bytes -> UnsafeMutablePointer<CChar>? in
            let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            for (index, byte) in bytes.enumerated() { pointer[index] = CChar(bitPattern: byte) }
            pointer[bytes.count] = 0
            return pointer
        } + [nil]
        let cEnvironment = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in cArguments { pointer?.deallocate() }
            for pointer in cEnvironment { free(pointer) }
        }
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("dice-time-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: report) }
        let timer = "/usr/bin/time"
        let timed = FileManager.default.isExecutableFile(atPath: timer)
        var timerArguments: [UnsafeMutablePointer<CChar>?] = []
        let reportPath: String = report.path
        let words: [String] = [timer, "-f", "%M %U %S", "-o", reportPath]
        if timed { timerArguments = words.map { word in strdup(word) } }
        defer { for pointer in timerArguments { free(pointer) } }
        let spawnArguments = timed ? timerArguments + cArguments : cArguments
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, timed ? timer : executable, &actions, nil, spawnArguments, cEnvironment)
        close(outPipe[1])
        close(errPipe[1])
        guard spawned == 0 else {
            close(outPipe[0])
            close(errPipe[0])
            throw Failure(description: "cannot start \(executable): \(spawned)")
        }
        // Both pipes drained at once, so a child writing much to one never blocks on the other.
        var outBytes = 0
        var outKept: [UInt8] = []
        var errKept: [UInt8] = []
        var open = [outPipe[0], errPipe[0]]
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while !open.isEmpty {
            var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            guard poll(&fds, nfds_t(fds.count), 30_000) > 0 else { break }
            for entry in fds where entry.revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, $0.count) }
                if count <= 0 {
                    close(entry.fd)
                    open.removeAll { $0 == entry.fd }
                } else if entry.fd == outPipe[0] {
                    outBytes += count
                    if outKept.count < 1 << 20 { outKept += buffer[0..<count] }
                } else if errKept.count < 1 << 20 {
                    errKept += buffer[0..<count]
                }
            }
        }
        for descriptor in open { close(descriptor) }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let exited = (status & 0x7F) == 0
        var cpu = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        var peak = Int(usage.ru_maxrss) * 1024
        // GNU time's last line: "KILOBYTES USER SYSTEM" (a line before it names a signal).
        if timed, let text = try? String(contentsOf: report, encoding: .utf8),
           let last = text.split(separator: "\n").last {
            let fields = last.split(separator: " ")
            if fields.count == 3, let kilobytes = Int(fields[0]), let user = Double(fields[1]), let system = Double(fields[2]) {
                peak = kilobytes * 1024
                cpu = user + system
            }
        }
        var code = exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        // GNU time exits with the child's status, or 128 + the signal that ended it.
        if timed, let text = try? String(contentsOf: report, encoding: .utf8), text.contains("Command terminated by signal") {
            code = max(code, 128)
        }
        return Result(status: code, stdoutBytes: outBytes, stdout: String(decoding: outKept, as: UTF8.self),
                      stderr: String(decoding: errKept, as: UTF8.self), peakMemory: peak, cpuSeconds: cpu)
    }

    /// `run` with text arguments.
    static func run(_ arguments: [String], stdin: String = "", environment: [String: String] = [:]) throws -> Result {
        try run(arguments.map { Array($0.utf8) }, stdin: Array(stdin.utf8), environment: environment)
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }
}
