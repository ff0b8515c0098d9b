@testable import DiceKit

/// Builds random whole programs of the dice language from a seed: assignments, macro
/// definitions and calls, `stats`, expression statements, comments, blank lines, `;`,
/// LF and CRLF line ends, and now and then a deliberately broken line.
///
/// The expressions come from `ExpressionGenerator`, told which names the program has
/// bound so far: variables, macro parameters (which may shadow a variable), and macros
/// called with as many arguments as they take. Some choices are deliberately wrong, so
/// the error paths run too: a macro body may name itself or a macro defined later
/// (recursion, which must end in an error), a name may be unknown or be a variable
/// called like a macro, a call may have the wrong number of arguments, a name may be
/// rebound from a macro to a variable and back.
///
/// Each well-formed line records the statements it holds (`Stmt.text`), so a test can
/// check that the parser reads the printed program back to statements that print the same. A broken line (random tokens of the language, or a valid statement with a
/// character dropped, a token inserted, or its end cut) records `nil`: it may fail to
/// parse or parse as anything, and so do the lines its statement goes on over when it
/// ends where a statement cannot (LANGUAGE.md §5).
///
/// ```swift
/// var generator = ProgramGenerator(seed: 7)
/// let program = generator.program()
/// print(program.text)   // x_1 = 3\r\ndef f(n) = n + 1d6\n...
/// ```
struct ProgramGenerator {
    /// One line of a program, without its line end.
    struct Line {
        var text: String
        /// The statements the line holds, printed (`Stmt.text`); `nil` for a broken line.
        var statements: [String]?
        /// Whether the line goes on a statement of the lines before it (an open bracket or
        /// annotation, a trailing operator): no statement starts there.
        var continues = false
    }

    /// A generated program: its lines and the whole text with their line ends.
    struct Program {
        var lines: [Line]
        var text: String
        /// Whether some line ends with CRLF.
        var usesCRLF: Bool
    }

    /// The source of every choice, and the expressions.
    var expressions: ExpressionGenerator
    /// Variables the program has assigned so far (an assignment that fails at run time
    /// binds nothing; the generator does not know, and does not need to).
    private(set) var variables: [String] = []
    /// Macros defined so far, with the number of parameters each takes.
    private(set) var macros: [(name: String, arity: Int)] = []

    static let variableNames = ["str", "lvl", "hp", "ac", "bonus", "x_1", "count2", "_tmp", "Speed"]
    static let macroNames = ["atk", "dmg", "heal", "smite", "fireball", "crit", "f", "g", "h_2"]
    /// Parameter names; `lvl` and `hp` shadow variables of the same name.
    static let parameterNames = ["n", "a", "b", "m", "lvl", "hp"]
    /// Names no generated statement binds: using them is an unknown-name error.
    static let unboundNames = ["ghost", "atkk", "strr"]

    /// The tokens broken lines are made of: every kind of token the lexer knows, a few
    /// characters it does not, and the words that start statements.
    static let tokens = [
        "0", "1", "3", "20", "2.5", "0.0", "99999999999999999999", "9223372036854775807",
        "d", "d6", "4d6", "d%", "dF", "3dF", "d{", "d{1,2}", "F", "%",
        "k", "kh", "kl", "dh", "dl", "!", "!!", "!p", "r", "ro", "mi", "ma", "cs", "cf", "df", "s", "sa", "sd",
        "+", "-", "*", "/", "//", "^", "==", "!=", "<>", "<", "<=", ">", ">=", "=",
        "(", ")", "{", "}", ",", ";", "[fire]", "[", "]", "#",
        "def", "stats", "repeat", "abs", "floor", "min", "max", "str", "atk", "f", "ghost",
        "@", "é", "$", "\t", "\r", "\u{7F}", "\u{0}",
    ]

    init(seed: UInt64) {
        expressions = ExpressionGenerator(seed: seed)
    }

    /// Whether the forms of LANGUAGE.md §5b, §7 and §8a are generated too: those of
    /// `ExpressionGenerator.outcomes`, default parameters and `use` statements.
    var outcomes: Bool {
        get { expressions.outcomes }
        set { expressions.outcomes = newValue }
    }

    // MARK: - Programs

    /// A program of 1 to 14 lines; the generator forgets the names of the last program.
    mutating func program() -> Program {
        variables = []
        macros = []
        // Line ends: all LF, all CRLF, or mixed.
        let endings: [String] = pick([["\n"], ["\n"], ["\n"], ["\r\n"], ["\r\n"], ["\n", "\r\n"]])
        var lines: [Line] = []
        if chance(4) { lines.append(Line(text: "#!/usr/bin/env dice", statements: [])) }
        for _ in 0..<int(1...14) { lines.append(line()) }
        // A broken line may end where its statement cannot (after an operator, inside a
        // bracket): the statement then goes on in the lines after it (LANGUAGE.md §5), which
        // are no longer statements of their own.
        var continuation = LineContinuation()
        for index in lines.indices {
            if continuation.needsAnotherLine {
                lines[index].statements = nil
                lines[index].continues = true
            }
            continuation.read(Array((lines[index].text + "\n").utf8))
        }
        var text = ""
        var usesCRLF = false
        for (index, line) in lines.enumerated() {
            text += line.text
            // The last line may have no line end at all.
            if index < lines.count - 1 || chance(70) {
                let ending = pick(endings)
                usesCRLF = usesCRLF || ending == "\r\n"
                text += ending
            }
        }
        return Program(lines: lines, text: text, usesCRLF: usesCRLF)
    }

