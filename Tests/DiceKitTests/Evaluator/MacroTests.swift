import Foundation
import Testing
@testable import DiceKit

/// A session: statements run one after another against one environment, on scripted faces.
struct MacroSession {
    var evaluator: Evaluator<ScriptedDice>

    init(faces: [Int] = [1], environment: Environment = Environment(), limits: Limits = .standard) {
        evaluator = Evaluator(environment: environment, limits: limits, source: ScriptedDice(faces))
    }

    /// Runs every statement of `program`; returns the value of the last roll or assignment.
    @discardableResult
    mutating func run(_ program: String) throws(DiceError) -> Number? {
        var value: Number?
        for statement in try Parser.parseProgram(program) {
            switch try evaluator.execute(statement) {
            case .roll(let roll), .assignment(_, let roll): value = roll.value.number
            case .definition, .stats, .compare, .sweep, .system, .systems: break
            }
        }
        return value
    }

    /// The error `program` stops with.
    mutating func error(_ program: String) -> DiceError? {
        diceError { () throws(DiceError) in try run(program) }
    }

    /// Dice rolled so far.
    var diceRolled: Int { evaluator.source.position }
}

/// A program run in a fresh session and the value of its last statement.
struct ProgramValueCase: Sendable, CustomTestStringConvertible {
    var program: String
    var faces: [Int]
    var value: Number
    init(_ program: String, faces: [Int] = [1], _ value: Int) {
        self.program = program
        self.faces = faces
        self.value = .integer(value)
    }
    var testDescription: String { program }
}

@Suite struct MacroTests {
    static let programs: [ProgramValueCase] = [
        ProgramValueCase("x = 3; x + 1", 4),
        ProgramValueCase("x = 3; x = x * 2; x", 6),
        ProgramValueCase("def atk = 1d20 + 5; atk", faces: [12], 17),
        // a macro sees the variables current when it is used (late binding)
        ProgramValueCase("str = 3; def atk = 1d20 + str; str = 5; atk", faces: [10], 15),
        ProgramValueCase("def a = b; b = 2; a", 2),
        ProgramValueCase("def a = b + 1; def b = 10; a", 11),
        // a parameter shadows a variable, and only inside its macro
        ProgramValueCase("str = 5; def f(str) = str * 10; f(2)", 20),
        ProgramValueCase("str = 5; def f(str) = str * 10; f(2); str", 5),
        ProgramValueCase("y = 10; def p(x) = x + y; def q(y) = p(y); q(5)", 15),
        ProgramValueCase("def f(a, b) = a * 10 + b; f(1, 2)", 12),
        ProgramValueCase("def smite(n) = (n + 1)d8; smite(2)", faces: [8, 1, 4], 13),
        ProgramValueCase("def f() = 7; f()", 7),
        // a macro is rolled afresh at each use; an assignment once
        ProgramValueCase("def h = 1d6; h + h", faces: [2, 5], 7),
        ProgramValueCase("x = 1d6; x + x", faces: [2, 5], 4),
        // arguments are evaluated once each
        ProgramValueCase("def twice(x) = x + x; twice(1d6)", faces: [5, 1], 10),
        ProgramValueCase("def thrice(a) = a + a + a; thrice(1d6)", faces: [4, 1], 12),
        ProgramValueCase("def h = 1d6 + 1d6; repeat(3, h)", faces: [1, 2], 9),
        // nested calls up to the limit of 100
        ProgramValueCase(chain(100) + "; m100", 100),
    ]

    /// `def m1 = 1; def m2 = m1 + 1; ...`: using `mN` nests N macro calls.
    static func chain(_ n: Int) -> String {
        (["def m1 = 1"] + (2...(n + 1)).map { "def m\($0) = m\($0 - 1) + 1" }).joined(separator: "; ")
    }

    @Test(arguments: programs)
    func runsProgram(_ c: ProgramValueCase) throws {
        var session = MacroSession(faces: c.faces)
        #expect(try session.run(c.program) == c.value)
    }

