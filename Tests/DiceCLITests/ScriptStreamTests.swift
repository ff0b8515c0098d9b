import Foundation
import Testing

@testable import dice

/// Scripts run as they are read (LANGUAGE.md §8: "Statements run as they are read"): the
/// lines so far in batches of whole lines, numbered across batches; the start of a long line
/// offered early, so junk fails at once; memory bounded by the longest line.
@Suite struct ScriptStreamTests {
    /// A descriptor to read `chunks` from: a pipe whose write end received them and was
    /// closed, or, past what a pipe holds, a temporary file.
    static func pipe(_ chunks: [[UInt8]]) throws -> Int32 {
        let bytes = chunks.flatMap { $0 }
        if bytes.count > 32_768 {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("dice-stream-\(UUID().uuidString)")
            try Data(bytes).write(to: url)
            defer { try? FileManager.default.removeItem(at: url) }
            let descriptor = open(url.path, O_RDONLY)
            guard descriptor >= 0 else { throw POSIXError(.EIO) }
            return descriptor
        }
        var ends: [Int32] = [0, 0]
        guard Glibc.pipe(&ends) == 0 else { throw POSIXError(.EIO) }
        for chunk in chunks {
            chunk.withUnsafeBytes { _ = Glibc.write(ends[1], $0.baseAddress, $0.count) }
        }
        close(ends[1])
        return ends[0]
    }

    /// Every batch of `stream`, as (kind, first line, text).
    static func batches(_ stream: inout ScriptStream) throws -> [(String, Int, String)] {
        var batches: [(String, Int, String)] = []
        while let batch = try stream.next(beforeWaiting: {}) {
            switch batch {
            case .lines(let source): batches.append(("lines", source.firstLine, String(decoding: source.bytes, as: UTF8.self)))
            case .partial(let source, let atLimit):
                batches.append((atLimit ? "limit" : "partial", source.firstLine, "\(source.bytes.count) bytes"))
            }
        }
        return batches
    }

    @Test func handsOutWholeLinesNumberedAcrossBatches() throws {
        let descriptor = try Self.pipe([Array("\u{FEFF}1d1\n2d".utf8)])
        defer { close(descriptor) }
        var stream = ScriptStream(descriptor: descriptor, name: "s")
        let first = try #require(try stream.next(beforeWaiting: {}))
        guard case .lines(let source) = first else {
            Issue.record("not lines: \(first)")
            return
        }
        // The byte order mark is not part of the script; the unfinished line waits.
        #expect(source.bytes == Array("1d1\n".utf8))
        #expect(source.firstLine == 1)
        let rest = try Self.batches(&stream)
        #expect(rest.map(\.0) == ["lines"] && rest.map(\.1) == [2] && rest.map(\.2) == ["2d"])
    }

    @Test func numbersLinesFromEachBatchOn() throws {
        // Written in one go: read as one batch; an error in it names its line in the script.
        let (text, errors) = try Self.run([Array("1d1\n\n".utf8), Array("x = 2\r\n3d1 +\n".utf8)], name: "s")
        #expect(text == "1d1 (1) = 1\nx = 2\n")
        #expect(errors.hasPrefix("s:4:6: error: expected an expression"), "\(errors)")
    }

    /// A statement that goes on over lines (LANGUAGE.md §5) is handed out when its last line
    /// has come, in one batch: lines read four bytes at a time.
    @Test func handsOutAStatementOverLinesWhenItsLastLineHasCome() throws {
        let descriptor = try Self.pipe([Array("1d1\nx = 1d1 +\n  2  # two\ny = (x *\n\n3)\n[a\n".utf8)])
        defer { close(descriptor) }
        var stream = ScriptStream(descriptor: descriptor, name: "s", chunkSize: 4)
        let batches = try Self.batches(&stream)
        #expect(batches.map(\.0) == ["lines", "lines", "lines", "lines"])
        #expect(batches.map(\.1) == [1, 2, 4, 7])
        #expect(batches.map(\.2) == ["1d1\n", "x = 1d1 +\n  2  # two\n", "y = (x *\n\n3)\n", "[a\n"])
    }

