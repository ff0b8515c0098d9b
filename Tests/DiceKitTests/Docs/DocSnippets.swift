import Testing
import DiceKit   // not @testable: the docs use the public API only

// The Swift blocks of README.md and the DocC articles, copied here verbatim (their
// `import DiceKit` aside) between `// snippet FILE N` and `// end snippet`, N counting the
// file's Swift blocks from 1 (a Package.swift fragment is not compiled). Each document's
// blocks run in order, each inside the one before, as the document reads. `DocOutput.check`
// checks that the copies are the docs' blocks, and that what each block prints is what its
// comments show. Change a block in the docs, and change it here.

/// `print` in the snippets: recorded for the check, not written out.
fileprivate func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    DocOutput.record(items.map { "\($0)" }.joined(separator: separator) + terminator)
}

@Suite struct DocSnippets {

    @Test func readme() throws {
        func blocks() throws {
            DocOutput.mark(2)
            // snippet README.md 2
            // One roll, seeded for a reproducible result.
            let roll = try Dice.roll("4d6kh3 + 2", seed: 42)
            print(roll.value)                              // 16, the total (a Number)
            print(RollRenderer.plain.render(roll))         // 4d6kh3 (~~1~~, 3, 5, 6) + 2 = 16

            // A session with variables and macros.
            var session = Session(seed: 7)
            for statement in try Parser.parseProgram("str = 3\ndef atk = 1d20 + str\natk") {
                print(OutcomeRenderer().text(for: try session.execute(statement)))
            }
            // str = 3
            // def atk = 1d20 + str
            // atk: 1d20 (15) + str (3) = 18
            print(session.environment.macros.map(\.definitionText))   // ["def atk = 1d20 + str"]
            // end snippet
            do {
            DocOutput.mark(3)
            // snippet README.md 3
            var session = Session()                                   // seeded from the system
            let roll = try session.roll("2d20kh1 + 5")                // parsed once, rolled each call
            var line: [UInt8] = []
            RollRenderer.plain.render(roll, into: &line)              // UTF-8, no String per line

            let ability = try Parser.parseExpression("4d6kh3")
            let scores = try (0..<6).map { _ in try session.value(of: ability) }
            print(scores.count)                                       // 6, ability scores

            let odds = try session.stats("1d20 + 5 >= 15")
            print(odds.distribution.mean)                             // 0.55, exact
            // end snippet
            do {
            DocOutput.mark(4)
            // snippet README.md 4
            var table = Session(seed: 42)
            let source = SourceFile(name: "chat", text: "def atk = 1d20 + 5\natk")
            var parser = Parser(source)
            while let statement = try parser.nextStatement() {
                let outcome = try table.execute(statement)
                print(OutcomeRenderer().json(for: outcome, input: source.text(of: statement.range)))
            }
            // {"input":"def atk = 1d20 + 5","defined":"atk","parameters":[],"body":"1d20 + 5"}
            // {"input":"atk","value":…,"text":"atk: 1d20 (…) + 5 = …","rolls":[…]}

            let hit = try table.stats("2d20kh1 + 5 >= 15")
            print(OutcomeRenderer().json(for: hit, input: "stats 2d20kh1 + 5 >= 15"))
            // {"input":"stats 2d20kh1 + 5 >= 15","stats":{"exact":true,"mean":0.7975,…}}
            let damage = try table.stats("2d6 + 3")
            print(DistributionRenderer(width: 60).render(damage, title: "2d6 + 3"))
            // 2d6 + 3: mean 10.00, stdev 2.42, min 5, max 15
            // median 10, p10 7, p90 13
            // value        P  at least   at most
            //     …
            // end snippet
            }}
        }
        try DocOutput.check("README.md", blocks)
    }

    @Test func landingPage() throws {
        func blocks() throws {
            DocOutput.mark(1)
            // snippet Sources/DiceKit/Documentation.docc/DiceKit.md 1
            let roll = try Dice.roll("4d6kh3 + 2", seed: 42)
            print(RollRenderer.plain.render(roll))      // 4d6kh3 (~~1~~, 3, 5, 6) + 2 = 16
            // end snippet
        }
        try DocOutput.check("Sources/DiceKit/Documentation.docc/DiceKit.md", blocks)
    }