    @Test func argumentsAreRolledOnceEachEvenWhenUnused() throws {
        var session = MacroSession(faces: [3, 4, 5])
        try session.run("def first(a, b) = a; def twice(x) = x + x")
        #expect(try session.run("first(1d6, 1d6)") == .integer(3))
        #expect(session.diceRolled == 2)
        #expect(try session.run("twice(1d6)") == .integer(10))
        #expect(session.diceRolled == 3)
    }

    // MARK: - Errors

    static let errors: [(program: String, kind: DiceError.Kind)] = [
        ("def rec = rec + 1; rec", .macroRecursion(limit: 100)),
        ("def g(n) = g(n - 1); g(3)", .macroRecursion(limit: 100)),
        ("def a = b + 1; def b = a; a", .macroRecursion(limit: 100)),
        (chain(101) + "; m101", .macroRecursion(limit: 100)),
        ("def twice(x) = x + x; twice(1, 2)", .macroArity(name: "twice", expected: 1, got: 2)),
        ("def twice(x) = x + x; twice", .macroArity(name: "twice", expected: 1, got: 0)),
        ("def twice(x) = x + x; twice()", .macroArity(name: "twice", expected: 1, got: 0)),
        ("def atk = 1d20; atk(1)", .macroArity(name: "atk", expected: 0, got: 1)),
        ("strength = 3; strenght", .unknownName("strenght", suggestion: "strength")),
        ("def strength = 3; 1 + strenght", .unknownName("strenght", suggestion: "strength")),
        ("def f(strength) = strenght; f(1)",
         .inMacro(name: "f", .unknownName("strenght", suggestion: "strength"))),
        ("flor(1.5)", .unknownName("flor", suggestion: "floor")),
        // A macro whose parameters all have defaults is used bare; any macro may be called.
        ("def atk(b = 2) = 1d20 + b; atc", .unknownName("atc", suggestion: "atk")),
        ("def atk = 1d20; atc(1)", .unknownName("atc", suggestion: "atk")),
        ("def atk(b) = 1d20 + b; atc", .unknownName("atc", suggestion: nil)),
        ("xyz", .unknownName("xyz", suggestion: nil)),
        ("def boom = 1 / 0; boom", .inMacro(name: "boom", .divisionByZero)),
        ("def big(n) = n * 9223372036854775807; big(2)", .inMacro(name: "big", .overflow)),
        ("x = 1; x(2)", .variableCalledAsMacro("x")),
    ]

    @Test func reportsMacroErrors() {
        for c in Self.errors {
            var session = MacroSession()
            let error = session.error(c.program)
            #expect(error?.kind == c.kind, "\(c.program)")
        }
    }

    @Test func theErrorPointsAtTheUseOfTheMacro() throws {
        var session = MacroSession()
        try session.run("def boom = 1 / 0")
        let text = "1 + boom"
        let error = session.error(text)
        #expect(error?.position(in: text) == TextPosition(line: 1, column: 5))
    }

    @Test func anErrorLosesNothingDefined() throws {
        var session = MacroSession(faces: [4])
        try session.run("x = 3; def atk = 1d20 + x; def f(n) = n")
        #expect(session.error("x = 1 / 0") != nil)
        #expect(session.error("def rec = rec; rec") != nil)
        #expect(session.evaluator.environment["x"] == .variable(.integer(3)))
        #expect(try session.run("atk + f(2)") == .integer(9))
    }

    // MARK: - Environment