    /// A `#:` doc comment is handed out with the `def` under it, never alone at the end of a
    /// batch (where the `def` would lose its description): lines read four bytes at a time.
    @Test func handsOutADocCommentWithItsDef() throws {
        let descriptor = try Self.pipe([Array("1d1\n#: An attack.\ndef atk = 1d20\n# a comment\n2d1\n".utf8)])
        defer { close(descriptor) }
        var stream = ScriptStream(descriptor: descriptor, name: "s", chunkSize: 4)
        let batches = try Self.batches(&stream)
        #expect(batches.map(\.2) == ["1d1\n", "#: An attack.\ndef atk = 1d20\n", "# a comment\n", "2d1\n"])
        #expect(batches.map(\.1) == [1, 2, 4, 5])
    }

    @Test func runsAStatementOverLinesAndNumbersWhatFollows() throws {
        let (text, errors) = try Self.run([Array("1d1\nx = 1d1 +\n".utf8), Array("2\nif x == 3 then\n \"yes\" else\n".utf8),
                                           Array(" \"no\"\n2d6 + * 3\n".utf8)], name: "s")
        #expect(text == "1d1 (1) = 1\nx = 1d1 (1) + 2 = 3\nx (3) == 3 → yes\n")
        #expect(errors == "s:7:7: error: expected an expression, found '*'\n2d6 + * 3\n      ^\n")
    }

    @Test func aStatementOverLinesTooLongToReadIsAnError() throws {
        // A comment goes on while the statement cannot end: only the limit ends it.
        // Read 1,000 bytes at a time, the start of the statement is offered at 4,096 bytes,
        // 8,192 ... and it is no error until the limit.
        let comments = [UInt8](String(repeating: "# a comment\n", count: 4_000).utf8)
        func run(_ chunks: [[UInt8]], name: String, maxLineBytes: Int) throws -> (String, String) {
            let descriptor = try Self.pipe(chunks)
            defer { close(descriptor) }
            var stream = ScriptStream(descriptor: descriptor, name: name, maxLineBytes: maxLineBytes, firstProbe: 4_096,
                                      chunkSize: 1_000)
            return Self.run(&stream)
        }
        let (text, errors) = try run([Array("1d1\nx = 1 +\n".utf8), comments, Array("2\n".utf8)], name: "long",
                                     maxLineBytes: 32_768)
        #expect(text == "1d1 (1) = 1\n")
        #expect(errors == "long:2:1: error: the statement is longer than 32768 bytes\n")
        let (short, none) = try run([Array("x = 1 +\n".utf8), comments, Array("2\n".utf8)], name: "s",
                                    maxLineBytes: 1 << 20)
        #expect(short == "x = 1 + 2 = 3\n" && none.isEmpty, "\(none)")
    }

    @Test func offersTheStartOfALongLineAtEachDoubling() throws {
        let descriptor = try Self.pipe([Array("1d1\n#".utf8), [UInt8](repeating: UInt8(ascii: "a"), count: 9_000)])
        defer { close(descriptor) }
        // Read 1,000 bytes at a time: the line grows past 1,024, 2,048, 4,096 and 8,192 bytes.
        var stream = ScriptStream(descriptor: descriptor, name: "s", maxLineBytes: 8_192, firstProbe: 1_024,
                                  chunkSize: 1_000)
        let batches = try Self.batches(&stream)
        #expect(batches.map(\.0) == ["lines", "partial", "partial", "partial", "limit"])
        #expect(batches.dropFirst().allSatisfy { $0.1 == 2 })
    }

    /// Runs the script `chunks` through a stream named `name`; what it printed on standard
    /// output and error.
    static func run(_ chunks: [[UInt8]], name: String, maxLineBytes: Int = 64 << 20,
                    firstProbe: Int = 1 << 20) throws -> (String, String) {
        let descriptor = try pipe(chunks)
        defer { close(descriptor) }
        var stream = ScriptStream(descriptor: descriptor, name: name, maxLineBytes: maxLineBytes, firstProbe: firstProbe)
        return run(&stream)
    }

