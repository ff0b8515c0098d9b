import Testing
@testable import DiceKit

/// Misuses of the forms of LANGUAGE.md §5b, rolled with scripted dice: each error's kind and
/// where it points (the marker `‸` in the program), the same on the value path, and the same
/// kind from `stats` where the roll fails whatever the dice.
@Suite struct OutcomeErrorTests {
    struct ErrorCase: Sendable, CustomTestStringConvertible {
        var marked: String
        var faces: [Int]
        var kind: DiceError.Kind
        /// Whether every roll fails, so that `stats` must fail with the same kind too.
        var always: Bool

        init(_ marked: String, _ kind: DiceError.Kind, always: Bool = true) {
            self.init(marked, [], kind, always: always)
        }

        init(_ marked: String, _ faces: [Int], _ kind: DiceError.Kind, always: Bool = true) {
            self.marked = marked
            self.faces = faces
            self.kind = kind
            self.always = always
        }

        var testDescription: String { marked }
    }

    static let cases: [ErrorCase] = [
        // Text arithmetic and ordering: at the text.
        ErrorCase("1 + ‸\"hit\"", .notANumber(.text("hit"), needed: "'+'")),
        ErrorCase("‸\"hit\" * 2", .notANumber(.text("hit"), needed: "'*'")),
        ErrorCase("2d6 - ‸\"x\"", [3, 4], .notANumber(.text("x"), needed: "'-'")),
        ErrorCase("-‸\"a\"", .notANumber(.text("a"), needed: "'-'")),
        ErrorCase("let m = \"orc\" in ‸m + 1", .notANumber(.text("orc"), needed: "'+'")),
        ErrorCase("‸\"a\" < \"b\"", .notANumber(.text("a"), needed: "'<'")),
        ErrorCase("1d6 >= ‸\"b\"", [3], .notANumber(.text("b"), needed: "'>='")),
        ErrorCase("‸(s: 1) < (s: 2)", .notANumber(.tally(["s": 1]), needed: "'<'")),
        ErrorCase("‸(\"a\")d6", .notANumber(.text("a"), needed: "the number of dice")),
        ErrorCase("2d‸(\"x\")", .notANumber(.text("x"), needed: "the number of sides")),
        ErrorCase("4d6kh‸(\"x\")", .notANumber(.text("x"), needed: "a modifier")),
        ErrorCase("abs(‸\"x\")", .notANumber(.text("x"), needed: "abs")),
        ErrorCase("repeat(‸\"x\", 1d6)", .notANumber(.text("x"), needed: "a count")),
        ErrorCase("‸\"x\"^2", .notANumber(.text("x"), needed: "'^'")),
        ErrorCase("max(1, ‸\"x\")", .notANumber(.text("x"), needed: "max")),
        ErrorCase("{1, 2}kh‸(\"x\")", .notANumber(.text("x"), needed: "a modifier")),
        ErrorCase("count(‸(\"x\")d6, >3)", .notANumber(.text("x"), needed: "the number of dice")),
        // A group or repeat adds its members: a text member is named where it stands.
        ErrorCase("{‸\"a\", \"b\"}", .notANumber(.text("a"), needed: "a group's sum")),
        ErrorCase("{1d6, ‸\"b\"}", [3], .notANumber(.text("b"), needed: "a group's sum")),
        ErrorCase("{(s: 1), ‸d{\"a\"}}", [1], .notANumber(.text("a"), needed: "a group's sum")),
        ErrorCase("repeat(2, ‸\"a\")", .notANumber(.text("a"), needed: "a repeat's sum")),
        ErrorCase("repeat(10001, ‸\"a\")", .notANumber(.text("a"), needed: "a repeat's sum")),
        // A bound group's or pool's value, used: where it is no number, as unbound.
        ErrorCase("let p = {‸\"a\", \"b\"} in p", .notANumber(.text("a"), needed: "a group's sum")),
        ErrorCase("let p = repeat(2, ‸\"a\") in count(p, =\"a\") + p", .notANumber(.text("a"), needed: "a repeat's sum")),
        ErrorCase("let p = ‸2d{\"a\", \"b\"} in p", [1, 2], .textDiceOperation("a sum of several text dice")),
        // Keep/drop and counting over a group or repeat: at the member that is no number.
        ErrorCase("{1d6, ‸\"a\"}kh1", [3], .notANumber(.text("a"), needed: "keep/drop and counting over members")),
        ErrorCase("{‸(s: 1), 2}cs>1", .notANumber(.tally(["s": 1]), needed: "keep/drop and counting over members")),
        ErrorCase("repeat(3, ‸d{\"a\", 1})dl1", [1, 2, 2], .notANumber(.text("a"), needed: "keep/drop and counting over members")),
        ErrorCase("repeat(10001, ‸\"a\")kh1", .notANumber(.text("a"), needed: "keep/drop and counting over members")),
        ErrorCase("let p = {2, ‸\"a\"}kh1 in count(p, =2)",
                  .notANumber(.text("a"), needed: "keep/drop and counting over members")),
        // Logic takes numbers.
        ErrorCase("‸\"a\" and 1", .notANumber(.text("a"), needed: "'and'")),
        ErrorCase("0 or ‸(s: 1)", .notANumber(.tally(["s": 1]), needed: "'or'")),
        ErrorCase("not ‸\"a\"", .notANumber(.text("a"), needed: "'not'")),
        // So do the conditions of `if` and `given`: a text or tally is not "not 0".
        ErrorCase("if ‸\"a\" then 1 else 2", .notANumber(.text("a"), needed: "'if'")),
        ErrorCase("if 0 then 1 else if ‸(s: 1) then 2 else 3", .notANumber(.tally(["s": 1]), needed: "'if'")),
        ErrorCase("1d6 given ‸d{\"a\"}", [2, 1], .notANumber(.text("a"), needed: "'given'")),
        // A match with no entry names the value, at the value matched.
        ErrorCase("match ‸1d6 { 1-3: \"low\" }", [5], .noMatchingEntry(.integer(5)), always: false),
        ErrorCase("match ‸d{\"a\", \"b\"} { \"a\": 1 }", [2], .noMatchingEntry(.text("b")), always: false),
        ErrorCase("match ‸2d6 - 7 { 1+: \"high\", -5--1: \"low\" }", [3, 4], .noMatchingEntry(.integer(0)), always: false),
        // An ordering pattern tried against a text or tally: an error at the value matched, as
        // count's is; a text bound at the bound. Equality patterns take any value.
        ErrorCase("match ‸\"q\" { >=3: 1, else: 0 }", .notANumber(.text("q"), needed: "the compare point")),
        ErrorCase("match ‸d{\"q\"} { 1-3: 1, else: 0 }", [1], .notANumber(.text("q"), needed: "the compare point")),
        ErrorCase("match ‸\"r\" { \"q\": 1, 3+: 2, else: 0 }", .notANumber(.text("r"), needed: "the compare point")),
        ErrorCase("match ‸\"r\" { =3: 1, !=\"r\": 2, 6-: 3 }", .notANumber(.text("r"), needed: "the compare point")),
        ErrorCase("match ‸(s: 1) { <2: 1, else: 0 }", .notANumber(.tally(["s": 1]), needed: "the compare point")),
        ErrorCase("match 5 { >=‸(\"a\"): 1, else: 0 }", .notANumber(.text("a"), needed: "the compare point")),
        ErrorCase("match 0 { 1-‸(\"a\"): 1, else: 0 }", .notANumber(.text("a"), needed: "the compare point")),
        // An entry's error, when it is chosen.
        ErrorCase("match 1d6 { 1: 1 ‸/ 0, else: 2 }", [1], .divisionByZero, always: false),
        // Text dice: no sum, no keep/drop.
        ErrorCase("‸2d{\"a\", \"b\"}", [1, 2], .textDiceOperation("a sum of several text dice")),
        // A number among tally faces other than 0 (the empty tally), whatever the dice show.
        ErrorCase("‸2d{(s: 1), 1}", [1, 1], .textDiceOperation("a sum of several dice whose faces mix tallies and numbers other than 0")),
        ErrorCase("2d{\"a\", \"b\"}‸kh1", [1, 2], .textDiceOperation("'kh' (keep/drop)")),
        ErrorCase("2d{\"a\", \"b\"}‸!", [1, 2], .textDiceOperation("an explosion")),
        // `df` subtracts from the value: of text dice, only from a `cs` count (their sum is no number).
        ErrorCase("2d{\"a\", (s: 1)}‸df=\"a\"", [1, 2], .textDiceOperation("'df' without 'cs'")),
        ErrorCase("2d{\"a\", \"b\"}‸mi1", [1, 2], .textDiceOperation("a clamp")),
        // Unique dice: more dice than faces.
        ErrorCase("‸4d3u", .tooFewFacesForUnique(dice: 4, faces: 3)),
        ErrorCase("‸3d{1, 1, 2}u", .tooFewFacesForUnique(dice: 3, faces: 2)),
        ErrorCase("‸3d3r1u", .tooFewFacesForUnique(dice: 3, faces: 2)),
        // count of anything but a pool, group, repeat or bound pool.
        ErrorCase("count(‸3, =1)", .countNeedsPool),
        ErrorCase("let x = 3 in count(‸x, =1)", .countNeedsPool),
        ErrorCase("count(‸1d6 + 1, =1)", .countNeedsPool),
        // Tallies: + - fieldwise, * by a number, == and != only.
        ErrorCase("(s: 1) ‸* (a: 1)", .tallyOperation("'*' of two tallies")),
        ErrorCase("(s: 1) ‸/ 2", .tallyOperation("'/' of a tally and a number")),
        ErrorCase("(s: 1) ‸+ 1", .tallyOperation("'+' of a tally and a number")),
        ErrorCase("(s: ‸\"x\")", .notANumber(.text("x"), needed: "a tally's field")),
        ErrorCase("let x = 3 in ‸x.hits", .fieldOfNonTally(.integer(3), field: "hits")),
        ErrorCase("‸(\"a\").hits", .fieldOfNonTally(.text("a"), field: "hits")),
        // A field touching a text literal reads it as a field, and says why it cannot.
        ErrorCase("‸\"a\".hits", .fieldOfNonTally(.text("a"), field: "hits")),
        // 0 alone of the numbers is a tally, the empty one.
        ErrorCase("‸(1 + 1).s", .fieldOfNonTally(.integer(2), field: "s")),
        ErrorCase("‸(5).s", .fieldOfNonTally(.integer(5), field: "s")),
        ErrorCase("‸(1 / 2).s", .fieldOfNonTally(.number(.ratio(1, 2)), field: "s")),
        // count's compare point replaces a group's own `cs`, which is still resolved: a text fails.
        ErrorCase("count({d8}cs<>‸\"a\", >=11)", [3], .notANumber(.text("a"), needed: "a modifier")),
        ErrorCase("count(repeat(2, 1d6)cs=‸\"a\", >=11)", [3, 4], .notANumber(.text("a"), needed: "a modifier")),
        // A default's error is the macro's, at its use, as its body's is (it pointed into the
        // definition, another line's source in the REPL).
        ErrorCase("def f(x, y = \"hit\" // 2) = x + y\n‸f(1)", .inMacro(name: "f", .notANumber(.text("hit"), needed: "'//'"))),
        ErrorCase("def f(x, y = 1d6 // 0) = x + y\n1 + ‸f(1)", [3], .inMacro(name: "f", .divisionByZero)),
        // given: rolled again up to 1,000 times, then an error at the condition.
        ErrorCase("1d6 given ‸0", [3], .conditionNeverHeld(tries: 1_000)),
        ErrorCase("let r = 1d6 in r given ‸r > 6", [3], .conditionNeverHeld(tries: 1_000)),
        ErrorCase("(1d6 given 1d6 > 0) + (1d6 given ‸1d6 > 6)", [3], .conditionNeverHeld(tries: 1_000)),
        // A `given` inside another is tried with it: an inner condition that never holds is
        // where the error points (the roller pointed at the outer `1`, `stats` at the `0`).
        ErrorCase("(1d6 given ‸0) given 1", [3], .conditionNeverHeld(tries: 1_000)),
        ErrorCase("1 + ((1d6 given ‸0) given 1)", [3], .conditionNeverHeld(tries: 1_000)),
        ErrorCase("(1d6 given 1d6 > 3) given ‸0", [2, 5], .conditionNeverHeld(tries: 1_000)),
        // Each held some time, only together never: at the outer one, which is rolled again.
        ErrorCase("let r = 1d6 in (r given r > 3) given ‸r < 3", [1, 5], .conditionNeverHeld(tries: 1_000)),
        // Inside a macro (its body or a default): at the use, in the name of the macro whose
        // body it is, as the macro's other errors are.
        ErrorCase("def f = 1d6 given 0\n‸f given 1", [3], .inMacro(name: "f", .conditionNeverHeld(tries: 1_000))),
        ErrorCase("def f(x = 1d6 given 0) = x\n1 + (‸f given 1)", [3],
                  .inMacro(name: "f", .conditionNeverHeld(tries: 1_000))),
        ErrorCase("def g = 1d6 given 0\ndef f = g + 1\n‸f given 1", [3],
                  .inMacro(name: "g", .conditionNeverHeld(tries: 1_000))),
        ErrorCase("def f = (1d6 given 0) given 1\n‸f", [3], .inMacro(name: "f", .conditionNeverHeld(tries: 1_000))),
    ]

