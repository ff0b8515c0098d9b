/// What the values of a sweep share (`stats E for NAME in A..B`).
///
/// A part of E whose distribution cannot depend on NAME is the same for every value: it
/// is worked out once and reused, here beside the tree and never in it. A part qualifies
/// where it is evaluated when none of the names it reads is bound there by a parameter or
/// a `let` (those change from use to use) and none of them is NAME or a macro whose body
/// reaches NAME (a macro reads variables where it is defined). Such a part sees only the
/// sweep's fixed names, so its distribution, and what working it out noted (explosion
/// tails, tails of sums, `given`), is the same each time: a reuse replays them.
///
/// Parts are told apart by the tree they belong to (the statement, a macro's body or one
/// of its defaults), their source range and the part itself, so a part the engine makes
/// for itself with the same range (a `count`'s recounted pool) is never mistaken for it.
final class SweepSharing {
    /// Where a part stands: its tree and source range (parts the parser or engine made with
    /// the same range are told apart by the part itself: see `entry(for:at:environment:)`).
    struct Key: Hashable {
        var scope: Int
        var range: SourceRange
    }

    /// What a part reads, and its shared distribution once worked out.
    final class Entry {
        /// The part itself.
        let expr: Expr
        /// The names it reads from where it is evaluated (parameters and `let` names there
        /// make it differ from use to use).
        let names: [String]
        /// Whether it reads the swept name, itself or through a macro.
        let readsSwept: Bool
        var shared: Shared?

        init(expr: Expr, names: [String], readsSwept: Bool) {
            self.expr = expr
            self.names = names
            self.readsSwept = readsSwept
        }
    }

    /// A part's distribution and the notes its work made, to replay at each reuse.
    struct Shared {
        let distribution: Distribution
        let cutExplosionTails: Bool
        /// The explosion tails' masses noted (`StatsEngine.explosionCutBound`).
        let explosionCut: Double
        let conditioned: Bool
        /// The conditions of `given` it noted (`StatsEngine.givenConditions`).
        let givenConditions: GivenConditions
        /// The masses cut from tails of sums, in order.
        let cuts: [Double]
        /// The expression level and macro depth it was worked out at: no deeper than these,
        /// working it out again would keep within the depth bounds too.
        var depth: Int
        var macroDepth: Int
    }

    /// The name swept.
    let name: String
    var entries: [Key: [Entry]] = [:]
    /// The trees met so far: "" the statement, a macro's name its body, "name=parameter" a default.
    private var scopes: [String: Int] = ["": 0]
    /// The tree being evaluated.
    var scope = 0
    /// Whether each macro asked about reaches the swept name.
    private var reaches: [String: Bool] = [:]
    /// The outcomes held by shared distributions, at most one distribution's worth.
    var stored = 0

    init(name: String) {
        self.name = name
    }

    /// The number of the tree called `name`.
    func scope(named name: String) -> Int {
        if let known = scopes[name] { return known }
        let number = scopes.count
        scopes[name] = number
        return number
    }

    /// Whether `expr` is worth sharing: a number, a text or a label costs nothing or passes
    /// to its inside.
    static func isWorthSharing(_ expr: Expr) -> Bool {
        switch expr.kind {
        case .number, .text, .annotated: return false
        default: return true
        }
    }

    /// The entry of `expr`, which stands at `key`: the one made before, or a new one.
    func entry(for expr: Expr, at key: Key, environment: Environment) -> Entry {
        if let known = entries[key]?.first(where: { $0.expr == expr }) { return known }
        let made = entry(for: expr, environment: environment)
        entries[key, default: []].append(made)
        return made
    }

    /// What `expr` reads, with the names of `environment`.
    func entry(for expr: Expr, environment: Environment) -> Entry {
        let names = SweepSharing.namesRead(by: expr, environment: environment)
        let readsSwept = names.contains { name in
            if name == self.name { return true }
            guard case .macro = environment[name] else { return false }
            return reaches(name, environment: environment)
        }
        return Entry(expr: expr, names: names.sorted(), readsSwept: readsSwept)
    }

    /// Whether the macro `macro` reads the swept name, in its body, its defaults or a macro they use.
    private func reaches(_ macro: String, environment: Environment) -> Bool {
        if let known = reaches[macro] { return known }
        var seen: Set<String> = [macro]
        var pending = [macro]
        var found = false
        while let next = pending.popLast(), !found {
            guard case .macro(let definition) = environment[next] else { continue }
            var names: Set<String> = []
            var expanding: Set<String> = []
            SweepSharing.collectNames(in: definition.body, bound: Set(definition.parameters), environment: environment,
                                      expanding: &expanding, into: &names)
            for value in definition.defaults.values {
                SweepSharing.collectNames(in: value, bound: [], environment: environment, expanding: &expanding,
                                          into: &names)
            }
            for name in names {
                if name == self.name { found = true }
                if case .macro = environment[name], seen.insert(name).inserted { pending.append(name) }
            }
        }
        reaches[macro] = found
        return found
    }

