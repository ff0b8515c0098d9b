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
        buffer.initializeElement(at: count, to: value)
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

    /// Replaces the top of `stack` (`lhs`) with `lhs op rhs`: in place when both are integers
    /// and it does not overflow (the common case), else through `apply` (fractions, and the
    /// overflow error at step `index`'s range). `op` is `.add`, `.subtract` or `.multiply`.
    @inline(__always)
    private mutating func combineTop(_ stack: inout OperandStack, _ op: BinaryOperator, _ rhs: Number,
                            step index: Int, of compiled: CompiledValue) throws(DiceError) {
        if case .integer(let b) = rhs, case .integer(let a) = stack.top {
            let (result, overflow): (Int, Bool)
            switch op {
            case .add: (result, overflow) = a.addingReportingOverflow(b)
            case .subtract: (result, overflow) = a.subtractingReportingOverflow(b)
            case .multiply: (result, overflow) = a.multipliedReportingOverflow(by: b)
            default: (result, overflow) = (0, true)
            }
            if !overflow {
                stack.top = .integer(result)
                return
            }
        }
        let lhs = stack.pop()
        stack.push(try apply(op, lhs, rhs, at: compiled.range(of: index)))
    }

    /// Runs the steps of `compiled` with `buffer` for their operand stack; the value is what
    /// they leave on it. `frameCount` is how many `let` frames there were before.
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
                case .literalDice(let dice):
                    guard dice < compiled.literalDice.count else { continue }
                    // Fields read in place: copying the whole entry retains its term once more.
                    let count = compiled.literalDice[dice].count, sides = compiled.literalDice[dice].sides
                    stack.push(.integer(try poolValue(compiled.literalDice[dice].term, count: count, sides: sides,
                                                      at: compiled.range(of: index))))
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
                    try combineTop(&stack, .add, rhs, step: index, of: compiled)
                case .subtract:
                    let rhs = stack.pop()
                    try combineTop(&stack, .subtract, rhs, step: index, of: compiled)
                case .multiply:
                    let rhs = stack.pop()
                    try combineTop(&stack, .multiply, rhs, step: index, of: compiled)
                case .binary(let op):
                    let rhs = stack.pop()
                    let lhs = stack.pop()
                    stack.push(try apply(op, lhs, rhs, at: compiled.range(of: index)))
                case .addInteger(let b):
                    try combineTop(&stack, .add, .integer(b), step: index, of: compiled)
                case .subtractInteger(let b):
                    try combineTop(&stack, .subtract, .integer(b), step: index, of: compiled)
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
                    let call = compiled.functions[function]
                    let arguments = stack.pop(call.arguments)
                    stack.push(try arithmetic(compiled.range(of: index)) { () throws(ArithmeticFault) in
                        try Functions.apply(call.function, arguments)
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
