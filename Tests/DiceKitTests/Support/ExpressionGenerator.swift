@testable import DiceKit

/// Builds random expression trees that follow the grammar, seeded and depth-bounded,
/// for print-then-reparse round trips and "never traps" properties.
///
/// Trees are in the parser's canonical shape, so `parse(tree.text)` can give back
/// exactly `tree`: literals are non-negative (a minus is a `unary`), a chain holds
/// operators of one precedence level, and a dice term has at most one explosion
/// (`!` followed by `!` would read back as `!!`).
///
/// ```swift
/// var generator = ExpressionGenerator(seed: 7)
/// let expr = generator.expression()      // e.g. `{2d6kh1, str}cs>3 + -(1d4)d8`
/// ```
struct ExpressionGenerator {
    var random: Xoshiro256StarStar
    /// Variables the generated expressions may name; the environment must bind them.
    var variables: [String]
    /// Macros without parameters, used as names.
    var macros: [String]
    /// Macros with one parameter, called with one argument.
    var unaryMacros: [String]
    /// Macros of any arity, called with that many arguments (`f()`, `g(1, 2d6)`). Empty by
    /// default, so generators that do not set it make exactly the trees they always made.
    var macroCalls: [(name: String, arity: Int)] = []
    var maxDepth: Int
    /// Whether `if … then … else …` and `let … in …` are generated.
    var conditionals = true
    /// Whether the forms of LANGUAGE.md §5b and §7 are generated too: texts, `match`, tallies
    /// and fields, `and`/`or`/`not`, `count`, `given`, text and tally faces, `u`. Off by default,
    /// so generators that do not set it make exactly the trees they always made (the choices
    /// for these forms draw no random numbers then).
    var outcomes = false

    init(seed: UInt64, variables: [String] = ExpressionGenerator.variableNames,
         macros: [String] = ["atk"], unaryMacros: [String] = ["twice"], maxDepth: Int = 4) {
        random = Xoshiro256StarStar(seed: seed)
        self.variables = variables
        self.macros = macros
        self.unaryMacros = unaryMacros
        self.maxDepth = maxDepth
    }

    static let variableNames = ["str", "lvl", "size", "bonus", "x_1"]

    /// The environment the generated names need: small variables and two macros.
    static func environment() throws -> Environment {
        var environment = Environment()
        for (index, name) in variableNames.enumerated() { environment.setVariable(name, to: .integer(index + 1)) }
        environment.define(Macro(name: "atk", parameters: [], body: try Parser.parseExpression("1d20 + str")))
        environment.define(Macro(name: "twice", parameters: ["n"], body: try Parser.parseExpression("n + n")))
        return environment
    }

    // MARK: - Random choices

    mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + random.roll(sides: range.count) - 1
    }

    mutating func chance(_ percent: Int) -> Bool { int(1...100) <= percent }

    mutating func pick<T>(_ options: [T]) -> T { options[int(0...(options.count - 1))] }

    static let nowhere = SourceLocation(offset: 0)..<SourceLocation(offset: 0)

    func node(_ kind: Expr.Kind) -> Expr { Expr(kind, Self.nowhere) }

    // MARK: - Expressions

    /// Any expression of the language.
    mutating func expression(depth: Int = 0) -> Expr {
        if depth >= maxDepth { return outcomes && chance(15) ? text() : leaf() }
        let next = depth + 1
        if outcomes && chance(30) { return outcomeExpression(depth: next) }
        switch int(0...15) {
        case 0:
            let op = pick(ComparisonOperator.allCases)
            return node(.comparison(op, expression(depth: next), expression(depth: next)))
        case 1, 2:
            return chain(additive: true, depth: next)
        case 3:
            return chain(additive: false, depth: next)
        case 4:
            return node(.unary(pick([.negate, .plus]), expression(depth: next)))
        case 5:
            // Small exponents keep most powers in range; overflow is still a fair outcome.
            let exponent = chance(70) ? number(0...3) : expression(depth: next)
            return node(.power(expression(depth: next), exponent))
        case 6:
            return node(.annotated(expression(depth: next), pick(["fire", "cold", "to hit", "x"])))
        case 7, 8, 9:
            return dice(depth: next)
        case 10:
            return group(depth: next)
        case 11:
            return node(.repeat(count: chance(80) ? number(0...4) : expression(depth: next),
                                body: expression(depth: next), modifiers: groupModifiers(depth: next)))
        case 12:
            let function = pick(Function.allCases)
            let count = function.arity.maximum == 1 ? 1 : int(1...3)
            return node(.function(function, (0..<count).map { _ in expression(depth: next) }))
        case 13 where !unaryMacros.isEmpty:
            return node(.call(pick(unaryMacros), [expression(depth: next)]))
        case 14 where !macroCalls.isEmpty:
            let call = pick(macroCalls)
            return node(.call(call.name, (0..<call.arity).map { _ in expression(depth: next) }))
        case 15 where conditionals:
            if chance(50) {
                return node(.conditional(condition: expression(depth: next), then: expression(depth: next),
                                         else: expression(depth: next)))
            }
            // The body may use the bound name, and may shadow a variable with it.
            let name = pick(["r", "v", "str"])
            let value = expression(depth: next)
            let outer = variables
            variables.append(name)
            defer { variables = outer }
            return node(.binding(name: name, value: value, body: expression(depth: next)))
        default:
            return leaf()
        }
    }

    /// A number, a name or a plain die.
    mutating func leaf() -> Expr {
        switch int(0...9) {
        case 0, 1, 2: return number(0...20)
        case 3: return decimal()
        case 4, 5: return node(.name(pick(variables)))
        case 6 where !macros.isEmpty: return node(.name(pick(macros)))
        default: return node(.dice(DiceTerm(count: chance(70) ? number(0...4) : nil, sides: .number(number(1...12)))))
        }
    }

    mutating func number(_ range: ClosedRange<Int>) -> Expr {
        node(.number(.integer(int(range))))
    }

    /// A non-negative decimal that prints exactly: `2.5`, `0.75`.
    mutating func decimal() -> Expr {
        node(.number(.ratio(int(0...40), pick([2, 4, 10]))))
    }

    mutating func chain(additive: Bool, depth: Int) -> Expr {
        let operators: [BinaryOperator] = additive ? [.add, .subtract] : [.multiply, .divide, .floorDivide, .modulo]
        let rest = (0..<int(1...3)).map { _ in
            Operation(pick(operators), expression(depth: depth), operatorRange: Self.nowhere)
        }
        return node(.chain(expression(depth: depth), rest))
    }

    // MARK: - Dice

    mutating func dice(depth: Int) -> Expr {
        let count: Expr?
        switch int(0...9) {
        case 0, 1: count = nil
        case 2: count = expression(depth: maxDepth - 1)
        default: count = number(0...6)
        }
        let sides: Sides
        switch int(0...11) {
        case 0: sides = .percentile
        case 1: sides = .fate
        case 2: sides = .faces((0..<int(1...5)).map { _ in int(-3...8) })
        case 3: sides = .number(expression(depth: maxDepth - 1))
        default: sides = .number(number(1...20))
        }
        var modifiers = diceModifiers(depth: depth)
        if outcomes && chance(15) { modifiers.insert(DiceModifier(.unique, Self.nowhere), at: int(0...modifiers.count)) }
        return node(.dice(DiceTerm(count: count, sides: outcomes && chance(20) ? symbolFaces() : sides,
                                   modifiers: modifiers)))
    }

    /// Zero to three modifiers of any kind, at most one explosion and one of each counting kind.
    mutating func diceModifiers(depth: Int) -> [DiceModifier] {
        var modifiers: [DiceModifier] = []
        var exploded = false, counted = false, failures = false
        for _ in 0..<pick([0, 0, 1, 1, 1, 2, 2, 3]) {
            let kind: DiceModifier.Kind
            switch int(0...9) {
            case 0, 1: kind = keepOrDrop()
            case 2 where !exploded:
                exploded = true
                kind = .explode(pick([.explode, .compound, .penetrate]), chance(40) ? nil : explosionPoint())
            case 3: kind = .reroll(once: chance(50), chance(40) ? nil : comparePoint(depth: depth))
            case 4: kind = chance(50) ? .minimum(number(0...4)) : .maximum(number(2...10))
            case 5 where !counted:
                counted = true
                kind = chance(70) ? .countSuccesses(comparePoint(depth: depth)) : .countFailures(comparePoint(depth: depth))
            case 6 where !failures:
                failures = true
                kind = .subtractFailures(comparePoint(depth: depth))
            case 7: kind = .sort(ascending: chance(50))
            default: kind = keepOrDrop()
            }
            modifiers.append(DiceModifier(kind, Self.nowhere))
        }
        return modifiers
    }

    mutating func keepOrDrop() -> DiceModifier.Kind {
        let extreme: DiceModifier.Extreme = chance(50) ? .highest : .lowest
        let count: Expr? = chance(20) ? nil : (chance(85) ? number(0...5) : node(.name(pick(variables))))
        return chance(60) ? .keep(extreme, count: count) : .drop(extreme, count: count)
    }

    /// A compare point an explosion can use without matching every face of most dice.
    mutating func explosionPoint() -> ComparePoint {
        let op = pick([ComparisonOperator.equal, .greater, .greaterEqual])
        return ComparePoint(op, number(4...20))
    }

    /// A compare point with a literal value, which cannot fail to evaluate.
    mutating func literalPoint() -> ComparePoint {
        ComparePoint(pick(ComparisonOperator.allCases), chance(80) ? number(0...12) : node(.number(.integer(-int(1...3)))))
    }

    mutating func comparePoint(depth: Int) -> ComparePoint {
        let op = pick(ComparisonOperator.allCases)
        if outcomes && chance(15) { return ComparePoint(op, text()) }
        switch int(0...9) {
        case 0: return ComparePoint(op, node(.number(.integer(-int(1...3)))))
        case 1: return ComparePoint(op, node(.number(.ratio(2 * int(0...9) + 1, 2))))
        case 2: return ComparePoint(op, expression(depth: maxDepth - 1))
        default: return ComparePoint(op, number(0...12))
        }
    }

    // MARK: - Groups

    mutating func group(depth: Int) -> Expr {
        let members = (0..<int(1...4)).map { _ in expression(depth: depth) }
        // d20's spelling `(a, b)` needs two members: `(a)` is a parenthesized expression.
        let parenthesized = members.count >= 2 && chance(25)
        return node(.group(members, groupModifiers(depth: depth), parenthesized: parenthesized))
    }

    /// The modifiers groups take: keep/drop, counting and sorting.
    mutating func groupModifiers(depth: Int) -> [DiceModifier] {
        var modifiers: [DiceModifier] = []
        var counted = false
        for _ in 0..<pick([0, 0, 1, 1, 2]) {
            let kind: DiceModifier.Kind
            switch int(0...5) {
            case 0 where !counted:
                counted = true
                kind = .countSuccesses(comparePoint(depth: depth))
            case 1: kind = .sort(ascending: chance(50))
            default: kind = keepOrDrop()
            }
            modifiers.append(DiceModifier(kind, Self.nowhere))
        }
        return modifiers
    }

    // MARK: - Bounded expressions

    /// Sums and differences of numbers and dice pools without explosions, and their
    /// negations: expressions whose value `Bounds.of(_:)` can bound.
    mutating func boundedExpression(depth: Int = 0) -> Expr {
        if depth >= maxDepth { return boundedPool() }
        switch int(0...5) {
        case 0: return number(0...30)
        case 1: return node(.unary(.negate, boundedExpression(depth: depth + 1)))
        case 2, 3:
            let rest = (0..<int(1...3)).map { _ in
                Operation(pick([.add, .subtract]), boundedExpression(depth: depth + 1), operatorRange: Self.nowhere)
            }
            return node(.chain(boundedExpression(depth: depth + 1), rest))
        default: return boundedPool()
        }
    }

    /// A pool with a literal count, any sides, and any modifiers but explosions.
    mutating func boundedPool() -> Expr {
        let sides: Sides
        switch int(0...7) {
        case 0: sides = .percentile
        case 1: sides = .fate
        case 2: sides = .faces((0..<int(1...5)).map { _ in int(-5...12) })
        default: sides = .number(number(1...20))
        }
        var modifiers: [DiceModifier] = []
        var counted = false, failures = false
        for _ in 0..<pick([0, 1, 1, 2, 3]) {
            let kind: DiceModifier.Kind
            switch int(0...6) {
            case 0: kind = .reroll(once: chance(50), chance(40) ? nil : ComparePoint(pick([.equal, .less]), number(1...3)))
            case 1: kind = chance(50) ? .minimum(number(-2...6)) : .maximum(number(-1...15))
            case 2 where !counted:
                counted = true
                kind = chance(50) ? .countSuccesses(literalPoint()) : .countFailures(literalPoint())
            case 3 where !failures:
                failures = true
                kind = .subtractFailures(literalPoint())
            case 4: kind = .sort(ascending: chance(50))
            default:
                let extreme: DiceModifier.Extreme = chance(50) ? .highest : .lowest
                let count: Expr? = chance(20) ? nil : number(0...6)
                kind = chance(50) ? .keep(extreme, count: count) : .drop(extreme, count: count)
            }
            modifiers.append(DiceModifier(kind, Self.nowhere))
        }
        let count: Expr? = chance(20) ? nil : number(0...8)
        return node(.dice(DiceTerm(count: count, sides: sides, modifiers: modifiers)))
    }
}

