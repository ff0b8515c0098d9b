/// An expression flattened into a list of steps: the value path, for rolling a value
/// without building a breakdown (`dice -t`, `-n` with `-t`, the rolls of a `stats`
/// simulation, `Evaluator.value(of:)`).
///
/// Numbers, arithmetic, comparisons, functions, names of variables and dice terms of every
/// kind run from the list; macros, groups and `repeat` are one step each that hands its
/// subtree to the tree evaluator (`repeat` keeps only its members' values, and those only
/// for its modifiers). Running it rolls the same dice in the same order as
/// `Evaluator.evaluate(_:)` on the expression, and gives the same value or the same error
/// (the fuzz harness and `ValuePathTests` check this).
///
/// ```swift
/// let compiled = CompiledValue(try Parser.parseExpression("4d6kh3 + 2"))
/// var session = Session(seed: 1)
/// for _ in 0..<1_000_000 { _ = try session.value(of: compiled) }
/// ```
public struct CompiledValue: Sendable {
    /// Steps hold no references (names and terms are in side tables), so running them
    /// copies no reference counts.
    enum Step: Sendable {
        case number(Number)
        /// A term whose count, sides and keep/drop are literals: a sum over a window of ranks.
        case literalPool(LiteralPool, SourceRange)
        /// Fails unless the value on top of the stack is a dice count (a whole number ≥ 0).
        case checkCount(SourceRange)
        /// Dice term `terms[index]`; its count (when it has one) and then its sides (when
        /// computed) are on the stack, left there by the steps before.
        case dice(Int, SourceRange)
        /// A variable or parameter named `names[index]`; anything else by that name is
        /// `subtrees[index]`.
        case name(Int)
        case negate(SourceRange)
        case binary(BinaryOperator, SourceRange)
        case power(SourceRange)
        case comparison(ComparisonOperator)
        case function(Function, arguments: Int, SourceRange)
        /// The value of `subtrees[index]` from the tree evaluator.
        case tree(Int)
        /// Pops a condition; when it is zero, goes on at step `target` (the `else` branch).
        case branch(target: Int)
        /// Goes on at step `target` (past the `else` branch).
        case jump(target: Int)
        /// Pops a value and binds `names[index]` to it until the matching `.unbind` (`let`).
        case bind(Int)
        /// Ends the innermost `let` binding.
        case unbind
    }

    /// The expression compiled.
    public let expr: Expr
    let steps: [Step]
    let subtrees: [Expr]
    let terms: [DiceTerm]
    let names: [String]

    /// Compiles `expr`; nesting deeper than `limits.maxNesting` is left to the tree
    /// evaluator, which bounds it.
    ///
    /// - Complexity: O(*n*) for *n* nodes.
    public init(_ expr: Expr, limits: Limits = .standard) {
        self.expr = expr
        var compiler = Compiler(maxDepth: limits.maxNesting)
        compiler.compile(expr, depth: 0)
        steps = compiler.steps
        subtrees = compiler.subtrees
        terms = compiler.terms
        names = compiler.names
    }

    private struct Compiler {
        let maxDepth: Int
        var steps: [Step] = []
        var subtrees: [Expr] = []
        var terms: [DiceTerm] = []
        /// As long as `subtrees`: the name of a `.name` subtree, "" for others.
        var names: [String] = []

        init(maxDepth: Int) { self.maxDepth = maxDepth }

        mutating func subtree(_ expr: Expr) -> Int {
            subtrees.append(expr)
            if case .name(let name) = expr.kind { names.append(name) } else { names.append("") }
            return subtrees.count - 1
        }

        /// Appends the steps of `expr`, in the order the tree evaluator evaluates its parts.
        mutating func compile(_ expr: Expr, depth: Int) {
            guard depth < maxDepth else { return steps.append(.tree(subtree(expr))) }
            switch expr.kind {
            case .number(let number):
                steps.append(.number(number))
            case .name:
                steps.append(.name(subtree(expr)))
            case .unary(let op, let operand):
                compile(operand, depth: depth + 1)
                if op == .negate { steps.append(.negate(expr.range)) }
            case .chain(let first, let rest):
                compile(first, depth: depth + 1)
                for operation in rest {
                    compile(operation.operand, depth: depth + 1)
                    steps.append(.binary(operation.op, operation.operatorRange))
                }
            case .power(let base, let exponent):
                compile(base, depth: depth + 1)
                compile(exponent, depth: depth + 1)
                steps.append(.power(expr.range))
            case .comparison(let op, let lhs, let rhs):
                compile(lhs, depth: depth + 1)
                compile(rhs, depth: depth + 1)
                steps.append(.comparison(op))
            case .function(let function, let arguments):
                for argument in arguments { compile(argument, depth: depth + 1) }
                steps.append(.function(function, arguments: arguments.count, expr.range))
            case .annotated(let inner, _):
                compile(inner, depth: depth + 1)
            case .dice(let term):
                if let pool = term.literalPool {
                    steps.append(.literalPool(pool, expr.range))
                    return
                }
                if let count = term.count {
                    compile(count, depth: depth + 1)
                    if case .number(let literal) = count.kind, literal.isDiceCount {} else {
                        steps.append(.checkCount(count.range))
                    }
                }
                if case .number(let sides) = term.sides { compile(sides, depth: depth + 1) }
                steps.append(.dice(terms.count, expr.range))
                terms.append(term)
            case .call, .group, .repeat:
                steps.append(.tree(subtree(expr)))
            case .conditional(let condition, let then, let otherwise):
                compile(condition, depth: depth + 1)
                let branch = steps.count
                steps.append(.branch(target: 0))
                compile(then, depth: depth + 1)
                let jump = steps.count
                steps.append(.jump(target: 0))
                steps[branch] = .branch(target: steps.count)
                compile(otherwise, depth: depth + 1)
                steps[jump] = .jump(target: steps.count)
            case .binding(let name, let value, let body):
                compile(value, depth: depth + 1)
                steps.append(.bind(names.count))
                names.append(name)
                subtrees.append(Expr(.name(name), expr.range))  // keeps `names` and `subtrees` in step
                compile(body, depth: depth + 1)
                steps.append(.unbind)
            }
        }
    }
}

