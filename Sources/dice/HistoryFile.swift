#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The history file: UTF-8 text, one accepted line per line, oldest first.
///
/// Appends go straight to disk (open, write, close). When the file grows past twice the
/// limit it is rewritten with the newest `limit` lines through a temporary file and a
/// rename. The first problem (unreadable, not UTF-8 text, unwritable) is reported through
/// `warn`, and from then on the file is left alone.
struct HistoryFile {
    let path: String
    let limit: Int
    private let warn: (String) -> Void
    private var isUsable = true
    /// Lines in the file as far as this session knows (other sessions may append too).
    private var linesOnDisk = 0

    init(path: String, limit: Int, warn: @escaping (String) -> Void) {
        self.path = path
        self.limit = max(1, limit)
        self.warn = warn
    }

    /// The newest `limit` lines of the file; none if it is missing or unusable.
    mutating func load() -> [String] {
        // A FIFO or a device would block appends in open(): left alone, with the warning.
        guard !Files.isSpecial(path) else {
            disable("history file \(path) is not a regular file, left untouched")
            return []
        }
        switch HistoryFile.read(path) {
        case .missing:
            return []
        case .failed(let code):
            disable("cannot read history file \(path): \(HistoryFile.describe(code))")
            return []
        case .contents(let bytes):
            guard let lines = HistoryFile.lines(of: bytes) else {
                disable("history file \(path) is not UTF-8 text, left untouched")
                return []
            }
            linesOnDisk = lines.count
            return Array(lines.suffix(limit))
        }
    }

    /// Appends one line (without newline) to the file, compacting it when it grew too long.
    mutating func append(_ line: String) {
        guard isUsable else { return }
        let flags = O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC
        if let code = HistoryFile.write(Array((line + "\n").utf8), to: path, flags: flags) {
            disable("cannot write history file \(path): \(HistoryFile.describe(code))")
            return
        }
        linesOnDisk += 1
        if linesOnDisk > 2 * limit { compact() }
    }

    /// Rewrites the file with its newest `limit` lines, atomically. Re-reads it first so
    /// lines other sessions appended are kept.
    private mutating func compact() {
        guard case .contents(let bytes) = HistoryFile.read(path),
              let lines = HistoryFile.lines(of: bytes) else {
            linesOnDisk = 0  // changed under us: leave it alone
            return
        }
        let kept = lines.suffix(limit)
        // Exclusively created, never through a link, the link's target replaced (AtomicFile).
        if let failure = AtomicFile.write(kept.map { $0 + "\n" }.joined(), to: path, mode: 0o600) {
            disable("cannot replace history file \(path): \(failure)")
            return
        }
        linesOnDisk = kept.count
    }

    private mutating func disable(_ message: String) {
        guard isUsable else { return }
        isUsable = false
        warn(message + "; history will not be saved")
    }

    // MARK: File access

    private enum ReadResult {
        case missing
        case failed(Int32)
        case contents([UInt8])
    }

    private static func read(_ path: String) -> ReadResult {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        if descriptor < 0 {
            return errno == ENOENT ? .missing : .failed(errno)
        }
        defer { close(descriptor) }
        // Only a regular file holds history to load: /dev/full or /dev/zero never end.
        var status = stat()
        if fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) != S_IFREG {
            return (status.st_mode & S_IFMT) == S_IFDIR ? .failed(EISDIR) : .missing
        }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return .contents(bytes) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failed(errno)
            }
            bytes += buffer[0..<count]
        }
    }

    /// Writes all of `bytes`; returns the errno on failure.
    private static func write(_ bytes: [UInt8], to path: String, flags: Int32,
                              sync: Bool = false) -> Int32? {
        let descriptor = open(path, flags, 0o600)
        if descriptor < 0 { return errno }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes {
                Glibc.write(descriptor, $0.baseAddress, $0.count)
            }
            if count < 0 {
                if errno == EINTR { continue }
                let code = errno
                close(descriptor)
                return code
            }
            written += count
        }
        if sync, fsync(descriptor) != 0 {
            let code = errno
            close(descriptor)
            return code
        }
        return close(descriptor) == 0 ? nil : errno
    }

    /// The non-empty lines of the file, or nil if it is not UTF-8 text (a NUL byte or an
    /// invalid sequence). Windows line endings are accepted.
    static func lines(of bytes: [UInt8]) -> [String]? {
        guard !bytes.contains(0) else { return nil }
        var lines: [String] = []
        for var line in bytes.split(separator: UInt8(ascii: "\n")) {
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            let text = String(decoding: line, as: UTF8.self)
            guard text.utf8.elementsEqual(line) else { return nil }
            if !text.isEmpty { lines.append(text) }
        }
        return lines
    }

    private static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
