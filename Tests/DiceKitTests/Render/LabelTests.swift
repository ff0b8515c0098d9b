import Testing

@testable import DiceKit

/// A label names the term just before it (grammar/dice.ebnf, `annotated`), and every label
/// reaches the JSON: in `"labels"`, and on a labelled pool as its `"annotation"`.
@Suite struct LabelTests {
    func json(_ text: String, faces: [Int]) throws -> String {
        let roll = try rollScripted(text, faces: faces)
        return OutcomeRenderer().json(for: .roll(roll), input: text)
    }

    @Test func aLabelAfterANumberLabelsTheNumber() throws {
        let json = try json("2d8 + 1d6 + 3 [slashing]", faces: [3, 5, 2])
        #expect(json.hasSuffix(#""labels":[{"label":"slashing","text":"3","value":3}]}"#))
        #expect(!json.contains("\"annotation\""))
    }

    @Test func aLabelAfterParenthesesLabelsTheSum() throws {
        let json = try json("(2d8 + 3) [fire] + 1d4 [cold]", faces: [3, 5, 2])
        #expect(json.contains(#"{"notation":"2d8","value":8,"annotation":"fire","#))
        #expect(json.contains(#"{"notation":"1d4","value":2,"annotation":"cold","#))
        #expect(json.hasSuffix(#""labels":[{"label":"fire","text":"2d8 (3, 5) + 3","value":11},{"label":"cold","text":"1d4 (2)","value":2}]}"#))
    }

    @Test func labelsInsideMacrosAndGroupsAreFound() throws {
        var environment = Environment()
        environment.define(Macro(name: "dmg", parameters: ["b"], body: try Parser.parseExpression("1d6 + b [bonus]")))
        let roll = try rollScripted("{dmg(2), 5 [flat]}", faces: [4], environment: environment)
        let json = OutcomeRenderer().json(for: .roll(roll), input: "x")
        #expect(json.hasSuffix(#""labels":[{"label":"bonus","text":"b (2)","value":2},{"label":"flat","text":"5","value":5}]}"#))
    }

    @Test func noLabelsNoKey() throws {
        #expect(try !json("2d6 + 1", faces: [1, 2]).contains("labels"))
    }
}
