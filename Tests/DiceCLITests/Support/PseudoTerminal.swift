#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a program on a pseudo-terminal, so tests can type at it as a user would.
///
/// ```swift
/// let terminal = try PseudoTerminal(executable: dicePath, arguments: [],
///                                   environment: ["HOME": home, "NO_COLOR": "1"])
/// _ = try terminal.waitFor("dice> ")
/// terminal.send("1+2\r")
/// _ = try terminal.waitFor("3")
/// terminal.send("\u{4}")                       // Ctrl-D
/// #expect(try terminal.waitForExit() == 0)
/// ```
///
/// The child runs in its own session with the terminal (80x24) as its controlling
/// terminal, so Ctrl-C (`"\u{3}"`) sends it SIGINT. Its environment is exactly
/// `environment` on top of `TERM=xterm`, `LANG=C.UTF-8` and the current `PATH`.
/// The child is killed, if still running, when the `PseudoTerminal` goes away.
///
/// Wait for the prompt before typing the next line: keys sent while the program is busy
/// meet a terminal in its normal (canonical) mode, where Ctrl-C flushes typed-ahead
/// input and Ctrl-D is not a key, just as for a real user typing ahead.
final class PseudoTerminal {
    /// A `waitFor` or `waitForExit` that ran out of time, or a child that exited first.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The child's process id.
    let pid: pid_t
    private let master: Int32
    /// Kept open so reading the master never fails with EIO before the child opens it.
    private let slave: Int32
    private var bytes: [UInt8] = []
    private var mark = 0
    private var status: Int32?

    /// Starts `executable` (an absolute path) with `arguments` on a new pseudo-terminal.
    init(executable: String, arguments: [String], environment: [String: String],
         columns: UInt16 = 80, rows: UInt16 = 24) throws {
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)  // = posix_openpt
        guard master >= 0 else { throw Failure(description: "/dev/ptmx: \(Self.lastError())") }
        var slavePath = [CChar](repeating: 0, count: 256)
        guard let grantpt = CFunctions.grantpt, let unlockpt = CFunctions.unlockpt,
              let ptsname_r = CFunctions.ptsname_r,
              grantpt(master) == 0, unlockpt(master) == 0,
              ptsname_r(master, &slavePath, slavePath.count) == 0 else {
            let message = Self.lastError()
            close(master)
            throw Failure(description: "cannot set up pseudo-terminal: \(message)")
        }
        let slaveName = String(decoding: slavePath.prefix { $0 != 0 }.map(UInt8.init), as: UTF8.self)
        let slave = open(slavePath, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard slave >= 0 else {
            let message = Self.lastError()
            close(master)
            throw Failure(description: "cannot open \(slaveName): \(message)")
        }
        var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)

        var fullEnvironment = ["TERM": "xterm", "LANG": "C.UTF-8"]
        if let path = getenv("PATH") { fullEnvironment["PATH"] = String(cString: path) }
        fullEnvironment.merge(environment) { _, new in new }

