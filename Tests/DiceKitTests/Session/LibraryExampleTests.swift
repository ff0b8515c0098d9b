import Testing
import DiceKit   // not @testable: the README's examples use the public API only

/// The library examples of README.md ("DiceKit, the library"), as written there.
@Suite struct LibraryExampleTests {
    @Test func oneSeededRoll() throws {
        let roll = try Dice.roll("4d6kh3 + 2", seed: 42)
        #expect((5...20).contains(roll.value.doubleValue))
        #expect(RollRenderer.plain.render(roll).hasPrefix("4d6kh3 ("))
    }

    @Test func aBotsSession() throws {
        var session = Session(seed: 7)
        let roll = try session.roll("2d20kh1 + 5")
        #expect((6...25).contains(roll.value.doubleValue))
        var line: [UInt8] = []
        RollRenderer.plain.render(roll, into: &line)
        #expect(String(decoding: line, as: UTF8.self) == RollRenderer.plain.render(roll))

        let compiled = CompiledValue(try Parser.parseExpression("4d6kh3"))
        let scores = try (0..<6).map { _ in try session.value(of: compiled) }
        #expect(scores.count == 6 && scores.allSatisfy { (3...18).contains($0.doubleValue) })

        let odds = try Stats.distribution(of: try Parser.parseExpression("1d20 + 5 >= 15"),
                                          environment: session.environment)
        #expect(odds.exact)
        #expect(abs(odds.distribution.mean - 0.55) < 1e-12)
    }

    @Test func aSessionWithVariablesAndMacros() throws {
        var evaluator = Evaluator(environment: Environment(), source: Xoshiro256StarStar(seed: 7))
        var parser = Parser(SourceFile(name: "sheet", text: "str = 3\ndef atk = 1d20 + str\natk"))
        var lines: [String] = []
        while let statement = try parser.nextStatement() {
            let outcome = try evaluator.execute(statement)
            lines.append(OutcomeRenderer().text(for: outcome))
        }
        #expect(lines.count == 3 && lines[0] == "str = 3")
        #expect(evaluator.environment.macros.map { $0.definitionText } == ["def atk = 1d20 + str"])
    }
}
