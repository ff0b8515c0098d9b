import Testing
@testable import DiceKit

/// A dice expression rolled on scripted faces: its value and every die of every
/// pool, described as `"6 exploded extra"` (see `describe(_:)`).
///
/// Faces are positions `1...sides`; for `dF` 1, 2, 3 show -1, 0, +1; for
/// custom faces the position in the list. The script repeats when it runs out.
struct DiceCase: Sendable, CustomTestStringConvertible {
    var input: String
    var faces: [Int]
    var value: Number
    var dice: [[String]]
    init(_ input: String, faces: [Int], _ value: Int, _ dice: [[String]]) {
        self.input = input
        self.faces = faces
        self.value = .integer(value)
        self.dice = dice
    }
    var testDescription: String { "\(input) on \(faces)" }
}

/// A group or `repeat` on scripted faces: its value and its members (value,
/// then `x` if dropped, `*` if counted as a success, `_` if a failure).
struct GroupCase: Sendable, CustomTestStringConvertible {
    var input: String
    var faces: [Int]
    var value: Number
    var members: [String]
    init(_ input: String, faces: [Int] = [], _ value: Number, _ members: [String]) {
        self.input = input
        self.faces = faces
        self.value = value
        self.members = members
    }
    var testDescription: String { "\(input) on \(faces)" }
}

@Suite struct DicePoolTests {
    // MARK: - Dice forms (§2)

    static let forms: [DiceCase] = [
        DiceCase("d20", faces: [17], 17, [["17"]]),
        DiceCase("4d6", faces: [1, 2, 3, 6], 12, [["1", "2", "3", "6"]]),
        DiceCase("d%", faces: [100], 100, [["100"]]),
        DiceCase("d%", faces: [37], 37, [["37"]]),
        DiceCase("4dF", faces: [1, 2, 3, 3], 1, [["-1", "0", "1", "1"]]),
        DiceCase("d{1,1,2,3}", faces: [4], 3, [["3"]]),
        DiceCase("d{1,1,2,3}", faces: [2], 1, [["1"]]),
        DiceCase("2d{-1,0,1}", faces: [1, 3], 0, [["-1", "1"]]),
        DiceCase("3d{10,20}", faces: [2, 1, 2], 50, [["20", "10", "20"]]),
        DiceCase("0d6", faces: [], 0, [[]]),
        DiceCase("(1d4)d6", faces: [3, 1, 2, 6], 9, [["3"], ["1", "2", "6"]]),
        DiceCase("(3)d(4)", faces: [4, 4, 1], 9, [["4", "4", "1"]]),
        DiceCase("-2d6", faces: [3, 4], -7, [["3", "4"]]),
        DiceCase("2*3d6", faces: [1, 2, 3], 12, [["1", "2", "3"]]),
        DiceCase("4d6kh3+2", faces: [6, 4, 3, 1], 15, [["6", "4", "3", "1 dropped"]]),
        DiceCase("1d20 + 5 >= 15", faces: [10], 1, [["10"]]),
        DiceCase("1d20 + 5 >= 15", faces: [9], 0, [["9"]]),
        DiceCase("2d6 [fire] + 1d8 [cold]", faces: [2, 5, 6], 13, [["2", "5"], ["6"]]),
    ]

    // MARK: - Keep and drop

