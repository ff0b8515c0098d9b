/// Where dice faces come from. The evaluator asks for one roll at a time.
///
/// `Session` and `Dice.roll(_:seed:limits:)` roll with DiceKit's seeded generator (the same
/// rolls on every platform); `Dice.roll(_:environment:limits:using:)` takes `ScriptedDice`
/// (faces given in advance, for tests and replays) or a source of your own.
public protocol DieSource {
    /// A uniformly chosen whole number in `1...sides` (`sides >= 1`).
    ///
    /// Custom-face dice (`d{1,1,2,3}`) and Fate dice ask for a position in their
    /// face list: `dF` asks for `1...3` and shows faces -1, 0, +1.
    mutating func roll(sides: Int) -> Int
}

/// xoshiro256**: a small, fast, high-quality generator (Blackman and Vigna),
/// seeded through SplitMix64 so that every 64-bit seed gives a good state.
///
/// The same seed gives the same rolls on every platform.
package struct Xoshiro256StarStar: RandomNumberGenerator, DieSource, Sendable {
    private var s0, s1, s2, s3: UInt64

    /// A generator whose sequence is fixed by `seed`.
    package init(seed: UInt64) {
        var splitMix = seed
        func next() -> UInt64 {
            splitMix &+= 0x9E37_79B9_7F4A_7C15
            var z = splitMix
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        s0 = next(); s1 = next(); s2 = next(); s3 = next()
    }

    /// A generator seeded once from the system's entropy.
    package init() {
        var system = SystemRandomNumberGenerator()
        self.init(seed: system.next())
    }

    /// The next 64 random bits.
    @inline(__always)
    package mutating func next() -> UInt64 {
        let result = ((s1 &* 5) << 7 | (s1 &* 5) >> 57) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = s3 << 45 | s3 >> 19
        return result
    }

    /// Unbiased `1...sides` by Lemire's multiply-and-reject method.
    @inline(__always)
    package mutating func roll(sides: Int) -> Int {
        guard sides > 1 else { return 1 }
        let range = UInt64(truncatingIfNeeded: sides)
        var product = next().multipliedFullWidth(by: range)
        if product.low < range {
            let threshold = (0 &- range) % range
            while product.low < threshold {
                product = next().multipliedFullWidth(by: range)
            }
        }
        return Int(truncatingIfNeeded: product.high) + 1
    }
}

/// Faces given in advance, for tests and replays: each roll takes the next one.
///
/// A face outside `1...sides` is clamped into it; when the script runs out, it
/// starts again from the beginning (an empty script rolls 1s).
public struct ScriptedDice: DieSource, Sendable {
    /// The faces, in the order they are rolled.
    package var faces: [Int]
    /// How many faces have been rolled: the next is `faces[position % faces.count]`.
    package private(set) var position = 0

    /// A source that rolls `faces` in order, then again from the start.
    public init(_ faces: [Int]) { self.faces = faces }

    /// The next face of the script, clamped into `1...sides`.
    public mutating func roll(sides: Int) -> Int {
        guard !faces.isEmpty else { return 1 }
        let face = faces[position % faces.count]
        position += 1
        return Swift.min(Swift.max(face, 1), sides)
    }
}
