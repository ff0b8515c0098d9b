#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `dice --help`: the usage, then where the installed reference and examples are, so the
/// help points at files the user has (not at the source's README).
enum Help {
    /// The usage and, last, the example scripts' directory beside the running executable
    /// (`PREFIX/share/doc/dice/examples` for `PREFIX/bin/dice`), when it is there.
    static var text: String {
        let examples = executablePath().flatMap(examplesDirectory(besideExecutable:))
        return Options.usage + "\n" + (examples.map { "Example scripts, each a program to run: \($0)" }
            ?? "Example scripts: share/doc/dice/examples where dice is installed\n(examples/ in its source).")
    }

    /// `PREFIX/share/doc/dice/examples` for an executable at `PREFIX/bin/dice`, if that directory exists.
    static func examplesDirectory(besideExecutable executable: String) -> String? {
        guard let slash = executable.lastIndex(of: "/") else { return nil }
        let directory = String(executable[..<slash])
        let prefix = directory.hasSuffix("/bin") ? String(directory.dropLast(4)) : directory + "/.."
        let examples = prefix + "/share/doc/dice/examples"
        var status = stat()
        guard stat(examples, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else { return nil }
        return examples
    }

    /// The running executable's path, links resolved.
    private static func executablePath() -> String? {
        for candidate in ["/proc/self/exe", CommandLine.arguments.first ?? ""] where !candidate.isEmpty {
            if let resolved = realpath(candidate, nil) {
                defer { free(resolved) }
                return String(cString: resolved)
            }
        }
        return nil
    }
}
