#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The REPL's log of past results (`:log`): `~/.dice_log`, or `DICE_LOG`.
///
/// JSON Lines: each line the `--json` object of one result with a `"time"` (ISO 8601, UTC)
/// first. A result is appended as it is shown, by one `write` to a descriptor opened with
/// O_APPEND, so a killed session loses nothing and two sessions never mix their lines; a
/// torn last line (a kill or a full disk halfway through a write) is cut off, under the
/// lock, before the next append. A path that is no regular file (a FIFO) is not opened
/// blocking: it gets the warning. `:log` reads from the end of the file.
/// Past `limit` + `slack` lines the file is rewritten with its newest `limit` lines (a
/// temporary file renamed over it) under an exclusive `flock`, which appends take too.
/// The file is not read at start-up: only for `:log` and, to count its lines, at the first
/// append and whenever another session changed it since this one last wrote. The first
/// problem is reported through `warn`, once; from then on the log is kept no more, and the
/// REPL goes on.
final class ResultLog: @unchecked Sendable {
    let path: String
    let limit: Int
    let slack: Int
    private let warn: (String) -> Void
    private var isUsable = true
    /// Lines in the file as far as this session knows; nil until first counted.
    private var lineCount: Int?
    /// The file's size after this session last wrote it: another size under the lock means
    /// another session appended or compacted since, and the lines are counted again.
    private var knownSize: off_t?

    init(path: String, limit: Int = 10_000, slack: Int = 1_000, warn: @escaping (String) -> Void) {
        self.path = path
        self.limit = max(1, limit)
        self.slack = max(0, slack)
        self.warn = warn
    }

    /// One entry, as read back.
    struct Entry: Equatable {
        var time: String
        var input: String
        var text: String
    }

    // MARK: - Writing

    /// Appends `json` (one JSON object, no newline) with the time `time` (now if nil): one
    /// `write` of the whole line, after cutting off a torn last line (a kill or a full disk
    /// in the middle of an earlier write), under the lock. A write that fails halfway is cut
    /// off again, so the file only ever ends in a whole line.
    func append(_ json: String, time: String? = nil) {
        guard isUsable, json.hasPrefix("{") else { return }
        let stamp = time ?? ResultLog.now()
        let line = "{\"time\":\"\(stamp)\"" + (json == "{}" ? "}" : "," + json.dropFirst()) + "\n"
        do throws(Failure) {
            try withLockedFile(flags: O_RDWR | O_APPEND | O_CREAT) { (descriptor, status) throws(Failure) in
                var size = status.st_size
                let whole = try ResultLog.endOfWholeLines(descriptor, size: size)
                if whole < size {
                    guard ftruncate(descriptor, whole) == 0 else { throw Failure.system(errno) }
                    size = whole
                    lineCount = nil
                }
                if lineCount == nil || knownSize != size { lineCount = try ResultLog.countLines(path) }
                let bytes = Array(line.utf8)
                try ResultLog.writeLine(bytes, to: descriptor, size: size)
                knownSize = size + off_t(bytes.count)
            }
            lineCount = (lineCount ?? 0) + 1
            warnedFull = false
            if let count = lineCount, count > limit + slack { try compact() }
        } catch .system(let code) where code == ENOSPC || code == EDQUOT || code == EFBIG {
            // A full disk (or a file-size limit): one warning, and the next result is tried again.
            if !warnedFull {
                warn("cannot write the log \(path): \(Failure.system(code).message); "
                    + "results are not logged until there is room")
            }
            warnedFull = true
        } catch {
            disable("cannot write the log \(path): \(error.message)")
        }
    }

    /// Whether the full disk was reported since the last result logged.
    private var warnedFull = false

    /// Rewrites the file with its newest `limit` lines, under the lock, through `AtomicFile`.
    private func compact() throws(Failure) {
        try withLockedFile(flags: O_RDWR) { (_, _) throws(Failure) in
            let bytes = try ResultLog.read(path) ?? []
            let lines = ResultLog.lines(bytes)
            let kept = lines.suffix(limit)
            var text: [UInt8] = []
            for line in kept { text += line + [UInt8(ascii: "\n")] }
            if let failure = text.withUnsafeBufferPointer({ AtomicFile.write(bytes: $0, to: path, mode: 0o600) }) {
                throw Failure.other(failure)
            }
            lineCount = kept.count
            knownSize = off_t(text.count)
        }
    }

