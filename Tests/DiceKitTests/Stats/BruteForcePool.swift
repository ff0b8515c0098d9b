#if canImport(Glibc)
import Glibc
#endif
@testable import DiceKit

/// The distribution of a small dice term found the slow way: every sequence of rolls
/// the roller could make, followed literally (roll, clamp, reroll loop, explosion chain,
/// keep/drop by sorting, counting), with its probability.
///
/// Recursive rerolls are followed 400 deep; an explosion chain stops after `depth`
/// extra dice, the chains that would go on being dropped, as `Stats` does.
struct BruteForcePool {
    var faces: [Int]
    var clamps: [(minimum: Bool, value: Int)] = []
    var rerollAlways: [(ComparisonOperator, Int)] = []
    var rerollOnce: [(ComparisonOperator, Int)] = []
    var explosion: (DiceModifier.Explosion, ComparisonOperator, Int)?
    var keeps: [(keep: Bool, highest: Bool, count: Int)] = []
    var success: (ComparisonOperator, Int)?
    var failure: (ComparisonOperator, Int)?
    /// `u`: each die's settled face differs from those of the dice before it.
    var unique = false
    var count: Int

    /// Reads a term like `3d4!pkh2` whose arguments are all integer literals.
    init(_ text: String) throws {
        let expr = try Parser.parseExpression(text)
        guard case .dice(let term) = expr.kind else { fatalError("not a dice term: \(text)") }
        func int(_ e: Expr?) -> Int? {
            guard let e else { return nil }
            if case .number(.integer(let n)) = e.kind { return n }
            fatalError("not a literal in \(text)")
        }
        count = int(term.count) ?? 1
        switch term.sides {
        case .number(let e): faces = Array(1...int(e)!)
        case .percentile: faces = Array(1...100)
        case .fate: faces = [-1, 0, 1]
        case .faces(let list): faces = list
        case .symbols: fatalError("symbol faces in \(text)")
        }
        var bareAlways = false, bareOnce = false, bareExplosion: DiceModifier.Explosion?
        for modifier in term.modifiers {
            switch modifier.kind {
            case .minimum(let e): clamps.append((true, int(e)!))
            case .maximum(let e): clamps.append((false, int(e)!))
            case .reroll(let once, let point):
                if let point {
                    if once { rerollOnce.append((point.op, int(point.value)!)) } else { rerollAlways.append((point.op, int(point.value)!)) }
                } else if once { bareOnce = true } else { bareAlways = true }
            case .explode(let kind, let point):
                if let point { explosion = (kind, point.op, int(point.value)!) } else { bareExplosion = kind }
            case .keep(let extreme, let n): keeps.append((true, extreme == .highest, int(n) ?? 1))
            case .drop(let extreme, let n): keeps.append((false, extreme == .highest, int(n) ?? 1))
            case .countSuccesses(let point), .countFailures(let point): success = (point.op, int(point.value)!)
            case .subtractFailures(let point): failure = (point.op, int(point.value)!)
            case .sort: break
            case .unique: unique = true
            }
        }
        let clampedFaces = faces.map(clamp)
        if bareAlways { rerollAlways.append((.equal, clampedFaces.min()!)) }
        if bareOnce { rerollOnce.append((.equal, clampedFaces.min()!)) }
        if let kind = bareExplosion { explosion = (kind, .equal, clampedFaces.max()!) }
    }

    func clamp(_ face: Int) -> Int {
        var result = face
        for c in clamps { result = c.minimum ? max(result, c.value) : min(result, c.value) }
        return result
    }

    /// Every face a die settles on after its rerolls, with probabilities: the roller's
    /// loop followed roll by roll (400 rolls deep), the mass still rolling carried along.
    func settle() -> [Int: Double] {
        var result: [Int: Double] = [:]
        var rolling: [Bool: Double] = [false: 1]   // whether the die used its `ro` -> mass
        for _ in 0..<400 where !rolling.isEmpty {
            var next: [Bool: Double] = [:]
            for (usedOnce, p) in rolling {
                for face in faces {
                    let f = clamp(face)
                    let q = p / Double(faces.count)
                    if rerollAlways.contains(where: { $0.0.holds(f, $0.1) }) {
                        next[usedOnce, default: 0] += q
                    } else if !usedOnce && rerollOnce.contains(where: { $0.0.holds(f, $0.1) }) {
                        next[true, default: 0] += q
                    } else {
                        result[f, default: 0] += q
                    }
                }
            }
            rolling = next.filter { $0.value > 1e-300 }
        }
        return result
    }

