import Testing
import DiceKit   // not @testable: what a bot does, with the public API only

/// How a bot shares sessions (Session's documentation, README "DiceKit, the library"): one
/// session per conversation, conversations at once; `stats` asked of one session at once.
@Suite struct SessionConcurrencyTests {
    /// One conversation: its session, changed by one message at a time.
    actor Chat {
        private var session: Session

        init(seed: UInt64) { session = Session(seed: seed) }

        /// Runs a message's statements in order, as the text renderer prints them.
        func run(_ message: String) throws(DiceError) -> [String] {
            var lines: [String] = []
            for statement in try Parser.parseProgram(message) {
                lines.append(OutcomeRenderer().text(for: try session.execute(statement)))
            }
            return lines
        }
    }

    /// Each chat's messages: its own variables and macros, so chats that shared anything
    /// would print other totals.
    static func messages(of chat: Int) -> [String] {
        ["str = \(chat)", "def atk = 1d20 + str", "atk; 4d6kh3 + str", "str += 1d4", "atk; stats 1d20 + str >= 15"]
    }

    static let chats = 16

    @Test func conversationsRunAtOnceEachOnItsOwnSession() async throws {
        // One chat after another: what each must print.
        var expected: [[String]] = []
        for chat in 0..<Self.chats {
            let alone = Chat(seed: UInt64(chat))
            var lines: [String] = []
            for message in Self.messages(of: chat) { lines += try await alone.run(message) }
            expected.append(lines)
        }
        #expect(Set(expected).count == Self.chats)

        // Every chat at once, each message a task of its own, a chat's messages in order.
        let chats = (0..<Self.chats).map { Chat(seed: UInt64($0)) }
        let printed = try await withThrowingTaskGroup(of: (Int, [String]).self) { group in
            for (index, chat) in chats.enumerated() {
                group.addTask {
                    var lines: [String] = []
                    for message in Self.messages(of: index) {
                        lines += try await Task { try await chat.run(message) }.value
                    }
                    return (index, lines)
                }
            }
            var printed = [[String]](repeating: [], count: Self.chats)
            for try await (index, lines) in group { printed[index] = lines }
            return printed
        }
        #expect(printed == expected)
    }

    @Test func manyTasksAskOneSessionForStats() async throws {
        var session = Session(seed: 3)
        _ = try session.execute(try Parser.parseProgram("def atk = 1d20 + 5")[0])
        let shared = session
        let texts = ["atk >= 15", "4d6kh3", "2d20kh1 + 5 >= 15", "3d6"]
        let expected = try texts.map { text throws(DiceError) in try shared.stats(text) }
        #expect(expected[0].exact && abs(expected[0].distribution.mean - 0.55) < 1e-12)

        let reports = try await withThrowingTaskGroup(of: (Int, DistributionReport).self) { group in
            for task in 0..<32 {
                group.addTask { (task % texts.count, try shared.stats(texts[task % texts.count])) }
            }
            var reports: [(Int, DistributionReport)] = []
            for try await report in group { reports.append(report) }
            return reports
        }
        #expect(reports.count == 32)
        for (index, report) in reports { #expect(report == expected[index]) }
    }

    @Test func aCopyRollsTheSameDiceUntilReseeded() throws {
        var original = Session(seed: 11)
        var copy = original
        let rolls = try (0..<20).map { _ throws(DiceError) in try original.roll("1d1000").value }
        #expect(try (0..<20).map { _ throws(DiceError) in try copy.roll("1d1000").value } == rolls)

        var reseeded = original
        reseeded.reseed(12)
        var fresh = Session(seed: 12)
        let after = try (0..<20).map { _ throws(DiceError) in try reseeded.roll("1d1000").value }
        #expect(after == (try (0..<20).map { _ throws(DiceError) in try fresh.roll("1d1000").value }))
        #expect(after != (try (0..<20).map { _ throws(DiceError) in try original.roll("1d1000").value }))
    }
}
