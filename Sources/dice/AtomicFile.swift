#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes whole files so that a reader sees the old file or the new one, never half of one.
enum AtomicFile {
    /// Writes `text` to a temporary file beside `path`, syncs it, then renames it over `path`.
    /// Returns why it failed, or `nil`; on failure the old file is untouched.
    static func write(_ text: String, to path: String) -> String? {
        let temporary = path + ".tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { return Files.describe(errno) }
        var bytes = Array(text.utf8)
        var offset = 0
        var failure: String?
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { raw in
                systemWrite(descriptor, raw.baseAddress.map { $0 + offset }, raw.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                failure = Files.describe(errno)
                break
            }
            offset += written
        }
        if failure == nil && fsync(descriptor) != 0 { failure = Files.describe(errno) }
        if close(descriptor) != 0 && failure == nil { failure = Files.describe(errno) }
        if failure == nil && rename(temporary, path) != 0 { failure = Files.describe(errno) }
        if failure != nil { unlink(temporary) }
        bytes.removeAll()
        return failure
    }

    private static func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
        return Glibc.write(descriptor, bytes, count)
        #else
        return Darwin.write(descriptor, bytes, count)
        #endif
    }
}
