/// The result of evaluating an expression: its value and the tree of how it
/// came about, every die with its faces and flags. Renderers turn it into text or JSON.
public struct Roll: Hashable, Sendable {
    /// What was evaluated, with the rolls of its parts.
    ///
    /// A pool and a chain are one reference to their own storage, not boxed: a roll is
    /// small (a deep tree's evaluation keeps many on the stack) and a pool costs no box.
    public enum Kind: Hashable, Sendable {
        /// A literal.
        case number
        /// A variable or parameter, with its name.
        indirect case variable(String)
        /// A dice term and its dice.
        case pool(DicePool)
        /// `{a, b}kh1` or `repeat(n, e)`: the members, each kept or dropped.
        indirect case group(GroupRoll)
        /// `-x`, `+x`: the operator and its operand.
        indirect case unary(UnaryOperator, Roll)
        /// `a + b - c`: the first roll, then each operator with its operand's roll.
        case chain(Chain)
        /// `a ^ b`: the base and the exponent.
        indirect case power(Roll, Roll)
        /// `a >= b`: the value is 1 or 0.
        indirect case comparison(ComparisonOperator, Roll, Roll)
        /// A built-in function and its arguments.
        indirect case function(Function, [Roll])
        /// A macro use: its name, arguments, and the roll of its body.
        indirect case macro(name: String, arguments: [Roll], body: Roll)
        /// `2d6 [fire]`: the roll and its label.
        indirect case annotated(Roll, String)
        /// `if C then A else B`: the condition's roll and the roll of the branch taken
        /// (`then` when `taken`); the other branch was not rolled.
        indirect case conditional(condition: Roll, branch: Roll, taken: Bool)
        /// `let name = E in BODY`: E's roll, bound to `name`, and the body's roll.
        indirect case binding(name: String, value: Roll, body: Roll)
    }

    /// One step of a `chain`: an operator and the roll of its right operand.
    public struct Step: Hashable, Sendable {
        /// The operator.
        public internal(set) var op: BinaryOperator
        /// The roll of the operand on its right.
        public internal(set) var operand: Roll

        init(_ op: BinaryOperator, _ operand: Roll) {
            self.op = op
            self.operand = operand
        }
    }

    /// What was evaluated, and how.
    public internal(set) var kind: Kind
    /// The result.
    public internal(set) var value: Number

    init(_ kind: Kind, value: Number) {
        self.kind = kind
        self.value = value
    }

    /// Every dice pool in the tree, in the order they appear.
    ///
    /// - Complexity: O(*n*) for *n* nodes of the tree.
    public var pools: [DicePool] { countedPools.map(\.pool) }

    /// `pools`, each with whether its dice count towards the value: not inside a group
    /// member that keep/drop dropped (`{1d20 + 5, 1d20 + 5}kh1`).
    var countedPools: [(pool: DicePool, counts: Bool)] {
        var result: [(pool: DicePool, counts: Bool)] = []
        collectPools(into: &result, annotation: nil, counts: true)
        return result
    }

    private func collectPools(into result: inout [(pool: DicePool, counts: Bool)], annotation: String?,
                              counts: Bool) {
        switch kind {
        case .number, .variable: break
        case .pool(var pool):
            pool.countRoll?.collectPools(into: &result, annotation: annotation, counts: counts)
            pool.sidesRoll?.collectPools(into: &result, annotation: annotation, counts: counts)
            for argument in pool.argumentRolls { argument.collectPools(into: &result, annotation: annotation, counts: counts) }
            // Set only when there is one to set: a pool changed is a copy of its storage.
            if pool.annotation == nil, let annotation { pool.annotation = annotation }
            result.append((pool, counts))
        case .group(let group):
            for member in group.members {
                member.roll.collectPools(into: &result, annotation: annotation, counts: counts && member.kept)
            }
        case .unary(_, let roll): roll.collectPools(into: &result, annotation: annotation, counts: counts)
        case .chain(let chain):
            chain.first.collectPools(into: &result, annotation: annotation, counts: counts)
            for step in chain.steps { step.operand.collectPools(into: &result, annotation: annotation, counts: counts) }
        case .power(let a, let b), .comparison(_, let a, let b):
            a.collectPools(into: &result, annotation: annotation, counts: counts)
            b.collectPools(into: &result, annotation: annotation, counts: counts)
        case .function(_, let arguments):
            for argument in arguments { argument.collectPools(into: &result, annotation: annotation, counts: counts) }
        case .macro(_, let arguments, let body):
            for argument in arguments { argument.collectPools(into: &result, annotation: annotation, counts: counts) }
            body.collectPools(into: &result, annotation: annotation, counts: counts)
        case .annotated(let roll, let label): roll.collectPools(into: &result, annotation: label, counts: counts)
        case .conditional(let condition, let branch, _):
            condition.collectPools(into: &result, annotation: annotation, counts: counts)
            branch.collectPools(into: &result, annotation: annotation, counts: counts)
        case .binding(_, let value, let body):
            value.collectPools(into: &result, annotation: annotation, counts: counts)
            body.collectPools(into: &result, annotation: annotation, counts: counts)
        }
    }

