/// Probability distributions of expressions (`stats expr`): the package's entry points into
/// the exact engine, the simulation and sweeps. A library user asks `Session.stats(_:)`, or
/// runs a `stats` statement with `Session.execute(_:)`, which both come here.
package enum Stats {
    /// The exact distribution of `expr`, every dice term and macro use an independent roll.
    ///
    /// Throws `DiceError` when some roll with positive probability would fail (division by
    /// zero, an invalid count, an explosion matching every face, ...), and
    /// `StatsError.tooExpensive` when the exact work would exceed `limits.stats`: the caller
    /// then estimates the distribution by simulation. `shouldStop` is asked now and then;
    /// `true` abandons the work with `.interrupted`. Any other error is a bug in DiceKit
    /// (a broken invariant of the engine), never a reason to simulate.
    package static func exactDistribution(
        of expr: Expr, environment: Environment, limits: Limits = .standard,
        shouldStop: (@Sendable () -> Bool)? = nil
    ) throws -> DistributionReport {
        do {
            return try exactReport(of: expr, environment: environment, limits: limits,
                                   shouldStop: shouldStop)
        } catch {
            throw error.publicError
        }
    }

    /// `exactDistribution`, its failures kept in their channels.
    static func exactReport(of expr: Expr, environment: Environment, limits: Limits,
                            shouldStop: (@Sendable () -> Bool)?) throws(StatsFailure) -> DistributionReport {
        let engine = StatsEngine(environment: environment, limits: limits,
                                 meter: WorkMeter(budget: limits.stats, shouldStop: shouldStop, statementRange: expr.range))
        var report = try engine.report(of: expr)
        report.isTest = isTest(expr, environment: environment)
        return report
    }
}

/// The recursive evaluation of one `stats` expression into a distribution.
final class StatsEngine {
    /// What a macro parameter stands for while its body is evaluated.
    enum Parameter {
        /// The argument's value, fixed while the body is evaluated for it (the argument is
        /// used more than once, so its uses must agree).
        case value(Value)
        /// The argument's whole distribution (it is used at most once, so independence is exact).
        case distribution(Distribution)
        /// A pool bound by `let`, under one outcome of its dice (`boundPoolDistribution`).
        case pool(BoundPoolOutcome)
    }

    /// The names the expression sees (a sweep changes its variable from value to value).
    var environment: Environment
    let limits: Limits
    /// The work done, against the budget; lent `inout` to the algorithms, which hold no
    /// reference to the engine and so cannot reach this property while they have it: no
    /// access can overlap, and the runtime's check of every access (several hundred
    /// instructions per small distribution) is left out.
    @exclusivity(unchecked) var meter: WorkMeter
    /// Parameters of the macro calls in progress, innermost last.
    var frames: [Frame<Parameter>] = []
    var macroDepth = 0
    private(set) var depth = 0
    /// Whether some explosion tail was cut.
    var cutExplosionTails = false
    /// At least the probability of the rolls that reach a cut explosion tail: the masses cut,
    /// each added as often as it is worked out or reused (`noteExplosionCut`).
    var explosionCutBound = 0.0
    /// Whether a `given` left out the mass where its condition fails: the statement's
    /// distribution is then divided by its total.
    var conditioned = false
    /// The conditions of the `given` rolled again whole being worked out, and whether each
    /// held: where the error of one whose every outcome was left out points.
    var givenConditions = GivenConditions()
    /// Inside that `given`, the use of a macro the walk is in: where its conditions are noted.
    var givenMacroUse: GivenConditions.Place?
    /// Whether the walk is inside a `given` rolled again whole (`givenUnit`).
    private var insideGivenUnit = false
    /// For each macro, how many times its body uses each parameter (`Int.max`: inside `repeat`).
    var parameterUses: [String: [String: Int]] = [:]
    /// In a sweep, the parts its values share.
    var sharing: SweepSharing?
    /// The bound pools' outcomes worked out so far.
    var boundPoolTables = BoundPoolTables()

    /// Nested evaluations (expression levels and macro bodies) before `.evaluationTooDeep`:
    /// the roller's bound, so whatever rolls has a distribution.
    
