// A libFuzzer harness over the `dice` command's own input paths, beside FuzzDice.swift
// (the language). Built by fuzz/run into .build/fuzz/fuzz-cli from Sources/DiceKit and the
// executable's files that need no terminal (its `import DiceKit` lines dropped: one module).
//
// The first byte of an input picks the mode; the rest (up to 1 MB, so the size-driven paths
// are reached) is that mode's data:
//   0 options     NUL-separated arguments to `Options.parse(bytes:)`; each -e statement is
//                 then parsed and run, and every usage message quotes at most 20 characters
//   1 script      the bytes as a script file read by `ScriptStream` and run by `Runner`
//                 (long lines, byte order marks, CRLF, NUL), output capped as the command's
//   2 repl        newline-separated lines typed at the REPL (`:commands` too; `:save` and
//                 `:load` are pointed at a scratch directory, never at a path of the input);
//                 a line ending in U+0003 gets Ctrl-C while it runs, and the next line runs
//                 while the abandoned one unwinds
//   3 log         the bytes as a results log: `:log N` reads it from the end, an append
//                 cuts a torn last line, and the file then ends in a whole line
//   4 history     the bytes as a history file: `HistoryFile.lines` and a load, an append
//   5 widths      a width (8 bytes) and an expression: the distribution drawn at that width
//                 has lines of at most 1,000 columns (plus the bars' and labels' own)
// Invariants failing abort with the reason, so libFuzzer keeps the input.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What main.swift defines for the command.
enum Version { static let string = "fuzz" }
let largeStack = 512 << 20

@_cdecl("LLVMFuzzerTestOneInput")
public func diceCLIFuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    guard let mode = bytes.first else { return 0 }
    let rest = Array(bytes.dropFirst())
    switch mode % 6 {
    case 0: FuzzCLI.options(rest)
    case 1: FuzzCLI.script(rest)
    case 2: FuzzCLI.repl(rest)
    case 3: FuzzCLI.log(rest)
    case 4: FuzzCLI.history(rest)
    default: FuzzCLI.widths(rest)
    }
    return 0
}

enum FuzzCLI {
    static func fail(_ reason: String) -> Never {
        fputs("fuzz-cli: \(reason)\n", stderr)
        abort()
    }

    /// A scratch directory of this process, made once.
    static let scratch: String = {
        var template = Array("/tmp/dice-fuzz-cli-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            return mkdtemp(base) != nil
        }
        guard made else { fail("cannot make a scratch directory") }
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // Relative paths an input still reaches (a `:save` the rewrite below misses) land
        // here too, not in the checkout (a 10-minute run left `]` and `f` there).
        guard chdir(path) == 0 else { fail("cannot enter the scratch directory") }
        return path
    }()

    /// Output that is counted and dropped.
    final class Sink: @unchecked Sendable {
        var bytes = 0
        lazy var output = Output { [unowned self] buffer in self.bytes += buffer.count }
    }

    static var limits: Limits {
        var limits = Limits.standard
        limits.maxDice = 100_000
        limits.maxOutputBytes = 1 << 20
        limits.stats = StatsBudget(maxWork: 1_000_000, maxOutcomes: 20_000, maxSimulationWork: 200_000)
        return limits
    }

    static func runner(_ sink: Sink, errors: Sink, options: Options = Options()) -> Runner {
        var runner = Runner(options: options, colour: false, errorColour: false, output: sink.output,
                            errors: errors.output, statsWidth: 80, unicode: true)
        runner.session.limits = limits
        return runner
    }

    // MARK: - Modes

    static func options(_ data: [UInt8]) {
        let arguments = data.split(separator: 0, omittingEmptySubsequences: false).prefix(64).map(Array.init)
        do {
            guard case .run(var options) = try Options.parse(bytes: arguments) else { return }
            guard case .statements(let statements) = options.input else { return }
            // Charts are never written where the fuzzer says (FuzzDice draws them in memory).
            options.svgPath = nil
            let out = Sink(), errors = Sink()
            var runner = runner(out, errors: errors, options: options)
            for statement in statements.prefix(8) {
                let source = SourceFile(name: "<-e>", bytes: statement)
                guard runner.run(source, repetitions: Swift.min(options.repetitions, 3), statsMode: options.stats) else { break }
            }
            runner.output.flush()
        } catch {
            // "not '...'" and "given '...'": at most 20 characters of what was given, and an ellipsis.
            // (An escaped control character, `\u{4}`, counts as the one character it shows.)
            for quoted in error.message.split(separator: "'").enumerated() where quoted.offset % 2 == 1 {
                if shownCount(quoted.element) > 21 { fail("a usage message quotes more than 20 characters: \(error.message)") }
            }
        }
    }

    /// The characters of `text`, each `\u{...}` escape counted as one.
    static func shownCount(_ text: Substring) -> Int {
        var count = 0
        var rest = text[...]
        while let character = rest.first {
            if character == "\\", rest.dropFirst().hasPrefix("u{"), let close = rest.firstIndex(of: "}") {
                rest = rest[rest.index(after: close)...]
            } else {
                rest = rest.dropFirst()
            }
            count += 1
        }
        return count
    }