extension Evaluator {
    /// The value of `expr` alone, without building a breakdown: the same dice, value and
    /// errors as `evaluate(_:)`. To roll one expression many times, compile it once
    /// (`CompiledValue`) and use `value(of:)` with that.
    ///
    /// - Complexity: O(*n*) to compile *n* nodes, then as `value(of:)` on the compiled value.
    public mutating func value(of expr: Expr) throws(DiceError) -> Number {
        try value(of: CompiledValue(expr, limits: limits))
    }

    /// The value of a compiled expression: the same dice, value and errors as
    /// `evaluate(compiled.expr)`, with less work per roll.
    ///
    /// - Complexity: O(*s* + *d* log *d*) at worst for *s* steps and *d* dice rolled, rerolls
    ///   and explosions included; *d* is at most `limits.maxDice`.
    public mutating func value(of compiled: CompiledValue) throws(DiceError) -> Number {
        // The stack leaves `self` while the steps run, and comes back for the next roll.
        var stack = valueStack
        valueStack = []
        defer { valueStack = stack }
        if !stack.isEmpty { stack.removeAll(keepingCapacity: true) }
        // `let` frames of this run are gone after it, even when it fails.
        let frameCount = frames.count
        defer { if frames.count > frameCount { frames.removeLast(frames.count - frameCount) } }
        let steps = compiled.steps
        var next = 0
        while next < steps.count {
            let step = steps[next]
            next += 1
            switch step {
            case .number(let number):
                stack.append(number)
            case .literalPool(let pool, let range):
                try spend(pool.count, at: range)
                if let kept = pool.kept {
                    stack.append(.integer(try keptSum(count: pool.count, sides: pool.sides, ranks: kept, at: range)))
                } else {
                    stack.append(.integer(try sum(count: pool.count, sides: pool.sides, at: range)))
                }
            case .checkCount(let range):
                if let count = stack.last, !count.isDiceCount { throw DiceError(.invalidCount(count), at: range) }
            case .dice(let index, let range):
                guard index < compiled.terms.count else { continue }
                let term = compiled.terms[index]
                var sides: Number?
                if case .number = term.sides { sides = stack.popLast() }
                let count = term.count == nil ? 1 : stack.popLast()?.wholeValue ?? 0
                stack.append(.integer(try poolValue(term, count: count, sides: sides, at: range)))
            case .name(let index):
                guard index < compiled.subtrees.count else { continue }
                let name = compiled.names[index]
                if let frame = frames.last, let value = frame[name] {
                    stack.append(value)
                } else if case .variable(let value) = environment[name] {
                    stack.append(value)
                } else {
                    stack.append(try valueDroppingBreakdown(compiled.subtrees[index]))
                }
            case .negate(let range):
                let operand = (stack.isEmpty ? .integer(0) : stack.removeLast())
                stack.append(try arithmetic(range) { () throws(ArithmeticFault) in try operand.negated() })
            case .binary(let op, let range):
                let rhs = (stack.isEmpty ? .integer(0) : stack.removeLast())
                let lhs = (stack.isEmpty ? .integer(0) : stack.removeLast())
                stack.append(try apply(op, lhs, rhs, at: range))
            case .power(let range):
                let exponent = (stack.isEmpty ? .integer(0) : stack.removeLast())
                let base = (stack.isEmpty ? .integer(0) : stack.removeLast())
                stack.append(try arithmetic(range) { () throws(ArithmeticFault) in try base.power(exponent) })
            case .comparison(let op):
                let rhs = (stack.isEmpty ? .integer(0) : stack.removeLast())
                let lhs = (stack.isEmpty ? .integer(0) : stack.removeLast())
                stack.append(.integer(op.holds(lhs, rhs) ? 1 : 0))
            case .function(let function, let count, let range):
                let arguments = Array(stack.suffix(count))
                stack.removeLast(Swift.min(count, stack.count))
                stack.append(try arithmetic(range) { () throws(ArithmeticFault) in try Functions.apply(function, arguments) })
            case .tree(let index):
                guard index < compiled.subtrees.count else { continue }
                let subtree = compiled.subtrees[index]
                if case .repeat(let count, let body, let modifiers) = subtree.kind {
                    stack.append(try repeatValue(subtree, count: count, body: body, modifiers: modifiers))
                } else {
                    stack.append(try valueDroppingBreakdown(subtree))
                }
            case .branch(let target):
                if ((stack.isEmpty ? .integer(0) : stack.removeLast())).isZero { next = target }
            case .jump(let target):
                next = target
            case .bind(let index):
                guard index < compiled.names.count else { continue }
                pushBinding(compiled.names[index], (stack.isEmpty ? .integer(0) : stack.removeLast()))
            case .unbind:
                if frames.count > frameCount { frames.removeLast() }
            }
        }
        // The steps leave exactly one value: taking it leaves the stack empty for next time.
        return (stack.isEmpty ? .integer(0) : stack.removeLast())
    }
}

extension Number {
    /// Whether this is a whole number of at least 0: a valid dice count.
    var isDiceCount: Bool {
        if case .integer(let whole) = self { return whole >= 0 }
        return false
    }

    /// The integer, or `nil` for a decimal.
    var wholeValue: Int? {
        if case .integer(let whole) = self { return whole }
        return nil
    }
}