    /// The names `expr` reads and does not bind itself, those its macros' defaults read included.
    static func namesRead(by expr: Expr, environment: Environment) -> Set<String> {
        var names: Set<String> = []
        var expanding: Set<String> = []
        collectNames(in: expr, bound: [], environment: environment, expanding: &expanding, into: &names)
        return names
    }

    /// Adds the names `expr` reads and does not bind itself to `names`, `bound` being the
    /// names bound around it inside. A macro's defaults are evaluated where it is used, so
    /// their names count there (`expanding`: the macros whose defaults are being read).
    private static func collectNames(in expr: Expr, bound: Set<String>, environment: Environment,
                                     expanding: inout Set<String>, into names: inout Set<String>) {
        switch expr.kind {
        case .binding(let name, let value, let body):
            collectNames(in: value, bound: bound, environment: environment, expanding: &expanding, into: &names)
            var inner = bound
            inner.insert(name)
            collectNames(in: body, bound: inner, environment: environment, expanding: &expanding, into: &names)
            return
        case .name(let name), .call(let name, _):
            if !bound.contains(name) { names.insert(name) }
            if case .macro(let macro) = environment[name], expanding.insert(name).inserted {
                for value in macro.defaults.values {
                    collectNames(in: value, bound: bound, environment: environment, expanding: &expanding, into: &names)
                }
                expanding.remove(name)
            }
        default:
            break
        }
        expr.forEachChild { child in
            collectNames(in: child, bound: bound, environment: environment, expanding: &expanding, into: &names)
        }
    }
}

extension StatsEngine {
    /// `outcomes(of:)` in a sweep: a part that cannot depend on the swept name is worked
    /// out once and reused (`SweepSharing`).
    func sharedOutcomes(of expr: Expr, sharing: SweepSharing) throws(StatsFailure) -> Distribution {
        guard SweepSharing.isWorthSharing(expr) else { return try evaluate(expr) }
        // A parameter, `let` name or variable is read at once (a macro used by name is shared).
        if case .name(let name) = expr.kind {
            if name == sharing.name || frames.last?[name] != nil { return try evaluate(expr) }
            if case .variable = environment[name] { return try evaluate(expr) }
        }
        let entry = sharing.entry(for: expr, at: SweepSharing.Key(scope: sharing.scope, range: expr.range),
                                  environment: environment)
        guard !entry.readsSwept, readsNoBoundName(entry.names) else { return try evaluate(expr) }
        if let shared = entry.shared, depth <= shared.depth, macroDepth <= shared.macroDepth {
            // What working it out again would note.
            if shared.cutExplosionTails { noteExplosionCut(shared.explosionCut) }
            if shared.conditioned { conditioned = true }
            givenConditions.merge(shared.givenConditions)
            for mass in shared.cuts { meter.noteCut(mass) }
            return shared.distribution
        }
        let outerCutExplosionTails = cutExplosionTails, outerConditioned = conditioned
        let outerExplosionCut = explosionCutBound
        let outerConditions = givenConditions
        let firstCut = meter.cuts.count
        cutExplosionTails = false
        conditioned = false
        explosionCutBound = 0
        givenConditions = GivenConditions()
        defer { explosionCutBound += outerExplosionCut }
        let distribution: Distribution
        do throws(StatsFailure) {
            distribution = try evaluate(expr)
        } catch {
            cutExplosionTails = cutExplosionTails || outerCutExplosionTails
            conditioned = conditioned || outerConditioned
            givenConditions = outerConditions.merging(givenConditions)
            throw error
        }
        if var shared = entry.shared {
            // Worked out again deeper than before: reused down to here from now on.
            shared.depth = Swift.max(shared.depth, depth)
            shared.macroDepth = Swift.max(shared.macroDepth, macroDepth)
            entry.shared = shared
        } else if sharing.stored + distribution.storageSize <= limits.stats.maxOutcomes {
            sharing.stored += distribution.storageSize
            entry.shared = SweepSharing.Shared(
                distribution: distribution, cutExplosionTails: cutExplosionTails, explosionCut: explosionCutBound,
                conditioned: conditioned, givenConditions: givenConditions,
                cuts: Array(meter.cuts[Swift.min(firstCut, meter.cuts.count)...]), depth: depth, macroDepth: macroDepth)
        }
        cutExplosionTails = cutExplosionTails || outerCutExplosionTails
        conditioned = conditioned || outerConditioned
        givenConditions = outerConditions.merging(givenConditions)
        return distribution
    }

    /// Whether none of `names` is a parameter or `let` name where the engine is.
    private func readsNoBoundName(_ names: [String]) -> Bool {
        guard let frame = frames.last, !frame.isEmpty else { return true }
        return !names.contains { frame[$0] != nil }
    }

    /// `body` evaluated as part of the tree called `scope` (a macro's body or default).
    func inTree<T>(_ scope: String, _ body: () throws(StatsFailure) -> T) throws(StatsFailure) -> T {
        guard let sharing else { return try body() }
        let outer = sharing.scope
        sharing.scope = sharing.scope(named: scope)
        defer { sharing.scope = outer }
        return try body()
    }
}
