/// Unique dice that explode (`3d4u!`, `5d6u!kh3`): the first faces are a draw without
/// replacement (`forEachUniqueDraw`); each that explodes adds a tail of extra dice, each a
/// fresh settled die (faces may repeat), while they explode, cut after the pool's depth as
/// everywhere. `!p`'s extra dice count one less, `xo`'s one extra die never explodes, and
/// `!!` adds its tail into the die.
extension StatsEngine {
    /// The pool's value without keep/drop: the counted values of the faces that stop, plus
    /// for each exploding face drawn its own and its tail's; only the set `E` of exploding
    /// faces drawn matters besides the others' sum.
    func uniqueExplodingSum(_ faces: [UniqueFace], dice: Int, rules: PoolRules, model: PoolModel,
                            at range: SourceRange) throws(StatsFailure) -> Distribution {
        guard dice > 0 else { return Distribution(constant: .integer(0)) }
        let exploding = faces.indices.filter { model.explodes(faces[$0].face) }
        // A set of exploding faces drawn is the bits of an Int. It was at most 16 of them, which
        // sent `1d80ue<=42` (one die, so at most one face a set) to a simulation; the meter
        // bounds the sets drawn and the sums built for them.
        guard exploding.count < Int.bitWidth - 1 else {
            throw .tooExpensive("unique dice with more than \(Int.bitWidth - 2) exploding faces")
        }
        var bit: [Int: Int] = [:]
        for (position, index) in exploding.enumerated() { bit[index] = 1 << position }
        var contributions: [Number] = []
        for entry in faces {
            contributions.append(try arithmetic(at: range) { () throws(ArithmeticFault) in
                try rules.counting.contribution(of: .integer(entry.face))
            })
        }
        // joint[E][s]: the chance of drawing exactly the exploding faces E, the others adding to s.
        var joint: [Int: [Number: Double]] = [:]
        try forEachUniqueDraw(faces, dice: dice) { (set, p) throws(StatsFailure) in
            var mask = 0
            var sum = Number.integer(0)
            for index in set {
                if let b = bit[index] {
                    mask |= b
                } else {
                    let adds = contributions[index]
                    sum = try arithmetic(at: range) { () throws(ArithmeticFault) in try sum.adding(adds) }
                }
            }
            joint[mask, default: [:]][sum, default: 0] += p
        }
        // What each exploding face adds with its tail; the sets of them built one face at a time.
        let tail = try explosionTail(model, rules: rules, at: range)
        var adds: [Int: Distribution] = [0: Distribution(constant: .integer(0))]
        func added(_ mask: Int) throws(StatsFailure) -> Distribution {
            if let known = adds[mask] { return known }
            let low = mask & -mask
            let rest = try added(mask & ~low)
            let index = exploding[low.trailingZeroBitCount]
            let one = try chainValue(faces[index].face, contributions[index], tail: tail, rules: rules, at: range)
            try meter.charge(WorkMeter.pairWork(rest, one))
            let both = try meter.checkSize(arithmetic(at: range) { () throws(ArithmeticFault) in try rest.adding(one) })
            adds[mask] = both
            return both
        }
        var result = DistributionAccumulator()
        var cut = 0.0
        for (mask, sums) in joint.sorted(by: { $0.key < $1.key }) {
            let others = Distribution(sums.map { Distribution.Outcome($0.key, $0.value) })
            cut += others.totalProbability * model.cutMass(explodedChains: mask.nonzeroBitCount)
            let chains = try added(mask)
            try meter.charge(WorkMeter.pairWork(others, chains))
            let part = try meter.checkSize(arithmetic(at: range) { () throws(ArithmeticFault) in try others.adding(chains) })
            try arithmetic(at: range) { () throws(ArithmeticFault) in try result.add(part) }
        }
        // The mass cut, worked out from the chains rather than as 1 less the total, which
        // rounding swamps: `1d10000u!!` cuts 1e-16 and noted none.
        if model.cutsExplosionTails { noteExplosionCut(cut) }
        return try meter.checkSize(result.build())
    }