    init(environment: Environment, limits: Limits, meter: WorkMeter) {
        self.environment = environment
        self.limits = limits
        self.meter = meter
    }

    /// Runs an arithmetic step, reporting its fault at `range`.
    func arithmetic<T>(at range: SourceRange,
                       _ body: () throws(ArithmeticFault) -> T) throws(StatsFailure) -> T {
        try StatsFailure.arithmetic(at: range, body)
    }

    /// Notes that explosion tails of `mass` were cut from a distribution of dice. A mass is
    /// noted each time its distribution is worked out or reused, for any weight it is mixed
    /// with (at most 1), and times the copies made of it (`repeat`): the sum is at least
    /// the probability that some roll reaches a cut tail.
    func noteExplosionCut(_ mass: Double) {
        cutExplosionTails = true
        explosionCutBound += Swift.max(0, mass)
    }

    /// The outcomes of `member`, of which up to `copies` independent copies are made
    /// (`repeat`): the explosion cuts its work notes count once for each copy.
    func outcomes(ofMember member: Expr, copies: Int) throws(StatsFailure) -> Distribution {
        let before = explosionCutBound
        let result = try outcomes(of: member)
        explosionCutBound = before + (explosionCutBound - before) * Double(Swift.max(copies, 1))
        return result
    }

    /// Adds `part`, its probabilities times `weight`, to a mixture: unshifted, so no
    /// arithmetic fault can arise.
    func mix(_ part: Distribution, times weight: Double,
             into result: inout DistributionAccumulator) throws(StatsFailure) {
        do {
            try result.add(part, shiftedBy: 0, times: weight)
        } catch {
            throw .invariant("an unshifted mixture failed: \(error.kind.message)")
        }
    }

    /// The exact report of `expr`: its distribution, and what was cut from its tails since
    /// the last report (a sweep makes one report a value with the same engine).
    func report(of expr: Expr) throws(StatsFailure) -> DistributionReport {
        cutExplosionTails = false
        explosionCutBound = 0
        conditioned = false
        givenConditions = GivenConditions()
        meter.clearCuts()
        var distribution = try outcomes(of: expr)
        if conditioned {
            // `given` left out the mass where its condition failed: what is left, divided by
            // what the condition's mass is at most. The true one, T*, lies between the total T
            // and T + C, C at least the mass of the rolls that reach a cut explosion tail (the
            // rolls where C holds are T's and those of them cut). Divided by T + C, every
            // probability is at most the true one and 1 - total, C / (T + C), is a sound
            // bound of the conditioned mass left out with the tails, reported below.
            let total = distribution.totalProbability
            guard total > 0 else {
                throw .dice(givenConditions.error(.conditionImpossible, else: (expr.givenCondition ?? expr).range))
            }
            distribution = distribution.dividingProbabilities(by: total + (cutExplosionTails ? explosionCutBound : 0))
        }
        if distribution.hasSymbolic {
            distribution = distribution.ordered(by: .reading(expr, environment: environment))
        }
        // Explosion tails: what is missing of the total. Sums alone: the mass their cuts noted
        // (the total also strays from 1 by rounding, about 1e-16 per die: 1e-12 for 10000d100).
        let cut = cutExplosionTails ? Swift.max(0, 1 - distribution.totalProbability) : meter.cutMass
        var report = DistributionReport(distribution: distribution, exact: true, truncatedMass: cut,
                                        sumTailsCut: meter.cutTails)
        if cutExplosionTails || meter.cutTails {
            let ends = ValueBounds.ends(of: expr, environment: environment, limits: limits)
            report.setEnds(ends.low == nil || ends.high == nil ? unknownEnds(ends, expr, distribution) : ends)
        }
        return report
    }

    // MARK: - Expressions

    /// The distribution of `expr`, whose outcomes must all be numbers (an operation on them
    /// needs numbers): a text or tally is `notANumber` at `expr`.
    func distribution(of expr: Expr, for needed: @autoclosure () -> String = "arithmetic") throws(StatsFailure) -> Distribution {
        let result = try outcomes(of: expr)
        if let other = result.symbolicOutcomes.first {
            throw .dice(DiceError(.notANumber(other.value, needed: needed()), at: expr.range))
        }
        return result
    }

