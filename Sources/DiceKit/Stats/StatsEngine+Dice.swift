/// Dice terms: the count, the sides and the modifiers' arguments may themselves be
/// random (`(1d4)d6`, `2d(1d3*2)`, `kh(1d2)`); each is rolled once per term, so the
/// term's distribution is the mixture over their joint outcomes.
extension StatsEngine {
    /// Runs `body`, reporting an arithmetic fault at `range`; other errors pass through.
    func faults<T>(at range: SourceRange, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let fault as ArithmeticFault {
            throw DiceError(fault.kind, at: range)
        }
    }

    func diceDistribution(_ term: DiceTerm, at range: SourceRange) throws -> Distribution {
        if let single = try singleDie(term) { return single }
        try checkModifiers(term.modifiers, group: false)
        let count = try term.count.map { try distribution(of: $0) } ?? Distribution(constant: .integer(1))
        var fixedFaces: Distribution?
        var sides: (expr: Expr, distribution: Distribution)?
        switch term.sides {
        case .number(let expr): sides = (expr, try distribution(of: expr))
        case .percentile: fixedFaces = Distribution(uniformSides: 100)
        case .fate: fixedFaces = Distribution(faces: [-1, 0, 1])
        case .faces(let faces): fixedFaces = Distribution(faces: faces)
        }
        let arguments = StatsEngine.modifierArguments(term.modifiers)
        var inputs: [Distribution] = []
        if let sides { inputs.append(sides.distribution) }
        for argument in arguments { inputs.append(try distribution(of: argument)) }

        var counts: [WeightedCount] = []
        try count.forEachOutcome { (value, p) throws(DiceError) in
            guard case .integer(let dice) = value, dice >= 0 else {
                throw DiceError(.invalidCount(value), at: term.count?.range ?? range)
            }
            guard dice <= limits.maxDice else { throw DiceError(.tooManyDice(limit: limits.maxDice), at: range) }
            counts.append(WeightedCount(count: dice, probability: p))
        }
        let largest = counts.reduce(0) { Swift.max($0, $1.count) }

        var result = DistributionAccumulator()
        try forEachJointOutcome(of: inputs) { values, weight in
            var values = values[...]
            let faces: Distribution
            if let sides {
                let value = values.removeFirst()
                guard case .integer(let n) = value, n >= 1 else { throw DiceError(.invalidSides(value), at: sides.expr.range) }
                guard n <= budget.maxOutcomes else {
                    throw StatsError.tooExpensive("a die with \(n) sides has too many faces")
                }
                faces = Distribution(uniformSides: n)
            } else {
                faces = fixedFaces!
            }
            let spec = try StatsEngine.resolve(term.modifiers, Array(values))
            let pool = try PoolModel(faces: faces, spec: spec, largestCount: largest, engine: self, range: range,
                                    rerollRange: range, explosionRange: range)
            for entry in counts {
                let distribution = try pool.distribution(count: entry.count)
                try charge(distribution.storageSize)
                try result.add(distribution, shiftedBy: 0, times: weight * entry.probability)
            }
        }
        return try checkSize(result.build())
    }

    /// One die without modifiers and with literal sides (`d20`, `1d%`, `dF`): its faces,
    /// without building a pool model; `nil` for anything else.
    private func singleDie(_ term: DiceTerm) throws -> Distribution? {
        guard term.modifiers.isEmpty else { return nil }
        if let count = term.count {
            guard case .number(.integer(1)) = count.kind else { return nil }
        }
        let faces: Distribution
        switch term.sides {
        case .number(let sides):
            guard case .number(.integer(let n)) = sides.kind, n >= 1, n <= budget.maxOutcomes else { return nil }
            faces = Distribution(uniformSides: n)
        case .percentile: faces = Distribution(uniformSides: 100)
        case .fate: faces = Distribution(faces: [-1, 0, 1])
        case .faces(let list):
            guard !list.isEmpty else { return nil }
            faces = Distribution(faces: list)
        }
        try charge(faces.storageSize)
        return faces
    }

    // MARK: - Modifiers

