/// What needs a number, as `DiceError.Kind.notANumber` names it: the roller and `stats`
/// word the same error alike (`("a")d6`: "the number of dice needs numbers").
enum NumberNeeds {
    static let diceCount = "the number of dice"
    static let sides = "the number of sides"
    static let modifier = "a modifier"
    static let repeatCount = "a count"
    static let power = "'^'"
}