    /// The distribution of `expr`, its outcomes numbers, texts or tallies.
    func outcomes(of expr: Expr) throws(StatsFailure) -> Distribution {
        depth += 1
        defer { depth -= 1 }
        guard depth <= limits.maxEvaluationDepth else { throw .dice(DiceError(.evaluationTooDeep, at: expr.range)) }
        if !insideGivenUnit && expr.endsInGiven { return try givenUnit(expr) }
        if let sharing { return try sharedOutcomes(of: expr, sharing: sharing) }
        return try evaluate(expr)
    }

    /// `E given C`, or a `let` ending in one, inside the statement: rolled again, whole, until
    /// C holds, as the roller does (`Evaluator.retryingGiven`), so its distribution is E's
    /// where C holds divided by the chance that C holds; the statement's own is divided at the
    /// end (`report(of:)`). Left to the end, a `given` in a branch lost its branch's chance:
    /// `if 1d2 == 1 then (1d6 given 1d6 > 4) else 0` gave 0 three times in four, not half the
    /// time. Divided as `report(of:)` divides, by its total and the explosion tails cut in it,
    /// so that the cut is still reported; the whole statement's (`depth` 1), by the report.
    private func givenUnit(_ expr: Expr) throws(StatsFailure) -> Distribution {
        insideGivenUnit = true
        // Its own conditions, where they are written though it is inside a macro's body; the
        // statement's are the report's (`report(of:)`).
        let outerConditions = givenConditions, macroUse = givenMacroUse
        if depth > 1 { givenConditions = GivenConditions() }
        givenMacroUse = nil
        defer {
            insideGivenUnit = false
            if depth > 1 { givenConditions = outerConditions }
            givenMacroUse = macroUse
        }
        let cutBefore = explosionCutBound
        let part = try outcomes(of: expr)
        if depth == 1 { return part }
        let total = part.totalProbability
        guard total > 0 else { throw .dice(impossible(expr)) }
        return part.dividingProbabilities(by: total + Swift.max(0, explosionCutBound - cutBefore))
    }

    /// The error of `given` unit `expr` whose condition never holds, at the condition that
    /// never held (`GivenConditions`): naming a value it reads that was fixed outside it
    /// (`namesFixedByGiven`), when there is one.
    private func impossible(_ expr: Expr) -> DiceError {
        let range = (expr.givenCondition ?? expr).range
        if let frame = frames.last {
            var uses: [String: Int] = [:]
            StatsEngine.countUses(in: expr, of: Set(frame.names), weight: 1, into: &uses)
            for name in frame.names.reversed() where uses[name] != nil {
                if case .value(let value) = frame[name] {
                    return givenConditions.error(.conditionImpossibleWhen(name: name, value: value), else: range)
                }
            }
        }
        return givenConditions.error(.conditionImpossible, else: range)
    }

    /// `body`, the body or a default of a use of macro `name` at `range`: inside a `given`
    /// rolled again whole, its conditions are noted at the outermost use, in the innermost
    /// macro's name, as the roller notes them (`Evaluator.expand`).
    func inMacroUse<T>(_ name: String, at range: SourceRange,
                       _ body: () throws(StatsFailure) -> T) throws(StatsFailure) -> T {
        guard insideGivenUnit else { return try body() }
        let macroUse = givenMacroUse
        givenMacroUse = GivenConditions.Place(range: macroUse?.range ?? range, macro: name)
        defer { givenMacroUse = macroUse }
        return try body()
    }

