import Foundation
import Testing

@testable import dice

/// The installed tool stands alone (issue 24, point 10): `--help` and dice(1) point at the
/// installed reference and examples, not at the source's README; the examples are programs;
/// the language page is what README.md gives. `scripts/check-install` checks the installed
/// files themselves.
@Suite struct InstalledDocsTests {
    static let root = DiceProcess.packageRoot

    @Test func helpPointsAtTheInstalledReferenceAndExamples() throws {
        let help = try DiceProcess.run(["--help"]).stdout
        #expect(help.contains("The notation: man dice-language; all of it: man dice."))
        #expect(!help.contains("README"))
        // Beside the built binary there is no share/doc/dice: the help says where to look.
        #expect(help.hasSuffix("Example scripts: share/doc/dice/examples where dice is installed\n(examples/ in its source).\n"))
    }

    /// `PREFIX/bin/dice` finds `PREFIX/share/doc/dice/examples`, only when it is there.
    @Test func theExamplesAreFoundBesideTheExecutable() throws {
        let prefix = try TemporaryDirectory()
        defer { prefix.remove() }
        #expect(Help.examplesDirectory(besideExecutable: prefix.path + "/bin/dice") == nil)
        try FileManager.default.createDirectory(atPath: prefix.path + "/share/doc/dice/examples",
                                                withIntermediateDirectories: true)
        #expect(Help.examplesDirectory(besideExecutable: prefix.path + "/bin/dice")
                == prefix.path + "/share/doc/dice/examples")
        #expect(Help.examplesDirectory(besideExecutable: "dice") == nil)
    }

    @Test func theManualPagePointsAtTheReferenceAndTheExamples() throws {
        let page = try String(contentsOf: Self.root.appendingPathComponent("man/dice.1"), encoding: .utf8)
        #expect(!page.contains("README"))
        #expect(page.contains(".Xr dice-language 7"))
        #expect(page.contains("/usr/local/share/doc/dice/examples"))
        for option in ["Fl q , Fl \\-quiet", "Ic :stats-seconds Ar S", "It Li use NAME , use", "It Li 3d8u", "It Li e given c"] {
            #expect(page.contains(option), "\(option)")
        }
    }

    @Test(arguments: ExampleTests.examples)
    func exampleIsExecutable(_ name: String) throws {
        let path = Self.root.appendingPathComponent("examples/\(name)").path
        let permissions = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int ?? 0
        #expect(permissions & 0o111 == 0o111, "mode \(String(permissions, radix: 8))")
    }

    /// man/dice-language.7 is what scripts/make-language-page makes of README.md, so the
    /// README cannot change without the page.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")
                   || FileManager.default.isExecutableFile(atPath: "/usr/local/bin/python3")
                   || ProcessInfo.processInfo.environment["PATH"]?.contains("pyenv") == true))
    func theLanguagePageIsTheReadmesTour() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.root.appendingPathComponent("scripts/make-language-page").path, "--check"]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(message)")
        let page = try String(contentsOf: Self.root.appendingPathComponent("man/dice-language.7"), encoding: .utf8)
        for section in ["A TOUR OF THE NOTATION", "WORDS, TABLES AND TALLIES", "SCRIPTS", "GAME SYSTEMS"] {
            #expect(page.contains(".SH \(section)\n"), "\(section)")
        }
    }
}