    /// One chain of an exploding first face: its counted value (its own and its tail's for
    /// `!`, `!p` and `xo`; the compounded total's for `!!`).
    private func chainValue(_ face: Int, _ contribution: Number, tail: Distribution, rules: PoolRules,
                            at range: SourceRange) throws(StatsFailure) -> Distribution {
        try meter.charge(tail.storageSize)
        return try arithmetic(at: range) { () throws(ArithmeticFault) in
            guard rules.explosion?.kind == .compound else { return try tail.shifted(by: contribution) }
            return try tail.mapped { (total) throws(ArithmeticFault) in
                try rules.counting.contribution(of: try total.adding(.integer(face)))
            }
        }
    }

    /// The extra dice of one chain whose first die exploded, summed: their counted values
    /// (`!`, `!p` one less, `xo`), or their faces for `!!`. Its mass is what the cut leaves.
    private func explosionTail(_ model: PoolModel, rules: PoolRules, at range: SourceRange) throws(StatsFailure) -> Distribution {
        let kind = rules.explosion?.kind
        var stop = DistributionAccumulator(), go = DistributionAccumulator()
        try model.die.forEachWholeOutcome { (face, p) throws(StatsFailure) in
            let value: Number = try arithmetic(at: range) { () throws(ArithmeticFault) in
                switch kind {
                case .compound?: return .integer(face)
                case .penetrate?: return try rules.counting.contribution(of: try Number.integer(face).adding(.integer(-1)))
                default: return try rules.counting.contribution(of: .integer(face))
                }
            }
            if kind != .once && model.explodes(face) { go.add(value, p) } else { stop.add(value, p) }
        }
        let ends = stop.build(), goesOn = go.build()
        var result = DistributionAccumulator()
        var running = Distribution(constant: .integer(0))
        for _ in 0..<model.depth {
            let current = running
            try meter.charge(WorkMeter.pairWork(current, ends) + WorkMeter.pairWork(current, goesOn))
            try arithmetic(at: range) { () throws(ArithmeticFault) in try result.add(try current.adding(ends)) }
            guard !goesOn.isEmpty else { break }
            running = try meter.checkSize(arithmetic(at: range) { () throws(ArithmeticFault) in try current.adding(goesOn) })
        }
        return try meter.checkSize(result.build())
    }

    // MARK: - Keep/drop

    /// The work charged for each group and latent of one set of first faces besides its steps.
    static let uniqueSetCost = 4096