    /// Runs `stream` with a seeded runner; what it printed on standard output and error.
    static func run(_ stream: inout ScriptStream) -> (String, String) {
        let transcript = Transcript()
        var options = Options()
        options.seed = 1
        var runner = Runner(options: options, colour: false, errorColour: false,
                            output: transcript.output(.standard), errors: transcript.output(.error))
        _ = runner.run(&stream)
        runner.output.flush()
        runner.errors.flush()
        return (transcript.standard, transcript.error)
    }

    @Test func junkFailsAtItsFirstByteWithoutTheRestOfTheLine() throws {
        // 200 KB of NUL bytes and no newline: the error at 2:1 after the first 16 KB, the
        // statement before it run and printed.
        let (text, errors) = try Self.run([Array("1d1\n".utf8), [UInt8](repeating: 0, count: 200_000)], name: "junk",
                                          maxLineBytes: 1 << 20, firstProbe: 16_384)
        #expect(text == "1d1 (1) = 1\n")
        #expect(errors.hasPrefix("junk:2:1: error: unexpected character U+0000"), "\(errors)")
    }

    @Test func aLineTooLongToReadIsAnError() throws {
        // A comment is never an error, so only the limit ends it.
        let (text, errors) = try Self.run([Array("1d1\n# ".utf8), [UInt8](repeating: UInt8(ascii: "a"), count: 40_000)],
                                          name: "long", maxLineBytes: 32_768, firstProbe: 4_096)
        #expect(text == "1d1 (1) = 1\n")
        #expect(errors == "long:2:1: error: the line is longer than 32768 bytes\n")
    }

    @Test func anAnnotationLeftOpenInTheStartOfALineMayCloseLater() throws {
        let annotation = String(repeating: "a", count: 20_000)
        let (text, errors) = try Self.run([Array("1d1 [\(annotation)] + 1\n".utf8)], name: "s", firstProbe: 8_192)
        #expect(text.hasSuffix("+ 1 = 2\n") && errors.isEmpty, "\(errors)")
    }

    /// Through a pipe to the real command: each result arrives before the next line is
    /// written (reading to the end first would wait here until the guard gives up).
    @Test func theCommandAnswersEachLineOfAPipeAsItComes() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: DiceProcess.binary)
        process.arguments = ["--seed", "1", "--json"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        var answers: [String] = []
        // A statement over two lines is answered once its second line has come.
        for line in ["1d1", "x = 2 *\n1", "2d1 + x"] {
            input.fileHandleForWriting.write(Data("\(line)\n".utf8))
            let answer = try #require(Self.readLine(from: output.fileHandleForReading.fileDescriptor, within: 60),
                                      "no answer to \(line) while the input stayed open")
            answers.append(answer)
        }
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(answers.count == 3)
        #expect(answers[0].contains("\"value\":1") && answers[1].contains("\"name\":\"x\"")
            && answers[2].contains("\"value\":4"), "\(answers)")
        #expect(process.terminationStatus == 0)
    }

    /// One line from `descriptor`, read a byte at a time, or nil when none came within
    /// `seconds` (a guard against waiting forever, not a measure of speed).
    static func readLine(from descriptor: Int32, within seconds: Int) -> String? {
        var bytes: [UInt8] = []
        let deadline = Date().addingTimeInterval(TimeInterval(seconds))
        while Date() < deadline {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            var byte: UInt8 = 0
            guard Glibc.read(descriptor, &byte, 1) == 1 else { return nil }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
        return nil
    }

    @Test func anEndlessFileOfJunkFailsAtOnce() throws {
        let result = try DiceProcess.run(["/dev/zero"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("/dev/zero:1:1: error: unexpected character U+0000"), "\(result.stderr)")
    }
}
