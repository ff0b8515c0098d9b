import Testing
@testable import DiceKit

/// A `stats` expression fails, as a roll would, when some outcome with positive
/// probability fails: the same kind and the same place as the roller's error.
struct StatsErrorTests {
    struct Case: Sendable, CustomTestStringConvertible {
        /// Definitions, then the expression (after the last "; ").
        var program: String
        /// Faces that make the roller fail the same way.
        var faces: [Int]
        var expected: DiceError.Kind
        var testDescription: String { program }
    }

    static let cases: [Case] = [
        Case(program: "1/(1d2-1)", faces: [1], expected: .divisionByZero),
        Case(program: "1d6 % (1d3 - 2)", faces: [1, 2], expected: .divisionByZero),
        Case(program: "1d1!", faces: [1], expected: .explosionMatchesEveryFace),
        Case(program: "2d6r<7", faces: [1], expected: .rerollMatchesEveryFace),
        Case(program: "1d6ma3r<4", faces: [1], expected: .rerollMatchesEveryFace),
        Case(program: "1d6r1r2r3r4r5!", faces: [6], expected: .explosionMatchesEveryFace),
        Case(program: "let p = 5d6!>0 in count(p, >=5)", faces: [6], expected: .explosionMatchesEveryFace),
        Case(program: "let p = 5d6r<7 in count(p, >=5)", faces: [6], expected: .rerollMatchesEveryFace),
        Case(program: "(1d6!>0)d6", faces: [6], expected: .explosionMatchesEveryFace),
        // A bound pool's rolled count, sides or modifier argument, checked as the roller checks it.
        Case(program: "let p = (1d3-2)d6 in count(p, =6)", faces: [1], expected: .invalidCount(.integer(-1))),
        Case(program: "1 + (let p = (1d4-2)d6 in count(p, =6))", faces: [1], expected: .invalidCount(.integer(-1))),
        Case(program: "let p = 2d(1d2-1) in count(p, =1)", faces: [1], expected: .invalidSides(.integer(0))),
        Case(program: "let p = 4d6kh(1d2-2) in count(p, =1)", faces: [1],
             expected: .invalidModifierArgument(.keepHighest, value: .integer(-1))),
        Case(program: "let p = (1d2+5)d6u in count(p, =1)", faces: [2], expected: .tooFewFacesForUnique(dice: 7, faces: 6)),
        Case(program: "let p = 2d6!>=(1d2) in count(p, =6)", faces: [1], expected: .explosionMatchesEveryFace),
        Case(program: "let p = {1d6, 1d8}kh(1d2 - 2) in count(p, >=5)", faces: [1, 1, 1],
             expected: .invalidModifierArgument(.keepHighest, value: .integer(-1))),
        Case(program: "let p = repeat(2, 1d6)dl(1d2 - 2) in count(p, >=5)", faces: [1, 1, 1],
             expected: .invalidModifierArgument(.dropLowest, value: .integer(-1))),
        Case(program: "def r = 1d6 + r; r", faces: [1], expected: .macroRecursion(limit: 100)),
        Case(program: "(1d2-2)d6", faces: [1], expected: .invalidCount(.integer(-1))),
        Case(program: "(1d2/2)d6", faces: [1], expected: .invalidCount(.ratio(1, 2))),
        Case(program: "2d(1d2-1)", faces: [1], expected: .invalidSides(.integer(0))),
        Case(program: "4d6kh(1.5)", faces: [1], expected: .invalidModifierArgument(.keepHighest, value: .ratio(3, 2))),
        Case(program: "4d6dl(1d2-2)", faces: [1], expected: .invalidModifierArgument(.dropLowest, value: .integer(-1))),
        Case(program: "1d6mi(1d2/2)", faces: [1], expected: .invalidModifierArgument(.minimum, value: .ratio(1, 2))),
        Case(program: "foo + 1", faces: [], expected: .unknownName("foo", suggestion: nil)),
        Case(program: "zzzzzz", faces: [], expected: .unknownName("zzzzzz", suggestion: nil)),
        Case(program: "def atk = 1d20; akt + 1", faces: [], expected: .unknownName("akt", suggestion: "atk")),
        Case(program: "1d6!!!", faces: [1], expected: .conflictingModifiers(.compound, .explode)),
        Case(program: "4d6cs>3cf<2", faces: [1],
             expected: .conflictingModifiers(.countSuccesses, .countFailures)),
        Case(program: "4d6df1df2", faces: [1], expected: .conflictingModifiers(.subtractFailures, .subtractFailures)),
        Case(program: "{1d6, 2}r", faces: [1], expected: .modifierAppliesToDice(.reroll)),
        Case(program: "repeat(2, 1d6)!", faces: [1], expected: .modifierAppliesToDice(.explode)),
        Case(program: "repeat(2, 1d6)u", faces: [1], expected: .modifierAppliesToDice(.unique)),
        // `count` rolls its pool as written first: the pool's own counting fails alike.
        Case(program: "count(2d{(a: 1), ()}df>=1, =1)", faces: [1, 1], expected: .textDiceOperation("'df' with an ordering")),
        Case(program: "count(2d6df=\"x\", >=5)", faces: [1, 1], expected: .notANumber(.text("x"), needed: "a modifier")),
        Case(program: "repeat(1d2-2, 1d6)", faces: [1], expected: .invalidRepeatCount(.integer(-1))),
        Case(program: "20000000d6", faces: [1], expected: .tooManyDice(limit: 10_000_000)),
        Case(program: "repeat(20000000, 1)", faces: [1], expected: .tooManyDice(limit: 10_000_000)),
        Case(program: "2d{9223372036854775807}", faces: [1], expected: .overflow),
        Case(program: "1d6 * 9223372036854775807", faces: [2], expected: .overflow),
        Case(program: "-(1d2 - 9223372036854775807 - 2)", faces: [1], expected: .overflow),
        Case(program: "def f(x) = 1/x; f(1d2-1)", faces: [1], expected: .inMacro(name: "f", .divisionByZero)),
        Case(program: "def f(x) = 1/x; def g(y) = f(y) + 1; g(1d2-1)", faces: [1],
             expected: .inMacro(name: "f", .divisionByZero)),
        Case(program: "def f(x, y) = x; f(1)", faces: [], expected: .macroArity(name: "f", expected: 2, got: 1)),
        Case(program: "def g(a) = a; g + 1", faces: [], expected: .macroArity(name: "g", expected: 1, got: 0)),
        Case(program: "x = 3; x(1)", faces: [], expected: .variableCalledAsMacro("x")),
        Case(program: "abs(1d2 - 9223372036854775807 - 2)", faces: [1], expected: .overflow),
        Case(program: "(1d2+1)^-1 + 0^(1d2-2)", faces: [1, 1], expected: .divisionByZero),
        // An ordering compare point counting texts, or a text point counting numbers.
        Case(program: #"count(4d{"hit","miss"}, >=5)"#, faces: [1],
             expected: .notANumber(.text("hit"), needed: "the compare point")),
        Case(program: #"let p = 4d{"hit","miss"} in count(p, >=5)"#, faces: [1],
             expected: .notANumber(.text("hit"), needed: "the compare point")),
        Case(program: #"count({"a", 1d6}, >=5)"#, faces: [1], expected: .notANumber(.text("a"), needed: "the compare point")),
        Case(program: #"count(repeat(2, d{"a","b"}), >=1)"#, faces: [1],
             expected: .notANumber(.text("a"), needed: "the compare point")),
        Case(program: #"let p = 3d6 in count(p, >="a")"#, faces: [1],
             expected: .notANumber(.text("a"), needed: "the compare point")),
        Case(program: #"count(3d6, >="a")"#, faces: [1], expected: .notANumber(.text("a"), needed: "the compare point")),
        Case(program: #"count(2d{(s: 1), ()}, <2)"#, faces: [1],
             expected: .notANumber(.tally(DiceKit.Tally([("s", .integer(1))])), needed: "the compare point")),
        // A point known only at the count is checked there, after its value, against the
        // dice of the pool's outcome (here, first, four misses).
        Case(program: #"let p = 4d{"hit","miss"} in let x = 3 in count(p, >=(x))"#, faces: [2],
             expected: .notANumber(.text("miss"), needed: "the compare point")),
        Case(program: #"let p = 2d{"a"} in count(p, <(1/0))"#, faces: [1, 1], expected: .divisionByZero),
        Case(program: #"let p = 3d6 in let t = "a" in count(p, >=(t))"#, faces: [1],
             expected: .notANumber(.text("a"), needed: "the compare point")),
        Case(program: #"let p = {1d6, d{"a"}} in let x = 3 in count(p, >=(x))"#, faces: [1, 1],
             expected: .notANumber(.text("a"), needed: "the compare point")),
        Case(program: #"count({1d6, 1d6}, >=(d{1, "a"}))"#, faces: [1, 1, 2],
             expected: .notANumber(.text("a"), needed: "the compare point")),
        Case(program: "let p = 2d6 in let x = 1d2 - 1 in count(p, <(1/x))", faces: [1, 1, 1], expected: .divisionByZero),
        // The roller rolls the pool (its count, sides and modifiers' arguments), then the point.
        Case(program: "count(repeat(1d2-2, 1d6), =(1/(1d2-1)))", faces: [1], expected: .invalidRepeatCount(.integer(-1))),
        Case(program: "count(2d(1d2-1), =(1/(1d2-1)))", faces: [1], expected: .invalidSides(.integer(0))),
        Case(program: "count(2d6kh(1d2-2), <(1/(1d2-1)))", faces: [1],
             expected: .invalidModifierArgument(.keepHighest, value: .integer(-1))),
        Case(program: "let p = 2d(1d2-1) in count(p, <(1/(1d2-1)))", faces: [1], expected: .invalidSides(.integer(0))),
        Case(program: "let p = {1d6, 1d6}kh(1d2-2) in count(p, <(1/(1d2-1)))", faces: [1, 1, 1],
             expected: .invalidModifierArgument(.keepHighest, value: .integer(-1))),
        // So does an ordering pattern of a match tried against a text, at the value matched.
        Case(program: #"match "q" { >=3: 1, else: 0 }"#, faces: [],
             expected: .notANumber(.text("q"), needed: "the compare point")),
        Case(program: #"match d{1, "q"} { 1: 0, 2-4: 1, else: 2 }"#, faces: [2],
             expected: .notANumber(.text("q"), needed: "the compare point")),
        // A text member of a group or repeat, at the member.
        Case(program: #"{"a", "b"}"#, faces: [], expected: .notANumber(.text("a"), needed: "a group's sum")),
        Case(program: #"{1d6, d{1, "b"}}"#, faces: [1, 2], expected: .notANumber(.text("b"), needed: "a group's sum")),
        Case(program: #"repeat(2, "a")"#, faces: [], expected: .notANumber(.text("a"), needed: "a repeat's sum")),
        // A count, sides or modifier argument that is a text, in the roller's words.
        Case(program: #"("a")d6"#, faces: [], expected: .notANumber(.text("a"), needed: "the number of dice")),
        Case(program: #"let p = ("a")d6 in count(p, =1)"#, faces: [], expected: .notANumber(.text("a"), needed: "the number of dice")),
        Case(program: #"count(("a")d6, =1)"#, faces: [], expected: .notANumber(.text("a"), needed: "the number of dice")),
        Case(program: #"2d("a")"#, faces: [], expected: .notANumber(.text("a"), needed: "the number of sides")),
        Case(program: #"let p = 2d(d{1, "x"}) in count(p, =1)"#, faces: [2],
             expected: .notANumber(.text("x"), needed: "the number of sides")),
        Case(program: #"4d6kh("a")"#, faces: [], expected: .notANumber(.text("a"), needed: "a modifier")),
        Case(program: #"let p = 4d6kh("x") in count(p, =1)"#, faces: [], expected: .notANumber(.text("x"), needed: "a modifier")),
        Case(program: #"{1d6, 1d6}kh("a")"#, faces: [1, 1], expected: .notANumber(.text("a"), needed: "a modifier")),
        Case(program: #"repeat("a", 1d6)"#, faces: [], expected: .notANumber(.text("a"), needed: "a count")),
        Case(program: #"count(repeat("a", 1d6), =1)"#, faces: [], expected: .notANumber(.text("a"), needed: "a count")),
        Case(program: #"let p = repeat("a", 1d6) in count(p, =1)"#, faces: [], expected: .notANumber(.text("a"), needed: "a count")),
        Case(program: #"repeat(1d2, d{1, "b"})"#, faces: [1, 2], expected: .notANumber(.text("b"), needed: "a repeat's sum")),
        Case(program: #"let p = {"a", "b"} in count(p, ="a") + p"#, faces: [], expected: .notANumber(.text("a"), needed: "a group's sum")),
        Case(program: #"let p = 2d{"a", "b"} in p"#, faces: [1, 2], expected: .textDiceOperation("a sum of several text dice")),
        // An explosion on every face is found before too few faces for `u`, as rolled.
        Case(program: "let p = 2d4ma1u! in count(p, =1)", faces: [1, 1], expected: .explosionMatchesEveryFace),
        Case(program: #"let p = 2d{(s: 1), 2} in p"#, faces: [1, 1],
             expected: .textDiceOperation("a sum of several dice whose faces mix tallies and numbers other than 0")),
        // Keep/drop or counting over a text member: at the member, rolled, exact and bound alike.
        Case(program: #"{1d6, "a"}kh1"#, faces: [3], expected: .notANumber(.text("a"), needed: "keep/drop and counting over members")),
        Case(program: #"repeat(2, d{"a", 1})kh1"#, faces: [1, 2],
             expected: .notANumber(.text("a"), needed: "keep/drop and counting over members")),
        Case(program: #"let p = {2, "a"}kh1 in count(p, =2)"#, faces: [],
             expected: .notANumber(.text("a"), needed: "keep/drop and counting over members")),
        Case(program: #"let p = repeat(3, d{"a", 1})cs=1 in count(p, =1)"#, faces: [1, 1, 1],
             expected: .notANumber(.text("a"), needed: "keep/drop and counting over members")),
    ]

    @Test(arguments: StatsErrorTests.cases)
    func failsLikeTheRoller(_ c: Case) throws {
        let parts = c.program.components(separatedBy: "; ")
        let (_, environment) = try StatsHarness.prepare(parts.dropLast().joined(separator: "; ") + "; 0")
        let expr = try Parser.parseExpression(parts.last!)
        var statsError: DiceError?
        do {
            _ = try Stats.exactDistribution(of: expr, environment: environment)
        } catch let error as DiceError {
            statsError = error
        }
        var evaluator = Evaluator(environment: environment, source: ScriptedDice(c.faces))
        let rollError = diceError { () throws(DiceError) in try evaluator.evaluate(expr) }
        #expect(statsError?.kind == c.expected)
        #expect(statsError == rollError, "roller: \(String(describing: rollError))")
    }

    /// A condition that never holds is pointed at, rolled (1,000 tries), exact (probability 0)
    /// and simulated (no roll kept) alike. A simulation words it as the exact engine does: it
    /// said the condition did not hold in so many rolls, as if more might do.
    @Test(arguments: ["1d6 given ‸1d6 > 6", "let r = 1d6 in r given ‸r > 6", "(1d6 given 1d6 > 0) + (1d6 given ‸1d6 > 6)",
                      "let r = 1d6 in let s = r + 1 in s given ‸s > 7"])
    func anImpossibleConditionIsPointedAt(_ marked: String) throws {
        let text = MarkedText(marked)
        let expr = try Parser.parseExpression(text.text)
        var exact: DiceError?
        do {
            _ = try Stats.exactDistribution(of: expr, environment: Environment())
        } catch let error as DiceError {
            exact = error
        }
        var evaluator = Evaluator(environment: Environment(), source: Xoshiro256StarStar(seed: 1))
        let rolled = diceError { () throws(DiceError) in try evaluator.evaluate(expr) }
        var limits = Limits.standard
        limits.stats = StatsBudget(maxWork: 10, maxSimulationWork: 100_000)
        let simulated = diceError { () throws(DiceError) in
            _ = try Stats.simulate(expr, environment: Environment(), limits: limits, seed: 7, rolls: 3_000)
        }
        #expect(exact?.kind == .conditionImpossible)
        #expect(simulated?.kind == .conditionImpossible)
        #expect(rolled?.kind == .conditionNeverHeld(tries: 1_000))
        #expect(rolled?.position(in: text.text) == TextPosition(line: text.line ?? 0, column: text.column ?? 0))
        #expect(exact?.range == rolled?.range)
        #expect(simulated?.range == rolled?.range)
    }

    /// A `given` too large to be exact whose condition can never hold, in a simulation, is said
    /// to be impossible, as the exact engine says it: `100d100!kh50kl20 given 1d6 > 6` said the
    /// condition did not hold in 97077 rolls.
    @Test(arguments: ["100d100!kh50kl20 given ‸1d6 > 6", "let r = 20d6!kh10kl5 in r given ‸r < 5 or r > 30"])
    func anImpossibleConditionTooLargeToBeExactIsSaidToBeSo(_ marked: String) throws {
        let text = MarkedText(marked)
        let expr = try Parser.parseExpression(text.text)
        var limits = Limits.standard
        limits.stats = StatsBudget(maxWork: 10, maxSimulationWork: 100_000)
        let error = diceError { () throws(DiceError) in
            _ = try Stats.distribution(of: expr, environment: Environment(), limits: limits)
        }
        #expect(error?.kind == .conditionImpossible, "\(String(describing: error?.message))")
        #expect(error?.position(in: text.text) == TextPosition(line: text.line ?? 0, column: text.column ?? 0))
    }

    @Test func faultsOnlyOnOutcomesThatHappen() throws {
        // 1d2 is never 0, 1d6 - 7 is never 0: no error.
        #expect(try StatsHarness.report("6 / 1d2 + 1 // (1d6 - 7)").exact)
        #expect(try StatsHarness.report("(-9223372036854775807 - 1) % -1").distribution.constantValue == .integer(0))
        #expect(try StatsHarness.report("0d6!kh1").distribution.constantValue == .integer(0))
        // No dice, nothing compared: no error.
        #expect(try StatsHarness.report(#"let p = 0d{"a"} in count(p, >=1)"#).distribution.constantValue == .integer(0))
        #expect(try StatsHarness.report(#"count(repeat(0, "a"), >=1)"#).distribution.constantValue == .integer(0))
        // A count's point is worked out where the count is: never here.
        #expect(try StatsHarness.report("let p = 2d6 in if p > 100 then count(p, <(1/0)) else 1")
            .distribution.constantValue == .integer(1))
        #expect(try StatsHarness.report("let p = {1d6, 1d6} in if p > 100 then count(p, =(1/0)) else 1")
            .distribution.constantValue == .integer(1))
        // One big die needs no convolution.
        #expect(try StatsHarness.report("1d100000").distribution.count == 100_000)
    }

    @Test func tooMuchWorkAsksForSimulation() {
        // Bounds of size and shape are checked before any work.
        for program in ["1d1000000000", "4d%!p>50dh1dl1"] {
            #expect(StatsHarness.error(program) is StatsError, "\(program)")
        }
        // Work: a small budget, so that the test is quick.
        let tight = StatsBudget(maxWork: 100_000)
        for program in ["1000d6dl1", "200d100 * 200d100", "20d6 * 20d6 * 20d6", "100d6!pdl50", "1d5000 * 1d5000", "10d20u!kh3",
                        "12d20u!"] {
            #expect(StatsHarness.error(program, budget: tight) is StatsError, "\(program)")
        }
        #expect(StatsHarness.error("10d6kh3", budget: StatsBudget(maxWork: 10)) is StatsError)
    }

    @Test func theHostCanStopLongWork() throws {
        let expr = try Parser.parseExpression("10000d100 + 1")
        #expect(throws: DiceError(.interrupted, at: expr.range)) {
            try Stats.exactDistribution(of: expr, environment: Environment(), shouldStop: { true })
        }
        #expect(try Stats.exactDistribution(of: expr, environment: Environment(), shouldStop: { false }).exact)
    }

    @Test func deepMacroNestingIsAnError() throws {
        // Each level nests one more parenthesised call; beyond the depth bound, an error, not a crash.
        var program = "def f0(x) = x + 1d2"
        let open = String(repeating: "(", count: 10), close = String(repeating: ")", count: 10)
        for level in 1...99 { program += "; def f\(level)(x) = f\(level - 1)(\(open)x + 1\(close))" }
        program += "; f99(1)"
        let result = Result { try StatsHarness.report(program) }
        switch result {
        case .success(let report): #expect(report.distribution.outcomes.map(\.value) == [.integer(101), .integer(102)])
        case .failure(let error): #expect((error as? DiceError)?.kind.isDepthError == true, "\(error)")
        }
    }
}

extension DiceError.Kind {
    var isDepthError: Bool {
        switch innermost {
        case .evaluationTooDeep, .macroRecursion: return true
        default: return false
        }
    }
}