    static let keepAndDrop: [DiceCase] = [
        DiceCase("4d6kh3", faces: [6, 4, 3, 1], 13, [["6", "4", "3", "1 dropped"]]),
        DiceCase("4d6k", faces: [3, 6, 4, 1], 6, [["3 dropped", "6", "4 dropped", "1 dropped"]]),
        DiceCase("4d6kl2", faces: [6, 4, 3, 1], 4, [["6 dropped", "4 dropped", "3", "1"]]),
        DiceCase("4d6dh1", faces: [6, 4, 3, 1], 8, [["6 dropped", "4", "3", "1"]]),
        DiceCase("4d6d1", faces: [6, 4, 3, 1], 13, [["6", "4", "3", "1 dropped"]]),
        DiceCase("4d6dl2", faces: [6, 4, 3, 1], 10, [["6", "4", "3 dropped", "1 dropped"]]),
        DiceCase("2d20kh1", faces: [7, 7], 7, [["7", "7 dropped"]]),
        DiceCase("2d20kl1", faces: [7, 7], 7, [["7", "7 dropped"]]),
        // keeping more than rolled keeps all; dropping more drops all
        DiceCase("2d6kh5", faces: [3, 4], 7, [["3", "4"]]),
        DiceCase("2d6kl3", faces: [3, 4], 7, [["3", "4"]]),
        DiceCase("2d6dl5", faces: [3, 4], 0, [["3 dropped", "4 dropped"]]),
        DiceCase("2d6dh3", faces: [3, 4], 0, [["3 dropped", "4 dropped"]]),
        DiceCase("2d6kh0", faces: [3, 4], 0, [["3 dropped", "4 dropped"]]),
        DiceCase("2d6kh(1 + 1)", faces: [3, 4], 7, [["3", "4"]]),
        // keep/drop apply in written order
        DiceCase("4d6dh1dl1", faces: [6, 4, 3, 1], 7, [["6 dropped", "4", "3", "1 dropped"]]),
        DiceCase("4d6kh3kl1", faces: [6, 4, 3, 1], 3, [["6 dropped", "4 dropped", "3", "1 dropped"]]),
        DiceCase("4d6kl1kh3", faces: [6, 4, 3, 1], 1, [["6 dropped", "4 dropped", "3 dropped", "1"]]),
        DiceCase("4d6kh2dl1", faces: [6, 4, 3, 1], 6, [["6", "4 dropped", "3 dropped", "1 dropped"]]),
        DiceCase("4d6dl1kh2", faces: [6, 4, 3, 1], 10, [["6", "4", "3 dropped", "1 dropped"]]),
        // sorting changes the shown order only
        DiceCase("4d6s", faces: [6, 4, 3, 1], 14, [["1", "3", "4", "6"]]),
        DiceCase("4d6sa", faces: [6, 4, 3, 1], 14, [["1", "3", "4", "6"]]),
        DiceCase("4d6sd", faces: [3, 4, 6, 1], 14, [["6", "4", "3", "1"]]),
        DiceCase("4d6kh3s", faces: [6, 4, 3, 1], 13, [["1 dropped", "3", "4", "6"]]),
    ]

    // MARK: - Explosions

    static let explosions: [DiceCase] = [
        DiceCase("2d6!", faces: [6, 6, 3, 5], 20, [["6 exploded", "6 exploded extra", "3 extra", "5"]]),
        DiceCase("1d6!", faces: [6, 6, 6, 2], 20, [["6 exploded", "6 exploded extra", "6 exploded extra", "2 extra"]]),
        DiceCase("2d6!>4", faces: [5, 6, 1, 2], 14, [["5 exploded", "6 exploded extra", "1 extra", "2"]]),
        DiceCase("2d6!<2", faces: [1, 3, 4], 8, [["1 exploded", "3 extra", "4"]]),
        DiceCase("2d6!<>4", faces: [4, 3, 4, 1], 11, [["4", "3 exploded", "4 extra"]]),
        DiceCase("4dF!", faces: [3, 3, 1, 2], 2,
                 [["1 exploded", "1 exploded extra", "-1 extra", "0", "1 exploded", "1 exploded extra", "-1 extra", "0"]]),
        DiceCase("d{1,2,3}!", faces: [3, 2], 5, [["3 exploded", "2 extra"]]),
        // compound: the extra rolls add into the same die
        DiceCase("2d6!!", faces: [6, 6, 3, 5], 20, [["15 exploded compounded", "5"]]),
        DiceCase("2d6!!>=5", faces: [5, 6, 1, 2], 14, [["12 exploded compounded", "2"]]),
        DiceCase("2d6!!=4", faces: [4, 4, 6, 2], 16, [["14 exploded compounded", "2"]]),
        DiceCase("3d6!!cs>=10", faces: [6, 5, 2, 3], 1, [["11 exploded compounded success", "2", "3"]]),
        DiceCase("2d6kh1!!", faces: [6, 6, 1, 3], 13, [["13 exploded compounded", "3 dropped"]]),
        // penetrate: each extra die counts one less
        DiceCase("2d6!p", faces: [6, 6, 3, 5], 18,
                 [["6 exploded", "5 exploded extra penetrated", "2 extra penetrated", "5"]]),
        DiceCase("3d6!p", faces: [6, 6, 1, 2, 3], 16,
                 [["6 exploded", "5 exploded extra penetrated", "0 extra penetrated", "2", "3"]]),
        DiceCase("1d6!p>=5", faces: [5, 6, 2], 11,
                 [["5 exploded", "5 exploded extra penetrated", "1 extra penetrated"]]),
        // explode, then keep: extra dice are dice of the pool
        DiceCase("3d6!kh2", faces: [6, 2, 3, 4], 10, [["6 exploded", "2 dropped extra", "3 dropped", "4"]]),
        DiceCase("3d6!kh2", faces: [6, 6, 2, 3, 4], 12,
                 [["6 exploded", "6 exploded extra", "2 dropped extra", "3 dropped", "4 dropped"]]),
        DiceCase("3d6kh2!", faces: [6, 2, 3, 4], 10, [["6 exploded", "2 dropped extra", "3 dropped", "4"]]),
        DiceCase("6d10!cs>=8", faces: [10, 8, 1, 9, 3, 2, 7], 3,
                 [["10 exploded success", "8 extra success", "1", "9 success", "3", "2", "7"]]),
    ]