    /// A blank line, a comment, a broken line, or one to three statements.
    mutating func line() -> Line {
        switch int(0...99) {
        case 0..<5:
            return Line(text: pick(["", " ", "\t", "  \t "]), statements: [])
        case 5..<10:
            return Line(text: pick(["# a comment", "#", "   # indented: 2d6 + (", "#def f = f"]), statements: [])
        case 10..<16:
            return Line(text: brokenLine(), statements: nil)
        default:
            let statements = (0..<pick([1, 1, 1, 1, 1, 1, 2, 3])).map { _ in statement() }
            var text = statements.map(\.text).joined(separator: pick(["; ", ";", " ; "]))
            if chance(5) { text = "; " + text }
            if chance(5) { text += ";" }
            if chance(8) { text = pick([" ", "\t", "  "]) + text }
            if chance(10) { text += pick(["  # note", " #d6", "\t# ="]) }
            return Line(text: text, statements: statements.map(\.text))
        }
    }

    // MARK: - Statements

    /// One statement, its kind weighted toward what builds up state (assignments and
    /// definitions) and what uses it (calls and expressions).
    mutating func statement() -> Stmt {
        // Most programs start by binding something.
        if variables.isEmpty, chance(70) { return assignment() }
        if outcomes && chance(5) {
            return Stmt(.use(chance(80) ? pick(["pbta", "dnd5e", "genesys", "nosuch"]) : nil), ExpressionGenerator.nowhere)
        }
        switch int(0...99) {
        case 0..<22: return assignment()
        case 22..<40: return definition()
        case 40..<50: return stats()
        case 50..<65: return macroCall()
        default:
            configureNames(parameters: [], defining: nil)
            expressions.maxDepth = chance(80) ? 3 : 4
            return Stmt(.expression(expressions.expression()), ExpressionGenerator.nowhere)
        }
    }

    /// `name = expr`: a fresh variable, an existing one, or now and then a macro's name
    /// (which turns it into a variable).
    mutating func assignment() -> Stmt {
        let name: String
        let fresh = Self.variableNames.filter { !variables.contains($0) }
        if !macros.isEmpty, chance(5) {
            name = pick(macros).name
        } else if !fresh.isEmpty, variables.isEmpty || chance(60) {
            name = pick(fresh)
        } else {
            name = pick(variables.isEmpty ? Self.variableNames : variables)
        }
        configureNames(parameters: [], defining: nil)
        expressions.maxDepth = variables.isEmpty ? 1 : 3
        let value = expressions.expression()
        macros.removeAll { $0.name == name }
        if !variables.contains(name) { variables.append(name) }
        return Stmt(.assignment(name: name, value), ExpressionGenerator.nowhere)
    }

    /// `def name(params) = body` with 0 to 3 parameters; the body uses the parameters,
    /// the variables and the macros defined before, and sometimes the macro itself or
    /// one not defined yet.
    mutating func definition() -> Stmt {
        let fresh = Self.macroNames.filter { name in !macros.contains { $0.name == name } }
        let name: String
        if !variables.isEmpty, chance(4) {
            name = pick(variables)   // a variable becomes a macro
        } else if !fresh.isEmpty, macros.isEmpty || chance(75) {
            name = pick(fresh)
        } else {
            name = pick(macros.isEmpty ? Self.macroNames : macros.map(\.name))
        }
        let arity = pick([0, 0, 0, 1, 1, 1, 2, 2, 3])
        var parameters: [String] = []
        while parameters.count < arity {
            let parameter = pick(Self.parameterNames)
            if !parameters.contains(parameter) { parameters.append(parameter) }
        }
        configureNames(parameters: parameters, defining: (name, arity))
        // The last parameters may have defaults, any expression that reads none of the
        // parameters, nor calls a macro of a parameter's name (a default is worked out where
        // the macro is used: reading one is an error).
        var defaults: [String: Expr] = [:]
        if outcomes && chance(50) {
            expressions.maxDepth = 2
            let visible = (expressions.variables, expressions.macros, expressions.unaryMacros, expressions.macroCalls)
            expressions.variables = visible.0.filter { !parameters.contains($0) }
            if expressions.variables.isEmpty { expressions.variables = [pick(Self.unboundNames)] }
            expressions.macros = visible.1.filter { !parameters.contains($0) }
            expressions.unaryMacros = visible.2.filter { !parameters.contains($0) }
            expressions.macroCalls = visible.3.filter { !parameters.contains($0.name) }
            for parameter in parameters.suffix(int(0...parameters.count)) { defaults[parameter] = expressions.expression() }
            (expressions.variables, expressions.macros, expressions.unaryMacros, expressions.macroCalls) = visible
        }
        expressions.maxDepth = 3
        let body = expressions.expression()
        variables.removeAll { $0 == name }
        macros.removeAll { $0.name == name }
        macros.append((name, arity))
        return Stmt(.definition(name: name, parameters: parameters, defaults: defaults, body: body), ExpressionGenerator.nowhere)
    }