    /// Rejects modifiers that cannot go together (or, on a group, apply only to dice), with
    /// the roller's messages, looking at them in the order they apply.
    func checkModifiers(_ modifiers: [DiceModifier], group: Bool) throws {
        guard !modifiers.isEmpty else { return }
        let ordered = DiceModifier.inStageOrder(modifiers)
        var explosion = false, counting = false, failures = false
        for modifier in ordered {
            switch modifier.kind {
            case .explode, .reroll, .minimum, .maximum:
                if group {
                    let name = String(modifier.dump.prefix(2).filter { !$0.isNumber })
                    throw DiceError(.conflictingModifiers("'\(name)' applies to dice, not to groups"), at: modifier.range)
                }
                if modifier.stage == .explode {
                    guard !explosion else {
                        throw DiceError(.conflictingModifiers("only one of '!', '!!' and '!p' may be given"),
                                        at: modifier.range)
                    }
                    explosion = true
                }
            case .countSuccesses, .countFailures:
                guard !counting else {
                    throw DiceError(.conflictingModifiers("'cs' and 'cf' exclude each other and may be given once"),
                                    at: modifier.range)
                }
                counting = true
            case .subtractFailures:
                guard !failures else {
                    throw DiceError(.conflictingModifiers("'df' may be given once"), at: modifier.range)
                }
                failures = true
            case .keep, .drop, .sort:
                break
            }
        }
    }

    /// The argument expressions of `modifiers`, in order.
    static func modifierArguments(_ modifiers: [DiceModifier]) -> [Expr] {
        var arguments: [Expr] = []
        for modifier in modifiers {
            switch modifier.kind {
            case .keep(_, let count), .drop(_, let count):
                if let count { arguments.append(count) }
            case .explode(_, let point), .reroll(_, let point):
                if let point { arguments.append(point.value) }
            case .minimum(let value), .maximum(let value):
                arguments.append(value)
            case .countSuccesses(let point), .countFailures(let point), .subtractFailures(let point):
                arguments.append(point.value)
            case .sort:
                break
            }
        }
        return arguments
    }

    /// The modifiers with `values` (one per `modifierArguments`) in place of their arguments.
    static func resolve(_ modifiers: [DiceModifier], _ values: [Number]) throws -> PoolSpec {
        var spec = PoolSpec()
        var next = values.makeIterator()
        func whole(_ name: String, _ argument: Expr, allowNegative: Bool = false) throws -> Int {
            let value = next.next()!
            guard case .integer(let n) = value, allowNegative || n >= 0 else {
                throw DiceError(.invalidModifierArgument(modifier: name, value: value), at: argument.range)
            }
            return n
        }
        for modifier in modifiers {
            switch modifier.kind {
            case .keep(let extreme, let count):
                let n = try count.map { try whole(extreme == .highest ? "kh" : "kl", $0) } ?? 1
                spec.keeps.append(KeepStep(kind: extreme == .highest ? .keepHighest : .keepLowest, count: n))
            case .drop(let extreme, let count):
                let n = try count.map { try whole(extreme == .highest ? "dh" : "dl", $0) } ?? 1
                spec.keeps.append(KeepStep(kind: extreme == .highest ? .dropHighest : .dropLowest, count: n))
            case .explode(let kind, let point):
                spec.explosion = kind
                spec.explosionPoint = point.map { StatsPoint(op: $0.op, value: next.next()!) }
            case .reroll(let once, let point):
                spec.rerolls.append(.init(once: once, point: point.map { StatsPoint(op: $0.op, value: next.next()!) }))
            case .minimum(let value):
                spec.clamps.append((true, try whole("mi", value, allowNegative: true)))
            case .maximum(let value):
                spec.clamps.append((false, try whole("ma", value, allowNegative: true)))
            case .countSuccesses(let point), .countFailures(let point):
                spec.counting.countsSuccesses = true
                spec.counting.successes.append(StatsPoint(op: point.op, value: next.next()!))
            case .subtractFailures(let point):
                spec.counting.failures.append(StatsPoint(op: point.op, value: next.next()!))
            case .sort:
                break
            }
        }
        return spec
    }
}


/// A number of dice (or copies) and its probability.
struct WeightedCount {
    var count: Int
    var probability: Double
}