/// The forms of LANGUAGE.md §5b and §7, made only when `outcomes` is on.
extension ExpressionGenerator {
    /// Texts that need escapes and texts with characters that mean something elsewhere.
    static let texts = ["hit", "weak hit", "", #"say "hi""#, #"a \ b"#, "# not a comment", "[x], {y}: z", "é 🎲"]

    /// Field names, one a word the lexer knows as a modifier after dice (a field name is a
    /// NAME: `d6` is a die, not a field).
    static let fieldNames = ["s", "a", "hits", "glitch", "kh"]

    mutating func text() -> Expr { node(.text(pick(Self.texts))) }

    /// A table, a tally, a field, logic, `count` or `given`.
    mutating func outcomeExpression(depth: Int) -> Expr {
        switch int(0...9) {
        case 0, 1:
            let entries = (0..<int(0...3)).map { _ in
                MatchEntry(pattern(depth: depth), expression(depth: depth), patternRange: Self.nowhere)
            }
            let otherwise = entries.isEmpty || chance(50) ? expression(depth: depth) : nil
            return node(.match(expression(depth: depth), entries, otherwise: otherwise))
        case 2:
            let names = Self.fieldNames.filter { _ in chance(40) }
            return node(.tally(names.map { TallyField($0, expression(depth: depth)) }))
        case 3: return node(.field(expression(depth: depth), pick(Self.fieldNames)))
        case 4: return node(.logical(pick([.and, .or]), expression(depth: depth), expression(depth: depth)))
        case 5: return node(.not(expression(depth: depth)))
        case 6:
            let pool = chance(50) ? dice(depth: depth) : expression(depth: depth)
            return node(.count(pool, ComparePoint(pick(ComparisonOperator.allCases), bound(depth: depth))))
        case 7: return node(.given(expression(depth: depth), condition: expression(depth: depth)))
        case 8: return text()
        default: return node(.dice(DiceTerm(count: chance(70) ? number(0...4) : nil, sides: symbolFaces())))
        }
    }

    /// A pattern of a `match`: `7`, `"orc"`, `7-9`, `10+`, `6-`, a compare point.
    mutating func pattern(depth: Int) -> MatchEntry.Pattern {
        switch int(0...4) {
        case 0: return .equal(bound(depth: depth))
        case 1:
            // Number ends out of order are an empty range, which does not parse (`3-1`).
            let low = bound(depth: depth), high = bound(depth: depth)
            if case .number(let a) = low.kind, case .number(let b) = high.kind, a > b { return .between(high, low) }
            return .between(low, high)
        case 2: return .orMore(bound(depth: depth))
        case 3: return .orLess(bound(depth: depth))
        default: return .point(ComparePoint(pick(ComparisonOperator.allCases), bound(depth: depth)))
        }
    }

    /// A pattern's or a compare point's value: a whole number (negative too), a decimal, a
    /// text, or any expression (written in parentheses).
    mutating func bound(depth: Int) -> Expr {
        switch int(0...5) {
        case 0, 1: return node(.number(.integer(int(-12...20))))
        case 2: return decimal()
        case 3: return text()
        default: return expression(depth: maxDepth - 1)
        }
    }

    /// Faces at least one of which is a text or a tally: `{"orc", 1, (s: 1, a: -1), ()}`.
    mutating func symbolFaces() -> Sides {
        var faces: [Value] = (0..<int(0...4)).map { _ in
            switch int(0...2) {
            case 0: return .integer(int(-3...8))
            case 1: return .text(pick(Self.texts))
            default: return .tally(tallyFace())
            }
        }
        faces.insert(chance(50) ? .text(pick(Self.texts)) : .tally(tallyFace()), at: int(0...faces.count))
        return .symbols(faces)
    }

    mutating func tallyFace() -> DiceKit.Tally {
        DiceKit.Tally(Self.fieldNames.filter { _ in chance(30) }.map { ($0, .integer(int(-2...3))) })
    }
}