    @Test func anEnvironmentBuiltInCodeIsUsedByRolls() throws {
        var environment = Environment()
        environment.setVariable("str", to: .integer(3))
        environment.define(Macro(name: "atk", parameters: [], body: try Parser.parseExpression("1d20 + str")))
        environment.define(Macro(name: "dmg", parameters: ["n"], body: try Parser.parseExpression("(n)d6 + str")))
        #expect(try rollScripted("atk", faces: [11], environment: environment).value == .integer(14))
        #expect(try rollScripted("dmg(2)", faces: [6, 1], environment: environment).value == .integer(10))
        #expect(environment.variables.map(\.name) == ["str"])
        #expect(environment.macros.map(\.name) == ["atk", "dmg"])
        #expect(environment.macros.map(\.definitionText) == ["def atk = 1d20 + str", "def dmg(n) = (n)d6 + str"])
        let removed = environment.remove("str")
        let removedAgain = environment.remove("str")
        #expect(removed && !removedAgain)
        let error = diceError { () throws(DiceError) in try rollScripted("atk", faces: [11], environment: environment) }
        guard case .inMacro(name: "atk", .unknownName("str", _)) = error?.kind else {
            Issue.record("expected an unknown 'str' in macro 'atk', got \(String(describing: error?.kind))")
            return
        }
    }

    @Test func aVariableAndAMacroShareOneNamespace() throws {
        var session = MacroSession()
        try session.run("x = 3; def x = 10")
        #expect(try session.run("x") == .integer(10))
        try session.run("x = 4")
        #expect(try session.run("x") == .integer(4))
    }
}

// MARK: - Deep evaluation through macros

/// A result handed from one thread to another, read only after a semaphore says it is written.
private final class ResultBox<T>: @unchecked Sendable {
    var value: T?
}

/// Runs `body` on a new thread with a stack of `stackSize` bytes and waits for its result.
func onThread<T: Sendable>(stackSize: Int, _ body: @escaping @Sendable () -> T) -> T {
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        box.value = body()
        done.signal()
    }
    thread.stackSize = stackSize
    thread.start()
    done.wait()
    return box.value!
}

/// `onThread` awaited: the caller's thread of the concurrency pool is not held while `body` runs.
func onThread<T: Sendable>(stackSize: Int, _ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: body()) }
        thread.stackSize = stackSize
        thread.start()
    }
}

@Suite struct DeepMacroTests {
    /// `def m1 = ---…1; def m2 = ---…m1; …`: each macro nests 250 unary minuses, so using
    /// `mN` nests about 250 × N evaluations although only N macro calls are in progress.
    static func program(macros: Int, use: Int) -> String {
        let minuses = String(repeating: "-", count: 250)
        var lines = ["def m1 = \(minuses)1"]
        for index in 2...macros { lines.append("def m\(index) = \(minuses)m\(index - 1)") }
        return lines.joined(separator: "\n") + "\nm\(use)"
    }

    static func run(macros: Int, use: Int) -> Result<Number?, DiceError> {
        var session = MacroSession()
        do {
            return .success(try session.run(program(macros: macros, use: use)))
        } catch {
            return .failure(error)
        }
    }

    /// The evaluator bounds nesting through macros with an error (checked on a roomy stack).
    @Test func deepNestingThroughMacrosIsAnError() {
        let shallow = onThread(stackSize: 64 << 20) { Self.run(macros: 3, use: 3) }
        #expect((try? shallow.get()) == .integer(1))
        let deep = onThread(stackSize: 64 << 20) { Self.run(macros: 20, use: 20) }
        guard case .failure(let error) = deep, case .inMacro(_, .evaluationTooDeep) = error.kind else {
            Issue.record("expected an error for nesting too deep, got \(deep)")
            return
        }
    }

    /// The same on the 8 MB stack the `dice` command's main thread has (and a host's thread
    /// may have less). Run in a child process, because a stack overflow ends the process.
    @Test func deepNestingThroughMacrosFitsAnEightMegabyteStack() throws {
        let outcome = try IsolatedTest.run("deep-macros", test: "deepNestingOnAnEightMegabyteStackInAChild()")
        #expect(outcome.passed, "\(outcome)")
    }

    @Test(.enabled(if: IsolatedTest.isChild("deep-macros")))
    func deepNestingOnAnEightMegabyteStackInAChild() {
        let deep = onThread(stackSize: 8 << 20) { Self.run(macros: 20, use: 20) }
        guard case .failure(let error) = deep, case .inMacro(_, .evaluationTooDeep) = error.kind else {
            Issue.record("expected an error for nesting too deep, got \(deep)")
            return
        }
    }
}