    /// The distribution of `expr` worked out from its parts' (`outcomes(of:)` without sharing).
    func evaluate(_ expr: Expr) throws(StatsFailure) -> Distribution {
        switch expr.kind {
        case .number(let value):
            return Distribution(constant: value)
        case .name(let name):
            return try nameDistribution(name, at: expr.range)
        case .call(let name, let arguments):
            return try callDistribution(name, arguments, at: expr.range)
        case .function(let function, let arguments):
            return try functionDistribution(function, arguments, at: expr.range)
        case .unary(let op, let operand):
            let inner = try outcomes(of: operand)
            if inner.hasSymbolic {
                if let text = inner.symbolicOutcomes.outcomes.first(where: { if case .text = $0.value { true } else { false } }) {
                    // At the operand, as the roller has it.
                    throw .dice(DiceError(.notANumber(text.value, needed: "'\(op.rawValue)'"), at: operand.range))
                }
                return try mapValues(inner, at: expr.range) { (value) throws(ArithmeticFault) in
                    return op == .plus ? value : try value.negated()
                }
            }
            if op == .plus { return inner }
            try meter.charge(inner.storageSize)
            return try arithmetic(at: expr.range) { () throws(ArithmeticFault) in try inner.negated() }
        case .chain(let first, let rest):
            return try chainDistribution(first, rest)
        case .power(let base, let exponent):
            let lhs = try distribution(of: base, for: NumberNeeds.power), rhs = try distribution(of: exponent, for: NumberNeeds.power)
            return try binary(lhs, rhs, at: expr.range) { (a, b) throws(ArithmeticFault) in try a.power(b) }
        case .comparison(let op, let lhs, let rhs):
            let left = try outcomes(of: lhs), right = try outcomes(of: rhs)
            if left.hasSymbolic || right.hasSymbolic {
                return try textsAtTheirSide(left, lhs.range, rhs.range, operator: expr.range) { () throws(StatsFailure) in
                    try combineValues(left, right, at: expr.range) { (a, b) throws(ArithmeticFault) in
                        switch op {
                        case .equal: return .integer(a == b ? 1 : 0)
                        case .notEqual: return .integer(a != b ? 1 : 0)
                        default:
                            let x = try a.number(for: "'\(op.rawValue)'"), y = try b.number(for: "'\(op.rawValue)'")
                            return .integer(op.holds(x, y) ? 1 : 0)
                        }
                    }
                }
            }
            try meter.charge(left.storageSize + right.storageSize)
            return left.comparing(op, to: right)
        case .dice(let term):
            return try pointingAtModifiers(of: term, at: expr.range) { () throws(StatsFailure) in
                if case .symbols = term.sides { return try symbolDiceDistribution(term, at: expr.range) }
                return try diceDistribution(term, at: expr.range)
            }
        case .group(let members, let modifiers, _):
            return try groupDistribution(members, modifiers, at: expr.range)
        case .repeat(let count, let body, let modifiers):
            return try repeatDistribution(count: count, body: body, modifiers: modifiers, at: expr.range)
        case .annotated(let inner, _):
            return try outcomes(of: inner)
        case .conditional(let condition, let then, let otherwise):
            return try conditionalDistribution(condition, then, otherwise)
        case .binding(let name, let value, let body):
            return try bindingDistribution(name, value, body)
        case .text, .match, .tally, .field, .logical, .not, .count, .given:
            return try outcomeDistribution(expr)
        }
    }