    /// `stats expr` on a small expression: mostly one `Bounds` can bound, sometimes one
    /// with names and macros; now and then `stats e1, e2, ...` compares two or three.
    mutating func stats() -> Stmt {
        expressions.maxDepth = 2
        if chance(15) {
            configureNames(parameters: [], defining: nil)
            let exprs = (0..<int(2...3)).map { _ in
                chance(60) ? expressions.boundedExpression() : expressions.expression()
            }
            return Stmt(.compare(exprs), ExpressionGenerator.nowhere)
        }
        if chance(60) {
            return Stmt(.stats(expressions.boundedExpression()), ExpressionGenerator.nowhere)
        }
        configureNames(parameters: [], defining: nil)
        return Stmt(.stats(expressions.expression()), ExpressionGenerator.nowhere)
    }

    /// A macro used as a statement: `atk`, `atk()`, `smite(2, 1d4)`, sometimes with the
    /// wrong number of arguments, an unknown name, or a variable; sometimes inside a sum.
    mutating func macroCall() -> Stmt {
        configureNames(parameters: [], defining: nil)
        expressions.maxDepth = 2
        var name: String
        var arity: Int
        if macros.isEmpty || chance(5) {
            name = chance(50) || variables.isEmpty ? pick(Self.unboundNames) : pick(variables)
            arity = int(0...2)
        } else {
            (name, arity) = pick(macros)
            if chance(6) { arity = max(0, arity + pick([-1, 1])) }
        }
        var call: Expr
        if arity == 0, chance(50) {
            call = expressions.node(.name(name))
        } else {
            call = expressions.node(.call(name, (0..<arity).map { _ in expressions.expression() }))
        }
        if chance(20) {
            call = expressions.node(.chain(call, [Operation(pick([.add, .subtract, .multiply]), expressions.leaf(),
                                                            operatorRange: ExpressionGenerator.nowhere)]))
        }
        return Stmt(.expression(call), ExpressionGenerator.nowhere)
    }

    /// Tells the expression generator which names it may use: the parameters (weighted
    /// up, so bodies use them), the variables, and the macros by arity. While `defining`
    /// a macro, its own name is sometimes among them (recursion), and so now and then
    /// is a macro not defined yet or a name never bound.
    mutating func configureNames(parameters: [String], defining: (name: String, arity: Int)?) {
        var names = parameters + parameters + parameters + variables
        if names.isEmpty || chance(3) { names.append(pick(Self.unboundNames)) }
        var known = macros
        if let defining, chance(15) { known.append(defining) }
        if defining != nil, chance(10) {
            let later = Self.macroNames.filter { name in !known.contains { $0.name == name } }
            if !later.isEmpty { known.append((pick(later), int(0...2))) }
        }
        expressions.variables = names
        expressions.macros = known.filter { $0.arity == 0 }.map(\.name)
        expressions.unaryMacros = known.filter { $0.arity == 1 }.map(\.name)
        expressions.macroCalls = known
    }

    // MARK: - Broken lines

    /// Random tokens of the language, or a valid statement damaged in one place.
    mutating func brokenLine() -> String {
        if chance(50) {
            return (0..<int(1...8)).map { _ in pick(Self.tokens) }.joined(separator: pick(["", " "]))
        }
        // The damaged statement binds nothing the rest of the program could count on.
        let (knownVariables, knownMacros) = (variables, macros)
        var characters = Array(statement().text)
        (variables, macros) = (knownVariables, knownMacros)
        guard !characters.isEmpty else { return pick(Self.tokens) }
        let position = int(0...(characters.count - 1))
        switch int(0...3) {
        case 0: characters.remove(at: position)
        case 1: characters.insert(contentsOf: Array(pick(Self.tokens)), at: position)
        case 2: characters.removeSubrange(position...)
        default: characters.insert(contentsOf: characters[position...].prefix(4), at: position)
        }
        return String(characters)
    }

    // MARK: - Random choices

    mutating func int(_ range: ClosedRange<Int>) -> Int { expressions.int(range) }

    mutating func chance(_ percent: Int) -> Bool { expressions.chance(percent) }

    mutating func pick<T>(_ options: [T]) -> T { expressions.pick(options) }
}
