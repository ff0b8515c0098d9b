/// Probabilities of keys, in the order the keys first came: sums are added in the same
/// order on every run, so results are the same to the last bit.
struct OrderedMass<Key: Hashable> {
    private var index: [Key: Int] = [:]
    private(set) var entries: [(key: Key, p: Double)] = []

    /// Adds `p` to `key`.
    mutating func add(_ key: Key, _ p: Double) {
        if let at = index[key] {
            entries[at].p += p
        } else {
            index[key] = entries.count
            entries.append((key, p))
        }
    }
}