    @Test(arguments: cases)
    func rollingFails(_ c: ErrorCase) {
        let marked = MarkedText(c.marked)
        let error = diceError { () throws(DiceError) in try ScriptedProgram(marked.text, faces: c.faces) }
        #expect(error?.kind == c.kind)
        #expect(error?.position(in: marked.text) == TextPosition(line: marked.line ?? 0, column: marked.column ?? 0))
        let flat = diceError { () throws(DiceError) in try ScriptedProgram.value(marked.text, faces: c.faces) }
        #expect(flat == error, "the value path: \(String(describing: flat?.message))")
    }

    /// Where every roll fails, `stats` (exact, or simulated where the exact engine declines)
    /// fails with the same kind; its place may differ, except a `given`'s.
    @Test(arguments: cases.filter(\.always))
    func statsFailsAlike(_ c: ErrorCase) throws {
        let marked = MarkedText(c.marked)
        let program = try Parser.parseProgram(marked.text)
        let statement = try #require(program.last)
        guard case .expression(let expr) = statement.kind else { return }
        var session = Session(seed: 1)
        for definition in program.dropLast() { _ = try session.execute(definition) }
        let error = diceError { () throws(DiceError) in try session.execute(Stmt(.stats(expr), statement.range)) }
        if case .conditionNeverHeld = c.kind.outsideMacros {
            // A condition that never holds has probability 0, and `stats` says so at the same
            // place, in the same macro.
            #expect(error?.kind.outsideMacros == .conditionImpossible, "\(String(describing: error?.message))")
            #expect(error?.kind.macroNames == c.kind.macroNames)
            #expect(error?.position(in: marked.text) == TextPosition(line: marked.line ?? 0, column: marked.column ?? 0))
            return
        }
        switch (c.kind, error?.kind) {
        case (.notANumber, .notANumber?):
            // What needed a number is worded alike (`NumberNeed`), at the text's place.
            #expect(error?.kind == c.kind, "\(String(describing: error?.message))")
            #expect(error?.position(in: marked.text) == TextPosition(line: marked.line ?? 0, column: marked.column ?? 0))
        default:
            #expect(error?.kind == c.kind, "\(String(describing: error?.message))")
        }
    }

