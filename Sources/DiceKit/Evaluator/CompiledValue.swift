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
    /// Steps hold no references and no source ranges (names, terms, pools and ranges are
    /// in side tables), so a step is two words and running one copies no reference counts.
    enum Step: Sendable {
        case integer(Int)
        /// `pools[index]`: a term whose count, sides and keep/drop are literals, a sum over
        /// a window of ranks, and the literal added to it or subtracted from it, if any
        /// (`4d6kh3 + 2` is one step).
        case literalPool(Int)
        /// Fails unless the value on top of the stack is a dice count (a whole number ≥ 0).
        case checkCount
        /// Dice term `terms[index]`; its count (when it has one) and then its sides (when
        /// computed) are on the stack, left there by the steps before.
        case dice(Int)
        /// `literalDice[index]`: a dice term whose count and sides are literals but whose
        /// modifiers are more than keep/drop (`3d6!`, `1d4ro1`), rolled without pushing them.
        case literalDice(Int)
        /// A variable or parameter named `names[index]`; anything else by that name is
        /// `subtrees[index]`.
        case name(Int)
        case negate
        case add
        case subtract
        case multiply
        /// `/`, `//` and `%`.
        case binary(BinaryOperator)
        /// `+ k` with an integer literal `k`: `.integer(k)` then `.add` in one step.
        case addInteger(Int)
        /// `- k` with an integer literal `k`: `.integer(k)` then `.subtract` in one step.
        case subtractInteger(Int)
        case power
        case comparison(ComparisonOperator)
        /// `functions[index]`, its arguments on the stack.
        case function(Int)
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
    /// Two offsets a step, where the range an error of that step points at starts and ends.
    /// An array of `Int` needs no type metadata made at run time, unlike an array of `Range`
    /// (which looks up a conformance: about 100,000 instructions the first time in a process)
    /// or of a struct (about 20,000).
    let ranges: [Int]
    let pools: [PoolStep]
    let functions: [FunctionCall]
    let subtrees: [Expr]
    let terms: [DiceTerm]
    let literalDice: [LiteralDice]
    let names: [String]
    /// At least as many values as the steps ever hold on the operand stack at once.
    let stackSize: Int
    /// The pool when the steps are that pool's alone (`1d20`, `4d6kh3 + 2`): rolled
    /// without an operand stack.
    let onlyPool: PoolStep?

    /// Compiles `expr`; nesting deeper than `limits.maxNesting` is left to the tree
    /// evaluator, which bounds it.
    ///
    /// - Complexity: O(*n*) for *n* nodes.
    public init(_ expr: Expr, limits: Limits = .standard) {
        self.expr = expr
        var compiler = Compiler(maxDepth: limits.maxNesting)
        compiler.compile(expr, depth: 0)
        steps = compiler.steps
        ranges = compiler.ranges
        pools = compiler.pools
        functions = compiler.functions
        subtrees = compiler.subtrees
        terms = compiler.terms
        literalDice = compiler.literalDice
        names = compiler.names
        stackSize = Swift.max(compiler.maxHeight, 1)
        if compiler.steps.count == 1, case .literalPool(let pool) = compiler.steps[0], pool < pools.count {
            onlyPool = pools[pool]
        } else {
            onlyPool = nil
        }
    }

    /// Where an error of step `index` points.
    func range(of index: Int) -> SourceRange {
        guard index >= 0, index < ranges.count / 2 else { return expr.range }
        let lower = ranges[2 * index], upper = ranges[2 * index + 1]
        return Range(uncheckedBounds: (SourceLocation(offset: lower), SourceLocation(offset: Swift.max(lower, upper))))
    }

    /// A dice term with literal count and sides (`.literalDice`). Side tables hold structs,
    /// not tuples: the metadata of an array of tuples is made at run time from its mangled
    /// name (about 50,000 instructions the first time in a process).
    struct LiteralDice: Sendable {
        let term: DiceTerm
        /// 1 for a term without a count.
        let count: Int
        /// The sides' value when they are an expression (`d6`), `nil` for `d%`, `dF`, `d{...}`.
        let sides: Number?
    }

    /// A function and how many arguments it takes from the stack (`.function`).
    struct FunctionCall: Sendable {
        let function: Function
        let arguments: Int
    }

    private struct Compiler {
        let maxDepth: Int
        var steps: [Step] = []
        var ranges: [Int] = []
        var pools: [PoolStep] = []
        var functions: [FunctionCall] = []
        var subtrees: [Expr] = []
        var terms: [DiceTerm] = []
        var literalDice: [LiteralDice] = []
        /// As long as `subtrees`: the name of a `.name` subtree, "" for others.
        var names: [String] = []
        /// Values on the stack after the steps so far, counting both arms of a conditional
        /// (more than any run holds), and the most there have been.
        var height = 0
        var maxHeight = 0
        /// The last step a branch or jump goes to: no step merges into the one before it.
        var lastTarget = -1

        init(maxDepth: Int) { self.maxDepth = maxDepth }

        /// Appends `step`, which errors at `range` and changes the stack's height by `effect`.
        mutating func emit(_ step: Step, _ range: SourceRange, effect: Int) {
            steps.append(step)
            ranges.append(range.lowerBound.offset)
            ranges.append(range.upperBound.offset)
            height += effect
            maxHeight = Swift.max(maxHeight, height)
        }

        /// The count (1 when there is none) and sides (when computed) of a term whose count
        /// and sides are literals, the values the steps of those literals would leave; `nil`
        /// for other terms.
        static func literalArguments(of term: DiceTerm) -> (count: Int, sides: Number?)? {
            var count = 1
            if let countExpr = term.count {
                guard case .number(.integer(let literal)) = countExpr.kind, literal >= 0 else { return nil }
                count = literal
            }
            var sides: Number?
            if case .number(let sidesExpr) = term.sides {
                guard case .number(let literal) = sidesExpr.kind else { return nil }
                sides = literal
            }
            return (count, sides)
        }

        mutating func subtree(_ expr: Expr) -> Int {
            subtrees.append(expr)
            if case .name(let name) = expr.kind { names.append(name) } else { names.append("") }
            return subtrees.count - 1
        }

        /// Appends the steps of `expr`, in the order the tree evaluator evaluates its parts.
        mutating func compile(_ expr: Expr, depth: Int) {
            guard depth < maxDepth else { return emit(.tree(subtree(expr)), expr.range, effect: 1) }
            switch expr.kind {
            case .number(.integer(let integer)):
                emit(.integer(integer), expr.range, effect: 1)
            case .number(.fraction):
                emit(.tree(subtree(expr)), expr.range, effect: 1)
            case .name:
                emit(.name(subtree(expr)), expr.range, effect: 1)
            case .unary(let op, let operand):
                compile(operand, depth: depth + 1)
                if op == .negate { emit(.negate, expr.range, effect: 0) }
            case .chain(let first, let rest):
                compile(first, depth: depth + 1)
                for operation in rest {
                    // `+ 2` is one step when the literal would have been one step.
                    if depth + 1 < maxDepth, case .number(.integer(let literal)) = operation.operand.kind,
                       operation.op == .add || operation.op == .subtract {
                        // And `4d6kh3 + 2`, when nothing jumps to the `+ 2`, into one step with the pool.
                        if lastTarget != steps.count, case .literalPool(let pool) = steps.last,
                           pool < pools.count, pools[pool].addsOffset(operation.op, literal, at: operation.operatorRange) {
                            continue
                        }
                        let step: Step = operation.op == .add ? .addInteger(literal) : .subtractInteger(literal)
                        emit(step, operation.operatorRange, effect: 0)
                        continue
                    }
                    compile(operation.operand, depth: depth + 1)
                    let step: Step
                    switch operation.op {
                    case .add: step = .add
                    case .subtract: step = .subtract
                    case .multiply: step = .multiply
                    case .divide, .floorDivide, .modulo: step = .binary(operation.op)
                    }
                    emit(step, operation.operatorRange, effect: -1)
                }
            case .power(let base, let exponent):
                compile(base, depth: depth + 1)
                compile(exponent, depth: depth + 1)
                emit(.power, expr.range, effect: -1)
            case .comparison(let op, let lhs, let rhs):
                compile(lhs, depth: depth + 1)
                // `1d20 + 5 >= 15` is one step, when nothing jumps to the pool that ends the left side.
                if depth + 1 < maxDepth, case .number(.integer(let literal)) = rhs.kind, lastTarget != steps.count,
                   case .literalPool(let pool) = steps.last, pool < pools.count,
                   pools[pool].compares(op, with: literal) {
                    return
                }
                compile(rhs, depth: depth + 1)
                emit(.comparison(op), expr.range, effect: -1)
            case .function(let function, let arguments):
                for argument in arguments { compile(argument, depth: depth + 1) }
                emit(.function(functions.count), expr.range, effect: 1 - arguments.count)
                functions.append(FunctionCall(function: function, arguments: arguments.count))
            case .annotated(let inner, _):
                compile(inner, depth: depth + 1)
            case .dice(let term):
                if let pool = term.literalPool {
                    emit(.literalPool(pools.count), expr.range, effect: 1)
                    pools.append(PoolStep(pool, range: expr.range))
                    return
                }
                if depth + 1 < maxDepth, let (count, sides) = Compiler.literalArguments(of: term) {
                    emit(.literalDice(literalDice.count), expr.range, effect: 1)
                    literalDice.append(LiteralDice(term: term, count: count, sides: sides))
                    return
                }
                var operands = 0
                if let count = term.count {
                    compile(count, depth: depth + 1)
                    operands += 1
                    if case .number(let literal) = count.kind, literal.isDiceCount {} else {
                        emit(.checkCount, count.range, effect: 0)
                    }
                }
                if case .number(let sides) = term.sides {
                    compile(sides, depth: depth + 1)
                    operands += 1
                }
                emit(.dice(terms.count), expr.range, effect: 1 - operands)
                terms.append(term)
            case .call, .group, .repeat:
                emit(.tree(subtree(expr)), expr.range, effect: 1)
            case .conditional(let condition, let then, let otherwise):
                compile(condition, depth: depth + 1)
                let branch = steps.count
                emit(.branch(target: 0), expr.range, effect: -1)
                compile(then, depth: depth + 1)
                let jump = steps.count
                emit(.jump(target: 0), expr.range, effect: 0)
                steps[branch] = .branch(target: steps.count)
                compile(otherwise, depth: depth + 1)
                steps[jump] = .jump(target: steps.count)
                lastTarget = steps.count
            case .binding(let name, let value, let body):
                compile(value, depth: depth + 1)
                emit(.bind(names.count), expr.range, effect: -1)
                names.append(name)
                subtrees.append(Expr(.name(name), expr.range))  // keeps `names` and `subtrees` in step
                compile(body, depth: depth + 1)
                emit(.unbind, expr.range, effect: 0)
            }
        }
    }
}

