#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading whole files and standard input without Foundation.
enum Files {
    struct ReadError: Error {
        var message: String
    }

    /// The bytes of `path`, or why they cannot be read.
    static func read(_ path: String) throws(ReadError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw ReadError(message: "\(path): \(describe(errno))") }
        defer { close(descriptor) }
        var status = stat()
        if fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
            throw ReadError(message: "\(path): is a directory")
        }
        return try readAll(descriptor, name: path)
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
        // A UTF-8 byte order mark is not part of the script.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        return bytes
    }

    static func describe(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text).lowercased()
    }

    private static func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
        return Glibc.read(descriptor, buffer, count)
        #else
        return Darwin.read(descriptor, buffer, count)
        #endif
    }
}
