import Foundation
import Testing
@testable import DiceKit

/// The catalog of built-in game systems: names, the embedded sources, summaries, headers and
/// the `#:` descriptions of their macros. Read from the text alone, so it runs before the
/// systems' language (LANGUAGE.md §5b) parses.
@Suite struct GameSystemTests {
    /// The systems of LANGUAGE.md §8a, in the order `use` lists them.
    static let names = ["dnd5e", "pf2e", "pbta", "blades", "shadowrun", "wod", "coc", "savage", "fate",
                        "ironsworn", "yearzero", "genesys"]

    @Test func listsTheTwelveSystemsInOrder() {
        #expect(GameSystem.names == Self.names)
        #expect(GameSystem.named("pbta")?.name == "pbta")
        // Any case, as a user types the game's name (`use PF2E`).
        #expect(GameSystem.named("PBTA")?.name == "pbta")
        #expect(GameSystem.named("pbt") == nil)
        #expect(GameSystem.named("") == nil)
    }

    @Test(arguments: names)
    func embedsTheSourceFileByteForByte(_ name: String) throws {
        #expect(GameSystem.named(name)?.source == (try PackageFiles.text("Sources/DiceKit/Systems/\(name).dice")))
    }

    @Test(arguments: names)
    func hasAHeaderCitingItsRules(_ name: String) throws {
        let system = try #require(GameSystem.named(name))
        let lines = system.source.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first?.hasPrefix("# \(name): ") == true)
        #expect(!system.summary.isEmpty && !system.summary.hasPrefix("#"))
        let header = lines.prefix { $0.hasPrefix("#") && !$0.hasPrefix("#:") }
        #expect(header.contains { $0.hasPrefix("# Rules: ") }, "the header names the rules it implements")
        #expect(system.source.hasSuffix("\n") && !system.source.contains("\t") && !system.source.contains("\r"))
    }

    @Test(arguments: names)
    func everyDefinitionHasADescription(_ name: String) throws {
        let system = try #require(GameSystem.named(name))
        let defLines = system.source.split(separator: "\n").filter { $0.hasPrefix("def ") }
        let macros = system.macros
        #expect(!macros.isEmpty)
        #expect(macros.count == defLines.count)
        for macro in macros {
            #expect(!macro.description.isEmpty, "\(name): \(macro.name) has a #: line")
            #expect(!macro.description.contains("#"), "\(name): \(macro.name)")
        }
        #expect(Set(macros.map(\.name)).count == macros.count, "\(name) defines each name once")
    }

    /// A description says what its macro does for every argument: Blades' zero dots roll two
    /// dice and read the lower (resist's "6 minus the highest die" was wrong there).
    @Test func bladesDescriptionsNameTheZeroDotsRoll() throws {
        let system = try #require(GameSystem.named("blades"))
        let descriptions = Dictionary(uniqueKeysWithValues: system.macros.map { ($0.name, $0.description) })
        #expect(descriptions["action"]?.contains("0 dots: two, the lower") == true)
        #expect(descriptions["resist"]?.contains("(0 dots: the lower of two)") == true)
    }

    @Test func readsSummaryAndDescriptionsOfAGivenSource() {
        let system = GameSystem(name: "demo", source: """
            # demo: two macros and a stray description.
            # Rules: none.

            #: Rolled twice.
            def twice = 1d6 +
                1d6
            #: Not above a definition.

            def bare = 1
            #: The one with parameters.
            def hit(bonus, ac) = 1d20 + bonus >= ac

            """)
        #expect(system.summary == "two macros and a stray description.")
        #expect(system.macros.map(\.name) == ["twice", "bare", "hit"])
        #expect(system.macros.map(\.description) == ["Rolled twice.", "", "The one with parameters."])
    }

    @Test func definitionsRunTheSourceAndKeepTheDescriptions() throws {
        let system = GameSystem(name: "demo", source: """
            # demo: a source the language of today parses.
            #: A hit.
            def hit(bonus, ac) = 1d20 + bonus >= ac
            #: Two of them.
            def both = hit(5, 15) + hit(5, 15)

            """)
        let definitions = try system.definitions()
        #expect(definitions.map(\.macro.name) == ["hit", "both"])
        #expect(definitions.map(\.macro.parameters) == [["bonus", "ac"], []])
        #expect(definitions.map(\.description) == ["A hit.", "Two of them."])
    }

    @Test func aSourceErrorIsThrownWithItsPlace() {
        let system = GameSystem(name: "broken", source: "# broken: x.\ndef f = 1 +* 2\n")
        let error = diceError { () throws(DiceError) in try system.definitions() }
        #expect(error?.position(in: system.source) == TextPosition(line: 2, column: 12))
    }

    /// Every statement of the reference file calls a macro its system defines, and every
    /// system has statements there.
    @Test func theReferenceCoversEachSystemWithItsOwnMacros() throws {
        let cases = SystemReference.cases
        #expect(cases.count > 100)
        for name in Self.names {
            let system = try #require(GameSystem.named(name))
            let macros = Set(system.macros.map(\.name))
            let statements = cases.filter { $0.system == name }.map(\.statement)
            #expect(statements.count >= 4, "\(name) has reference statements")
            for statement in statements {
                let called = String(statement.prefix { $0 != "(" })
                #expect(macros.contains(called), "\(name): \(statement) calls one of its macros")
            }
        }
    }
}

