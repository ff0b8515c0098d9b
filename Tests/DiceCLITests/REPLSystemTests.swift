import DiceKit
import Foundation
import Testing

@testable import dice

/// Game systems at the prompt (LANGUAGE.md §8a): `:defs` shows the description of each macro
/// `use` defined, under its definition, and Tab completes a system's name after `use `.
@Suite struct REPLSystemTests {
    @Test func defsShowsTheDescriptionOfASystemsMacroUnderItsDefinition() {
        let session = ScriptedSession(["def mine = 1d6", "use pbta", ":defs"])
        session.run()
        #expect(session.transcript.responses(to: ":defs") == ["""
            def mine = 1d6
            def move(stat = 0) = match 2d6 + stat { 6-: "miss", 7-9: "weak hit", 10+: "strong hit" }
              # A move: 2d6 + stat; 6- "miss", 7-9 "weak hit", 10+ "strong hit".
            def move_adv(stat = 0) = match 3d6kh2 + stat { 6-: "miss", 7-9: "weak hit", 10+: "strong hit" }
              # A move with advantage: 3d6, the highest two, + stat.
            def move_dis(stat = 0) = match 3d6kl2 + stat { 6-: "miss", 7-9: "weak hit", 10+: "strong hit" }
              # A move with disadvantage: 3d6, the lowest two, + stat.

            """])
        #expect(session.transcript.error == "")
    }

    /// A macro the user defines over a system's has no description: `:defs` shows none.
    @Test func aMacroRedefinedLosesItsDescription() {
        let session = ScriptedSession(["use pbta", "def move(stat) = 2d6 + stat", ":defs"])
        session.run()
        let shown = session.transcript.responses(to: ":defs").joined()
        #expect(shown.hasPrefix("def move(stat) = 2d6 + stat\ndef move_adv(stat = 0) = "), "\(shown)")
        #expect(!shown.contains("# A move: "))
        #expect(shown.contains("  # A move with advantage: "))
    }

    /// The description is text, shown like the user's: control characters as escapes.
    @Test func aDescriptionIsShownWithItsControlCharactersEscaped() throws {
        let macro = Macro(name: "odd", parameters: [], body: try Parser.parseExpression("1d6"),
                          summary: "a \u{1B}[31mred\u{7} description")
        let session = ScriptedSession([":defs"], macros: [macro])
        session.run()
        #expect(session.transcript.responses(to: ":defs") == ["def odd = 1d6\n  # a \\u{1b}[31mred\\u{7} description\n"])
    }

    /// After `use ` (at the start of a statement), Tab offers the names of the systems.
    @Test(arguments: [
        ("", "use ", GameSystem.names),
        ("p", "use ", ["pf2e", "pbta"]),
        ("s", "use  ", ["shadowrun", "savage"]),
        ("gen", "  use ", ["genesys"]),
        ("w", "x = 1; use ", ["wod"]),
        ("w", "x = 1;use ", ["wod"]),
        ("z", "use ", []),
    ])
    func tabAfterUseCompletesASystemsName(_ word: String, _ before: String, _ expected: [String]) {
        let session = ScriptedSession([])
        #expect(session.repl.completions(for: word, after: before) == expected)
    }

    /// Elsewhere `use` is only a word: names and keywords complete as before.
    @Test(arguments: [("p", "reuse "), ("p", "1 + use "), ("p", "def m = use "), ("p", "use"), ("p", "")])
    func tabElsewhereCompletesNamesAsBefore(_ word: String, _ before: String) {
        let session = ScriptedSession([])
        let completed = session.repl.completions(for: word, after: before)
        #expect(!completed.contains("pbta"))
        #expect(completed == session.repl.completions(for: word))
    }

    @Test func helpNamesUseAndTheFormsOfTextsTablesAndTallies() {
        for word in ["use pbta", "match ", "d{\"orc\", \"troll\"}", "(hits: 3, glitch: 1)", "count(p, >=5)", "3d8u",
                     " and ", " given ", "(bonus = 0)", "system names after use"] {
            #expect(REPL.help.contains(word), "\(word)")
        }
    }
}

/// Tab after `use ` at a real terminal (a pseudo-terminal), through libedit.
@Suite(.serialized) struct REPLSystemTerminalTests {
    @Test func tabCompletesASystemsNameAfterUse() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("dice-use-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let terminal = try PseudoTerminal(executable: DiceProcess.binary, arguments: ["--seed", "3"],
                                          environment: ["HOME": home.path, "NO_COLOR": "1"])
        try terminal.waitFor("dice> ", timeout: 10)
        // The one system starting `pb`: completed in place (libedit redraws the letters it adds).
        terminal.send("use pb\t")
        try terminal.waitFor("ta")
        terminal.send("\r")
        try terminal.waitFor("use pbta: Powered by the Apocalypse moves")
        try terminal.waitFor("dice> ")
        terminal.send("move(1)\r")
        #expect(PseudoTerminal.plainText(try terminal.waitFor("dice> ")).contains("move(1): 2d6 ("))
        // Two systems start with `s`: Tab lists both under the line.
        terminal.send("use s\t")
        let listed = PseudoTerminal.plainText(try terminal.waitFor("shadowrun"))
        #expect(listed.contains("savage"), "\(listed)")
        terminal.send("\u{15}:defs\r")
        #expect(PseudoTerminal.plainText(try terminal.waitFor("# A move with disadvantage")).contains("  # A move: 2d6 + stat"))
        try terminal.waitFor("dice> ")
        terminal.send("\u{4}")
        #expect(try terminal.waitForExit(timeout: 10) == 0)
    }
}