    // MARK: - Rerolls

    static let rerolls: [DiceCase] = [
        DiceCase("1d6r", faces: [1, 1, 4], 4, [["1 rerolled", "1 rerolled", "4"]]),
        DiceCase("1d6ro", faces: [1, 1, 4], 1, [["1 rerolled", "1"]]),
        DiceCase("1d6r<3", faces: [2, 1, 5], 5, [["2 rerolled", "1 rerolled", "5"]]),
        DiceCase("1d6ro<3", faces: [2, 1], 1, [["2 rerolled", "1"]]),
        DiceCase("1d6r1r2", faces: [1, 2, 1, 3], 3, [["1 rerolled", "2 rerolled", "1 rerolled", "3"]]),
        DiceCase("1d6r1ro2", faces: [2, 1, 2, 5], 2, [["2 rerolled", "1 rerolled", "2"]]),
        DiceCase("2d6r", faces: [6, 6], 12, [["6", "6"]]),
        // bare r on dF rerolls the lowest face, -1
        DiceCase("1dFr", faces: [1, 1, 3], 1, [["-1 rerolled", "-1 rerolled", "1"]]),
        DiceCase("1dFr", faces: [1, 2], 0, [["-1 rerolled", "0"]]),
        DiceCase("d{2,3,5}r", faces: [1, 1, 2], 3, [["2 rerolled", "2 rerolled", "3"]]),
        // reroll, then explode; rerolls also apply to the extra dice, which stay extra
        DiceCase("2d6r!", faces: [1, 6, 3, 4], 13, [["1 rerolled", "6 exploded", "3 extra", "4"]]),
        DiceCase("1d6!r", faces: [6, 1, 2], 8, [["6 exploded", "1 rerolled extra", "2 extra"]]),
        DiceCase("2d6r1!", faces: [1, 6, 1, 3, 4], 13,
                 [["1 rerolled", "6 exploded", "1 rerolled extra", "3 extra", "4"]]),
        DiceCase("2d6!ro", faces: [6, 1, 2, 3], 11, [["6 exploded", "1 rerolled extra", "2 extra", "3"]]),
        // rerolled dice are not kept or counted
        DiceCase("3d6rkh1", faces: [1, 2, 5, 3], 5, [["1 rerolled", "2 dropped", "5", "3 dropped"]]),
    ]

    // MARK: - Clamps: every face as rolled, and later modifiers see the clamped face

