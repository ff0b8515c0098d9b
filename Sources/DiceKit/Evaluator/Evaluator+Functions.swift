extension Evaluator {
    /// `abs floor ceil round min max`.
    mutating func call(_ function: Function, _ arguments: [Expr], at range: SourceRange) throws(DiceError) -> Roll {
        var rolls: [Roll] = []
        rolls.reserveCapacity(arguments.count)
        for argument in arguments { rolls.append(try evaluate(argument)) }
        var values: [Number] = []
        for (roll, argument) in zip(rolls, arguments) {
            values.append(try number(roll.value, for: function.rawValue, at: argument.range))
        }
        let value = try arithmetic(range) { () throws(ArithmeticFault) in try Functions.apply(function, values) }
        return made(.function(function, rolls), value: .number(value))
    }
}

/// The built-in functions on values, shared by rolling and distributions.
enum Functions {
    /// `function(arguments)`; the parser has checked the argument count.
    static func apply(_ function: Function, _ arguments: [Number]) throws(ArithmeticFault) -> Number {
        guard let first = arguments.first else { return .integer(0) }
        switch function {
        case .abs:
            return first < .integer(0) ? try first.negated() : first
        case .floor:
            return rounded(first, .down)
        case .ceil:
            return rounded(first, .up)
        case .round:
            return rounded(first, .toNearestOrAwayFromZero)
        case .min:
            return arguments.dropFirst().reduce(first) { Swift.min($0, $1) }
        case .max:
            return arguments.dropFirst().reduce(first) { Swift.max($0, $1) }
        }
    }

    static func rounded(_ value: Number, _ rule: FloatingPointRoundingRule) -> Number {
        value.rounded(rule)
    }
}
