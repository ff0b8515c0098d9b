@testable import DiceKit

/// A 1-based line and column.
struct TextPosition: Hashable, Sendable, CustomStringConvertible {
    var line: Int
    var column: Int
    var description: String { "\(line):\(column)" }
}

extension DiceError {
    /// The 1-based line and column of the error's start in `text`, counting characters.
    func position(in text: String) -> TextPosition {
        let (line, column) = SourceFile(name: "<test>", text: text).lineAndColumn(of: range.lowerBound)
        return TextPosition(line: line, column: column)
    }
}

/// Runs `body` and returns the `DiceError` it throws, or `nil` when it throws none.
func diceError<T>(_ body: () throws(DiceError) -> T) -> DiceError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}

/// Rolls `text` with scripted faces (positions 1...sides; for `dF` 1, 2, 3 are
/// -1, 0, +1; for custom faces the position in the list).
func rollScripted(_ text: String, faces: [Int], environment: Environment = Environment(),
                  limits: Limits = .standard) throws(DiceError) -> Roll {
    var source = ScriptedDice(faces)
    return try Dice.roll(text, environment: environment, limits: limits, using: &source)
}

/// A die as `"6 exploded extra"`: its value, then its flags in a fixed order.
func describe(_ die: Die) -> String {
    let names: [(Die.Flags, String)] = [
        (.dropped, "dropped"), (.rerolled, "rerolled"), (.exploded, "exploded"), (.extra, "extra"),
        (.compounded, "compounded"), (.penetrated, "penetrated"), (.clamped, "clamped"),
        (.success, "success"), (.failure, "failure"),
    ]
    return ([String(die.value)] + names.filter { die.flags.contains($0.0) }.map(\.1)).joined(separator: " ")
}

/// Every die of every pool in the roll, described, pool after pool.
func describeDice(_ roll: Roll) -> [[String]] {
    roll.pools.map { $0.dice.map(describe) }
}