    /// Opens the file, takes its exclusive lock (making sure the lock is on the file now
    /// at `path`, not on one a compaction just replaced), runs `body` with the descriptor and
    /// the file's status as the lock found it, unlocks.
    private func withLockedFile(flags: Int32, _ body: (Int32, stat) throws(Failure) -> Void) throws(Failure) {
        for _ in 0..<100 {
            // Not blocking: a FIFO at `path` must not hang the REPL in open().
            let descriptor = open(path, flags | O_CLOEXEC | O_NONBLOCK, 0o600)
            guard descriptor >= 0 else { throw errno == ENXIO ? Failure.notRegular : Failure.system(errno) }
            defer { close(descriptor) }
            var opened = stat(), current = stat()
            guard fstat(descriptor, &opened) == 0 else { throw Failure.system(errno) }
            guard (opened.st_mode & S_IFMT) == S_IFREG else { throw Failure.notRegular }
            guard flock(descriptor, LOCK_EX) == 0 else { throw Failure.system(errno) }
            guard fstat(descriptor, &opened) == 0 else { throw Failure.system(errno) }
            if stat(path, &current) == 0, current.st_ino == opened.st_ino, current.st_dev == opened.st_dev {
                try body(descriptor, opened)
                return
            }
            // Replaced while waiting for the lock: open the new file.
        }
        throw Failure.busy
    }

    private func disable(_ message: String) {
        guard isUsable else { return }
        isUsable = false
        warn(message + "; results will not be logged")
    }

    // MARK: - Reading

