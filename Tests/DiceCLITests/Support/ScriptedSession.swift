import DiceKit
import Foundation

@testable import dice

/// What a REPL session showed, in the order it reached the screen: each line typed
/// (after its prompt, as a terminal echoes it), and each flush of standard output and
/// standard error.
final class Transcript {
    enum Stream {
        case typed, standard, error
    }

    private var chunks: [(stream: Stream, bytes: [UInt8])] = []

    /// Everything, interleaved as a person at a terminal would read it.
    var text: String { String(decoding: chunks.flatMap(\.bytes), as: UTF8.self) }
    /// Standard output only.
    var standard: String { text(of: .standard) }
    /// Standard error only.
    var error: String { text(of: .error) }

    func text(of stream: Stream) -> String {
        String(decoding: chunks.filter { $0.stream == stream }.flatMap(\.bytes), as: UTF8.self)
    }

    /// What was shown after each time `line` was typed at the `dice> ` prompt, up to the
    /// next prompt: standard output and standard error as they were interleaved.
    func responses(to line: String) -> [String] {
        let typed = Array("dice> \(line)\n".utf8)
        var responses: [[UInt8]] = []
        var collecting = false
        for chunk in chunks {
            if chunk.stream == .typed {
                collecting = chunk.bytes == typed
                if collecting { responses.append([]) }
            } else if collecting {
                responses[responses.count - 1] += chunk.bytes
            }
        }
        return responses.map { String(decoding: $0, as: UTF8.self) }
    }

    func record(_ text: String, on stream: Stream) {
        chunks.append((stream, Array(text.utf8)))
    }

    /// An `Output` whose flushes are recorded here as `stream`.
    func output(_ stream: Stream) -> Output {
        Output { [self] bytes in chunks.append((stream, Array(bytes))) }
    }
}

/// A `LineReading` that types the given lines, one per prompt, then ends the input as
/// Ctrl-D would. History is every line added, in order.
final class ScriptedReader: LineReading {
    private var lines: [String]
    private let transcript: Transcript
    private(set) var history: [String] = []
    /// How many prompts were shown.
    private(set) var prompts = 0

    init(_ lines: [String], transcript: Transcript) {
        self.lines = lines
        self.transcript = transcript
    }

    /// The lines not read yet.
    var unread: [String] { lines }

    /// A line "\u{3}" is Ctrl-C: shown as `^C`, it abandons what is being typed; a line
    /// "\u{4}" is Ctrl-D: the end of input, as a terminal gives it, with more lines after.
    func readLine(prompt: String) -> String? {
        prompts += 1
        lineWasInterrupted = false
        guard !lines.isEmpty else {
            transcript.record(prompt, on: .typed)
            return nil
        }
        let line = lines.removeFirst()
        if line == "\u{4}" {
            transcript.record(prompt + "\n", on: .typed)
            return nil
        }
        if line == "\u{3}" {
            transcript.record(prompt + "^C\n", on: .typed)
            lineWasInterrupted = true
            return ""
        }
        transcript.record(prompt + line + "\n", on: .typed)
        return line
    }

    private(set) var lineWasInterrupted = false

    func addHistory(_ line: String) {
        history.append(line)
    }

    /// Ctrl-C while a statement runs: `interrupt` is asked each time the REPL looks.
    var interrupt: () -> Bool = { false }

    func takeInterrupt() -> Bool { interrupt() }
}

/// A REPL session run in-process: scripted lines in, a transcript out.
///
/// ```swift
/// let session = ScriptedSession(["x = 3", ":vars"])
/// #expect(session.run() == 0)
/// #expect(session.transcript.text == ScriptedSession.banner + "dice> x = 3\nx = 3\ndice> :vars\nx = 3\ndice> ")
/// #expect(session.transcript.responses(to: ":vars") == ["x = 3\n"])
/// ```
final class ScriptedSession {
    let transcript = Transcript()
    let reader: ScriptedReader
    let repl: REPL

    /// The first line of every session.
    static let banner = "dice \(Version.string): type a roll like 4d6kh3 + 2, :help for help, Ctrl-D to quit.\n"

    /// A session that will type `lines`. Without colour, 80-column tables (ASCII unless
    /// `unicode`) and, unless `options` says otherwise, seed 1; `macros` defined at the start.
    init(_ lines: [String], options: Options = ScriptedSession.options, home: String? = nil,
         log: ResultLog? = nil, unicode: Bool = false, macros: [Macro] = []) {
        reader = ScriptedReader(lines, transcript: transcript)
        var runner = Runner(options: options, colour: false, errorColour: false,
                            output: transcript.output(.standard), errors: transcript.output(.error),
                            statsWidth: 80, unicode: unicode)
        for macro in macros { runner.session.environment.define(macro) }
        repl = REPL(runner: runner, reader: reader, home: home, log: log)
    }

    static var options: Options {
        var options = Options()
        options.seed = 1
        return options
    }

    /// Runs `initFile` quietly, then the lines; returns the exit status.
    @discardableResult
    func run(initFile: String? = nil) -> Int32 {
        repl.run(initFile: initFile)
    }
}

/// A fresh directory under the system's temporary directory: `defer { directory.remove() }`.
final class TemporaryDirectory {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "dice-session-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// Removes the directory and everything in it.
    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Writes `text` to `name` in the directory; returns its path.
    @discardableResult
    func write(_ text: String, to name: String) throws -> String {
        try write(Array(text.utf8), to: name)
    }

    @discardableResult
    func write(_ bytes: [UInt8], to name: String) throws -> String {
        let file = path + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        return file
    }

    func contents(of name: String) throws -> String {
        try String(contentsOfFile: path + "/" + name, encoding: .utf8)
    }
}
