/// An expression flattened into a list of steps, for rolling its value many times over:
/// `dice -n N -t` and the rolls of a `stats` simulation.
///
/// Numbers, pools with literal counts, sides and keep/drop (`4d6kh3`), arithmetic,
/// comparisons and functions run from the list without walking the tree; any other node
/// (names, macros, groups, pools with modifiers) is one step that hands its subtree to
/// `Evaluator.value(of:)`. Running it rolls the same dice in the same order as
/// `value(of:)` on the expression, and gives the same value or the same error.
///
/// ```swift
/// let compiled = CompiledValue(try Parser.parseExpression("4d6kh3 + 2"))
/// var session = Session(seed: 1)
/// for _ in 0..<1_000_000 { _ = try session.value(of: compiled) }
/// ```
public struct CompiledValue: Sendable {
    enum Step: Sendable {
        case number(Number)
        /// `count` dice of `sides`, summed over the ascending ranks `kept` (all when `nil`).
        case pool(count: Int, sides: Int, kept: Range<Int>?, SourceRange)
        case negate(SourceRange)
        case binary(BinaryOperator, SourceRange)
        case power(SourceRange)
        case comparison(ComparisonOperator)
        case function(Function, arguments: Int, SourceRange)
        /// `value(of: subtrees[index])`.
        case subtree(Int)
    }

    /// The expression compiled.
    public let expr: Expr
    let steps: [Step]
    let subtrees: [Expr]

    /// Nesting compiled into steps; deeper subtrees are left to `value(of:)`, which bounds them.
    private static let maxDepth = 200

    public init(_ expr: Expr) {
        self.expr = expr
        var steps: [Step] = []
        var subtrees: [Expr] = []
        CompiledValue.compile(expr, depth: 0, into: &steps, &subtrees)
        self.steps = steps
        self.subtrees = subtrees
    }

    /// Appends the steps of `expr`, in the order `value(of:)` evaluates its parts.
    private static func compile(_ expr: Expr, depth: Int, into steps: inout [Step], _ subtrees: inout [Expr]) {
        func subtree() {
            steps.append(.subtree(subtrees.count))
            subtrees.append(expr)
        }
        guard depth < maxDepth else { return subtree() }
        switch expr.kind {
        case .number(let number):
            steps.append(.number(number))
        case .unary(let op, let operand):
            compile(operand, depth: depth + 1, into: &steps, &subtrees)
            if op == .negate { steps.append(.negate(expr.range)) }
        case .chain(let first, let rest):
            compile(first, depth: depth + 1, into: &steps, &subtrees)
            for operation in rest {
                compile(operation.operand, depth: depth + 1, into: &steps, &subtrees)
                steps.append(.binary(operation.op, operation.operatorRange))
            }
        case .power(let base, let exponent):
            compile(base, depth: depth + 1, into: &steps, &subtrees)
            compile(exponent, depth: depth + 1, into: &steps, &subtrees)
            steps.append(.power(expr.range))
        case .comparison(let op, let lhs, let rhs):
            compile(lhs, depth: depth + 1, into: &steps, &subtrees)
            compile(rhs, depth: depth + 1, into: &steps, &subtrees)
            steps.append(.comparison(op))
        case .function(let function, let arguments):
            for argument in arguments { compile(argument, depth: depth + 1, into: &steps, &subtrees) }
            steps.append(.function(function, arguments: arguments.count, expr.range))
        case .annotated(let inner, _):
            compile(inner, depth: depth + 1, into: &steps, &subtrees)
        case .dice(let term):
            if let pool = literalPool(term, at: expr.range) { steps.append(pool) } else { subtree() }
        case .name, .call, .group, .repeat:
            subtree()
        }
    }

    /// A pool whose count, sides and keep/drop counts are all literals (and valid).
    private static func literalPool(_ term: DiceTerm, at range: SourceRange) -> Step? {
        guard let keeps = term.literalKeeps, case .number(let sidesExpr) = term.sides,
              case .number(.integer(let sides)) = sidesExpr.kind, sides >= 1 else { return nil }
        var count = 1
        if let countExpr = term.count {
            guard case .number(.integer(let literal)) = countExpr.kind, literal >= 0 else { return nil }
            count = literal
        }
        guard !keeps.isEmpty else { return .pool(count: count, sides: sides, kept: nil, range) }
        return .pool(count: count, sides: sides, kept: KeepDropStep.keptRanks(keeps, count: count), range)
    }
}

extension Evaluator {
    /// The value of a compiled expression: the same dice, value and errors as
    /// `value(of: compiled.expr)`, with less work per roll.
    public mutating func value(of compiled: CompiledValue) throws(DiceError) -> Number {
        // The stack leaves `self` while the steps run, and comes back for the next roll.
        var stack = valueStack
        valueStack = []
        defer { valueStack = stack }
        if !stack.isEmpty { stack.removeAll(keepingCapacity: true) }
        for step in compiled.steps {
            switch step {
            case .number(let number):
                stack.append(number)
            case .pool(let count, let sides, let kept, let range):
                try spend(count, at: range)
                if let kept {
                    stack.append(.integer(try keptSum(count: count, sides: sides, ranks: kept, at: range)))
                } else {
                    stack.append(.integer(try sum(count: count, sides: sides, at: range)))
                }
            case .negate(let range):
                let operand = stack.popLast() ?? .integer(0)
                stack.append(try arithmetic(range) { () throws(ArithmeticFault) in try operand.negated() })
            case .binary(let op, let range):
                let rhs = stack.popLast() ?? .integer(0)
                let lhs = stack.popLast() ?? .integer(0)
                stack.append(try apply(op, lhs, rhs, at: range))
            case .power(let range):
                let exponent = stack.popLast() ?? .integer(0)
                let base = stack.popLast() ?? .integer(0)
                stack.append(try arithmetic(range) { () throws(ArithmeticFault) in try base.power(exponent) })
            case .comparison(let op):
                let rhs = stack.popLast() ?? .integer(0)
                let lhs = stack.popLast() ?? .integer(0)
                stack.append(.integer(op.holds(lhs, rhs) ? 1 : 0))
            case .function(let function, let count, let range):
                let arguments = Array(stack.suffix(count))
                stack.removeLast(Swift.min(count, stack.count))
                stack.append(try arithmetic(range) { () throws(ArithmeticFault) in try Functions.apply(function, arguments) })
            case .subtree(let index):
                guard index < compiled.subtrees.count else { continue }
                stack.append(try value(of: compiled.subtrees[index]))
            }
        }
        // The steps leave exactly one value: taking it leaves the stack empty for next time.
        return stack.popLast() ?? .integer(0)
    }
}