    /// The newest `count` entries, newest first, and how many of the lines read on the way
    /// could not be read (a line cut short by a kill, or not a result). Read from the end of
    /// the file, a line at a time, as far as `count` entries (and at most `limit` lines) go.
    func newest(_ count: Int) throws(Failure) -> (entries: [Entry], skipped: Int) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        if descriptor < 0 {
            if errno == ENOENT { return ([], 0) }
            throw Failure.system(errno)
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw Failure.system(errno) }
        if (status.st_mode & S_IFMT) == S_IFDIR { throw Failure.system(EISDIR) }
        guard (status.st_mode & S_IFMT) == S_IFREG else { throw Failure.notRegular }
        var entries: [Entry] = []
        var skipped = 0
        var lines = 0
        var lineEnd = status.st_size
        var position = lineEnd
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        func take(_ start: off_t, _ end: off_t) throws(Failure) {
            guard end > start else { return }
            lines += 1
            let line = try ResultLog.bytes(descriptor, from: start, to: end)
            if let entry = ResultLog.entry(line) { entries.append(entry) } else { skipped += 1 }
        }
        while position > 0 && entries.count < count && lines < limit {
            let length = Int(min(off_t(chunk.count), position))
            let start = position - off_t(length)
            let read = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, length, start) }
            if read < 0 && errno == EINTR { continue }
            guard read == length else { throw Failure.system(read < 0 ? errno : EIO) }
            var index = length
            while index > 0 && entries.count < count && lines < limit {
                index -= 1
                guard chunk[index] == UInt8(ascii: "\n") else { continue }
                try take(start + off_t(index) + 1, lineEnd)
                lineEnd = start + off_t(index)
            }
            position = start
        }
        if position == 0 && entries.count < count && lines < limit { try take(0, lineEnd) }
        return (entries, skipped)
    }

    /// The bytes of the file from `start` to `end`.
    private static func bytes(_ descriptor: Int32, from start: off_t, to end: off_t) throws(Failure) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: Int(end - start))
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeMutableBytes { raw in
                pread(descriptor, raw.baseAddress.map { $0 + done }, raw.count - done, start + off_t(done))
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw Failure.system(count < 0 ? errno : EIO) }
            done += count
        }
        return bytes
    }

    /// The entry of one line, or nil if it is not a whole JSON object with a time, an input
    /// and a text.
    static func entry(_ line: [UInt8]) -> Entry? {
        guard let fields = JSONFields(line).topLevelStrings(),
              let time = fields["time"], let input = fields["input"], let text = fields["text"] else { return nil }
        return Entry(time: time, input: input, text: text)
    }

    // MARK: - Files

    enum Failure: Error {
        case system(Int32)
        case busy
        case notRegular
        case other(String)

        var message: String {
            switch self {
            case .system(let code): return Files.describe(code)
            case .busy: return "it keeps being replaced"
            case .notRegular: return "not a regular file"
            case .other(let message): return message
            }
        }
    }

    /// The file's bytes; nil if it does not exist. Only a regular file is read.
    static func read(_ path: String) throws(Failure) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            throw Failure.system(errno)
        }
        defer { close(descriptor) }
        var status = stat()
        if fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) != S_IFREG {
            if (status.st_mode & S_IFMT) == S_IFDIR { throw Failure.system(EISDIR) }
            return nil
        }
        do {
            return try Files.readAll(descriptor, name: path)
        } catch {
            throw Failure.system(EIO)
        }
    }

    static func countLines(_ path: String) throws(Failure) -> Int {
        lines(try read(path) ?? []).count
    }

    /// The non-empty lines of `bytes`, without their newlines.
    static func lines(_ bytes: [UInt8]) -> [[UInt8]] {
        bytes.split(separator: UInt8(ascii: "\n")).map(Array.init)
    }

    /// Writes `bytes` (one line) at the end in one `write`; if it fails or writes only a
    /// part (a full disk), cuts the file back to `size`, so no torn line stays behind.
    static func writeLine(_ bytes: [UInt8], to descriptor: Int32, size: off_t) throws(Failure) {
        while true {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count == bytes.count { return }
            let code = count < 0 ? errno : ENOSPC
            if count < 0 && code == EINTR { continue }
            _ = ftruncate(descriptor, size)
            throw Failure.system(code)
        }
    }

    /// Where the file's last whole line ends: `size` when it ends in a newline (or is
    /// empty), else just after the last newline before a torn line (0 if there is none).
    static func endOfWholeLines(_ descriptor: Int32, size: off_t) throws(Failure) -> off_t {
        var end = size
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while end > 0 {
            let length = Int(min(off_t(chunk.count), end))
            let start = end - off_t(length)
            let count = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, length, start) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure.system(errno)
            }
            guard count == length else { throw Failure.system(EIO) }
            if let newline = chunk[0..<length].lastIndex(of: UInt8(ascii: "\n")) {
                return start + off_t(newline) + 1
            }
            end = start
        }
        return 0
    }

    /// The current time in ISO 8601, UTC, to the second: `2026-12-01T05:20:22Z`.
    static func now() -> String {
        var seconds = time(nil)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }

    /// `2026-12-01T05:20:22Z` as local time, `2026-12-01 06:20:22`; other texts unchanged.
    static func localTime(_ iso: String) -> String {
        let digits = Array(iso.utf8)
        guard digits.count == 20, digits[4] == UInt8(ascii: "-"), digits[10] == UInt8(ascii: "T"),
              digits[19] == UInt8(ascii: "Z") else { return iso }
        func number(_ range: Range<Int>) -> Int32? { Int32(String(decoding: digits[range], as: UTF8.self)) }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19) else {
            return iso
        }
        var parts = tm()
        parts.tm_year = year - 1900
        parts.tm_mon = month - 1
        parts.tm_mday = day
        parts.tm_hour = hour
        parts.tm_min = minute
        parts.tm_sec = second
        var seconds = timegm(&parts)
        var local = tm()
        guard localtime_r(&seconds, &local) != nil else { return iso }
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(local.tm_year + 1900)-\(two(local.tm_mon + 1))-\(two(local.tm_mday)) "
            + "\(two(local.tm_hour)):\(two(local.tm_min)):\(two(local.tm_sec))"
    }
}
