import Testing
@testable import DiceKit

/// An expression without dice (or with its faces scripted) and its exact value.
struct ValueCase: Sendable, CustomTestStringConvertible {
    var input: String
    var expected: Number
    init(_ input: String, _ expected: Int) {
        self.input = input
        self.expected = .integer(expected)
    }
    init(_ input: String, decimal expected: Double) {
        self.input = input
        self.expected = Number.nearest(to: expected) ?? .integer(Int.min)
    }
    var testDescription: String { input }
}

/// Input with the error position marked by `‸`, and the error's kind.
struct EvalErrorCase: Sendable, CustomTestStringConvertible {
    var marked: String
    var expected: DiceError.Kind
    var faces: [Int]
    init(_ marked: String, _ expected: DiceError.Kind, faces: [Int] = []) {
        self.marked = marked
        self.expected = expected
        self.faces = faces
    }
    var testDescription: String { marked }
}

@Suite struct ArithmeticTests {
    static let exact: [ValueCase] = [
        // §1: operators, precedence and true division
        ValueCase("1 + 2 * 3", 7),
        ValueCase("(1 + 2) * 3", 9),
        ValueCase("1 - 2 - 3", -4),
        ValueCase("10 - 2 * 3 ^ 2", -8),
        ValueCase("-2^2", -4),
        ValueCase("(-2)^2", 4),
        ValueCase("(-2)^3", -8),
        ValueCase("2^3^2", 512),
        ValueCase("(2^3)^2", 64),
        ValueCase("2^-1", decimal: 0.5),
        ValueCase("2^-2", decimal: 0.25),
        ValueCase("0^0", 1),
        ValueCase("0^5", 0),
        ValueCase("4^0.5", 2),
        ValueCase("(1/8)^(1/3)", decimal: 0.5),
        ValueCase("8^(2/3)", 4),
        ValueCase("4^-0.5", decimal: 0.5),
        ValueCase("(4/9)^1.5", decimal: 8.0 / 27.0),
        ValueCase("(-8)^(1/3)", -2),
        ValueCase("0^0.5", 0),
        ValueCase("1^(1/1000)", 1),
        ValueCase("6/2", 3),
        ValueCase("7/2", decimal: 3.5),
        ValueCase("-7/2", decimal: -3.5),
        ValueCase("1/3", decimal: 1.0 / 3.0),
        ValueCase("7 / 2 * 2", 7),
        ValueCase("0.5 + 0.5", 1),
        ValueCase("1.5 * 2", 3),
        ValueCase("0.1 + 0.2", decimal: 0.3),
        ValueCase("floor(15 / 11 * 11)", 15),
        ValueCase("1/3 + 1/6", decimal: 0.5),
        ValueCase("1/3 * 3", 1),
        ValueCase("0.1 * 3 - 0.3", 0),
        ValueCase("9223372036854775807 / 2 * 2", 9223372036854775807),
        // A result within 64 bits is a number though the work passes them (LANGUAGE.md §1).
        ValueCase("9223372036854775807 / 2 + 9223372036854775807 / 2", 9223372036854775807),
        ValueCase("9223372036854775807/4 + 9223372036854775805/4", 4611686018427387903),
        ValueCase("9223372036854775807/2 - (-9223372036854775807/2)", 9223372036854775807),
        ValueCase("1/3 - (-9223372036854775807 - 1)/3", 3074457345618258603),
        ValueCase("9223372036854775807 % 2.5", 2),
        ValueCase("9223372036854775807 % (9223372036854775806/3)", 1),
        ValueCase("7 // 2", 3),
        ValueCase("-7 // 2", -4),
        ValueCase("7 // -2", -4),
        ValueCase("-7 // -2", 3),
        ValueCase("7.5 // 2", 3),
        ValueCase("-7.5 // 2", -4),
        ValueCase("7 % 3", 1),
        ValueCase("-7 % 3", 2),
        ValueCase("7 % -3", -2),
        ValueCase("-7 % -3", -1),
        ValueCase("6 % 3", 0),
        ValueCase("7.5 % 2", decimal: 1.5),
        ValueCase("-7.5 % 2", decimal: 0.5),
        ValueCase("3 % 1.5", 0),
        ValueCase("1 % (1/3)", 0),
        ValueCase("-1/3 % 1", decimal: 2.0 / 3.0),
        ValueCase("(1/2) // (1/3)", 1),
        ValueCase("+3", 3),
        ValueCase("--3", 3),
        ValueCase("-(3)", -3),
        // comparisons: 1 or 0, loosest
        ValueCase("1 < 2", 1),
        ValueCase("2 <= 1", 0),
        ValueCase("3 > 2", 1),
        ValueCase("3 >= 3", 1),
        ValueCase("1 == 1.0", 1),
        ValueCase("1 != 1", 0),
        ValueCase("0.1 + 0.2 == 0.3", 1),
        ValueCase("1/3 < 0.3333333333", 0),
        ValueCase("-1/3 < -0.3333333333", 1),
        ValueCase("1 + 1 == 2", 1),
        ValueCase("2 * 3 > 5", 1),
        ValueCase("9007199254740993 > 9007199254740992.0", 1),
        // functions
        ValueCase("abs(-3)", 3),
        ValueCase("abs(2)", 2),
        ValueCase("abs(-2.5)", decimal: 2.5),
        ValueCase("floor(1.5)", 1),
        ValueCase("floor(-1.5)", -2),
        ValueCase("floor(3)", 3),
        ValueCase("floor(-7/2)", -4),
        ValueCase("ceil(1.5)", 2),
        ValueCase("ceil(-1.5)", -1),
        ValueCase("ceil(1.0001)", 2),
        ValueCase("round(2.5)", 3),
        ValueCase("round(-2.5)", -3),
        ValueCase("round(0.5)", 1),
        ValueCase("round(-0.5)", -1),
        ValueCase("round(1.49)", 1),
        ValueCase("round(2.4999)", 2),
        ValueCase("round(7/2)", 4),
        ValueCase("round(7)", 7),
        ValueCase("min(3, 1, 2)", 1),
        ValueCase("max(3, 1, 2)", 3),
        ValueCase("min(1.5, 2)", decimal: 1.5),
        ValueCase("max(-1, -1.5)", -1),
        ValueCase("min(7)", 7),
        ValueCase("max(1, 2) * min(3, 4)", 6),
        // 64-bit edges
        ValueCase("9223372036854775807", Int.max),
        ValueCase("-9223372036854775807 - 1", Int.min),
        ValueCase("-4611686018427387904 * 2", Int.min),
        ValueCase("9223372036854775807 - 9223372036854775807", 0),
        ValueCase("(-9223372036854775807 - 1) % -1", 0),
        ValueCase("(-9223372036854775807 - 1) // 1", Int.min),
        ValueCase("(-9223372036854775807 - 1) % 10", 2),
        ValueCase("abs(-9223372036854775807)", Int.max),
        ValueCase("3037000499^2", 9_223_372_030_926_249_001),
        ValueCase("10^18", 1_000_000_000_000_000_000),
        ValueCase("(-2)^63", Int.min),
        ValueCase("9223372036854775807 // 2 * 2 + 1", Int.max),
    ]