/// The comparison `SystemStatsTests` makes, run today on the systems' numeric macros written
/// in the language the parser already has: the reference and the harness agree with the engine,
/// and a wrong reference is caught.
@Suite struct SystemReferenceHarnessTests {
    /// Numeric macros of the systems, without default parameters, `match` or texts (and each on
    /// one line: a `\` at a line's end joins it to the next in the Swift literal).
    static let numericSource = """
        def roll(skill) = 4dF + skill
        def pool(dice, again) = (dice)d10!>=(again)cs>=8
        def abilities = repeat(6, 4d6dl1)
        def score = 4d6dl1
        def raises(die, mod, tn) = let t = 1d(die)! in let w = 1d6! in \
        if t == 1 and w == 1 then -1 else floor((max(t, w) + mod - tn) / 4)
        def resist(dots) = 6 - 2d6kl1
        def percentile(bonus, penalty) = let u = d{0, 1, 2, 3, 4, 5, 6, 7, 8, 9} in \
        let n = abs(bonus - penalty) + 1 in if u == 0 then (if bonus >= penalty then \
        (n)d{10, 20, 30, 40, 50, 60, 70, 80, 90, 100}kl1 else (n)d{10, 20, 30, 40, 50, 60, 70, 80, 90, 100}kh1) \
        else (if bonus >= penalty then (n)d{0, 10, 20, 30, 40, 50, 60, 70, 80, 90}kl1 \
        else (n)d{0, 10, 20, 30, 40, 50, 60, 70, 80, 90}kh1) + u
        """

    static var environment: Environment {
        get throws {
            var environment = Environment()
            for statement in try Parser.parseProgram(numericSource) {
                if case .definition(let name, let parameters, let defaults, let body) = statement.kind {
                    environment.define(Macro(name: name, parameters: parameters, defaults: defaults, body: body))
                }
            }
            return environment
        }
    }

    static let cases: [SystemReference.Case] = SystemReference.cases.filter {
        ["fate roll(2)", "wod pool(5, 9)", "dnd5e abilities", "savage raises(10, 2, 6)", "blades resist(0)",
         "coc percentile(2, 1)", "coc percentile(0, 2)", "coc percentile(1, 1)"].contains("\($0.system) \($0.statement)")
    }

    @Test func picksTheNumericCases() {
        #expect(Self.cases.count == 8)
    }

    @Test(arguments: cases)
    func theEngineAgreesWithTheReference(_ c: SystemReference.Case) throws {
        let problems = try SystemReference.statsProblems(c, environment: try Self.environment)
        #expect(problems.isEmpty, "\(problems.prefix(4))")
    }

    @Test func aWrongReferenceIsCaught() throws {
        var wrong = try #require(Self.cases.first { $0.statement == "roll(2)" })
        wrong.distribution["2.0"]? += 1e-6
        wrong.distribution["7.0"] = 1e-6
        let problems = try SystemReference.statsProblems(wrong, environment: try Self.environment)
        #expect(problems.count == 2)
    }

    @Test func goldenRollsCompareTheValueAndTheBreakdown() throws {
        let environment = try Self.environment
        let right = SystemReference.Golden(system: "dnd5e", statement: "score", faces: [6, 4, 3, 1], value: 13)
        #expect(try SystemReference.goldenProblems(right, environment: environment).isEmpty)
        let percentile = SystemReference.Golden(system: "coc", statement: "percentile(0, 0)", faces: [1, 10],
                                                value: 100)
        #expect(try SystemReference.goldenProblems(percentile, environment: environment).isEmpty)
        let wrong = SystemReference.Golden(system: "dnd5e", statement: "score", faces: [6, 4, 3, 1], value: 12)
        #expect(try SystemReference.goldenProblems(wrong, environment: environment).count == 2)
    }
}