    /// `given` draws its dice again at each try: 1,000 tries of `1d6 given 0` draw 1,000 dice.
    @Test func givenTriesAThousandTimes() throws {
        var evaluator = Evaluator(environment: Environment(), source: ScriptedDice([1, 2, 3]))
        let expr = try Parser.parseExpression("1d6 given 1d6 == 7")
        let error = diceError { () throws(DiceError) in try evaluator.evaluate(expr) }
        #expect(error?.kind == .conditionNeverHeld(tries: 1_000))
        #expect(evaluator.source.position == 2_000)
        // The 1,000th try may hold.
        var faces = Array(repeating: 1, count: 1_999)
        faces.append(6)
        evaluator = Evaluator(environment: Environment(), source: ScriptedDice(faces))
        #expect(try evaluator.evaluate(Parser.parseExpression("1d6 given 1d6 == 6")).value == .integer(1))
        #expect(evaluator.source.position == 2_000)
    }

    /// Each `given` has its own 1,000 tries each time it is reached: the misses of an inner
    /// one are not the outer one's. `(1 given 1d20 == 1) given 1d10 == 1` holds one try in
    /// 200, and failed after 1,000 tries in all about one time in 150.
    @Test func nestedGivenTriesEachItsOwn() throws {
        func tries(_ faces: [Int], _ count: Int) -> [Int] { Array(Array(repeating: faces, count: count).joined()) }
        let text = "(1 given 1d20 == 1) given 1d10 == 1"
        // 600 tries the inner misses, 600 it holds and the outer misses, then both hold.
        let script = tries([2, 1], 600) + tries([1, 2], 600) + [1, 1]
        let program = try ScriptedProgram(text, faces: script)
        #expect(program.roll.value == .integer(1))
        #expect(program.drawn == 2 * 1_201)
        #expect(try ScriptedProgram.value(text, faces: script).drawn == 2 * 1_201)
        // The inner starts afresh each time it holds: 999 misses, an outer miss, 999 misses.
        let afresh = tries([2, 1], 999) + [1, 2] + tries([2, 1], 999) + [1, 1]
        #expect(try ScriptedProgram(text, faces: afresh).drawn == 2 * 2_000)
        // 1,000 misses in a row still fail, at the condition that missed them.
        let marked = MarkedText("(1 given ‸1d20 == 1) given 1d10 == 1")
        let error = diceError { () throws(DiceError) in try ScriptedProgram(marked.text, faces: [1, 2] + tries([2, 1], 1_000)) }
        #expect(error?.kind == .conditionNeverHeld(tries: 1_000))
        #expect(error?.position(in: marked.text) == TextPosition(line: marked.line ?? 0, column: marked.column ?? 0))
    }

    /// Two rare conditions, one inside the other, still end the statement soon, with the error
    /// of the inner one that ran out of tries (it misses 1,000 in a row about one time in 3).
    @Test func nestedRareGivensEnd() throws {
        let marked = MarkedText("(1 given ‸1d1000 == 1) given 1d1000 == 1")
        let expr = try Parser.parseExpression(marked.text)
        var evaluator = Evaluator(environment: Environment(), source: Xoshiro256StarStar(seed: 7))
        let error = diceError { () throws(DiceError) in try evaluator.evaluate(expr) }
        #expect(error?.kind == .conditionNeverHeld(tries: 1_000))
        #expect(error?.position(in: marked.text) == TextPosition(line: marked.line ?? 0, column: marked.column ?? 0))
    }
}

extension DiceError.Kind {
    /// The error inside the macros it is reported in.
    var outsideMacros: DiceError.Kind {
        if case .inMacro(_, let inner) = self { return inner.outsideMacros }
        return self
    }

    /// The macros it is reported in, outermost first.
    var macroNames: [String] {
        if case .inMacro(let name, let inner) = self { return [name] + inner.macroNames }
        return []
    }
}
