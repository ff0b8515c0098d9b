/// The dice (or repeat members, or macro uses) an evaluator rolls between two polls of its
/// `shouldStop`: often enough that an abandoned statement stops within 0.2 s in a debug build.
/// A simulation counts each poll as this much work.
let workBetweenPolls = 1 << 12

/// Evaluates expressions into `Roll` trees, drawing faces from a `DieSource`
/// and keeping one statement's work inside its `Limits`.
///
/// ```swift
/// var evaluator = Evaluator(environment: Environment(), source: Xoshiro256StarStar(seed: 42))
/// let roll = try evaluator.evaluate(Parser.parseExpression("4d6kh3 + 2"))
/// print(roll.value)
/// ```
package struct Evaluator<Source: DieSource> {
    /// The variables and macros that names refer to; statements bind into it.
    package var environment: Environment
    /// The bounds on one statement's work.
    package var limits: Limits
    /// Where the faces come from.
    package var source: Source
    /// Asked now and then during long work; `true` abandons the statement with `.interrupted`.
    package var shouldStop: (@Sendable () -> Bool)?
    /// The seed of a `stats` statement's simulation, when exact work would pass the limits:
    /// the same statement gives the same estimate.
    package var statsSeed: UInt64 = 0x5EED
    /// Dice rolled (and repeat members made) since the last `startStatement()`.
    private(set) var work = 0
    /// Work since `shouldStop` was last asked; not reset between statements, so many
    /// small statements in a row (a simulation's rolls) are polled as often as one big one.
    private var workSincePoll = 0
    /// Nodes walked into result trees since the last `startStatement()` (repeat members and
    /// macro bodies are walked so): what a simulated roll costs besides its dice.
    var nodes = 0
    /// Parts of the breakdown held since the last `startStatement()` (`Limits.maxResultParts`).
    private(set) var heldParts = 0

    /// Parameter bindings of the macro calls in progress, innermost last.
    var frames: [Frame<Bound>] = []
    /// Macro uses in progress (`frames` also holds the frames of `let` bindings).
    var macroDepth = 0
    var depth = 0
    /// Whether the evaluation builds the breakdown (`evaluate`) or only the value (`value(of:)`,
    /// a repeat's members past those listed): the same walk either way, the same dice in the
    /// same order, the same value and errors.
    var recording = true
    /// Whether pools keep every die in their roll, not only those a breakdown lists: while a
    /// pool bound by `let` (or counted by `count`) is rolled.
    var recordsEveryDie = false
    /// The error of a bound pool's value that has none (several text dice), met while it was
    /// rolled: raised where the value is used, not where the pool is counted.
    var deferredValueError: DiceError?
    /// Whether a `given` is being rolled again until its condition holds, and whether its
    /// condition failed in the current try.
    var insideGiven = false
    var conditionFailed = false
    /// How many tries of `E given C` a roll makes before it fails (`givenTries`). A
    /// simulation lifts it: its work budget bounds the tries, and a cap of its own would
    /// leave out the values that need many tries (a rare C in a simulated `stats`).
    var givenTryLimit = Evaluator.givenTries
    /// Tries of `given` whose condition failed, over the evaluator's life.
    var givenFailures = 0
    /// The condition of the last try of a `given` that failed, outside macros: where a
    /// simulation that kept no roll points, unless a condition inside never held
    /// (`givenNeverHeld`).
    var failedCondition: SourceRange?
    /// The conditions met in the tries of the `given` being rolled again, or last rolled again.
    var givenConditions = GivenConditions()
    /// Inside that `given`, the use of a macro the walk is in: where its conditions are noted.
    var givenMacroUse: GivenConditions.Place?
    /// The tries of that `given`'s conditions, each against its own budget.
    var givenTryCounts = GivenTries()
    /// Reused counts of each face, for keep/drop and counting over many dice of few faces.
    var faceCounts: [Int] = []
    /// Reused array of the dice of the pool being rolled (`takeDieScratch`).
    var dieScratch: [Die] = []
    /// What the dice terms rolled lately mean, worked out once each (see `TermCache`).
    var terms = TermCache()

    /// An evaluator over `environment` that rolls faces from `source`.
    package init(environment: Environment, limits: Limits = .standard, source: Source) {
        self.environment = environment
        self.limits = limits
        self.source = source
    }

    /// Starts a statement: resets the work count and any macro frames left by an error.
    @inline(__always)
    package mutating func startStatement() {
        work = 0
        nodes = 0
        heldParts = 0
        depth = 0
        if !frames.isEmpty { frames.removeAll(keepingCapacity: true) }
        macroDepth = 0
    }

    /// Counts `amount` dice (or repeat members) against `Limits.maxDice`.
    @inline(__always)
    mutating func spend(_ amount: Int, at range: SourceRange) throws(DiceError) {
        let (total, overflow) = work.addingReportingOverflow(amount)
        guard !overflow, total <= limits.maxDice else {
            throw DiceError(.tooManyDice(limit: limits.maxDice), at: range)
        }
        work = total
        try pollAfter(amount, at: range)
    }

    /// Counts `amount` of work toward the next poll of `shouldStop`: dice (`spend`), and the
    /// nodes walked by a failed try of `given`, which are no dice but which a simulation's
    /// time budget must see (`stats let r = 1d1000000000 in r given r >= 999999990` took 3 s
    /// against its 1 s while they were unseen).
    @inline(__always)
    mutating func pollAfter(_ amount: Int, at range: SourceRange) throws(DiceError) {
        workSincePoll &+= amount
        if workSincePoll >= workBetweenPolls {
            workSincePoll = 0
            if let shouldStop, shouldStop() { throw DiceError(.interrupted, at: range) }
        }
    }

    /// Counts `amount` parts of the breakdown against `Limits.maxResultParts`.
    @inline(__always)
    mutating func hold(_ amount: Int, at range: SourceRange) throws(DiceError) {
        let (total, overflow) = heldParts.addingReportingOverflow(amount)
        guard !overflow, total <= limits.maxResultParts else {
            throw DiceError(.resultTooLarge(limit: limits.maxResultParts), at: range)
        }
        heldParts = total
    }

    /// Lets go of the parts held since `heldParts` was `held`: the breakdown of a try of
    /// `given` that failed, which nothing keeps.
    @inline(__always)
    mutating func release(toHeld held: Int) { heldParts = held }

    /// Counts the part a pool of `dice` dice holds: one for every 8 dice it lists (at most
    /// `Limits.maxRecordedDice`), whether or not its breakdown is built, so a value fails as
    /// its breakdown does.
    @inline(__always)
    mutating func holdPool(ofDice dice: Int, at range: SourceRange) throws(DiceError) {
        try hold(Swift.min(dice, limits.maxRecordedDice) / 8, at: range)
    }

    /// The value of `expr` when it is a literal, counted as `evaluate` counts it (a node
    /// walked, one level deeper) without making its roll; `nil` for any other expression.
    @inline(__always)
    mutating func literal(_ expr: Expr) throws(DiceError) -> Value? {
        guard case .number(let number) = expr.kind else { return nil }
        guard depth < limits.maxEvaluationDepth else { throw DiceError(.evaluationTooDeep, at: expr.range) }
        nodes &+= 1
        return .number(number)
    }

    /// The value of `expr` when it is a literal or a small pool (`smallPoolValue`), worked out
    /// and counted as `evaluate` would (a node walked one level deeper, its dice, work and
    /// parts), without the two calls of the walk; `nil` for any other expression. For value
    /// walks (`chain`'s operands): it took `dice -t -n 1000000 -e 4d6kh3+2` (bench A1) from
    /// 763 to 665 instructions a roll (callgrind).
    @inline(__always)
    mutating func leafValue(_ expr: Expr) throws(DiceError) -> Value? {
        if let number = try literal(expr) { return number }
        // At `maxEvaluationDepth - 1` the term's literals are too deep: `evaluate` says so.
        guard depth &+ 1 < limits.maxEvaluationDepth, let small = smallKeep(of: expr) else { return nil }
        nodes &+= 1
        let value = try smallPoolValue(small, at: expr.range)
        try hold(1, at: expr.range)
        return value
    }

    /// Evaluates `expr` into its value and breakdown.
    ///
    /// - Complexity: O(*n* + *d* log *d*) for *n* nodes and *d* dice rolled, rerolls and
    ///   explosions included; *d* is at most `limits.maxDice`.
    package mutating func evaluate(_ expr: Expr) throws(DiceError) -> Roll {
        // Parsing bounds nesting; macros can stack nested bodies, so bound the total too.
        guard depth < limits.maxEvaluationDepth else { throw DiceError(.evaluationTooDeep, at: expr.range) }
        nodes &+= 1
        depth += 1
        defer { depth -= 1 }
        let roll = try evaluateNode(expr)
        // A part of the breakdown, held while the statement's tree is built. The value alone
        // holds the same parts while it is worked out, so both fail alike (`resultTooLarge`).
        if case .number = expr.kind {} else { try hold(1, at: expr.range) }
        return roll
    }

    /// The value of `expr` alone, without building a breakdown: the same walk as
    /// `evaluate(_:)`, so the same dice, value and errors.
    ///
    /// - Complexity: as `evaluate(_:)`, in memory for the dice shown none.
    package mutating func value(of expr: Expr) throws(DiceError) -> Value {
        let wasRecording = recording
        let held = heldParts
        recording = false
        defer {
            recording = wasRecording
            heldParts = held
        }
        return try evaluate(expr).value
    }

    /// A roll of `kind` worth `value`; a bare value when no breakdown is being built (`kind`
    /// is then never made).
    @inline(__always)
    func made(_ kind: @autoclosure () -> Roll.Kind, value: Value) -> Roll {
        Roll(recording ? kind() : .number, value: value)
    }

    // Each kind of node in a function of its own: a debug build gives a function's frame room
    // for the locals of all its cases, and nesting a thousand deep (`Limits.maxEvaluationDepth`)
    // must fit the 8 MB stack of a host's thread (MacroTests).
    private mutating func evaluateNode(_ expr: Expr) throws(DiceError) -> Roll {
        if !recording, let value = try smallPoolValue(expr) { return Roll(.number, value: value) }
        switch expr.kind {
        case .number(let number): return Roll(.number, value: .number(number))
        case .name(let name): return try lookUp(name, at: expr.range)
        case .call(let name, let arguments): return try callMacro(name, arguments: arguments, at: expr.range)
        case .function(let function, let arguments): return try call(function, arguments, at: expr.range)
        case .unary(let op, let operand): return try unary(op, operand, at: expr.range)
        case .chain(let first, let rest): return try chain(first, rest)
        case .power(let base, let exponent): return try power(base, exponent, at: expr.range)
        case .comparison(let op, let lhs, let rhs): return try comparison(op, lhs, rhs)
        case .dice(let term): return try rollPool(term, at: expr.range)
        case .group(let members, let modifiers, let parenthesized):
            return try group(members, modifiers: modifiers, parenthesized: parenthesized, at: expr.range)
        case .repeat(let count, let body, let modifiers):
            return try repeatGroup(count: count, body: body, modifiers: modifiers, at: expr.range)
        case .annotated(let inner, let label): return try annotated(inner, label)
        case .conditional(let condition, let then, let otherwise): return try conditional(condition, then, otherwise)
        case .binding where expr.endsInGiven: return try retryingGiven(expr)
        case .binding(let name, let value, let body): return try binding(name, value, body)
        case .text, .match, .tally, .field, .logical, .not, .count, .given: return try outcomeNode(expr)
        }
    }

    private mutating func unary(_ op: UnaryOperator, _ operand: Expr, at range: SourceRange) throws(DiceError) -> Roll {
        let roll = try evaluate(operand)
        if case .text = roll.value { throw DiceError(.notANumber(roll.value, needed: "'\(op.rawValue)'"), at: operand.range) }
        guard op == .negate else { return made(.unary(op, roll), value: roll.value) }
        let value = try arithmetic(range) { () throws(ArithmeticFault) in try roll.value.negated() }
        return made(.unary(op, roll), value: value)
    }

    private mutating func chain(_ first: Expr, _ rest: [Operation]) throws(DiceError) -> Roll {
        guard recording else {
            var value = try operandValue(first)
            // By index, not `for operation in rest`: the loop's copy of each operation retained
            // and released its operand.
            for index in rest.indices {
                value = try combine(value, rest, index, try operandValue(rest[index].operand), after: first)
            }
            return Roll(.number, value: value)
        }
        let firstRoll = try evaluate(first)
        var value = firstRoll.value
        var steps: [Roll.Step] = []
        steps.reserveCapacity(rest.count)
        for index in rest.indices {
            let roll = try evaluate(rest[index].operand)
            value = try combine(value, rest, index, roll.value, after: first)
            steps.append(Roll.Step(rest[index].op, roll))
        }
        return Roll(.chain(Roll.Chain(first: firstRoll, steps: steps)), value: value)
    }

    /// The value of a chain's operand when no breakdown is built: a literal's or a small pool's
    /// read in place (`leafValue`), else walked.
    @inline(__always)
    private mutating func operandValue(_ expr: Expr) throws(DiceError) -> Value {
        if let leaf = try leafValue(expr) { return leaf }
        return try evaluate(expr).value
    }

    /// `value`, the chain so far from `first`, combined with the operand of `rest[index]`.
    /// `mutating` though it changes nothing: called as a nonmutating method from `chain`, it
    /// copied the whole evaluator each time (bench A1's value walk: 490 -> 1,100 instructions
    /// a roll, callgrind of `DiceBench roll`).
    @inline(__always)
    private mutating func combine(_ value: Value, _ rest: [Operation], _ index: Int, _ operand: Value,
                         after first: Expr) throws(DiceError) -> Value {
        try apply(rest[index].op, value, operand, at: rest[index].operatorRange,
                  texts: first.range.lowerBound..<rest[index].operatorRange.lowerBound, rest[index].operand.range)
    }

    private mutating func power(_ base: Expr, _ exponent: Expr, at range: SourceRange) throws(DiceError) -> Roll {
        let b = try evaluate(base)
        let e = try evaluate(exponent)
        let x = try number(b.value, for: NumberNeeds.power, at: base.range), y = try number(e.value, for: NumberNeeds.power, at: exponent.range)
        let value = try arithmetic(range) { () throws(ArithmeticFault) in try x.power(y) }
        return made(.power(b, e), value: .number(value))
    }

    private mutating func comparison(_ op: ComparisonOperator, _ lhs: Expr, _ rhs: Expr) throws(DiceError) -> Roll {
        let l = try evaluate(lhs)
        let r = try evaluate(rhs)
        let holds = try Self.holds(op, l.value, r.value, lhs.range, rhs.range)
        return made(.comparison(op, l, r), value: .integer(holds ? 1 : 0))
    }

    /// Whether `a op b` holds, a text or tally on either side of an ordering an error at its
    /// range. Static: written in `comparison`, the closure had the whole evaluator copied
    /// for each comparison (F2's `check(7, 20)` in `stats`: about 50,000 of its 600,000
    /// instructions a call, callgrind, 2026-12-03).
    private static func holds(_ op: ComparisonOperator, _ a: Value, _ b: Value,
                              _ aRange: SourceRange, _ bRange: SourceRange) throws(DiceError) -> Bool {
        try op.holds(a, b) { (value) throws(DiceError) in
            DiceError(.notANumber(value, needed: "'\(op.rawValue)'"), at: value == a ? aRange : bRange)
        }
    }

    private mutating func annotated(_ inner: Expr, _ label: String) throws(DiceError) -> Roll {
        let roll = try evaluate(inner)
        return made(.annotated(roll, label), value: roll.value)
    }

    private mutating func conditional(_ condition: Expr, _ then: Expr, _ otherwise: Expr) throws(DiceError) -> Roll {
        let test = try evaluate(condition)
        let taken = try !number(test.value, for: "'if'", at: condition.range).isZero
        let branch = try evaluate(taken ? then : otherwise)
        return made(.conditional(condition: test, branch: branch, taken: taken), value: branch.value)
    }

    /// `let name = value in body`; `givenBody`: the body is one try of a `given` it ends in
    /// (`retryingGiven`).
    mutating func binding(_ name: String, _ value: Expr, _ body: Expr, givenBody: Bool = false) throws(DiceError) -> Roll {
        let (bound, valueError) = try boundValue(value)
        frames.pushBinding(name, Bound(value: bound.value, pool: bound.isPool ? bound : nil, valueError: valueError))
        defer { frames.removeLast() }
        let result = try givenBody ? givenOnce(body) : evaluate(body)
        return made(.binding(name: name, value: bound, body: result), value: result.value)
    }

    func arithmetic<T>(_ range: SourceRange, _ body: () throws(ArithmeticFault) -> T) throws(DiceError) -> T {
        do {
            return try body()
        } catch {
            throw DiceError(error.kind, at: range)
        }
    }

    /// `a op b`; a text on either side is an error at that side (`left`, `right`), any other
    /// fault at the operator.
    @inline(__always)
    func apply(_ op: BinaryOperator, _ a: Value, _ b: Value, at range: SourceRange,
               texts left: SourceRange, _ right: SourceRange) throws(DiceError) -> Value {
        if case .number(let x) = a, case .number(let y) = b {
            // `+` and `-` called from here, the other operators out of line: inlined, their rounding
            // (`//`, `%`) made each `chain` ask for the metadata of the standard library's
            // `FloatingPointRoundingRule` and make a stack slot of its size. Bench A1
            // (`dice -t -n 1000000 -e 4d6kh3+2`): 637 -> 606 instructions a roll.
            switch op {
            case .add: return .number(try arithmetic(range) { () throws(ArithmeticFault) in try x.adding(y) })
            case .subtract: return .number(try arithmetic(range) { () throws(ArithmeticFault) in try x.subtracting(y) })
            default: return .number(try Evaluator.outOfLine(op, x, y, at: range))
            }
        }
        if case .text = a { throw DiceError(.notANumber(a, needed: "'\(op.rawValue)'"), at: left) }
        if case .text = b { throw DiceError(.notANumber(b, needed: "'\(op.rawValue)'"), at: right) }
        return try arithmetic(range) { () throws(ArithmeticFault) in try Value.apply(op, a, b) }
    }

    /// `x op y`, or its fault at `range`.
    @inline(never)
    private static func outOfLine(_ op: BinaryOperator, _ x: Number, _ y: Number,
                                  at range: SourceRange) throws(DiceError) -> Number {
        do {
            return try Number.apply(op, x, y)
        } catch {
            throw DiceError(error.kind, at: range)
        }
    }
}

/// An evaluator is a value: with a generator that is `Sendable`, it may move between tasks.
extension Evaluator: Sendable where Source: Sendable {}
