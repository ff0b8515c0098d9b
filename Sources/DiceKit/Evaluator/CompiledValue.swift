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
        case decimal(Double)
        /// `pools[index]`: a term whose count, sides and keep/drop are literals, a sum over
        /// a window of ranks, and the literal added to it or subtracted from it, if any
        /// (`4d6kh3 + 2` is one step).
        case literalPool(Int)
        /// Fails unless the value on top of the stack is a dice count (a whole number ≥ 0).
        case checkCount
        /// Dice term `terms[index]`; its count (when it has one) and then its sides (when
        /// computed) are on the stack, left there by the steps before.
        case dice(Int)
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
    /// As long as `steps`: the range an error of each step points at.
    let ranges: [Span]
    let pools: [PoolStep]
    let functions: [(function: Function, arguments: Int)]
    let subtrees: [Expr]
    let terms: [DiceTerm]
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
        guard ranges.indices.contains(index) else { return expr.range }
        return Range(uncheckedBounds: (ranges[index].lower, ranges[index].upper))
    }

    /// A source range's bounds. An array of these, unlike an array of `Range`, needs no
    /// conformance looked up at run time when it is first made (about 100,000 instructions
    /// once a process).
    struct Span: Sendable {
        let lower: SourceLocation
        let upper: SourceLocation

        init(_ range: SourceRange) {
            lower = range.lowerBound
            upper = range.upperBound
        }
    }

    private struct Compiler {
        let maxDepth: Int
        var steps: [Step] = []
        var ranges: [Span] = []
        var pools: [PoolStep] = []
        var functions: [(function: Function, arguments: Int)] = []
        var subtrees: [Expr] = []
        var terms: [DiceTerm] = []
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
            ranges.append(Span(range))
            height += effect
            maxHeight = Swift.max(maxHeight, height)
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
            case .number(.decimal(let decimal)):
                emit(.decimal(decimal), expr.range, effect: 1)
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
                functions.append((function, arguments.count))
            case .annotated(let inner, _):
                compile(inner, depth: depth + 1)
            case .dice(let term):
                if let pool = term.literalPool {
                    emit(.literalPool(pools.count), expr.range, effect: 1)
                    pools.append(PoolStep(pool, range: expr.range))
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

/// The values the steps work on: a buffer of `CompiledValue.stackSize` values, allocated
/// for one run. Pushing onto a full stack or popping an empty one cannot happen for
/// compiled steps; were it to, the value is dropped or 0 comes back, and nothing traps.
struct OperandStack {
    private let buffer: UnsafeMutableBufferPointer<Number>
    private(set) var count = 0

    init(_ buffer: UnsafeMutableBufferPointer<Number>) { self.buffer = buffer }

    @inline(__always)
    mutating func push(_ value: Number) {
        guard count < buffer.count else { return }
        (buffer.baseAddress.unsafelyUnwrapped + count).initialize(to: value)
        count += 1
    }

    @inline(__always)
    mutating func pop() -> Number {
        guard count > 0, count <= buffer.count else { return .integer(0) }
        count -= 1
        return buffer[count]
    }

    /// The value on top, which `top = x` replaces (with nothing there, `top = x` pushes).
    var top: Number? {
        @inline(__always) get { count > 0 && count <= buffer.count ? buffer[count - 1] : nil }
        @inline(__always) set {
            guard let newValue else { return }
            if count > 0 && count <= buffer.count { buffer[count - 1] = newValue } else { push(newValue) }
        }
    }

    /// Pops the top `n` values, in the order they were pushed.
    mutating func pop(_ n: Int) -> [Number] {
        let taken = Swift.min(Swift.max(n, 0), count)
        count -= taken
        return Array(buffer[count..<(count + taken)])
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
        if let pool = compiled.onlyPool { return .integer(try value(of: pool)) }
        // `let` frames of this run are gone after it, even when it fails.
        let frameCount = frames.count
        defer { if frames.count > frameCount { frames.removeLast(frames.count - frameCount) } }
        // The operand stack lives on the machine stack for the run (on the heap if large);
        // a constant size for most expressions makes that one instruction.
        if compiled.stackSize <= 16 {
            return try withUnsafeTemporaryAllocation(of: Number.self, capacity: 16) { (buffer) throws(DiceError) -> Number in
                try run(compiled, on: buffer, frameCount: frameCount)
            }
        }
        return try withUnsafeTemporaryAllocation(of: Number.self, capacity: compiled.stackSize) {
            (buffer) throws(DiceError) -> Number in
            try run(compiled, on: buffer, frameCount: frameCount)
        }
    }

    /// Runs the steps of `compiled`; the value is what they leave on `stack`.
    /// `frameCount` is how many `let` frames there were before.
    private mutating func run(_ compiled: CompiledValue, on buffer: UnsafeMutableBufferPointer<Number>,
                              frameCount: Int) throws(DiceError) -> Number {
        // A local, so that the stack's height stays in a register.
        var stack = OperandStack(buffer)
        return try compiled.steps.withUnsafeBufferPointer { (steps) throws(DiceError) -> Number in
            var next = 0
            while next < steps.count {
                let index = next
                next += 1
                switch steps[index] {
                case .integer(let integer):
                    stack.push(.integer(integer))
                case .decimal(let decimal):
                    stack.push(.decimal(decimal))
                case .literalPool(let pool):
                    guard pool < compiled.pools.count else { continue }
                    stack.push(.integer(try value(of: compiled.pools[pool])))
                case .checkCount:
                    if let count = stack.top, !count.isDiceCount {
                        throw DiceError(.invalidCount(count), at: compiled.range(of: index))
                    }
                case .dice(let term):
                    guard term < compiled.terms.count else { continue }
                    let term = compiled.terms[term]
                    var sides: Number?
                    if case .number = term.sides { sides = stack.pop() }
                    let count = term.count == nil ? 1 : stack.pop().wholeValue ?? 0
                    stack.push(.integer(try poolValue(term, count: count, sides: sides, at: compiled.range(of: index))))
                case .name(let name):
                    guard name < compiled.subtrees.count else { continue }
                    stack.push(try value(named: compiled.names[name], else: compiled.subtrees[name]))
                case .negate:
                    let operand = stack.pop()
                    stack.push(try arithmetic(compiled.range(of: index)) { () throws(ArithmeticFault) in
                        try operand.negated()
                    })
                case .add:
                    let rhs = stack.pop()
                    if case .integer(let b) = rhs, case .integer(let a) = stack.top {
                        let (sum, overflow) = a.addingReportingOverflow(b)
                        if !overflow {
                            stack.top = .integer(sum)
                            continue
                        }
                    }
                    let lhs = stack.pop()
                    stack.push(try apply(.add, lhs, rhs, at: compiled.range(of: index)))
                case .subtract:
                    let rhs = stack.pop()
                    if case .integer(let b) = rhs, case .integer(let a) = stack.top {
                        let (difference, overflow) = a.subtractingReportingOverflow(b)
                        if !overflow {
                            stack.top = .integer(difference)
                            continue
                        }
                    }
                    let lhs = stack.pop()
                    stack.push(try apply(.subtract, lhs, rhs, at: compiled.range(of: index)))
                case .multiply:
                    let rhs = stack.pop()
                    if case .integer(let b) = rhs, case .integer(let a) = stack.top {
                        let (product, overflow) = a.multipliedReportingOverflow(by: b)
                        if !overflow {
                            stack.top = .integer(product)
                            continue
                        }
                    }
                    let lhs = stack.pop()
                    stack.push(try apply(.multiply, lhs, rhs, at: compiled.range(of: index)))
                case .binary(let op):
                    let rhs = stack.pop()
                    let lhs = stack.pop()
                    stack.push(try apply(op, lhs, rhs, at: compiled.range(of: index)))
                case .addInteger(let b):
                    if case .integer(let a) = stack.top {
                        let (sum, overflow) = a.addingReportingOverflow(b)
                        if !overflow {
                            stack.top = .integer(sum)
                            continue
                        }
                    }
                    let lhs = stack.pop()
                    stack.push(try apply(.add, lhs, .integer(b), at: compiled.range(of: index)))
                case .subtractInteger(let b):
                    if case .integer(let a) = stack.top {
                        let (difference, overflow) = a.subtractingReportingOverflow(b)
                        if !overflow {
                            stack.top = .integer(difference)
                            continue
                        }
                    }
                    let lhs = stack.pop()
                    stack.push(try apply(.subtract, lhs, .integer(b), at: compiled.range(of: index)))
                case .power:
                    let exponent = stack.pop()
                    let base = stack.pop()
                    stack.push(try arithmetic(compiled.range(of: index)) { () throws(ArithmeticFault) in
                        try base.power(exponent)
                    })
                case .comparison(let op):
                    let rhs = stack.pop()
                    let lhs = stack.pop()
                    if case .integer(let a) = lhs, case .integer(let b) = rhs {
                        stack.push(.integer(op.holds(a, b) ? 1 : 0))
                    } else {
                        stack.push(.integer(op.holds(lhs, rhs) ? 1 : 0))
                    }
                case .function(let function):
                    guard function < compiled.functions.count else { continue }
                    let (function, count) = compiled.functions[function]
                    let arguments = stack.pop(count)
                    stack.push(try arithmetic(compiled.range(of: index)) { () throws(ArithmeticFault) in
                        try Functions.apply(function, arguments)
                    })
                case .tree(let tree):
                    guard tree < compiled.subtrees.count else { continue }
                    let subtree = compiled.subtrees[tree]
                    if case .repeat(let count, let body, let modifiers) = subtree.kind {
                        stack.push(try repeatValue(subtree, count: count, body: body, modifiers: modifiers))
                    } else {
                        stack.push(try valueDroppingBreakdown(subtree))
                    }
                case .branch(let target):
                    if stack.pop().isZero { next = target }
                case .jump(let target):
                    next = target
                case .bind(let name):
                    guard name < compiled.names.count else { continue }
                    pushBinding(compiled.names[name], stack.pop())
                case .unbind:
                    if frames.count > frameCount { frames.removeLast() }
                }
            }
            // The steps leave exactly one value.
            return stack.pop()
        }
    }

    /// The value of a name: a `let` binding or parameter, a variable, or else `subtree`
    /// (a macro without arguments, or an error) from the tree evaluator.
    private mutating func value(named name: String, else subtree: Expr) throws(DiceError) -> Number {
        if let frame = frames.last, let value = frame[name] { return value }
        if case .variable(let value) = environment[name] { return value }
        return try valueDroppingBreakdown(subtree)
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
