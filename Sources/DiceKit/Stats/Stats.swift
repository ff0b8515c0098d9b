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
    /// The probability of the rolls that reach a cut explosion tail, or a little more: the
    /// masses cut, each as often as it is worked out or reused, times the chance of the part
    /// of a mixture it was cut from (`noteExplosionCut`, `scalingCuts`).
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
    var insideGivenUnit = false
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
        let explosionCut = cutExplosionTails ? explosionCutBound : 0
        // What is left out: the masses cut, which a `given` divides as it divides the rest.
        var cut = explosionCut + meter.cutMass
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
            distribution = distribution.dividingProbabilities(by: total + explosionCut)
            cut /= total + explosionCut
        }
        if distribution.hasSymbolic {
            distribution = distribution.ordered(by: .reading(expr, environment: environment))
        }
        // The masses cut as noted, not what is missing of the total: that strays from 1 by
        // rounding, about 1e-16 per die (1e-12 for 10000d100), so it showed 9.4e-14 for
        // `if 1d10000 == 1 then 1d6! else 0`, which cuts 3.5e-17, and nothing for `1d10000!!`.
        // Where the two part by more than rounding, some step noted its cut loosely (as a
        // `repeat` of a rolled count did, each member's cut counted for its largest count:
        // `repeat(1d3, 2d6!)` noted 2.1e-12 and lacked 1.4e-12): what is missing is the cut.
        let shortfall = 1 - distribution.totalProbability
        if cutExplosionTails, shortfall > 0, Swift.abs(cut - shortfall) > Swift.max(1e-13, 0.1 * Swift.max(cut, shortfall)) {
            cut = shortfall
        }
        var report = DistributionReport(distribution: distribution, exact: true, truncatedMass: cut,
                                        sumTailsCut: meter.cutTails)
        report.explosionCutoff = meter.finestExplosionCutoff
        report.sumTailCutoff = meter.finestSumTailCutoff
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