    static let clamps: [DiceCase] = [
        DiceCase("3d6mi3", faces: [1, 2, 6], 12, [["3 clamped", "3 clamped", "6"]]),
        DiceCase("3d6ma4", faces: [6, 1, 5], 9, [["4 clamped", "1", "4 clamped"]]),
        DiceCase("3d6ma4r<2", faces: [6, 1, 5, 2], 10, [["4 clamped", "1 rerolled", "4 clamped", "2"]]),
        DiceCase("2d6mi2r2", faces: [1, 3, 4], 7, [["2 rerolled clamped", "3", "4"]]),
        DiceCase("1d6mi3r", faces: [2, 3, 5], 5, [["3 rerolled clamped", "3 rerolled", "5"]]),
        DiceCase("2d6mi3!", faces: [1, 6, 2, 5], 12, [["3 clamped", "6 exploded", "3 extra clamped"]]),
        DiceCase("4d6ma5!>=5", faces: [6, 1, 2, 3], 17,
                 [["5 exploded clamped", "1 extra", "2", "3", "5 exploded clamped", "1 extra"]]),
        DiceCase("2d6ma5!", faces: [6, 2, 3], 10, [["5 exploded clamped", "2 extra", "3"]]),
        DiceCase("2d6!!ma5", faces: [6, 6, 1, 2], 13, [["11 exploded compounded clamped", "2"]]),
        DiceCase("2d6mi4cs>=4", faces: [1, 3], 2, [["4 clamped success", "4 clamped success"]]),
        DiceCase("1d6mi7", faces: [2], 7, [["7 clamped"]]),
        DiceCase("4dFmi0", faces: [1, 2, 3, 1], 1, [["0 clamped", "0", "1", "0 clamped"]]),
    ]

    // MARK: - Counting

    static let counting: [DiceCase] = [
        DiceCase("6d10cs>=8", faces: [8, 1, 10, 5, 7, 1], 2,
                 [["8 success", "1", "10 success", "5", "7", "1"]]),
        DiceCase("6d10cf<3", faces: [8, 1, 10, 5, 7, 2], 2,
                 [["8", "1 failure", "10", "5", "7", "2 failure"]]),
        DiceCase("6d10cs>=8df=1", faces: [8, 1, 10, 5, 7, 1], 0,
                 [["8 success", "1 failure", "10 success", "5", "7", "1 failure"]]),
        DiceCase("6d10cs>=8df=1", faces: [9, 1, 3, 5, 7, 1], -1,
                 [["9 success", "1 failure", "3", "5", "7", "1 failure"]]),
        DiceCase("6d10df=1", faces: [8, 1, 10, 5, 7, 1], 30,
                 [["8", "1 failure", "10", "5", "7", "1 failure"]]),
        DiceCase("4d6cs6", faces: [6, 1, 6, 5], 2, [["6 success", "1", "6 success", "5"]]),
        DiceCase("4d6kh2cs>=4", faces: [6, 5, 4, 1], 2, [["6 success", "5 success", "4 dropped", "1 dropped"]]),
        DiceCase("4dFcs=1", faces: [3, 3, 1, 2], 2, [["1 success", "1 success", "-1", "0"]]),
    ]

    @Test(arguments: forms + keepAndDrop + explosions + rerolls + clamps + counting)
    func rollsScriptedFaces(_ c: DiceCase) throws {
        let roll = try rollScripted(c.input, faces: c.faces)
        #expect(roll.value == c.value)
        #expect(describeDice(roll) == c.dice)
    }

    /// `value(of:)`, the path of `--total` and of simulations, keeps only the values that
    /// count; on the same faces it gives the same value as the full roll.
    @Test(arguments: forms + keepAndDrop + explosions + rerolls + clamps + counting)
    func theValuePathAgreesOnScriptedFaces(_ c: DiceCase) throws {
        var evaluator = Evaluator(environment: Environment(), source: ScriptedDice(c.faces))
        #expect(try evaluator.value(of: Parser.parseExpression(c.input)) == c.value)
    }

    /// An evaluator remembers the plans of the last terms it rolled with literal arguments;
    /// rolling many terms in turn, again and again, gives what a fresh evaluator gives.
    @Test func rememberedPlansGiveTheSameRolls() throws {
        let texts = ["4d6kh3", "1d4ro1", "4d6!", "2d20kh1", "6d10!cs>=8df=1", "3d6r1", "4d6mi2ma5", "8d6dl2",
                     "4dF", "d{1,1,2,3}!", "2d%kl1", "10d10!!>8", "5d6!p", "3d8sd", "(1d4)d6kh1", "2d6cs>(1d4)"]
        let exprs = try texts.map { try Parser.parseExpression($0) }
        var reused = Evaluator(environment: Environment(), source: Xoshiro256StarStar(seed: 3))
        for round in 0..<3 {
            for (text, expr) in zip(texts, exprs) {
                var fresh = Evaluator(environment: Environment(), source: reused.source)
                let expected = try fresh.evaluate(expr)
                var forValue = reused
                #expect(try reused.evaluate(expr) == expected, "\(text), round \(round)")
                var freshForValue = Evaluator(environment: Environment(), source: forValue.source)
                #expect(try forValue.value(of: expr) == freshForValue.value(of: expr), "\(text), round \(round)")
            }
        }
    }