        do {
            pid = try Self.spawn(executable, arguments: arguments,
                                 environment: fullEnvironment, terminal: slavePath)
        } catch {
            close(slave)
            close(master)
            throw error
        }
        self.master = master
        self.slave = slave
    }

    deinit {
        if status == nil {
            kill(pid, SIGKILL)
            var ignored: Int32 = 0
            while waitpid(pid, &ignored, 0) < 0 && errno == EINTR {}
        }
        close(slave)
        close(master)
    }

    // MARK: - Talking to the child

    /// Everything the child has written so far (as far as it has been read).
    var output: String { String(decoding: bytes, as: UTF8.self) }

    /// Resizes the terminal, as dragging a window's corner does: the child gets SIGWINCH.
    func resize(columns: UInt16, rows: UInt16 = 24) {
        var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
    }

    /// Types raw keys: `"\r"` Enter, `"\t"` Tab, `"\u{1b}[A"` Up, `"\u{1b}[B"` Down,
    /// `"\u{3}"` Ctrl-C, `"\u{4}"` Ctrl-D.
    func send(_ text: String) {
        let data = Array(text.utf8)
        var sent = 0
        while sent < data.count {
            let count = data[sent...].withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
            if count > 0 {
                sent += count
            } else if errno == EAGAIN || errno == EINTR {
                readAvailable(waitingUpTo: 0.01)  // the child may be blocked writing to us
            } else {
                return
            }
        }
    }

    /// Reads output until `text` appears after the previous match (the mark), then moves
    /// the mark past this match. Returns the output from the previous mark up to all that
    /// has been read so far. Throws, with that output, on timeout or if the child exits.
    @discardableResult
    func waitFor(_ text: String, timeout: Double = 5) throws -> String {
        let needle = Array(text.utf8)
        let deadline = Self.now() + timeout
        while true {
            if let end = Self.end(of: needle, in: bytes, from: mark) {
                let chunk = String(decoding: bytes[mark...], as: UTF8.self)
                mark = end
                return chunk
            }
            let remaining = deadline - Self.now()
            if remaining <= 0 || (hasExited() && !readAvailable(waitingUpTo: 0)) {
                let reason = remaining <= 0 ? "timed out after \(timeout)s" : "the program exited"
                throw Failure(description: """
                    \(reason) waiting for \(Self.visible(text)); output since the last match:
                    \(Self.visible(String(decoding: bytes[mark...], as: UTF8.self)))
                    """)
            }
            readAvailable(waitingUpTo: min(remaining, 0.05))
        }
    }

    /// Waits for the child to exit, reading its output meanwhile. Returns its exit status,
    /// or 128 + the signal number if a signal killed it.
    func waitForExit(timeout: Double = 5) throws -> Int32 {
        let deadline = Self.now() + timeout
        while !hasExited() {
            if Self.now() >= deadline {
                throw Failure(description: """
                    timed out after \(timeout)s waiting for exit; output since the last match:
                    \(Self.visible(String(decoding: bytes[mark...], as: UTF8.self)))
                    """)
            }
            readAvailable(waitingUpTo: 0.02)
        }
        while readAvailable(waitingUpTo: 0) {}
        guard let status else { return -1 }
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    /// Sends `signal` to the child, if it is still running.
    func sendSignal(_ signal: Int32) {
        if !hasExited() { kill(pid, signal) }
    }

    // MARK: - Helpers

    /// Reads what is available, waiting up to `seconds` for the first byte.
    /// Returns whether anything was read.
    @discardableResult
    private func readAvailable(waitingUpTo seconds: Double) -> Bool {
        var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, Int32(seconds * 1000)) > 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 4096)
        var readAny = false
        while true {
            let count = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes += buffer[0..<count]
                readAny = true
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                return readAny
            }
        }
    }

    private func hasExited() -> Bool {
        if status != nil { return true }
        var value: Int32 = 0
        if waitpid(pid, &value, WNOHANG) == pid { status = value }
        return status != nil
    }

    private static func spawn(_ executable: String, arguments: [String],
                              environment: [String: String], terminal: [CChar]) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // After setsid (done first by posix_spawn), opening the terminal makes it the
        // controlling terminal.
        posix_spawn_file_actions_addopen(&actions, 0, terminal, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        let setsid: Int32 = 0x80  // POSIX_SPAWN_SETSID (glibc, macOS), hidden behind _GNU_SOURCE
        posix_spawnattr_setflags(&attributes,
                                 Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | setsid))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw Failure(description: "cannot run \(executable): \(String(cString: strerror(result)))")
        }
        return pid
    }

    /// Where the first `needle` at or after `start` ends.
    private static func end(of needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty else { return start }
        guard haystack.count - start >= needle.count else { return nil }
        for index in start...(haystack.count - needle.count)
        where haystack[index..<index + needle.count].elementsEqual(needle) {
            return index + needle.count
        }
        return nil
    }

    /// `text` without terminal escape sequences, carriage returns and bells, for
    /// comparing what a user would read.
    static func plainText(_ text: String) -> String {
        var result = ""
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            switch scalar {
            case "\u{1b}":
                // CSI: ESC [ parameters final-byte; otherwise ESC and one character.
                guard let next = scalars.next(), next == "[" else { continue }
                while let byte = scalars.next(), !(0x40...0x7e).contains(byte.value) {}
            case "\r", "\u{7}":
                continue
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Control characters shown as `\u{1b}` and so on, for failure messages.
    private static func visible(_ text: String) -> String {
        String(text.unicodeScalars.map { scalar -> String in
            if scalar == "\n" { return "\\n\n" }
            if scalar.value < 0x20 || scalar.value == 0x7f {
                return "\\u{\(String(scalar.value, radix: 16))}"
            }
            return String(scalar)
        }.joined())
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    private static func lastError() -> String {
        String(cString: strerror(errno))
    }
}

/// The C library's pseudo-terminal functions, which Swift's Glibc module hides (they
/// need _XOPEN_SOURCE): looked up by name in the running process.
private enum CFunctions {
    typealias DescriptorFunction = @convention(c) (Int32) -> Int32
    typealias NameFunction = @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32

    static var grantpt: DescriptorFunction? { lookUp("grantpt") }
    static var unlockpt: DescriptorFunction? { lookUp("unlockpt") }
    static var ptsname_r: NameFunction? { lookUp("ptsname_r") }

    private static func lookUp<Function>(_ name: String) -> Function? {
        guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, name) else {
            return nil
        }
        return unsafeBitCast(symbol, to: Function.self)
    }
}
