#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes whole files so that a reader sees the old file or the new one, never half of one.
///
/// The new text goes to a temporary file created exclusively (`mkstemp`: `O_CREAT | O_EXCL`,
/// so never through a link someone left there) in the directory of the file it replaces,
/// then is synced and renamed over it. Writing through a symbolic link replaces the link's
/// target, keeping the link and the target's mode. A SIGTERM or SIGHUP during the write
/// removes the temporary file before the process ends; one left by a killed process is
/// removed by `removeStale(besides:)` at the next start.
enum AtomicFile {
    /// What a temporary file's name has after the name of the file it replaces:
    /// `.NAME.dice-tmp-PID-XXXXXX`, hidden beside `NAME`.
    static let marker = ".dice-tmp-"

    /// Writes `text` to `path` atomically; returns why it failed, or `nil` (then the old
    /// file is untouched). A new file gets `mode`; an existing one keeps its own.
    static func write(_ text: String, to path: String, mode: mode_t = 0o644) -> String? {
        var text = text
        return text.withUTF8 { write(bytes: $0, to: path, mode: mode) }
    }

    /// `write(_:to:mode:)` for bytes.
    static func write(bytes: UnsafeBufferPointer<UInt8>, to path: String, mode: mode_t = 0o644) -> String? {
        let target = resolvingLinks(path)
        var status = stat()
        let keptMode = stat(target, &status) == 0 ? status.st_mode & 0o7777 : mode
        let slash = target.utf8.lastIndex(of: UInt8(ascii: "/"))
        let directory = slash.map { String(target[...$0]) } ?? ""
        let name = slash.map { String(target[target.index(after: $0)...]) } ?? target
        var template = Array("\(directory).\(name)\(marker)\(getpid())-XXXXXX".utf8CString)
        installSignalCleanup()
        let descriptor = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return mkstemp(base)
        }
        guard descriptor >= 0 else { return Files.describe(errno) }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        PendingTemporary.set(template)
        defer { PendingTemporary.clear() }
        var failure: String?
        var offset = 0
        while offset < bytes.count {
            let written = systemWrite(descriptor, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                failure = Files.describe(errno)
                break
            }
            offset += written
        }
        if failure == nil && fchmod(descriptor, keptMode) != 0 { failure = Files.describe(errno) }
        if failure == nil && fsync(descriptor) != 0 { failure = Files.describe(errno) }
        if close(descriptor) != 0 && failure == nil { failure = Files.describe(errno) }
        if failure == nil && rename(temporary, target) != 0 { failure = Files.describe(errno) }
        if failure != nil { unlink(temporary) }
        return failure
    }

    /// The file `path` names after following its symbolic links (at most 40), so that a
    /// rename replaces the target and not the link; `path` itself when it is no link.
    static func resolvingLinks(_ path: String) -> String {
        var current = path
        for _ in 0..<40 {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &buffer, buffer.count - 1)
            guard count > 0 else { return current }
            let link = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if link.hasPrefix("/") {
                current = link
            } else if let slash = current.utf8.lastIndex(of: UInt8(ascii: "/")) {
                current = String(current[...slash]) + link
            } else {
                current = link
            }
        }
        return current
    }

    /// Removes temporary files of this user that a killed `dice` left beside the files at
    /// `paths` (the process that made one no longer runs).
    static func removeStale(besides paths: [String]) {
        var directories: Set<String> = []
        for path in paths {
            let target = resolvingLinks(path)
            directories.insert(target.utf8.lastIndex(of: UInt8(ascii: "/")).map { String(target[...$0]) } ?? "./")
        }
        for directory in directories {
            guard let stream = opendir(directory) else { continue }
            defer { closedir(stream) }
            while let entry = readdir(stream) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                guard name.hasPrefix("."), let pid = stalePID(name) else { continue }
                guard kill(pid, 0) != 0 && errno == ESRCH else { continue }
                let path = directory + name
                var status = stat()
                guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG,
                      status.st_uid == getuid() else { continue }
                unlink(path)
            }
        }
    }

    /// The process id in a temporary file's name (`.NAME.dice-tmp-PID-XXXXXX`), if it is one.
    static func stalePID(_ name: String) -> pid_t? {
        let bytes = Array(name.utf8), mark = Array(marker.utf8)
        guard bytes.count > mark.count + 8 else { return nil }
        var start: Int?
        for index in stride(from: bytes.count - mark.count - 8, through: 0, by: -1)
        where bytes[index..<index + mark.count].elementsEqual(mark) {
            start = index + mark.count
            break
        }
        guard let start, bytes.count - start >= 9, bytes[bytes.count - 7] == UInt8(ascii: "-") else { return nil }
        let digits = bytes[start..<bytes.count - 7]
        guard !digits.isEmpty, digits.count <= 10, digits.allSatisfy({ (48...57).contains($0) }) else { return nil }
        return pid_t(String(decoding: digits, as: UTF8.self))
    }

    private static func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
        return Glibc.write(descriptor, bytes, count)
        #else
        return Darwin.write(descriptor, bytes, count)
        #endif
    }

    // MARK: - Cleaning up on a signal

    nonisolated(unsafe) private static var handlersInstalled = false

    /// SIGTERM and SIGHUP (when not ignored) remove the pending temporary file, then end
    /// the process as they would have.
    private static func installSignalCleanup() {
        guard !handlersInstalled else { return }
        handlersInstalled = true
        PendingTemporary.path[0] = 0
        PendingTemporary.clear()
        for signo in [SIGTERM, SIGHUP] {
            var current = sigaction()
            guard sigaction(signo, nil, &current) == 0 else { continue }
            #if canImport(Glibc)
            let isDefault = current.__sigaction_handler.sa_handler == nil
            #else
            let isDefault = current.__sigaction_u.__sa_handler == nil
            #endif
            guard isDefault else { continue }
            var action = sigaction()
            #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = cleanUpAndEnd
            #else
            action.__sigaction_u.__sa_handler = cleanUpAndEnd
            #endif
            sigemptyset(&action.sa_mask)
            action.sa_flags = Int32(truncatingIfNeeded: SA_RESETHAND)
            sigaction(signo, &action, nil)
        }
    }
}

/// The temporary file being written, for the signal handler: a fixed buffer, as a handler
/// may only read memory and call async-signal-safe functions (`unlink`, `raise`). Touched
/// before the handler is installed, so the handler never runs Swift's lazy initialisation.
private enum PendingTemporary {
    nonisolated(unsafe) static let path = UnsafeMutablePointer<CChar>.allocate(capacity: Int(PATH_MAX) + 1)
    nonisolated(unsafe) static var isSet: sig_atomic_t = 0

    static func set(_ name: [CChar]) {
        guard name.count <= Int(PATH_MAX) else { return }
        for (index, byte) in name.enumerated() { path[index] = byte }
        isSet = 1
    }

    static func clear() { isSet = 0 }
}

/// The handler of `AtomicFile.installSignalCleanup`: the default action is back (SA_RESETHAND),
/// so raising the signal again ends the process as it would have.
private func cleanUpAndEnd(_ signo: Int32) {
    if PendingTemporary.isSet != 0 { unlink(PendingTemporary.path) }
    raise(signo)
}