    /// Every annotation in the tree, in the order they appear, with the roll it labels.
    ///
    /// - Complexity: O(*n*) for *n* nodes of the tree.
    var labels: [(label: String, roll: Roll)] {
        var result: [(label: String, roll: Roll)] = []
        collectLabels(into: &result)
        return result
    }

    private func collectLabels(into result: inout [(label: String, roll: Roll)]) {
        switch kind {
        case .number, .variable: break
        case .pool(let pool):
            pool.countRoll?.collectLabels(into: &result)
            pool.sidesRoll?.collectLabels(into: &result)
            for argument in pool.argumentRolls { argument.collectLabels(into: &result) }
        case .group(let group): for member in group.members { member.roll.collectLabels(into: &result) }
        case .unary(_, let roll): roll.collectLabels(into: &result)
        case .chain(let chain):
            chain.first.collectLabels(into: &result)
            for step in chain.steps { step.operand.collectLabels(into: &result) }
        case .power(let a, let b), .comparison(_, let a, let b):
            a.collectLabels(into: &result)
            b.collectLabels(into: &result)
        case .function(_, let arguments):
            for argument in arguments { argument.collectLabels(into: &result) }
        case .macro(_, let arguments, let body):
            for argument in arguments { argument.collectLabels(into: &result) }
            body.collectLabels(into: &result)
        case .annotated(let roll, let label):
            roll.collectLabels(into: &result)
            result.append((label, roll))
        case .conditional(let a, let b, _), .binding(_, let a, let b):
            a.collectLabels(into: &result)
            b.collectLabels(into: &result)
        }
    }

    /// Whether any die was rolled anywhere in the tree.
    public var hasDice: Bool {
        switch kind {
        case .number, .variable: return false
        case .pool: return true
        case .group(let group): return group.members.contains { $0.roll.hasDice } || group.isRepeat
        case .unary(_, let roll), .annotated(let roll, _): return roll.hasDice
        case .chain(let chain): return chain.first.hasDice || chain.steps.contains { $0.operand.hasDice }
        case .power(let a, let b), .comparison(_, let a, let b): return a.hasDice || b.hasDice
        case .function(_, let arguments): return arguments.contains { $0.hasDice }
        case .macro(_, let arguments, let body): return body.hasDice || arguments.contains { $0.hasDice }
        case .conditional(let a, let b, _), .binding(_, let a, let b): return a.hasDice || b.hasDice
        }
    }
}

/// One rolled dice term.
///
/// Its fields and its dice live in one shared allocation, copied only when a copy is
/// changed: a pool is built with one allocation and passed around a breakdown (rendered,
/// listed) as one reference. It is `Sendable` as a value is: a storage another pool can see
/// is never changed (a change copies it first).
public struct DicePool: Hashable, @unchecked Sendable {
    /// The fields of a pool besides its dice.
    struct Header {
        var term: DiceTerm
        var count: Int
        var omitted: Int
        var lowestFace: Int
        var highestFace: Int
        var annotation: String?
        var isCount: Bool
        var value: Number
        var countRoll: Roll?
        var sidesRoll: Roll?
        var argumentRolls: [Roll] = []
        var shownTerm: DiceTerm?
        /// Room for this many dice in the storage, as asked when it was made.
        var room = 0
    }

    /// The header and `header.count` dice after it; changed only through a reference no
    /// other pool holds.
    final class Storage: ManagedBuffer<Header, Die> {
        /// A storage holding `header` and a copy of `dice` (`header.count` is set to their count).
        static func make(_ header: Header, dice: UnsafeBufferPointer<Die>) -> Storage {
            let buffer = Storage.create(minimumCapacity: dice.count) { _ in
                var header = header
                header.count = dice.count
                header.room = dice.count
                return header
            }
            let storage = unsafeDowncast(buffer, to: Storage.self)
            storage.withUnsafeMutablePointerToElements { elements in
                if let base = dice.baseAddress { elements.initialize(from: base, count: dice.count) }
            }
            return storage
        }

