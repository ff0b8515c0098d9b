import Foundation
import Testing
@testable import DiceKit

/// Each built-in system loaded as `use NAME` loads it: its macros and their descriptions, the
/// exact `stats` of its statements against `Reference/systems.json` (to 1e-9), and golden rolls
/// with scripted dice.
struct SystemStatsTests {
    @Test(arguments: GameSystemTests.names)
    func loadsEveryDocumentedMacro(_ name: String) throws {
        let system = try #require(GameSystem.named(name))
        let definitions = try system.definitions()
        #expect(definitions.map(\.macro.name) == system.macros.map(\.name))
        #expect(definitions.map(\.description) == system.macros.map(\.description))
        #expect(definitions.allSatisfy { !$0.description.isEmpty })
    }

    @Test(arguments: SystemReference.cases)
    func statsAgreeWithTheReference(_ c: SystemReference.Case) throws {
        let problems = try SystemReference.statsProblems(c, environment: try SystemReference.environment(c.system))
        #expect(problems.isEmpty, "\(problems.prefix(4))")
    }

    static let golden: [SystemReference.Golden] = [
        .init(system: "pbta", statement: "move(1)", faces: [4, 5], value: "strong hit"),
        .init(system: "pbta", statement: "move", faces: [1, 2], value: "miss"),
        .init(system: "pbta", statement: "move_adv(0)", faces: [1, 4, 5], value: "weak hit"),
        .init(system: "pbta", statement: "move_dis(2)", faces: [6, 3, 1], value: "miss"),
        .init(system: "dnd5e", statement: "score", faces: [6, 4, 3, 1], value: 13),
        .init(system: "dnd5e", statement: "attack(5, 15)", faces: [20], value: "critical hit"),
        .init(system: "dnd5e", statement: "attack(30, 15)", faces: [1], value: "miss"),
        .init(system: "dnd5e", statement: "attack(5, 15, 1)", faces: [3, 10], value: "hit"),
        .init(system: "dnd5e", statement: "damage(5, 15, 1, 8, 3)", faces: [20, 4, 6], value: 13),
        .init(system: "dnd5e", statement: "damage(5, 15, 1, 8, 3)", faces: [12, 4], value: 7),
        .init(system: "dnd5e", statement: "save(2, 15, -1)", faces: [19, 12], value: "failure"),
        .init(system: "dnd5e", statement: "death_save", faces: [1], value: "two failures"),
        .init(system: "pf2e", statement: "check(7, 20)", faces: [20], value: "critical success"),
        .init(system: "pf2e", statement: "check(7, 20)", faces: [13], value: "success"),
        .init(system: "pf2e", statement: "check(7, 20)", faces: [2], value: "critical failure"),
        .init(system: "pf2e", statement: "check(20, 15)", faces: [1], value: "failure"),
        .init(system: "pf2e", statement: "strike(10, 20, 2)", faces: [15], value: "hit"),
        .init(system: "pf2e", statement: "strike(10, 20, 3, 1)", faces: [17], value: "miss"),
        .init(system: "pf2e", statement: "damage(10, 20, 1, 8, 4)", faces: [20, 5], value: 18),
        .init(system: "blades", statement: "action(2)", faces: [6, 6], value: "critical"),
        .init(system: "blades", statement: "action(3)", faces: [2, 5, 1], value: "partial"),
        .init(system: "blades", statement: "action(0)", faces: [6, 3], value: "failure"),
        .init(system: "blades", statement: "resist(2)", faces: [3, 5], value: 1),
        .init(system: "blades", statement: "resist(2)", faces: [6, 6], value: -1),
        .init(system: "shadowrun", statement: "test(4)", faces: [1, 1, 1, 5],
               value: ["hits": 1, "glitch": 1, "critical_glitch": 0]),
        .init(system: "shadowrun", statement: "test(3)", faces: [1, 1, 2],
               value: ["hits": 0, "glitch": 1, "critical_glitch": 1]),
        .init(system: "shadowrun", statement: "test(4)", faces: [6, 5, 1, 2], value: ["hits": 2]),
        .init(system: "wod", statement: "pool(3)", faces: [9, 8, 2], value: 2),
        .init(system: "wod", statement: "chance", faces: [1], value: "dramatic failure"),
        .init(system: "wod", statement: "roll(2)", faces: [7, 3], value: "failure"),
        .init(system: "coc", statement: "percentile", faces: [1, 10], value: 100),
        .init(system: "coc", statement: "percentile", faces: [1, 1], value: 10),
        .init(system: "coc", statement: "percentile", faces: [6, 3], value: 25),
        .init(system: "coc", statement: "check(50)", faces: [6, 3], value: "hard success"),
        .init(system: "coc", statement: "check(60, 1)", faces: [1, 10, 1], value: "extreme success"),
        .init(system: "coc", statement: "check(40, 0, 1)", faces: [8, 1, 10], value: "fumble"),
        .init(system: "savage", statement: "test(8)", faces: [1, 1], value: "critical failure"),
        .init(system: "savage", statement: "test(8)", faces: [7, 3], value: "success"),
        .init(system: "savage", statement: "test(8, 0, 4)", faces: [8, 2, 3], value: "raise"),
        .init(system: "savage", statement: "test(4, -2)", faces: [3, 5], value: "failure"),
        // Snake eyes fail critically whatever the modifier: -1 raises, not the 0 that 1 + 4 - 4 gives.
        .init(system: "savage", statement: "raises(8, 4)", faces: [1, 1], value: -1),
        .init(system: "savage", statement: "raises(8, 4)", faces: [1, 3], value: 0),
        .init(system: "fate", statement: "ladder(2)", faces: [3, 3, 2, 1], value: "Good"),
        .init(system: "fate", statement: "action(2, 3)", faces: [2, 2, 2, 2], value: "fail"),
        .init(system: "ironsworn", statement: "action(2)", faces: [4, 3, 7], value: "weak hit"),
        .init(system: "ironsworn", statement: "action(2)", faces: [6, 5, 5], value: "strong hit with a match"),
        .init(system: "ironsworn", statement: "progress(4)", faces: [4, 9], value: "miss"),
        .init(system: "yearzero", statement: "roll(2, 1, 1)", faces: [6, 1, 6, 1],
               value: ["successes": 2, "banes": 1, "gear_banes": 1]),
        // Pushing: the base 3 and the skill 1 are rolled again (6 and 4); the gear die's 1 is a bane and stays.
        .init(system: "yearzero", statement: "push(1, 1, 1)", faces: [3, 6, 1, 4, 1],
               value: ["successes": 1, "banes": 0, "gear_banes": 1]),
        .init(system: "yearzero", statement: "push(2)", faces: [1, 5, 1], value: ["banes": 2]),
        .init(system: "genesys", statement: "check(1, 0, 1)", faces: [4, 2], value: ["success": 1]),
        .init(system: "genesys", statement: "check(0, 1, 0, 1)", faces: [12, 12],
               value: ["triumph": 1, "despair": 1]),
    ]

    @Test(arguments: golden)
    func rollsTheGoldenValue(_ g: SystemReference.Golden) throws {
        let problems = try SystemReference.goldenProblems(g, environment: try SystemReference.environment(g.system))
        #expect(problems.isEmpty, "\(problems)")
    }
}
