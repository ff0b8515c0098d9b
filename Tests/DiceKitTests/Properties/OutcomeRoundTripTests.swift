import Testing
@testable import DiceKit

/// Print, then reparse, for the forms of LANGUAGE.md §5b, §7 and §8a: the printer writes
/// every tree the generators make with `outcomes` on so that it reads back as itself.
///
/// These tests only parse. When the evaluator knows the new forms, turn `outcomes` on in
/// the generators the evaluating property tests use, too.
@Suite struct OutcomeRoundTripTests {
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func printedExpressionsParseBackToTheSameTree(_ seed: UInt64) throws {
        var generator = ExpressionGenerator(seed: seed)
        generator.outcomes = true
        var failures = 0, outcomeForms = 0
        for _ in 0..<1_000 {
            let expr = generator.expression()
            if Self.hasOutcomeForm(expr) { outcomeForms += 1 }
            let text = expr.text
            let reparsed: Expr
            do {
                reparsed = try Parser.parseExpression(text)
            } catch {
                failures += 1
                if failures <= 5 { Issue.record("\(text) does not parse: \(error.message) (tree \(expr.dump))") }
                continue
            }
            if reparsed.dump != expr.dump {
                failures += 1
                if failures <= 5 { Issue.record("\(text) reparses as \(reparsed.dump), not \(expr.dump)") }
            }
            if reparsed.text != text {
                failures += 1
                if failures <= 5 { Issue.record("\(text) prints back as \(reparsed.text)") }
            }
        }
        #expect(failures == 0)
        // The generator makes the new forms often enough for the test to mean something.
        #expect(outcomeForms > 400, "\(outcomeForms) of 1000 trees have a form of §5b")
    }

    /// Statements too: default parameters and `use`, with the new forms in their expressions.
    @Test(arguments: [5, 6] as [UInt64])
    func printedStatementsParseBackToTheSameStatements(_ seed: UInt64) throws {
        var generator = ProgramGenerator(seed: seed)
        generator.outcomes = true
        var failures = 0, defaults = 0, uses = 0
        for _ in 0..<600 {
            let statement = generator.statement()
            // `stats` takes the generator's bounded pools, which are not all in the parser's
            // canonical shape (`mi(-2)`); its expressions are the test above.
            switch statement.kind {
            case .stats, .compare: continue
            default: break
            }
            if case .definition(_, _, let written, _) = statement.kind, !written.isEmpty { defaults += 1 }
            if case .use = statement.kind { uses += 1 }
            let text = statement.text
            let reparsed = try? Parser.parseProgram(text)
            if reparsed?.map(\.dump) != [statement.dump] || reparsed?.map(\.text) != [text] {
                failures += 1
                if failures <= 5 { Issue.record("\(text) reparses as \(reparsed?.map(\.dump) ?? ["an error"])") }
            }
        }
        #expect(failures == 0)
        #expect(defaults > 10 && uses > 10, "\(defaults) definitions with defaults, \(uses) uses")
    }

    /// `:save` writes a macro with defaults and a table as a definition that loads back as it.
    @Test func aMacroWithDefaultsIsSavedAsItsDefinition() throws {
        let program = """
            def atk(bonus = 0, ac = 10 + 2) = match 1d20 + 5 + bonus { >=(ac + 10): "crit", >=(ac): "hit", else: "miss" }
            def pool(n, edge = (s: 1)) = let p = (n)d6 in (hits: count(p, >=5), glitch: count(p, =1) > n / 2) + edge
            def oracle = d{"yes", "no", "yes, and"}u
            """
        var environment = Environment()
        for statement in try Parser.parseProgram(program) {
            guard case .definition(let name, let parameters, let defaults, let body) = statement.kind else { continue }
            environment.define(Macro(name: name, parameters: parameters, defaults: defaults, body: body))
        }
        let script = SessionScript.text(of: environment)
        #expect(script == """
            # dice session: variables and macros
            def atk(bonus = 0, ac = 10 + 2) = match 1d20 + 5 + bonus { >=(ac + 10): "crit", >=(ac): "hit", else: "miss" }
            def oracle = d{"yes", "no", "yes, and"}u
            def pool(n, edge = (s: 1)) = let p = (n)d6 in (hits: count(p, >=5), glitch: count(p, =1) > n / 2) + edge

            """)
        let loaded = try SessionScriptTests.load(script)
        #expect(SessionScriptTests.summary(loaded) == SessionScriptTests.summary(environment))
        #expect(loaded.macros.map { $0.defaults.mapValues(\.dump) } == environment.macros.map { $0.defaults.mapValues(\.dump) })
    }

    /// Whether the tree holds a form of §5b or §7 anywhere.
    static func hasOutcomeForm(_ expr: Expr) -> Bool {
        switch expr.kind {
        case .text, .match, .tally, .field, .logical, .not, .count, .given: return true
        case .dice(let term):
            if case .symbols = term.sides { return true }
            if term.modifiers.contains(where: { $0.kind == .unique }) { return true }
        default: break
        }
        return expr.children.contains(where: hasOutcomeForm)
    }
}