    /// Keep/drop over each set of first faces and its tails: the faces are groups of one
    /// value each; for `!`, `!p` and `xo` the tails' dice are a group of those that stop
    /// (one a chain) and one of those that explode (how many follows a sum of geometric
    /// counts); for `!!` each exploding face is one die showing it plus its tail.
    func uniqueExplodingKeep(_ faces: [UniqueFace], dice: Int, rules: PoolRules, model: PoolModel,
                             at range: SourceRange) throws(StatsFailure) -> Distribution {
        guard dice > 0 else { return Distribution(constant: .integer(0)) }
        let kind = rules.explosion?.kind
        let shift = kind == .penetrate ? -1 : 0
        var ends: [(Int, Double)] = [], goesOn: [(Int, Double)] = []
        var goMass = 0.0
        try model.die.forEachWholeOutcome { (face, p) throws(StatsFailure) in
            let value = try arithmetic(at: range) { () throws(ArithmeticFault) in
                let (value, overflow) = face.addingReportingOverflow(shift)
                guard !overflow else { throw .overflow }
                return value
            }
            if kind != .once && model.explodes(face) {
                goesOn.append((value, p))
                goMass += p
            } else {
                ends.append((value, p))
            }
        }
        // One chain's exploding extra dice: j of them, then one that stops, j < depth.
        var perChain: [Double] = []
        var power = 1.0
        for _ in 0..<model.depth {
            perChain.append(power * (1 - goMass))
            power *= goMass
        }
        if kind == .once { perChain = model.depth > 0 ? [1] : [] }
        let compoundTail = kind == .compound ? try explosionTail(model, rules: rules, at: range) : nil
        let stopGroup = try keepGroup(ends, rules: rules, at: range)
        let goGroup = try keepGroup(goesOn, rules: rules, at: range)
        var result = DistributionAccumulator()
        var cut = 0.0
        try forEachUniqueDraw(faces, dice: dice) { (set, p) throws(StatsFailure) in
            cut += p * model.cutMass(explodedChains: set.filter { model.explodes(faces[$0].face) }.count)
            var made: [(group: ExplodingKeep.Group, size: (Int) -> Int)] = []
            var weight = p
            var chains = 0
            for index in set {
                let face = faces[index].face
                if model.explodes(face), let tail = compoundTail {
                    var entries: [(Int, Double)] = []
                    try tail.forEachWholeOutcome { (total, q) throws(StatsFailure) in
                        entries.append((try arithmetic(at: range) { () throws(ArithmeticFault) in
                            let (value, overflow) = total.addingReportingOverflow(face)
                            guard !overflow else { throw .overflow }
                            return value
                        }, q))
                    }
                    weight *= tail.totalProbability
                    guard let group = try keepGroup(entries, rules: rules, at: range) else { return }
                    made.append((group, { _ in 1 }))
                } else {
                    if model.explodes(face) { chains += 1 }
                    guard let group = try keepGroup([(face, 1)], rules: rules, at: range) else { return }
                    made.append((group, { _ in 1 }))
                }
            }
            var extras: [Double] = [1]
            if chains > 0 {
                guard !perChain.isEmpty else { return }
                for _ in 0..<chains {
                    try meter.charge(WorkMeter.product(extras.count, perChain.count))
                    extras = Distribution.convolve(extras, perChain)
                }
                let k = chains
                if let stopGroup { made.append((stopGroup, { _ in k })) }
                if let goGroup { made.append((goGroup, { m in m })) }
            }
            made.sort { ($0.group.values[0], $0.group.values.last ?? 0) < ($1.group.values[0], $1.group.values.last ?? 0) }
            var separable = true
            for index in made.indices.dropFirst() where (made[index - 1].group.values.last ?? 0) > made[index].group.values[0] {
                separable = false
            }
            let latents = extras.enumerated().filter { $0.element > 0 }.map { entry in
                (sizes: made.map { $0.size(entry.offset) }, weight: entry.element * weight)
            }
            // Making the groups and tables of one set costs far more than its steps: a debug build
            // took about 1 ms for each of 6d20u!kh3's sets (8 groups, a few latents): some 0.1 ms released.
            try meter.charge(WorkMeter.product(made.count * latents.count, StatsEngine.uniqueSetCost))
            let keep = ExplodingKeep(groups: made.map(\.group), separable: separable, latents: latents,
                                     keeps: rules.keeps, range: range)
            let part = try keep.keptSum(meter: &meter)
            try arithmetic(at: range) { () throws(ArithmeticFault) in try result.add(part) }
        }
        let kept = try meter.checkSize(result.build())
        // What the chains cut, or what the total lacks if more: `ExplodingKeep` leaves out
        // negligible latents too (as `PoolModel.cutMass` has it).
        if model.cutsExplosionTails { noteExplosionCut(Swift.max(cut, 1 - kept.totalProbability)) }
        return kept
    }

    /// Dice of one kind for `ExplodingKeep`: `entries` (value, probability), made ascending
    /// and scaled to sum to 1, with what each counts; `nil` when there are none.
    private func keepGroup(_ entries: [(Int, Double)], rules: PoolRules,
                           at range: SourceRange) throws(StatsFailure) -> ExplodingKeep.Group? {
        var merged: [Int: Double] = [:]
        for (value, p) in entries where p > 0 { merged[value, default: 0] += p }
        let mass = merged.values.reduce(0, +)
        guard mass > 0 else { return nil }
        var values: [Int] = [], probabilities: [Double] = [], contributions: [Number] = []
        var whole: [Int]? = []
        for (value, p) in merged.sorted(by: { $0.key < $1.key }) {
            let contribution = try arithmetic(at: range) { () throws(ArithmeticFault) in
                try rules.counting.contribution(of: .integer(value))
            }
            values.append(value)
            probabilities.append(p / mass)
            contributions.append(contribution)
            if case .integer(let n) = contribution { whole?.append(n) } else { whole = nil }
        }
        let doubles = contributions.map(\.doubleValue)
        return ExplodingKeep.Group(values: values, probabilities: probabilities, contributions: contributions,
                                   wholeContributions: whole, spread: (doubles.max() ?? 0) - (doubles.min() ?? 0))
    }
}