    /// A term whose count and sides are literals is rolled from what its term worked out
    /// once, but its literals still count as nested evaluations: at the depth limit the
    /// written count (or sides) is one too deep, as when it was evaluated, and `d%`, which
    /// has neither, is not.
    @Test func literalCountsAndSidesStillCountAgainstTheDepthLimit() throws {
        func roll(_ text: String) throws(DiceError) -> Roll {
            let expr = try Parser.parseExpression(text)
            var evaluator = Evaluator(environment: Environment(), limits: Limits(maxEvaluationDepth: 5),
                                      source: ScriptedDice([3]))
            return try evaluator.evaluate(expr)
        }
        #expect(try roll("---2d6").value == .integer(-6))
        #expect(try roll("----d%").value == .integer(3))
        for text in ["----2d6", "----d6", "----2d6kh1"] {
            let error = diceError { () throws(DiceError) in try roll(text) }
            #expect(error?.kind == .evaluationTooDeep, "\(text)")
            // At the count (or the sides when there is no count): the literal one too deep.
            #expect(error?.range.lowerBound.offset == (text.contains("2d") ? 4 : 5), "\(text)")
        }
    }

    /// `Session.roll(_:)` parses a text once and rolls it afresh each time; a text that does
    /// not parse fails every time.
    @Test func sessionRollsTextItHasParsedBefore() throws {
        var session = Session(seed: 11)
        var reference = Session(seed: 11)
        for _ in 0..<5 {
            let roll = try session.roll("2d20kh1 + 5")
            #expect(roll == (try reference.roll(Parser.parseExpression("2d20kh1 + 5"))))
            let error = diceError { () throws(DiceError) in try session.roll("2d20kh1 +") }
            #expect(error != nil)
        }
    }

    /// A sum fails only when its total does not fit, whatever order the kept dice are added in.
    @Test func aSumOverflowsOnlyWhenItsTotalDoesNotFit() throws {
        let faces = "{9223372036854775807, -9223372036854775807, 5}"
        for text in ["3d\(faces)", "3d\(faces)kh3", "3d\(faces)dl0"] {
            // Rolled order max, max, min: the first two alone overflow; the total fits.
            var full = Evaluator(environment: Environment(), source: ScriptedDice([1, 1, 2]))
            var fast = full
            let expr = try Parser.parseExpression(text)
            #expect(try full.evaluate(expr).value == .integer(9_223_372_036_854_775_807), "\(text)")
            #expect(try fast.value(of: expr) == .integer(9_223_372_036_854_775_807), "\(text)")
        }
        var evaluator = Evaluator(environment: Environment(), source: ScriptedDice([1, 1, 3]))
        let overflowing = try Parser.parseExpression("3d\(faces)kh3")
        let error = diceError { () throws(DiceError) in try evaluator.value(of: overflowing) }
        #expect(error?.kind == .overflow)
    }

    /// Dice rolled for a computed count, sides or compare point are part of the result tree
    /// (LANGUAGE.md §6: every die as rolled; `rolls` describes every die).
    @Test(arguments: ["(1d4)d6", "2d(1d4 + 2)", "2d6cs>(1d4)"])
    func diceOfComputedArgumentsAreInTheResultTree(_ input: String) throws {
        let roll = try rollScripted(input, faces: [3, 1, 2, 6])
        #expect(roll.pools.map(\.notation).contains { $0.hasPrefix("1d4") }, "pools: \(roll.pools.map(\.notation))")
    }

    // MARK: - Groups and repeat (§4)