        /// Room for this many dice, as asked when made.
        var room: Int { withUnsafeMutablePointerToHeader { $0.pointee.room } }

        /// Replaces the fields and the dice (at most `room` of them) of a cleared storage no
        /// one else holds.
        func refill(term: DiceTerm, dice: UnsafeBufferPointer<Die>, omitted: Int, lowestFace: Int,
                    highestFace: Int, isCount: Bool, value: Number) {
            withUnsafeMutablePointers { fields, elements in
                elements.deinitialize(count: fields.pointee.count)
                fields.pointee.term = term
                fields.pointee.count = dice.count
                fields.pointee.omitted = omitted
                fields.pointee.lowestFace = lowestFace
                fields.pointee.highestFace = highestFace
                fields.pointee.isCount = isCount
                fields.pointee.value = value
                if let base = dice.baseAddress { elements.initialize(from: base, count: dice.count) }
            }
        }

        /// Lets go of the rolls and label it holds (a storage taken back for reuse).
        func clear() {
            withUnsafeMutablePointerToHeader { fields in
                if fields.pointee.countRoll != nil { fields.pointee.countRoll = nil }
                if fields.pointee.sidesRoll != nil { fields.pointee.sidesRoll = nil }
                if !fields.pointee.argumentRolls.isEmpty { fields.pointee.argumentRolls = [] }
                if fields.pointee.annotation != nil { fields.pointee.annotation = nil }
                if fields.pointee.shownTerm != nil { fields.pointee.shownTerm = nil }
            }
        }

        deinit {
            _ = withUnsafeMutablePointers { header, elements in elements.deinitialize(count: header.pointee.count) }
        }

        /// Calls `body` with the dice, read in place.
        func withDice<Result>(_ body: (UnsafeBufferPointer<Die>) throws -> Result) rethrows -> Result {
            try withUnsafeMutablePointers { header, elements in
                try body(UnsafeBufferPointer(start: elements, count: header.pointee.count))
            }
        }

        func copy() -> Storage { withDice { Storage.make(fields { $0.pointee }, dice: $0) } }

        /// Reads the header in place, without the exclusivity check of `header`.
        @inline(__always)
        func fields<T>(_ body: (UnsafeMutablePointer<Header>) -> T) -> T {
            withUnsafeMutablePointerToHeader(body)
        }
    }

    private(set) var storage: Storage

    /// The header, to change: the storage is copied first if another pool shares it.
    private var header: Header {
        get { storage.fields { $0.pointee } }
        _modify {
            if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
            let pointer = storage.withUnsafeMutablePointerToHeader { $0 }
            yield &pointer.pointee
        }
    }

    /// The term as written, for its notation (`4d6kh3`).
    public internal(set) var term: DiceTerm {
        get { storage.fields { $0.pointee.term } }
        set { header.term = newValue }
    }
    /// The dice as shown: at most `Limits.maxRecordedDice`, in rolled order unless sorted.
    ///
    /// - Complexity: O(*n*) for *n* dice: the array is made on each use.
    public internal(set) var dice: [Die] {
        get { withDice { Array($0) } }
        set {
            storage = newValue.withUnsafeBufferPointer { Storage.make(header, dice: $0) }
        }
    }
    /// Dice rolled but not recorded in `dice` (huge pools).
    public internal(set) var omitted: Int {
        get { storage.fields { $0.pointee.omitted } }
        set { header.omitted = newValue }
    }
    /// The lowest face a die of this pool can show (after clamping).
    public internal(set) var lowestFace: Int {
        get { storage.fields { $0.pointee.lowestFace } }
        set { header.lowestFace = newValue }
    }
    /// The highest face a die of this pool can show (after clamping).
    public internal(set) var highestFace: Int {
        get { storage.fields { $0.pointee.highestFace } }
        set { header.highestFace = newValue }
    }
    /// The label of an enclosing annotation, `2d6 [fire]`.
    public internal(set) var annotation: String? {
        get { storage.fields { $0.pointee.annotation } }
        set { header.annotation = newValue }
    }
    /// Whether `cs`/`cf` made the value a count.
    public internal(set) var isCount: Bool {
        get { storage.fields { $0.pointee.isCount } }
        set { header.isCount = newValue }
    }
    /// The pool's value: the sum of kept dice, or the count.
    public internal(set) var value: Number {
        get { storage.fields { $0.pointee.value } }
        set { header.value = newValue }
    }
    /// The roll of a computed count that rolled dice: the `1d4` of `(1d4)d6`.
    public internal(set) var countRoll: Roll? {
        get { storage.fields { $0.pointee.countRoll } }
        set { header.countRoll = newValue }
    }
    /// The roll of computed sides that rolled dice: the `1d4` of `2d(1d4)`.
    public internal(set) var sidesRoll: Roll? {
        get { storage.fields { $0.pointee.sidesRoll } }
        set { header.sidesRoll = newValue }
    }
    /// The rolls of modifier arguments that rolled dice: `4d6kh(1d3)`.
    public internal(set) var argumentRolls: [Roll] {
        get { storage.fields { $0.pointee.argumentRolls } }
        set { header.argumentRolls = newValue }
    }
    /// The term with its computed count, sides and modifier arguments written as the values
    /// they took (`2d6kh1` for `(n * 2)d6kh(k)`); nil when every part is a literal.
    var shownTerm: DiceTerm? {
        get { storage.fields { $0.pointee.shownTerm } }
        set { header.shownTerm = newValue }
    }