    /// `data` in a file of the scratch directory, opened for reading.
    static func file(_ data: [UInt8], name: String) -> String {
        let path = scratch + "/" + name
        unlink(path)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { fail("cannot write \(path)") }
        var offset = 0
        while offset < data.count {
            let count = data[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { fail("cannot write \(path)") }
            offset += count
        }
        close(descriptor)
        return path
    }

    static func script(_ data: [UInt8]) {
        let path = file(data, name: "script.dice")
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { fail("cannot read \(path)") }
        defer { close(descriptor) }
        var stream = ScriptStream(descriptor: descriptor, name: path, maxLineBytes: 1 << 19, firstProbe: 1 << 12)
        let out = Sink(), errors = Sink()
        var runner = runner(out, errors: errors)
        _ = runner.run(&stream)
        runner.output.flush()
        runner.errors.flush()
        // Each statement's output is capped; the input has at most as many statements as bytes.
        if out.bytes > (data.count + 1) * (limits.maxOutputBytes + 200) { fail("\(out.bytes) bytes of output") }
    }

    /// Lines typed at a REPL, as tests type them.
    final class Reader: LineReading {
        var lines: [String]
        var history: [String] = []
        private(set) var lineWasInterrupted = false
        /// Ctrl-C for the statement being run: its line ended in U+0003.
        private var interruptPending = false

        init(_ lines: [String]) { self.lines = lines }

        func readLine(prompt: String) -> String? {
            lineWasInterrupted = false
            interruptPending = false
            guard !lines.isEmpty else { return nil }
            let line = lines.removeFirst()
            if line == "\u{3}" {
                lineWasInterrupted = true
                return ""
            }
            if line.hasSuffix("\u{3}") {
                interruptPending = true
                return String(line.dropLast())
            }
            return line
        }

        func addHistory(_ line: String) { history.append(line) }

        func takeInterrupt() -> Bool {
            defer { interruptPending = false }
            return interruptPending
        }
    }

    static func repl(_ data: [UInt8]) {
        let text = String(decoding: data, as: UTF8.self)
        var lines: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).prefix(64) {
            // Files only in the scratch directory, whatever the input names.
            let trimmed = line.drop(while: { $0.isWhitespace })
            if trimmed.hasPrefix(":save") || trimmed.hasPrefix(":load") || trimmed.hasPrefix(":svg") {
                lines.append(String(trimmed.prefix(5)) + " " + scratch + "/session.dice")
            } else {
                lines.append(String(line))
            }
        }
        let out = Sink(), errors = Sink()
        let log = ResultLog(path: scratch + "/repl.log", limit: 50, slack: 10, warn: { _ in })
        let repl = REPL(runner: runner(out, errors: errors), reader: Reader(lines), home: scratch, log: log)
        _ = repl.run(initFile: nil)
    }

    static func log(_ data: [UInt8]) {
        let path = file(data, name: "results.log")
        var warnings = 0
        let log = ResultLog(path: path, limit: 100, slack: 20, warn: { _ in warnings += 1 })
        do {
            let (entries, _) = try log.newest(Int(data.first ?? 0) % 30)
            if entries.count > 30 { fail("\(entries.count) entries") }
        } catch {
            fail("reading the log failed: \(error.message)")
        }
        log.append("{\"input\":\"1d6\",\"value\":3,\"text\":\"1d6 (3) = 3\"}", time: "2026-12-01T00:00:00Z")
        guard warnings == 0 else { return }
        guard let bytes = try? ResultLog.read(path) else { fail("the log cannot be read back") }
        if bytes.last != UInt8(ascii: "\n") { fail("the log does not end in a whole line") }
        guard let newest = try? log.newest(1), newest.entries.first?.input == "1d6" else {
            fail("the result appended last is not the newest")
        }
    }

    static func history(_ data: [UInt8]) {
        _ = HistoryFile.lines(of: data)
        let path = file(data, name: "history")
        var file = HistoryFile(path: path, limit: 50, warn: { _ in })
        let lines = file.load()
        if lines.count > 50 { fail("\(lines.count) lines of history kept") }
        file.append("1d6")
    }

    static func widths(_ data: [UInt8]) {
        guard data.count >= 8 else { return }
        let width = data.prefix(8).withUnsafeBytes { $0.loadUnaligned(as: Int.self) }
        let source = SourceFile(name: "<fuzz>", bytes: Array(data.dropFirst(8).prefix(256)))
        var parser = Parser(source, limits: limits, expressionsAreStats: true)
        guard let statement = try? parser.nextStatement(), case .stats(let expr) = statement.kind else { return }
        guard let report = try? Stats.distribution(of: expr, environment: Environment(), limits: limits, seed: 1) else {
            return
        }
        for unicode in [false, true] {
            let text = DistributionRenderer(width: width, unicode: unicode).render(report, title: expr.text)
            for line in text.split(separator: "\n") where line.count > 1_000 + expr.text.count + 200 {
                fail("a line of \(line.count) columns at width \(width)")
            }
        }
        var renderer = DistributionRenderer()
        renderer.width = width
        if !DistributionRenderer.widths.contains(renderer.width) { fail("width \(renderer.width) kept") }
    }
}