/// A term whose count, sides and keep/drop are literals, ready to roll: the window of
/// ranks it keeps and how that window is found.
struct PoolStep: Sendable {
    /// How the kept window is found.
    enum Shape: Sendable {
        /// Every die counts.
        case all
        /// All but the lowest die (`4d6kh3`, `4d6dl1`, `2d20kh1`).
        case dropLowest
        /// All but the highest die (`2d20kl1`, `3d6dh1`).
        case dropHighest
        /// Any other window: the dice are sorted or selected.
        case window
    }

    let count: Int
    let sides: Int
    /// The ascending ranks kept.
    let kept: Range<Int>
    let shape: Shape
    /// Whether `count × sides` fits in an `Int`, so that no sum of the dice can overflow.
    let cannotOverflow: Bool
    /// The term's range, where its errors point.
    let range: SourceRange
    /// A literal added to the sum (subtracted when `subtractsOffset`): `+ 2` in `4d6kh3 + 2`.
    private(set) var offset = 0
    private(set) var subtractsOffset = false
    /// Where an overflow adding the offset points: the operator's range.
    private(set) var offsetRange: SourceRange

    /// A comparison with a literal after the offset (`>= 15` in `1d20 + 5 >= 15`): the value
    /// is then 1 or 0.
    private(set) var comparison: ComparisonOperator?
    private(set) var comparedWith = 0