    /// Whether a computed count or sides rolled dice (`countRoll` or `sidesRoll` is set),
    /// read in place.
    var hasCountOrSidesRoll: Bool {
        storage.fields { $0.pointee.countRoll != nil || $0.pointee.sidesRoll != nil }
    }

    /// The storage, when no other pool holds it (`RollRecycler` takes it back).
    mutating func uniqueStorage() -> Storage? { isKnownUniquelyReferenced(&storage) ? storage : nil }

    /// The number of dice in `dice`, without making the array.
    var diceCount: Int { storage.fields { $0.pointee.count } }

    /// Calls `body` with the dice, read in place.
    func withDice<Result>(_ body: (UnsafeBufferPointer<Die>) throws -> Result) rethrows -> Result {
        try storage.withDice(body)
    }

    init(term: DiceTerm, dice: [Die], omitted: Int, lowestFace: Int, highestFace: Int,
                annotation: String? = nil, isCount: Bool = false, value: Number) {
        self = dice.withUnsafeBufferPointer {
            DicePool(term: term, dice: $0, omitted: omitted, lowestFace: lowestFace, highestFace: highestFace,
                     annotation: annotation, isCount: isCount, value: value)
        }
    }

    /// A pool holding a copy of `dice`.
    init(term: DiceTerm, dice: UnsafeBufferPointer<Die>, omitted: Int, lowestFace: Int, highestFace: Int,
         annotation: String? = nil, isCount: Bool = false, value: Number) {
        let header = Header(term: term, count: dice.count, omitted: omitted, lowestFace: lowestFace,
                            highestFace: highestFace, annotation: annotation, isCount: isCount, value: value)
        storage = Storage.make(header, dice: dice)
    }

    /// A pool holding a copy of `dice`, in `reused` when it has room (a storage no one else holds).
    init(term: DiceTerm, dice: UnsafeBufferPointer<Die>, omitted: Int, lowestFace: Int, highestFace: Int,
         isCount: Bool = false, value: Number, reusing reused: Storage?) {
        if let reused, reused.room >= dice.count {
            reused.refill(term: term, dice: dice, omitted: omitted, lowestFace: lowestFace, highestFace: highestFace,
                          isCount: isCount, value: value)
            storage = reused
        } else {
            let header = Header(term: term, count: dice.count, omitted: omitted, lowestFace: lowestFace,
                                highestFace: highestFace, annotation: nil, isCount: isCount, value: value)
            storage = Storage.make(header, dice: dice)
        }
    }

    /// Pools are equal when every field and every die is.
    public static func == (a: DicePool, b: DicePool) -> Bool {
        if a.storage === b.storage { return true }
        let x = a.header, y = b.header
        return x.term == y.term && x.omitted == y.omitted && x.lowestFace == y.lowestFace
            && x.highestFace == y.highestFace && x.annotation == y.annotation && x.isCount == y.isCount
            && x.value == y.value && x.countRoll == y.countRoll && x.sidesRoll == y.sidesRoll
            && x.argumentRolls == y.argumentRolls && x.shownTerm == y.shownTerm
            && a.withDice { first in b.withDice { second in first.elementsEqual(second) } }
    }

