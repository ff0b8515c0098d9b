#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DiceKit

/// A script read as it arrives, so that its statements run as they are read: a bot can
/// write lines into `dice --json` and read each result before it writes the next, and what
/// came before an error has run and printed even when the input never ends.
///
/// `next` hands out the lines read so far in batches of whole statements, each batch a
/// `SourceFile` numbered from its first line. A statement goes on over lines while it cannot
/// end (after an operator, `=`, `then`..., or inside an open bracket: `LineContinuation`), so
/// its lines wait until the line that ends it has come. Memory is bounded by the longest
/// statement: the start of one that grows past 1 MB, 2 MB, 4 MB ... is handed out as
/// `.partial`, so the caller can report an error it already has (binary junk fails at its
/// first byte, not after the whole input); past `maxLineBytes` it is an error of its own.
struct ScriptStream {
    enum Batch {
        /// Whole statements, the last ending with a line's newline, or the rest of the input.
        case lines(SourceFile)
        /// The start of a statement still being read (of a line, or of lines that it goes on
        /// over); `atLimit` when it reached `maxLineBytes`, and then the last batch.
        case partial(SourceFile, atLimit: Bool)
    }

    let descriptor: Int32
    let name: String
    /// The longest statement read, be it one line or several (64 MiB unless a test says less).
    let maxLineBytes: Int
    /// The first size at which the start of a long statement is handed out (then twice it ...).
    let firstProbe: Int
    /// Read, and not yet handed out as whole statements: the start of the next statement.
    private var pending: [UInt8] = []
    /// The number of the line `pending` starts.
    private var line = 1
    private var ended = false
    private var atStart = true
    private var nextProbe: Int
    /// `pending[..<searched]` has been searched for newlines.
    private var searched = 0
    /// `pending[..<scanned]`, whole lines, has been read by `continuation`.
    private var scanned = 0
    /// Where the statements of `pending[..<scanned]` end.
    private var continuation = LineContinuation()
    /// `pending[..<complete]` is whole statements, to hand out.
    private var complete = 0
    private var chunk: [UInt8]

    init(descriptor: Int32, name: String, maxLineBytes: Int = 64 << 20, firstProbe: Int = 1 << 20,
         chunkSize: Int = 1 << 16) {
        self.descriptor = descriptor
        self.name = name
        self.maxLineBytes = Swift.max(1, maxLineBytes)
        self.firstProbe = Swift.max(1, firstProbe)
        nextProbe = self.firstProbe
        chunk = [UInt8](repeating: 0, count: Swift.max(1, chunkSize))
    }

    /// The next batch, or `nil` at the end of the input (or when `shouldStop` says so while
    /// waiting for input). `beforeWaiting` runs before each read that may wait.
    mutating func next(shouldStop: (() -> Bool)? = nil,
                       beforeWaiting: () -> Void) throws(Files.ReadError) -> Batch? {
        while true {
            if let newline = pending[Swift.max(searched, scanned)...].lastIndex(of: UInt8(ascii: "\n")) {
                let ends = continuation.read(pending[scanned...newline])
                if ends > 0 { complete = scanned + ends }
                scanned = newline + 1
            }
            searched = pending.count
            if complete > 0 {
                nextProbe = firstProbe
                return .lines(take(complete))
            }
            if ended {
                guard !pending.isEmpty else { return nil }
                return .lines(take(pending.count))
            }
            if pending.count >= Swift.min(nextProbe, maxLineBytes) {
                while nextProbe <= pending.count { nextProbe *= 2 }
                let atLimit = pending.count >= maxLineBytes
                let start = SourceFile(name: name, bytes: pending, firstLine: line)
                if atLimit {
                    // Nothing more: the statement is never read to its end.
                    ended = true
                    (pending, searched, scanned) = ([], 0, 0)
                }
                return .partial(start, atLimit: atLimit)
            }
            beforeWaiting()
            if let shouldStop, !(try waitForInput(shouldStop)) { return nil }
            let count = chunk.withUnsafeMutableBytes { raw in
                Files.systemRead(descriptor, raw.baseAddress, raw.count)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw Files.ReadError(message: "\(name): \(Files.describe(errno))")
            }
            if count == 0 {
                ended = true
                stripByteOrderMark(final: true)
            } else {
                pending.append(contentsOf: chunk[0..<count])
                stripByteOrderMark(final: false)
            }
        }
    }

    /// The first `count` bytes of `pending`, as a source numbered from `line`.
    private mutating func take(_ count: Int) -> SourceFile {
        let bytes = Array(pending[0..<count])
        pending.removeSubrange(0..<count)
        searched = Swift.max(0, searched - count)
        scanned = Swift.max(0, scanned - count)
        complete = 0
        atStart = false
        let source = SourceFile(name: name, bytes: bytes, firstLine: line)
        line += bytes.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
        return source
    }

    /// A UTF-8 byte order mark is not part of the script.
    private mutating func stripByteOrderMark(final: Bool) {
        guard atStart else { return }
        let mark = Files.byteOrderMark
        if pending.count >= mark.count || final {
            atStart = false
            if pending.starts(with: mark) { pending.removeFirst(mark.count) }
        }
    }

    /// Waits until input can be read, checking `shouldStop` every 50 ms; false if it said stop.
    private func waitForInput(_ shouldStop: () -> Bool) throws(Files.ReadError) -> Bool {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            if shouldStop() { return false }
            let ready = poll(&poller, 1, 50)
            if ready > 0 { return true }
            if ready < 0 && errno != EINTR && errno != EAGAIN {
                throw Files.ReadError(message: "\(name): \(Files.describe(errno))")
            }
        }
    }
}
