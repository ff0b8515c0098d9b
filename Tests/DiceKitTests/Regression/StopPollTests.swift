import Testing

@testable import DiceKit

/// Long work asks `shouldStop` often enough that Ctrl-C at the REPL is seen within 0.2 s in a
/// debug build (issue 23): each test counts the polls of one kind of long work, and stops it.
@Suite struct StopPollTests {
    /// Counts polls; says stop from the `stopAt`-th on.
    final class Polls: @unchecked Sendable {
        var count = 0
        let stopAt: Int
        init(stopAt: Int = .max) { self.stopAt = stopAt }
        func poll() -> Bool {
            count += 1
            return count >= stopAt
        }
    }

    /// The kind of error `body` throws; nil when it throws none.
    static func kind(_ body: () throws(DiceError) -> Void) -> DiceError.Kind? {
        do {
            try body()
            return nil
        } catch {
            return error.kind
        }
    }

    /// A chain of macros each using the last twice: 2^n uses of `b0`.
    static func chain(_ levels: Int) throws -> Session {
        var session = Session(seed: 1)
        session.limits.maxDice = 4_000_000_000
        let text = "def b0 = 1d6\n" + (1...levels).map { "def b\($0) = b\($0 - 1) + b\($0 - 1)\n" }.joined()
        for statement in try Parser.parseProgram(text) { _ = try session.execute(statement) }
        return session
    }

    /// 2^16 macro uses and as many dice (2^17 units of work, a breakdown of 2^17 parts) ask at
    /// least every 4,096 units; they asked twice when it was every 65,536.
    @Test func aMacroChainAsksEvery4096Units() throws {
        var session = try Self.chain(16)
        let polls = Polls()
        session.shouldStop = polls.poll
        _ = try session.roll("b16")
        #expect(polls.count >= (1 << 17) / 4_096 - 1, "\(polls.count) polls")

        let stopping = Polls(stopAt: 3)
        session.shouldStop = stopping.poll
        #expect(Self.kind { () throws(DiceError) in _ = try session.roll("b16") } == .interrupted)
        #expect(stopping.count == 3)
    }

    @Test(arguments: ["1000000d6r<2", "1000000d6kh1", "1000000d6!"])
    func dieLoopsAskEvery4096Dice(_ text: String) throws {
        var session = Session(seed: 1)
        let polls = Polls()
        session.shouldStop = polls.poll
        _ = try session.value(of: Parser.parseExpression(text))
        #expect(polls.count >= 1_000_000 / 4_096, "\(text): \(polls.count) polls")
    }

    /// A statement of 20,000 tokens asks every 4,096 of them while it is parsed.
    @Test func theParserAsksEvery4096Tokens() throws {
        let text = String(repeating: "1+", count: 10_000) + "1"
        var parser = Parser(SourceFile(name: "<test>", text: text))
        let polls = Polls()
        parser.shouldStop = polls.poll
        #expect(try parser.nextStatement() != nil)
        #expect(polls.count >= 20_001 / 4_096, "\(polls.count) polls")

        var stopped = Parser(SourceFile(name: "<test>", text: text))
        let stopping = Polls(stopAt: 2)
        stopped.shouldStop = stopping.poll
        #expect(Self.kind { () throws(DiceError) in _ = try stopped.nextStatement() } == .interrupted)
        #expect(stopping.count == 2)
        // A short statement is not slowed by polls.
        var short = Parser(SourceFile(name: "<test>", text: "1d20 + 5"))
        short.shouldStop = polls.poll
        let before = polls.count
        _ = try short.nextStatement()
        #expect(polls.count == before)
    }

    /// The pairs of a product are charged, and polled, row by row, about once per 2^20 steps:
    /// charged in one go, `100d100 * 100d100` under a long budget made its 10^8 pairs unpolled.
    @Test func aProductIsPolledRowByRow() throws {
        let sum = try StatsEngine(environment: Environment(), limits: .standard, meter: WorkMeter(budget: .standard))
            .distribution(of: Parser.parseExpression("40d20"))
        let polls = Polls()
        let engine = StatsEngine(environment: Environment(), limits: .standard,
                                 meter: WorkMeter(budget: StatsBudget(seconds: 1000), shouldStop: polls.poll))
        let product = try engine.binary(sum, sum, at: .at(0)) { (x, y) throws(ArithmeticFault) in try x.multiplying(by: y) }
        #expect(product.minimum == .integer(1_600) && product.maximum == .integer(640_000))
        #expect(engine.meter.work >= 761 * 761 * 32)
        #expect(polls.count >= engine.meter.work >> 20 - 1, "\(polls.count) polls for \(engine.meter.work) steps")

        let expr = try Parser.parseExpression("100d100 * 100d100")
        var limits = Limits.standard
        limits.stats = StatsBudget(seconds: 1000)
        let stopping = Polls(stopAt: 5)
        #expect(throws: DiceError(.interrupted, at: expr.range)) {
            _ = try Stats.distribution(of: expr, environment: Environment(), limits: limits, shouldStop: stopping.poll)
        }
        #expect(stopping.count == 5)
    }
}