    @Test func gettingStarted() throws {
        func blocks() throws {
            DocOutput.mark(2)
            // snippet Sources/DiceKit/Documentation.docc/GettingStarted.md 2
            let roll = try Dice.roll("4d6kh3 + 2", seed: 42)
            print(roll.value)                              // 16
            print(RollRenderer.plain.render(roll))         // 4d6kh3 (~~1~~, 3, 5, 6) + 2 = 16
            print(RollRenderer.markdown.render(roll))      // 4d6kh3 (~~1~~, 3, 5, **6**) + 2 = 16
            // end snippet
            do {
            DocOutput.mark(3)
            // snippet Sources/DiceKit/Documentation.docc/GettingStarted.md 3
            var session = Session(seed: 7)
            let sheet = """
                str = 3
                def atk = 1d20 + str
                def dmg(bonus) = (1d8 + bonus) [slashing]
                atk
                dmg(str)
                """
            let renderer = OutcomeRenderer()
            for statement in try Parser.parseProgram(sheet) {
                print(renderer.text(for: try session.execute(statement)))
            }
            // str = 3
            // def atk = 1d20 + str
            // def dmg(bonus) = (1d8 + bonus) [slashing]
            // atk: 1d20 (15) + str (3) = 18
            // dmg(str (3)): (1d8 (3) + bonus (3)) [slashing] = 6

            let roll = try session.roll("atk + 2")
            print(RollRenderer.plain.render(roll))         // (atk: 1d20 (17) + str (3)) + 2 = 22
            print(session.environment.macros.map(\.definitionText))
            // ["def atk = 1d20 + str", "def dmg(bonus) = (1d8 + bonus) [slashing]"]
            // end snippet
            do {
            DocOutput.mark(4)
            // snippet Sources/DiceKit/Documentation.docc/GettingStarted.md 4
            let hit = try session.stats("atk >= 15")
            print(hit.exact, hit.distribution.mean)        // true 0.45: 1d20 + 3 >= 15

            let damage = try session.stats("2d6")
            print(damage.distribution.mean)                        // 7.0
            print(damage.distribution.probability(of: .integer(7)))  // 0.1666…
            print(DistributionRenderer(width: 60).render(damage, title: "2d6"))
            // 2d6: mean 7.00, stdev 2.42, min 2, max 12
            // median 7, p10 4, p90 10
            // value        P  at least   at most
            //     2    2.78%   100.00%     2.78%  ████
            //     …
            // end snippet
            do {
            DocOutput.mark(5)
            // snippet Sources/DiceKit/Documentation.docc/GettingStarted.md 5
            struct LoadedDice: DieSource {
                mutating func roll(sides: Int) -> Int { sides }   // always the highest face
            }

            var loaded = LoadedDice()
            let best = try Dice.roll("4d6kh3 + 2", using: &loaded)
            print(RollRenderer.plain.render(best))         // 4d6kh3 (6, 6, 6, ~~6~~) + 2 = 20

            struct SystemDice: DieSource {
                var generator = SystemRandomNumberGenerator()
                mutating func roll(sides: Int) -> Int { Int.random(in: 1...sides, using: &generator) }
            }

            var system = SystemDice()
            let roll = try Dice.roll("1d20", using: &system)
            print(roll.value)                              // …: a face from 1 to 20

            var scripted = ScriptedDice([20, 1])
            print(RollRenderer.markdown.render(try Dice.roll("2d20kh1", using: &scripted)))
            // 2d20kh1 (**20**, ~~1~~) = 20
            // end snippet
            do {
            DocOutput.mark(6)
            // snippet Sources/DiceKit/Documentation.docc/GettingStarted.md 6
            let source = SourceFile(name: "<chat>", text: "2d6 + * 3")
            do {
                var parser = Parser(source)
                while let statement = try parser.nextStatement() {
                    print(OutcomeRenderer().text(for: try session.execute(statement)))
                }
            } catch {
                print(DiagnosticRenderer().render(error, in: source))
            }
            // <chat>:1:7: error: expected an expression, found '*'
            // 2d6 + * 3
            //       ^

            do {
                _ = try session.roll("1d6 / 0")
            } catch {
                if error.kind == .divisionByZero { print("no dividing by zero") }   // no dividing by zero
            }
            // end snippet
            }}}}
        }
        try DocOutput.check("Sources/DiceKit/Documentation.docc/GettingStarted.md", blocks)
    }
}