    /// Hashes every field and every die.
    public func hash(into hasher: inout Hasher) {
        let x = header
        hasher.combine(x.term)
        hasher.combine(x.count)
        withDice { for die in $0 { hasher.combine(die) } }
        hasher.combine(x.omitted)
        hasher.combine(x.lowestFace)
        hasher.combine(x.highestFace)
        hasher.combine(x.annotation)
        hasher.combine(x.isCount)
        hasher.combine(x.value)
        hasher.combine(x.countRoll)
        hasher.combine(x.sidesRoll)
        hasher.combine(x.argumentRolls)
        hasher.combine(x.shownTerm)
    }
}

/// One die of a pool: what it shows and what happened to it.
public struct Die: Hashable, Sendable {
    /// What happened to a die.
    public struct Flags: OptionSet, Hashable, Sendable {
        /// The flags as bits.
        public let rawValue: UInt16
        /// The flags whose bits are set in `rawValue`.
        public init(rawValue: UInt16) { self.rawValue = rawValue }

        /// Not counted: dropped by keep/drop.
        public static let dropped = Flags(rawValue: 1 << 0)
        /// Not counted: replaced by a reroll.
        public static let rerolled = Flags(rawValue: 1 << 1)
        /// It matched the explosion and caused another die.
        public static let exploded = Flags(rawValue: 1 << 2)
        /// It was added by an explosion.
        public static let extra = Flags(rawValue: 1 << 3)
        /// Its value is the sum of compounded rolls (`!!`).
        public static let compounded = Flags(rawValue: 1 << 4)
        /// It counts one less (`!p`).
        public static let penetrated = Flags(rawValue: 1 << 5)
        /// Its face was raised or lowered by `mi`/`ma`.
        public static let clamped = Flags(rawValue: 1 << 6)
        /// It matched `cs` (a success) or `cf` (a counted failure).
        public static let success = Flags(rawValue: 1 << 7)
        /// It matched `df` (subtracted one).
        public static let failure = Flags(rawValue: 1 << 8)
        /// Scratch mark while keep/drop picks dice; never left on a die.
        static let chosen = Flags(rawValue: 1 << 15)
    }

    /// The die's counted value: the face, the compounded sum, or the face less one for penetration.
    public internal(set) var value: Int
    /// What happened to it.
    public internal(set) var flags: Flags

    init(value: Int, flags: Flags = []) {
        self.value = value
        self.flags = flags
    }

    /// Whether it adds to the pool's value.
    public var isCounted: Bool { flags.isDisjoint(with: [.dropped, .rerolled]) }
}

/// The members of a group or `repeat`, each kept or dropped.
public struct GroupRoll: Hashable, Sendable {
    /// One member of the group and what happened to it.
    public struct Member: Hashable, Sendable {
        /// The member's roll.
        public internal(set) var roll: Roll
        /// Whether it counts towards the group's value (not dropped by keep/drop).
        public internal(set) var kept: Bool
        /// Whether it matched `cs` or `cf` (counted).
        public internal(set) var success: Bool
        /// Whether it matched `df` (subtracted).
        public internal(set) var failure: Bool
    }

    /// The members in the order they were rolled (or sorted, with `s`): at most
    /// `Limits.maxRecordedDice` of a huge repeat that is not sorted. A huge sorted repeat
    /// lists the first `Limits.maxRecordedDice` members in sorted order, then the other
    /// members rolled with breakdowns, sorted too: at most twice that.
    public internal(set) var members: [Member]
    /// Members rolled after those in `members` and not kept (huge repeats): their values
    /// are in the group's value, their rolls are gone.
    public internal(set) var omitted: Int = 0
    /// `true` for `repeat(n, e)`: show it as a repeat.
    public internal(set) var isRepeat: Bool
    /// The modifiers as written, like `kh1`.
    public internal(set) var modifiers: [DiceModifier]
    /// Whether `cs`/`cf` made the value a count.
    public internal(set) var isCount: Bool
}

extension DicePool {
    /// The term's notation as rolled: `4d6kh3`; a computed count, sides or modifier argument
    /// shows its value (`(n * 2)d6` with `n = 1` is `2d6`).
    public var notation: String { (shownTerm ?? term).notation }
}