    @Test(arguments: exact)
    func evaluatesExactly(_ c: ValueCase) throws {
        let roll = try rollScripted(c.input, faces: [])
        #expect(roll.value == c.expected)
    }

    static let errors: [EvalErrorCase] = [
        EvalErrorCase("9223372036854775807 ‸+ 1", .overflow),
        EvalErrorCase("-9223372036854775807 ‸- 2", .overflow),
        EvalErrorCase("4611686018427387904 ‸* 2", .overflow),
        EvalErrorCase("(-9223372036854775807 - 1) ‸// -1", .overflow),
        EvalErrorCase("(-9223372036854775807 - 1) ‸/ -1", .overflow),
        EvalErrorCase("‸-(-9223372036854775807 - 1)", .overflow),
        EvalErrorCase("‸abs(-9223372036854775807 - 1)", .overflow),
        EvalErrorCase("‸3037000500^2", .overflow),
        EvalErrorCase("‸10^19", .overflow),
        EvalErrorCase("‸2^63", .overflow),
        EvalErrorCase("‸(-2)^64", .overflow),
        EvalErrorCase("1 ‸/ 0", .divisionByZero),
        EvalErrorCase("1 ‸// 0", .divisionByZero),
        EvalErrorCase("1 ‸% 0", .divisionByZero),
        EvalErrorCase("1.5 ‸/ 0", .divisionByZero),
        EvalErrorCase("1 ‸/ 0.0", .divisionByZero),
        EvalErrorCase("0 ‸/ 0", .divisionByZero),
        EvalErrorCase("1 + 2 ‸/ (3 - 3)", .divisionByZero),
        EvalErrorCase("‸0^-1", .divisionByZero),
        EvalErrorCase("‸10.0^400", .notFinite),
        EvalErrorCase("‸1.5^2000", .notFinite),
        EvalErrorCase("‸2^0.5", .irrationalPower),
        EvalErrorCase("‸(-1)^0.5", .irrationalPower),
        EvalErrorCase("‸(1/3)^0.5", .irrationalPower),
        EvalErrorCase("‸2^(1/64)", .irrationalPower),
        EvalErrorCase("9223372036854775807 / 2 ‸+ 1/3", .overflow),
        EvalErrorCase("1/3037000500 ‸* (1/3037000500)", .overflow),
        EvalErrorCase("‸(1/2)^64", .overflow),
    ]

    @Test(arguments: errors)
    func reportsArithmeticErrors(_ c: EvalErrorCase) {
        expectEvaluationError(c)
    }

    @Test func aHundredThousandTermSumEvaluates() throws {
        let text = Array(repeating: "1", count: 100_000).joined(separator: " + ")
        #expect(try rollScripted(text, faces: []).value == .integer(100_000))
    }
}

/// Checks that evaluating the marked input throws the expected error at the marker.
func expectEvaluationError(_ c: EvalErrorCase, environment: Environment = Environment(),
                           limits: Limits = .standard, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    let marked = MarkedText(c.marked)
    let error = diceError { () throws(DiceError) in
        try rollScripted(marked.text, faces: c.faces, environment: environment, limits: limits)
    }
    guard let error else {
        Issue.record("no error for \(marked.text)", sourceLocation: sourceLocation)
        return
    }
    #expect(error.kind == c.expected, sourceLocation: sourceLocation)
    #expect(error.position(in: marked.text) == TextPosition(line: marked.line ?? 0, column: marked.column ?? 0),
            sourceLocation: sourceLocation)
}
