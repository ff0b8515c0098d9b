extension Parser {
    /// faces = "{" face { "," face } "}" ;
    /// (numbers only are `Sides.faces`; a text or a tally among them makes `Sides.symbols`)
    mutating func faces() throws(DiceError) -> Sides {
        let open = try advance()
        if current.kind == .rightBrace {
            throw DiceError(.emptyFaces, at: open.range.merged(with: current.range))
        }
        var faces: [Value] = []
        repeat {
            faces.append(try face())
        } while try consume(.comma)
        try expect(.rightBrace, .closingBraceAfterFaces)
        let numbers = faces.compactMap(\.integerValue)
        return numbers.count == faces.count ? .faces(numbers) : .symbols(faces)
    }

    /// face = signedInteger | TEXT | faceTally ;
    mutating func face() throws(DiceError) -> Value {
        switch current.kind {
        case .text(let text):
            try advance()
            return .text(text)
        case .leftParen:
            return .tally(try faceTally())
        default:
            return .integer(try signedInteger(.face))
        }
    }

    /// faceTally = "(" [ NAME ":" signedInteger { "," NAME ":" signedInteger } ] ")" ;
    /// (a face's tally holds whole numbers only: `d{(), (s: 1), (s: 1, a: -1)}`)
    mutating func faceTally() throws(DiceError) -> Tally {
        try advance()
        var tally = Tally()
        var names: Set<String> = []
        if current.kind != .rightParen {
            repeat {
                guard case .name(let name) = current.kind else { throw expected(.faceTallyField) }
                guard names.insert(name).inserted else { throw DiceError(.fieldNamedTwice(name), at: current.range) }
                try advance()
                try expect(.colon, .faceTallyField)
                tally[name] = .integer(try signedInteger(.faceTallyField))
            } while try consume(.comma)
        }
        try expect(.rightParen, .tallySeparator)
        return tally
    }

    /// signedInteger = [ "-" | "+" ] INTEGER ;
    /// (`what` names the place in the error when no integer follows)
    mutating func signedInteger(_ what: DiceError.Expectation) throws(DiceError) -> Int {
        var negative = false
        if current.kind == .minus || current.kind == .plus {
            negative = current.kind == .minus
            try advance()
        }
        guard case .integer(let value) = current.kind else { throw expected(what) }
        try advance()
        // A literal is never negative, so its negation always fits.
        return negative ? -value : value
    }
}