    static let groups: [GroupCase] = [
        GroupCase("{3, 5, 1}kh2", .integer(8), ["3", "5", "1x"]),
        GroupCase("{1d20+5, 1d20+5}kh1", faces: [4, 17], .integer(22), ["9x", "22"]),
        GroupCase("{1d20+5, 1d20+5}kl1", faces: [4, 17], .integer(9), ["9", "22x"]),
        GroupCase("{1d6, 1d8}", faces: [2, 7], .integer(9), ["2", "7"]),
        GroupCase("{1, 2, 3}dh1", .integer(3), ["1", "2", "3x"]),
        GroupCase("{1, 2, 3}d1", .integer(5), ["1x", "2", "3"]),
        GroupCase("{1, 2, 3}kh5", .integer(6), ["1", "2", "3"]),
        GroupCase("{1, 2, 3}dl5", .integer(0), ["1x", "2x", "3x"]),
        GroupCase("{1.5, 2}kh1", .integer(2), ["1.5x", "2"]),
        GroupCase("{1.5, 2}", .ratio(7, 2), ["1.5", "2"]),
        GroupCase("{1, 2, 3}sd", .integer(6), ["3", "2", "1"]),
        GroupCase("{1d6, 1d6, 1d6}cs>=4", faces: [2, 5, 6], .integer(2), ["2", "5*", "6*"]),
        GroupCase("{1d6, 1d6, 1d6}cf<3", faces: [2, 5, 6], .integer(1), ["2_", "5", "6"]),
        GroupCase("{1d6, 1d6, 1d6}cs>=4df=2", faces: [2, 5, 6], .integer(1), ["2_", "5*", "6*"]),
        GroupCase("{1d6, 1d6, 1d6}kh2cs>=5", faces: [2, 5, 6], .integer(2), ["2x", "5*", "6*"]),
        GroupCase("repeat(3, 1d6)", faces: [2, 5, 6], .integer(13), ["2", "5", "6"]),
        GroupCase("repeat(3, 1d6)kh2", faces: [2, 5, 6], .integer(11), ["2x", "5", "6"]),
        GroupCase("repeat(3, 1d6)cs>=5", faces: [5, 2, 6], .integer(2), ["5*", "2", "6*"]),
        GroupCase("repeat(0, 1d6)", .integer(0), []),
        GroupCase("repeat(1 + 1, 2d6)", faces: [1, 2, 3, 4], .integer(10), ["3", "7"]),
        GroupCase("repeat(2, {1d6, 1d6}kh1)", faces: [1, 4, 6, 2], .integer(10), ["4", "6"]),
        GroupCase("repeat(6, 4d6kh3)", faces: [6, 4, 3, 1, 2, 2, 5],
                  .integer(72), ["13", "13", "9", "15", "7", "15"]),
    ]

    @Test(arguments: groups)
    func rollsGroups(_ c: GroupCase) throws {
        let roll = try rollScripted(c.input, faces: c.faces)
        #expect(roll.value == c.value)
        guard case .group(let group) = roll.kind else {
            Issue.record("not a group: \(roll.kind)")
            return
        }
        let members = group.members.map {
            $0.roll.value.description + ($0.kept ? "" : "x") + ($0.success ? "*" : "") + ($0.failure ? "_" : "")
        }
        #expect(members == c.members)
        #expect(group.isRepeat == c.input.hasPrefix("repeat"))
    }

    @Test func repeatEvaluatesItsBodyIndependently() throws {
        let roll = try rollScripted("repeat(4, 1d20)", faces: [3, 9, 14, 20])
        guard case .group(let group) = roll.kind else {
            Issue.record("not a group")
            return
        }
        #expect(group.members.map(\.roll.value) == [3, 9, 14, 20].map(Value.integer))
        #expect(roll.pools.count == 4)
    }

    @Test func annotationsAreCarriedToThePools() throws {
        let roll = try rollScripted("2d6 [fire] + 1d8 [cold] + 1d4", faces: [2, 5, 6, 3])
        #expect(roll.pools.map(\.annotation) == ["fire", "cold", nil])
        let group = try rollScripted("{2d6, 1d4} [both]", faces: [2, 5, 6])
        #expect(group.pools.map(\.annotation) == ["both", "both"])
        #expect(group.value == .integer(11))
    }
}
