/// The storage of the pools and chains of the result tree an evaluator returned last, taken
/// back for the next statement once its caller has let the tree go: a program that rolls
/// one expression again and again (`dice -n`, a bot) builds each breakdown without
/// allocating.
///
/// The evaluator remembers the root of each small tree it returns (`remember`); the next
/// statement takes that tree apart from the root down (`reclaim`). A node is taken apart
/// only when no one else holds it (`isKnownUniquelyReferenced`), so a roll kept by its
/// caller, or any part of it, is never changed: the walk stops there, and that part is
/// let go as usual. Nothing is recorded while a tree is built.
struct RollRecycler {
    private var freePools: [DicePool.Storage] = []
    private var freeChains: [Roll.Chain.Storage] = []
    /// The root of the tree returned last, while it is small.
    private var last: Roll?

    /// Storages remembered of each kind.
    private static let limit = 64
    /// The most dice a pool's storage, or steps a chain's, holds to be remembered: what is
    /// kept between statements stays small whatever was rolled.
    private static let room = 256
    /// The most parts (`Evaluator.hold`) a tree has to be remembered: a tree held between
    /// statements, after its caller let it go, stays small.
    static let rememberedParts = 1_024

    /// Remembers `roll`, a tree just returned, to take apart at the next `reclaim()`.
    @inline(__always)
    mutating func remember(_ roll: Roll) { last = roll }

    /// Takes back the storages of the tree remembered last that no one holds any more.
    @inline(__always)
    mutating func reclaim() {
        guard var root = last.take() else { return }
        takeApart(&root)
    }

    /// Takes `roll`'s node apart when no one else holds it: each roll it held, the same way,
    /// and its storage (a pool's or a chain's) to the free list. Parts are taken from the
    /// last rolled to the first, so the free lists hand them out again in the order they are
    /// rolled, each storage to the same part of a tree of the same shape.
    private mutating func takeApart(_ roll: inout Roll) {
        guard freePools.count < RollRecycler.limit || freeChains.count < RollRecycler.limit else { return }
        // Each part is moved out of `roll` by a call of its own, so no copy of it outlives
        // that call (unoptimized code keeps a `switch`'s copies to the end of the switch):
        // the part is then held once unless someone else holds it.
        switch roll.shape {
        case .leaf:
            return
        case .pool:
            guard var pool = roll.takePool(), let storage = pool.uniqueStorage(),
                  storage.room <= RollRecycler.room else { return }
            storage.clear()
            if freePools.count < RollRecycler.limit { freePools.append(storage) }
        case .chain:
            // A chain's storage is made after its first roll, before its steps' rolls.
            guard var chain = roll.takeChain(), chain.isUniquelyHeld() else { return }
            chain.takeSteps { (step: inout Roll) in takeApart(&step) }
            if chain.storage.room <= RollRecycler.room, freeChains.count < RollRecycler.limit {
                freeChains.append(chain.storage)
            }
            var first = chain.takeFirst()
            takeApart(&first)
        case .parts:
            var parts = roll.takeParts()
            if var last = parts.last.take() { takeApart(&last) }
            if var next = parts.next.take() { takeApart(&next) }
            while var part = parts.rest.popLast() { takeApart(&part) }
        }
    }

    /// A free pool storage, if there is one.
    @inline(__always)
    mutating func pool() -> DicePool.Storage? { freePools.popLast() }

    /// A free chain storage, if there is one.
    @inline(__always)
    mutating func chain() -> Roll.Chain.Storage? { freeChains.popLast() }
}

extension Roll {
    /// What `RollRecycler` takes apart: a pool, a chain, other nodes' rolls, or nothing.
    fileprivate enum Shape { case leaf, pool, chain, parts }

    fileprivate var shape: Shape {
        switch kind {
        case .number, .variable: return .leaf
        case .pool: return .pool
        case .chain: return .chain
        case .unary, .annotated, .power, .comparison, .conditional, .binding, .function, .macro, .group: return .parts
        }
    }

    /// The node's kind, moved out; the node is left a number.
    private mutating func takeKind() -> Kind {
        var taken = Kind.number
        swap(&taken, &kind)
        return taken
    }

    /// The node's pool, moved out.
    fileprivate mutating func takePool() -> DicePool? {
        if case .pool(let pool) = takeKind() { return pool }
        return nil
    }

    /// The node's chain, moved out.
    fileprivate mutating func takeChain() -> Chain? {
        if case .chain(let chain) = takeKind() { return chain }
        return nil
    }

    /// The rolls a node holds, in the order they were rolled: `rest`, then `next`, then `last`.
    fileprivate struct Parts {
        var rest: [Roll] = []
        var next: Roll?
        var last: Roll?
    }

    /// The rolls the node holds, moved out.
    fileprivate mutating func takeParts() -> Parts {
        switch takeKind() {
        case .number, .variable, .pool, .chain: return Parts()
        case .unary(_, let operand), .annotated(let operand, _): return Parts(last: operand)
        case .power(let a, let b), .comparison(_, let a, let b), .conditional(let a, let b, _),
             .binding(_, let a, let b):
            return Parts(next: a, last: b)
        case .function(_, let arguments): return Parts(rest: arguments)
        case .macro(_, let arguments, let body): return Parts(rest: arguments, last: body)
        case .group(let group): return Parts(rest: group.members.map(\.roll))
        }
    }
}