    /// The explosion depth `Stats` uses: the fewest extra dice k with p^(k+1) <= cutoff / count.
    func depth(cutoff: Double) -> Int {
        guard let explosion else { return 0 }
        let p = settle().filter { explosion.1.holds($0.key, explosion.2) }.values.reduce(0, +)
        guard p > 0 else { return 0 }
        if explosion.0 == .once { return 1 }
        var k = 0
        while pow(p, Double(k + 1)) > cutoff / Double(max(1, count)) { k += 1 }
        return k
    }

    /// Each original die's possible lists of counted values (the die, then its extra dice).
    func chains(depth: Int) -> [([Int], Double)] {
        settle().flatMap { face, q in chains(from: face, depth: depth).map { ($0.0, $0.1 * q) } }
    }

    /// The lists of counted values of a die that settled on `first`: it, then its extra dice.
    func chains(from first: Int, depth: Int) -> [([Int], Double)] {
        let die = settle()
        guard let explosion else { return [([first], 1)] }
        var result: [([Int], Double)] = []
        // `xo`: one extra die at most, which never explodes, so no tail is cut.
        let once = explosion.0 == .once
        let depth = once ? 1 : depth
        func go(_ values: [Int], _ total: Int, _ p: Double, _ extra: Int) {
            for (face, q) in extra == 0 ? [(first, 1.0)] : Array(die) {
                let explodes = explosion.1.holds(face, explosion.2) && !(once && extra > 0)
                switch explosion.0 {
                case .compound:
                    if explodes {
                        if extra < depth { go([], total + face, p * q, extra + 1) }
                    } else {
                        result.append(([total + face], p * q))
                    }
                case .explode, .penetrate, .once:
                    let value = extra > 0 && explosion.0 == .penetrate ? face - 1 : face
                    if explodes {
                        if extra < depth { go(values + [value], 0, p * q, extra + 1) }
                    } else {
                        result.append((values + [value], p * q))
                    }
                }
            }
        }
        go([], 0, 1, 0)
        return result
    }

    /// The pool's value for one list of counted dice.
    func value(of dice: [Int]) -> Int {
        var kept = dice.sorted()
        for step in keeps {
            let n = min(step.count, kept.count)
            switch (step.keep, step.highest) {
            case (true, true): kept = Array(kept.suffix(n))
            case (true, false): kept = Array(kept.prefix(n))
            case (false, true): kept = Array(kept.dropLast(n))
            case (false, false): kept = Array(kept.dropFirst(n))
            }
        }
        var total = success.map { s in kept.filter { s.0.holds($0, s.1) }.count } ?? kept.reduce(0, +)
        if let failure { total -= kept.filter { failure.0.holds($0, failure.1) }.count }
        return total
    }

    /// The distribution of the pool's value. The dice lists are merged as sorted lists
    /// (the value depends only on which values were rolled) so the enumeration stays small.
    func distribution(cutoff: Double) -> [Int: Double] {
        if unique { return uniqueDistribution(cutoff: cutoff) }
        var options: [[Int]: Double] = [:]
        for (chain, q) in chains(depth: depth(cutoff: cutoff)) { options[chain.sorted(), default: 0] += q }
        var pools: [[Int]: Double] = [[]: 1]
        for _ in 0..<count {
            var next: [[Int]: Double] = [:]
            for (dice, p) in pools {
                for (chain, q) in options { next[(dice + chain).sorted(), default: 0] += p * q }
            }
            pools = next
        }
        var result: [Int: Double] = [:]
        for (dice, p) in pools { result[value(of: dice), default: 0] += p }
        return result
    }

    /// `u`: the dice one at a time, each rolled (and settled) again while it shows a face
    /// already shown, so it settles on a face not shown, in proportion to `settle()`; then
    /// its explosion, whose extra dice may repeat faces.
    func uniqueDistribution(cutoff: Double) -> [Int: Double] {
        let die = settle(), depth = depth(cutoff: cutoff)
        struct State: Hashable {
            var shown: Set<Int>
            var dice: [Int]
        }
        var states: [State: Double] = [State(shown: [], dice: []): 1]
        for _ in 0..<count {
            var next: [State: Double] = [:]
            for (state, p) in states {
                let allowed = die.filter { !state.shown.contains($0.key) }
                let total = allowed.values.reduce(0, +)
                for (face, q) in allowed {
                    for (chain, r) in chains(from: face, depth: depth) {
                        let key = State(shown: state.shown.union([face]), dice: (state.dice + chain).sorted())
                        next[key, default: 0] += p * q / total * r
                    }
                }
            }
            states = next
        }
        var result: [Int: Double] = [:]
        for (state, p) in states { result[value(of: state.dice), default: 0] += p }
        return result
    }
}
