/// Hints for other rollers' habits that this language spells differently (LANGUAGE.md §3a):
/// each is an error whose suggestion is a statement that itself parses.
extension Parser {
    /// The error for a token that cannot continue `result` when it is a known habit:
    /// `1d20 => 15` (`>=`), `1d20+5 vs 15`, `1d20adv` and `2d20 advantage` (`2d20kh1`),
    /// `attack 15 5` (`attack(15, 5)`); `nil` when it is none of them.
    func habitHint(after result: Stmt) -> DiceError? {
        let start = result.range.lowerBound.offset
        let tokenStart = current.range.lowerBound.offset
        let tokenEnd = current.range.upperBound.offset
        let lineEnd = lexer.lineEnd(from: tokenEnd)
        // Each suggestion is parsed to check it: a short line only, so that is cheap.
        guard lineEnd - start <= Parser.hintedLineLength else { return nil }
        func replacing(_ lower: Int, _ upper: Int, with replacement: String) -> String {
            Parser.trimmed(lexer.text(start..<lower) + replacement + lexer.text(upper..<lineEnd))
        }
        func hint(_ word: String, _ suggestion: String, at range: SourceRange) -> DiceError? {
            guard Parser.parses(suggestion) else { return nil }
            return DiceError(.foreignModifier(word, suggestion: suggestion), at: range)
        }
        switch current.kind {
        case .equal:
            // `=>` and `=<`, written the other way round.
            let next = lexer.text(tokenEnd..<(tokenEnd + 1))
            guard next == ">" || next == "<" else { return nil }
            let range = current.range.lowerBound..<SourceLocation(offset: tokenEnd + 1)
            return hint("=" + next, replacing(tokenStart, tokenEnd + 1, with: next + "="), at: range)
        case .name(let word):
            let lower = word.lowercased()
            if lower == "vs" || lower == "versus" {
                return hint(word, replacing(tokenStart, tokenEnd, with: ">="), at: current.range)
            }
            guard let advantage = Parser.advantage[lower], let term = Parser.lastDiceTerm(of: result),
                  term.range.upperBound.offset <= tokenStart, Parser.isD20(term, count: [1, 2]) else { return nil }
            return hint(word, replacing(term.range.lowerBound.offset, tokenEnd, with: advantage), at: current.range)
        case .integer, .decimal:
            // `attack 15 5`: a macro's numbers after a space, as chat bots take them.
            guard case .expression(let expr) = result.kind, case .name(let name) = expr.kind,
                  !["stats", "def", "if", "let"].contains(name.lowercased()),
                  current.range.lowerBound != previousEnd else { return nil }
            let arguments = lexer.text(tokenStart..<lineEnd).split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard !arguments.isEmpty, arguments.count <= 10, arguments.allSatisfy(Parser.isNumberLiteral) else {
                return nil
            }
            return hint(name, name + "(" + arguments.joined(separator: ", ") + ")", at: current.range)
        default:
            return nil
        }
    }

    /// The longest line a hint rewrites.
    static let hintedLineLength = 200

    /// Advantage and disadvantage as players say them, and the pool that rolls them.
    static let advantage = ["adv": "2d20kh1", "advantage": "2d20kh1", "dis": "2d20kl1", "disadvantage": "2d20kl1"]

    /// Whether `word` is a number as typed: `15`, `-2`, `1.5`.
    static func isNumberLiteral(_ word: Substring) -> Bool {
        let digits = word.first == "-" || word.first == "+" ? word.dropFirst() : word
        let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
        return (1...2).contains(parts.count)
            && parts.allSatisfy { !$0.isEmpty && $0.utf8.allSatisfy { isDigit($0) } }
    }

    /// Whether `text` parses as a program: a hint never suggests an error.
    static func parses(_ text: String) -> Bool {
        (try? Parser.parseProgram(text)) != nil
    }

    /// The dice term `statement` ends in, if any, with its source range.
    static func lastDiceTerm(of statement: Stmt) -> Expr? {
        func last(_ expr: Expr) -> Expr? {
            switch expr.kind {
            case .dice: return expr
            case .chain(let first, let rest): return last(rest.last?.operand ?? first)
            case .unary(_, let operand): return last(operand)
            case .power(_, let exponent): return last(exponent)
            case .comparison(_, _, let right): return last(right)
            default: return nil
            }
        }
        guard case .expression(let expr) = statement.kind else { return nil }
        return last(expr)
    }

    /// Whether `expr` is a plain `d20` pool of one of `count` dice, with no modifiers.
    static func isD20(_ expr: Expr, count: Set<Int>) -> Bool {
        guard case .dice(let term) = expr.kind, term.modifiers.isEmpty,
              case .number(let sides) = term.sides, case .number(.integer(20)) = sides.kind else { return false }
        guard let countExpr = term.count else { return count.contains(1) }
        guard case .number(.integer(let n)) = countExpr.kind else { return false }
        return count.contains(n)
    }

    /// Roll20's inline roll `[[1d20+5]]` at the start of a statement: an error that suggests
    /// the roll alone, or `nil` when the annotation is no inline roll.
    func inlineRollHint(_ text: String) -> DiceError? {
        guard text.hasPrefix("[") else { return nil }
        let start = current.range.lowerBound.offset
        let lineEnd = lexer.lineEnd(from: start)
        guard lineEnd - start <= Parser.hintedLineLength else { return nil }
        var line = Parser.trimmed(lexer.text(start..<lineEnd))
        guard line.hasPrefix("[[") else { return nil }
        line.removeFirst(2)
        if line.hasSuffix("]]") { line.removeLast(2) }
        let roll = Parser.trimmed(line)
        guard !roll.isEmpty, Parser.parses(roll) else { return nil }
        return DiceError(.inlineRoll(roll: roll), at: current.range)
    }
}
