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

        let ability = try Parser.parseExpression("4d6kh3")
        let scores = try (0..<6).map { _ in try session.value(of: ability) }
        #expect(scores.count == 6 && scores.allSatisfy { (3...18).contains($0.doubleValue) })

        let odds = try session.stats("1d20 + 5 >= 15")
        #expect(odds.exact)
        #expect(abs(odds.distribution.mean - 0.55) < 1e-12)
    }

    @Test func aSessionWithVariablesAndMacros() throws {
        var session = Session(seed: 7)
        var lines: [String] = []
        for statement in try Parser.parseProgram("str = 3\ndef atk = 1d20 + str\natk") {
            lines.append(OutcomeRenderer().text(for: try session.execute(statement)))
        }
        #expect(lines == ["str = 3", "def atk = 1d20 + str", "atk: 1d20 (15) + str (3) = 18"])
        #expect(session.environment.macros.map { $0.definitionText } == ["def atk = 1d20 + str"])
    }
}

// MARK: - The DocC article

/// The snippets of the DocC article Sources/DiceKit/Documentation.docc/GettingStarted.md,
/// as written there, with the output the article shows. Change both together.
@Suite struct GettingStartedArticleTests {
    @Test func aRoll() throws {
        let roll = try Dice.roll("4d6kh3 + 2", seed: 42)
        #expect(roll.value == .integer(16))
        #expect(RollRenderer.plain.render(roll) == "4d6kh3 (~~1~~, 3, 5, 6) + 2 = 16")
        #expect(RollRenderer.markdown.render(roll) == "4d6kh3 (~~1~~, 3, 5, **6**) + 2 = 16")
    }

    @Test func aSessionWithMacros() throws {
        var session = Session(seed: 7)
        let sheet = """
            str = 3
            def atk = 1d20 + str
            def dmg(bonus) = (1d8 + bonus) [slashing]
            atk
            dmg(str)
            """
        let renderer = OutcomeRenderer()
        var lines: [String] = []
        for statement in try Parser.parseProgram(sheet) {
            lines.append(renderer.text(for: try session.execute(statement)))
        }
        #expect(lines == [
            "str = 3",
            "def atk = 1d20 + str",
            "def dmg(bonus) = (1d8 + bonus) [slashing]",
            "atk: 1d20 (15) + str (3) = 18",
            "dmg(str (3)): (1d8 (3) + bonus (3)) [slashing] = 6",
        ])
        let roll = try session.roll("atk + 2")
        #expect(RollRenderer.plain.render(roll) == "(atk: 1d20 (17) + str (3)) + 2 = 22")
        #expect(session.environment.macros.map(\.definitionText)
                == ["def atk = 1d20 + str", "def dmg(bonus) = (1d8 + bonus) [slashing]"])
    }

    @Test func stats() throws {
        var session = Session(seed: 7)
        for statement in try Parser.parseProgram("str = 3\ndef atk = 1d20 + str") { _ = try session.execute(statement) }
        let hit = try session.stats("atk >= 15")
        #expect(hit.exact)
        #expect(abs(hit.distribution.mean - 0.45) < 1e-12)
        #expect(hit == (try session.execute(try Parser.parseProgram("stats atk >= 15")[0])).statsReport)

        let damage = try session.stats("2d6")
        #expect(damage.distribution.mean == 7)
        #expect(abs(damage.distribution.probability(of: .integer(7)) - 1.0 / 6) < 1e-12)
        let table = DistributionRenderer(width: 60).render(damage, title: "2d6")
        #expect(table.hasPrefix("""
            2d6: mean 7.00, stdev 2.42, min 2, max 12
            median 7, p10 4, p90 10
            value        P  at least   at most
                2    2.78%   100.00%     2.78%  ████
            """))
    }

    struct LoadedDice: DieSource {
        mutating func roll(sides: Int) -> Int { sides }   // always the highest face
    }

    struct SystemDice: DieSource {
        var generator = SystemRandomNumberGenerator()
        mutating func roll(sides: Int) -> Int { Int.random(in: 1...sides, using: &generator) }
    }

    @Test func aDieSourceOfYourOwn() throws {
        var loaded = LoadedDice()
        let best = try Dice.roll("4d6kh3 + 2", using: &loaded)
        #expect(RollRenderer.plain.render(best) == "4d6kh3 (6, 6, 6, ~~6~~) + 2 = 20")

        var system = SystemDice()
        let roll = try Dice.roll("1d20", using: &system)
        #expect((1...20).contains(roll.value.doubleValue))

        var scripted = ScriptedDice([20, 1])
        #expect(RollRenderer.markdown.render(try Dice.roll("2d20kh1", using: &scripted))
                == "2d20kh1 (**20**, ~~1~~) = 20")
    }

    @Test func errorsWithCarets() throws {
        var session = Session(seed: 7)
        var printed: [String] = []
        let source = SourceFile(name: "<chat>", text: "2d6 + * 3")
        do {
            var parser = Parser(source)
            while let statement = try parser.nextStatement() {
                printed.append(OutcomeRenderer().text(for: try session.execute(statement)))
            }
        } catch {
            printed.append(DiagnosticRenderer().render(error, in: source))
        }
        #expect(printed == ["<chat>:1:7: error: expected an expression, found '*'\n2d6 + * 3\n      ^"])

        var divided = false
        do {
            _ = try session.roll("1d6 / 0")
        } catch {
            if error.kind == .divisionByZero { divided = true }
        }
        #expect(divided)
    }
}

extension Outcome {
    /// The report of a `stats` statement's outcome.
    var statsReport: DistributionReport? {
        if case .stats(_, let report) = self { return report }
        return nil
    }
}