    private func chainDistribution(_ first: Expr, _ rest: [Operation]) throws(StatsFailure) -> Distribution {
        var result = try outcomes(of: first)
        for operation in rest {
            let rhs = try outcomes(of: operation.operand)
            let lhs = result
            if lhs.hasSymbolic || rhs.hasSymbolic {
                let left = first.range.lowerBound..<operation.operatorRange.lowerBound
                result = try textsAtTheirSide(lhs, left, operation.operand.range,
                                              operator: operation.operatorRange) { () throws(StatsFailure) in
                    if operation.op == .add || operation.op == .subtract {
                        return try addValues(lhs, rhs, subtracting: operation.op == .subtract, at: operation.operatorRange)
                    }
                    // Tallies add field by field; a text is an error (`Value.apply`).
                    return try combineValues(lhs, rhs, at: operation.operatorRange) { (a, b) throws(ArithmeticFault) in
                        try Value.apply(operation.op, a, b)
                    }
                }
                continue
            }
            switch operation.op {
            case .add, .subtract:
                let subtracting = operation.op == .subtract
                if let sum = try LargeSum.add(lhs, rhs, subtracting: subtracting, meter: &meter,
                                              at: operation.operatorRange) {
                    result = sum
                    break
                }
                try meter.charge(WorkMeter.pairWork(lhs, rhs))
                result = try arithmetic(at: operation.operatorRange) { () throws(ArithmeticFault) in
                    subtracting ? try lhs.subtracting(rhs) : try lhs.adding(rhs)
                }
            case .multiply:
                result = try binary(lhs, rhs, at: operation.operatorRange) { (a, b) throws(ArithmeticFault) in
                    try a.multiplying(by: b)
                }
            case .divide:
                result = try binary(lhs, rhs, at: operation.operatorRange) { (a, b) throws(ArithmeticFault) in
                    try a.dividing(by: b)
                }
            case .floorDivide:
                result = try binary(lhs, rhs, at: operation.operatorRange) { (a, b) throws(ArithmeticFault) in
                    try a.floorDividing(by: b)
                }
            case .modulo:
                result = try binary(lhs, rhs, at: operation.operatorRange) { (a, b) throws(ArithmeticFault) in
                    try a.modulo(b)
                }
            }
            try meter.checkSize(result)
        }
        return result
    }

    /// `combine`'s result; a text that is no number, an error it raised at `operator`, is
    /// moved to its side as the roller has it (`Evaluator.apply`): `left` when `lhs` may be
    /// that text, else `right`.
    private func textsAtTheirSide(_ lhs: Distribution, _ left: SourceRange, _ right: SourceRange,
                                  operator place: SourceRange,
                                  _ combine: () throws(StatsFailure) -> Distribution) throws(StatsFailure) -> Distribution {
        do {
            return try combine()
        } catch .dice(let error) {
            guard case .notANumber(let text, _) = error.kind, error.range == place else { throw .dice(error) }
            throw .dice(DiceError(error.kind, at: lhs.symbolicOutcomes.outcomes.contains { $0.value == text } ? left : right))
        }
    }

    /// `operation` over every pair of outcomes.
    func binary(_ lhs: Distribution, _ rhs: Distribution, at range: SourceRange,
                _ operation: (Number, Number) throws(ArithmeticFault) -> Number) throws(StatsFailure) -> Distribution {
        // Charged row by row as the pairs are made, not all at once: a product a long budget
        // allows takes seconds, and the meter asks about Ctrl-C only as work is charged.
        let rowWork = WorkMeter.product(rhs.count, WorkMeter.sparsePairCost)
        try meter.ensureAffordable(WorkMeter.product(lhs.count, rowWork))
        var builder = DistributionAccumulator()
        try lhs.forEachOutcome { (x, p) throws(StatsFailure) in
            try meter.charge(rowWork)
            try arithmetic(at: range) { () throws(ArithmeticFault) in
                try rhs.forEachOutcome { (y, q) throws(ArithmeticFault) in builder.add(try operation(x, y), p * q) }
            }
        }
        return try meter.checkSize(builder.build())
    }

    private func functionDistribution(_ function: Function, _ arguments: [Expr],
                                      at range: SourceRange) throws(StatsFailure) -> Distribution {
        var values: [Distribution] = []
        for argument in arguments { values.append(try distribution(of: argument, for: function.rawValue)) }
        guard let first = values.first else {
            throw .dice(DiceError(
                .wrongArgumentCount(function: function.rawValue, minimum: 1, maximum: nil, got: 0), at: range))
        }
        switch function {
        case .min, .max:
            var result = first
            for next in values.dropFirst() {
                try meter.charge(result.storageSize + next.storageSize)
                result = function == .max ? result.maximum(with: next) : result.minimum(with: next)
            }
            return result
        case .abs, .floor, .ceil, .round:
            try meter.charge(first.storageSize)
            return try arithmetic(at: range) { () throws(ArithmeticFault) in
                try first.mapped { (x) throws(ArithmeticFault) in try Functions.apply(function, [x]) }
            }
        }
    }
}
