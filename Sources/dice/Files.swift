#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Opening files to read, and reading one whole (the result log), without Foundation.
enum Files {
    /// UTF-8's byte order mark, which is not part of a script.
    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    struct ReadError: Error {
        var message: String
    }

    /// A descriptor open for reading `path` (not a directory), for the caller to close.
    static func open(_ path: String) throws(ReadError) -> Int32 {
        let descriptor = systemOpen(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ReadError(message: "\(path): \(describe(errno))") }
        var status = stat()
        if fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
            close(descriptor)
            throw ReadError(message: "\(path): is a directory")
        }
        return descriptor
    }

    /// Whether `path` names something that is neither a regular file nor a directory (a
    /// FIFO, a device, a socket), after links.
    static func isSpecial(_ path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0 else { return false }
        return (status.st_mode & S_IFMT) != S_IFREG && (status.st_mode & S_IFMT) != S_IFDIR
    }

    private static func systemOpen(_ path: String, _ flags: Int32) -> Int32 {
        #if canImport(Glibc)
        return Glibc.open(path, flags)
        #else
        return Darwin.open(path, flags)
        #endif
    }

    /// Everything on file descriptor `descriptor` until its end.
    static func readAll(_ descriptor: Int32, name: String) throws(ReadError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { raw in
                systemRead(descriptor, raw.baseAddress, raw.count)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw ReadError(message: "\(name): \(describe(errno))")
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        // A UTF-8 byte order mark is not part of the text.
        if bytes.starts(with: byteOrderMark) { bytes.removeFirst(byteOrderMark.count) }
        return bytes
    }

    static func describe(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text).lowercased()
    }

    static func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
        return Glibc.read(descriptor, buffer, count)
        #else
        return Darwin.read(descriptor, buffer, count)
        #endif
    }
}
