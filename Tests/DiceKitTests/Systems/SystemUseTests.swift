import Testing
@testable import DiceKit

/// `use` beside another system (LANGUAGE.md §8a): the second replaces the macros of the same
/// names, and the first system's other macros still roll what they rolled before
/// (`GameSystem.use(in:)`). `use dnd5e` then `use fate` made dnd5e's `save` roll 4dF: fate's
/// `roll` replaced the `roll` that dnd5e's `check` calls, and `stats save(3, 15)` was 100%
/// "failure", with no error.
struct SystemUseTests {
    /// Each pair of systems that share a name, and each reference case of the first whose
    /// macro the second does not replace: its exact distribution is the reference's.
    static let pairs: [(first: String, second: String, c: SystemReference.Case)] = {
        var pairs: [(String, String, SystemReference.Case)] = []
        let names = Dictionary(uniqueKeysWithValues: GameSystem.all.map { ($0.name, Set($0.macros.map(\.name))) })
        for c in SystemReference.cases {
            let called = String(c.statement.prefix { $0 != "(" })
            for second in GameSystemTests.names where second != c.system {
                guard let mine = names[c.system], let theirs = names[second], !mine.isDisjoint(with: theirs),
                      !theirs.contains(called) else { continue }
                pairs.append((c.system, second, c))
            }
        }
        return pairs
    }()

    @Test func everySystemThatSharesANameIsTried() {
        let tried = Set(SystemUseTests.pairs.map { "\($0.first) \($0.second)" })
        for pair in ["dnd5e fate", "dnd5e coc", "dnd5e pf2e", "ironsworn genesys", "savage shadowrun"] {
            #expect(tried.contains(pair), "\(pair)")
        }
    }

    @Test func statsOfAFirstSystemStayAfterASecond() throws {
        var failures: [String] = []
        for (first, second, c) in SystemUseTests.pairs {
            let environment = try SystemUseTests.environment(using: [first, second])
            let problems = try SystemReference.statsProblems(c, environment: environment)
            if !problems.isEmpty { failures.append("use \(first); use \(second); stats \(c.statement): \(problems.prefix(2))") }
        }
        #expect(failures.isEmpty, "\(failures.count) of \(SystemUseTests.pairs.count): \(failures.prefix(5))")
    }

    /// `save` still calls `check`, dnd5e's, which now calls `dnd5e_roll`, listed by `use
    /// fate` with what it is kept for; the name `roll` is fate's, for the user and for a
    /// macro the user defined.
    @Test func theReplacedMacroIsKeptUnderTheFirstSystemsName() throws {
        var session = Session(seed: 1)
        _ = try run("use dnd5e", in: &session)
        _ = try run("def mine = roll", in: &session)
        guard case .system(_, let macros) = try run("use fate", in: &session) else {
            Issue.record("use gave no system")
            return
        }
        let kept = try #require(macros.first { $0.name == "dnd5e_roll" })
        #expect(kept.summary == "dnd5e's roll, kept for attack and check: 'roll' is now fate's")
        #expect(macros.map(\.name) == ["roll", "ladder", "action", "dnd5e_roll"])
        let dnd5e = try #require(GameSystem.named("dnd5e")).definitions().map(\.macro)
        let originalRoll = try #require(dnd5e.first { $0.name == "roll" })
        #expect(kept.body == originalRoll.body && kept.parameters == originalRoll.parameters)
        guard case .macro(let check)? = session.environment["check"] else {
            Issue.record("check is gone")
            return
        }
        #expect(check.body.text.contains("dnd5e_roll(adv)"), "\(check.body.text)")
        guard case .macro(let save)? = session.environment["save"], case .macro(let mine)? = session.environment["mine"],
              case .macro(let roll)? = session.environment["roll"] else {
            Issue.record("save, mine or roll is gone")
            return
        }
        #expect(save.body == dnd5e.first { $0.name == "save" }?.body)
        #expect(mine.body.text == "roll")
        #expect(roll.system == "fate")
        // What `:save` writes reads back to the same macros.
        var reread = Session(seed: 1)
        for macro in session.environment.macros { _ = try run(macro.definitionText, in: &reread) }
        #expect(reread.environment.macros.map(\.definitionText) == session.environment.macros.map(\.definitionText))
    }

    /// A second `use` of a third system that replaces a name the kept copy calls keeps that
    /// one too; `use` of the first system again defines its own macros, and the kept copies stay.
    @Test func keptCopiesKeepWhatTheyCall() throws {
        let environment = try SystemUseTests.environment(using: ["dnd5e", "coc", "wod"])
        guard case .macro(let check)? = environment["dnd5e_check"], case .macro(let roll)? = environment["dnd5e_roll"] else {
            Issue.record("no kept copies: \(environment.macros.map(\.name))")
            return
        }
        #expect(check.body.text.contains("dnd5e_roll(adv)"), "\(check.body.text)")
        #expect(roll.system == "dnd5e")
        let again = try SystemUseTests.environment(using: ["dnd5e", "coc", "wod", "dnd5e"])
        guard case .macro(let fresh)? = again["check"] else {
            Issue.record("no check")
            return
        }
        #expect(fresh.body.text.contains("roll(adv)") && !fresh.body.text.contains("dnd5e_"))
    }

    static func environment(using systems: [String]) throws -> Environment {
        var session = Session(seed: 1)
        for name in systems { _ = try run("use \(name)", in: &session) }
        return session.environment
    }
}

/// Runs one statement of `text` in `session`.
@discardableResult
private func run(_ text: String, in session: inout Session) throws -> Outcome {
    guard let statement = try Parser.parseProgram(text).first else { throw DiceError(.internalError("empty"), at: .at(0)) }
    return try session.execute(statement)
}
