import Testing
@testable import DiceKit

/// `:save` writes an environment as a script; running it in an empty session
/// must give back exactly the same variables and macros.
@Suite struct SessionScriptTests {
    /// Runs `script` in a fresh session and returns its environment.
    static func load(_ script: String) throws -> Environment {
        var evaluator = Evaluator(environment: Environment(), source: ScriptedDice([1]))
        for statement in try Parser.parseProgram(script) { _ = try evaluator.execute(statement) }
        return evaluator.environment
    }

    /// Variables compared by value, macros by their canonical definition (source ranges differ).
    static func summary(_ environment: Environment) -> [String] {
        environment.variables.map { "\($0.name)=\($0.value)" } + environment.macros.map(\.definitionText)
    }

    @Test func savesVariablesAndMacros() throws {
        var environment = Environment()
        environment.setVariable("str", to: .integer(16))
        environment.setVariable("half", to: .number(.ratio(1, 2)))
        environment.setVariable("low", to: .integer(Int.min))
        environment.define(Macro(name: "atk", parameters: [], body: try Parser.parseExpression("1d20 + (str - 10) // 2")))
        environment.define(Macro(name: "smite", parameters: ["n"], body: try Parser.parseExpression("(n + 1)d8 [radiant]")))
        let script = SessionScript.text(of: environment)
        #expect(script == """
            # dice session: variables and macros
            half = 0.5
            low = (-9223372036854775807 - 1)
            str = 16
            def atk = 1d20 + (str - 10) // 2
            def smite(n) = (n + 1)d8 [radiant]

            """)
        #expect(Self.summary(try Self.load(script)) == Self.summary(environment))
    }

    /// A fraction whose exact decimal has more places than a literal holds (`0.5^40`, found by
    /// the fuzzer) is saved as a quotient, and loads back.
    @Test func fractionsTooLongForADecimalAreSavedAsQuotients() throws {
        var environment = Environment()
        environment.setVariable("tiny", to: .number(try Number.integer(1).dividing(by: .integer(1 << 40))))
        environment.setVariable("eighth", to: .number(.ratio(1, 8)))
        let script = SessionScript.text(of: environment)
        #expect(script.contains("tiny = (1 / 1099511627776)"))
        #expect(script.contains("eighth = 0.125"))
        #expect(Self.summary(try Self.load(script)) == Self.summary(environment))
    }

    /// A macro's description (`#:` above its `def`, as `use` gives one) is saved as that doc
    /// comment and loads back; one with a line break in it stays one line.
    @Test func savesDescriptions() throws {
        var environment = Environment()
        environment.define(Macro(name: "atk", parameters: ["bonus"], defaults: ["bonus": try Parser.parseExpression("0")],
                                 body: try Parser.parseExpression("1d20 + bonus"), summary: "An attack: d20 + bonus."))
        environment.define(Macro(name: "dmg", parameters: [], body: try Parser.parseExpression("1d8"), summary: "two\nlines"))
        environment.define(Macro(name: "raw", parameters: [], body: try Parser.parseExpression("2")))
        let script = SessionScript.text(of: environment)
        #expect(script == """
            # dice session: variables and macros
            #: An attack: d20 + bonus.
            def atk(bonus = 0) = 1d20 + bonus
            #: two lines
            def dmg = 1d8
            def raw = 2

            """)
        let loaded = try Self.load(script)
        #expect(loaded.macros.map(\.summary) == ["An attack: d20 + bonus.", "two lines", nil])
        #expect(Self.summary(loaded) == Self.summary(environment))
    }

    /// A `#:` line gives a description to the `def` right below it only: not across a blank
    /// line, not to a `def` that follows another statement on its line, and not to anything
    /// but a `def`. Blanks around it and a Windows line end are not part of it.
    @Test(arguments: [
        ("#: An attack.\ndef atk = 1d20", "An attack."),
        ("  #:   spaced  \r\n  def atk = 1d20", "spaced"),
        ("x = 1\n#: first\n#: last\ndef atk = 1d20", "last"),
        ("#: An attack.\n\ndef atk = 1d20", nil),
        ("#: An attack.\nx = 1; def atk = 1d20", nil),
        ("# An attack.\ndef atk = 1d20", nil),
        ("#:\ndef atk = 1d20", nil),
        ("def atk = 1d20 #: not a doc comment", nil),
    ] as [(String, String?)])
    func readsTheDocCommentAboveADef(_ script: String, _ summary: String?) throws {
        let loaded = try Self.load(script)
        #expect(loaded.macros.map(\.summary) == [summary])
    }

    @Test func randomEnvironmentsRoundTrip() throws {
        var random = Xoshiro256StarStar(seed: 2026)
        var generator = ExpressionGenerator(seed: 7, variables: ["a", "b", "c"], macros: [], unaryMacros: [])
        for _ in 0..<300 {
            var environment = Environment()
            for name in ["a", "b", "c"] {
                switch random.roll(sides: 3) {
                case 1: environment.setVariable(name, to: .integer(random.roll(sides: 2001) - 1001))
                case 2: environment.setVariable(name, to: .number(.ratio(random.roll(sides: 10_000), 64)))
                default: break
                }
            }
            for index in 0..<random.roll(sides: 4) {
                let parameters = random.roll(sides: 2) == 1 ? [] : ["p\(index)"]
                let body = generator.expression()
                environment.define(Macro(name: "m\(index)", parameters: parameters, body: body))
            }
            let loaded = try Self.load(SessionScript.text(of: environment))
            #expect(Self.summary(loaded) == Self.summary(environment))
        }
    }
}
