import Testing

@testable import dice

/// Ctrl-C while a statement runs, in-process: the reader reports the interrupt, the REPL
/// abandons the statement and keeps the session as the statements before it left it.
@Suite struct REPLInterruptSessionTests {
    /// Reports Ctrl-C the `at`-th time the REPL asks (it asks about every 10 ms).
    static func interrupt(at: Int) -> () -> Bool {
        var asked = 0
        return {
            asked += 1
            return asked == at
        }
    }

    @Test func ctrlCAbandonsAStatementAndKeepsTheSession() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let chain = "def a0 = 1\n" + (1...40).map { "def a\($0) = a\($0 - 1) + a\($0 - 1)\n" }.joined()
        let script = try directory.write(chain + "before = 7\na40\nafter = 8\n", to: "long.dice")
        var options = ScriptedSession.options
        options.maxDice = 4_000_000_000
        let session = ScriptedSession(["x = 5", ":load \(script)", "x + before", "a3", "after"], options: options)
        session.reader.interrupt = Self.interrupt(at: 20)
        #expect(session.run() == 0)
        let loaded = session.transcript.responses(to: ":load \(script)")
        #expect(loaded == ["dice: error: interrupted; the statement was abandoned\n"])
        #expect(session.transcript.responses(to: "x + before") == ["x (5) + before (7) = 12\n"])
        #expect(session.transcript.responses(to: "a3").first?.hasSuffix(" = 8\n") == true)
        #expect(session.transcript.responses(to: "after").first?.contains("unknown name 'after'") == true)
    }
}
