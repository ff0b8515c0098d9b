/// The storage of the pools and chains of the result trees an evaluator built last, taken
/// back for the next statement once their caller has let the tree go: a program that rolls
/// one expression again and again (`dice -n`, a bot) builds each breakdown without
/// allocating.
///
/// A storage is reused only when no one else holds it (`isKnownUniquelyReferenced`), so a
/// roll kept by its caller is never changed. Chains are taken back before pools, each in
/// the reverse of the order they were built, so an outer chain lets go of what it holds
/// before the storages inside it are checked.
struct RollRecycler {
    private var builtPools: [DicePool.Storage] = []
    private var builtChains: [Roll.Chain.Storage] = []
    private var freePools: [DicePool.Storage] = []
    private var freeChains: [Roll.Chain.Storage] = []
    /// Whether anything was built since the last `reclaim()`.
    private(set) var hasBuilt = false

    /// Storages remembered of each kind, built or free.
    private static let limit = 64
    /// The most dice a pool's storage, or steps a chain's, holds to be remembered: what is
    /// kept between statements stays small whatever was rolled.
    private static let room = 256

    /// Takes back the storages built since the last call that no one holds any more.
    mutating func reclaim() {
        hasBuilt = false
        while var storage = builtChains.popLast() {
            guard isKnownUniquelyReferenced(&storage) else { continue }
            storage.clear()
            if freeChains.count < RollRecycler.limit { freeChains.append(consume storage) }
        }
        while var storage = builtPools.popLast() {
            guard isKnownUniquelyReferenced(&storage) else { continue }
            storage.clear()
            if freePools.count < RollRecycler.limit { freePools.append(consume storage) }
        }
    }

    /// A free pool storage, if there is one.
    @inline(__always)
    mutating func pool() -> DicePool.Storage? { freePools.popLast() }

    /// A free chain storage, if there is one.
    @inline(__always)
    mutating func chain() -> Roll.Chain.Storage? { freeChains.popLast() }

    /// Remembers `pool`'s storage, built for the statement in progress.
    mutating func built(_ pool: DicePool) {
        guard builtPools.count < RollRecycler.limit, pool.storage.room <= RollRecycler.room else { return }
        builtPools.append(pool.storage)
        hasBuilt = true
    }

    /// Remembers `chain`'s storage, built for the statement in progress.
    mutating func built(_ chain: Roll.Chain) {
        guard builtChains.count < RollRecycler.limit, chain.storage.room <= RollRecycler.room else { return }
        builtChains.append(chain.storage)
        hasBuilt = true
    }
}