    /// Takes on `op literal` (`+ 2`, `- 1`) after the sum, unless it has an offset or a
    /// comparison already.
    mutating func addsOffset(_ op: BinaryOperator, _ literal: Int, at range: SourceRange) -> Bool {
        guard offset == 0, !subtractsOffset, comparison == nil, op == .add || op == .subtract else { return false }
        offset = literal
        subtractsOffset = op == .subtract
        offsetRange = range
        return true
    }

    /// Takes on `op literal` (`>= 15`) after the offset, unless it has a comparison already.
    mutating func compares(_ op: ComparisonOperator, with literal: Int) -> Bool {
        guard comparison == nil else { return false }
        comparison = op
        comparedWith = literal
        return true
    }

    init(_ pool: LiteralPool, range: SourceRange) {
        count = pool.count
        sides = pool.sides
        kept = pool.kept ?? 0..<pool.count
        if kept == 0..<count {
            shape = .all
        } else if count >= 1 && kept == 1..<count {
            shape = .dropLowest
        } else if count >= 1 && kept == 0..<(count - 1) {
            shape = .dropHighest
        } else {
            shape = .window
        }
        cannotOverflow = !count.multipliedReportingOverflow(by: sides).overflow
        self.range = range
        offsetRange = range
    }
}

extension Number {
    /// Whether this is a whole number of at least 0: a valid dice count.
    var isDiceCount: Bool {
        if case .integer(let whole) = self { return whole >= 0 }
        return false
    }

    /// The integer, or `nil` for a fraction.
    var wholeValue: Int? {
        if case .integer(let whole) = self { return whole }
        return nil
    }
}
