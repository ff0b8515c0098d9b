import Testing
@testable import DiceKit

/// Parse errors and their columns, nesting, long input and source ranges (the rest of `ParserTests`).
extension ParserTests {
    // MARK: - Errors and their columns

    static let errors: [ParseErrorCase] = [
        ParseErrorCase("1 + ‸* 2", .expected(.expression, found: .star)),
        ParseErrorCase("1 + 2‸)", .unexpectedToken(.rightParen)),
        ParseErrorCase("(1 + ‸)", .expected(.expression, found: .rightParen)),
        ParseErrorCase("{1,‸,2}", .expected(.expression, found: .comma)),
        ParseErrorCase("{‸}", .expected(.expression, found: .rightBrace)),
        ParseErrorCase("{1 ‸2}", .expected(.groupSeparator, found: .integer(2))),
        ParseErrorCase("2d‸", .expected(.sides, found: .end)),
        ParseErrorCase("2d ‸6", .expected(.sides, found: .integer(6))),
        ParseErrorCase("(1 + 2‸", .expected(.closingParenthesis, found: .end)),
        ParseErrorCase("4d6kh(1‸", .expected(.closingParenthesis, found: .end)),
        ParseErrorCase("1‸..2", .unexpectedToken(.dotDot)),
        ParseErrorCase("1 + ‸.5", .unexpectedCharacter("'.'")),
        ParseErrorCase("1.2‸.3", .unexpectedCharacter("'.'")),
        ParseErrorCase("1 ‸= 2", .unexpectedEquals),
        ParseErrorCase("‸= 3", .expected(.expression, found: .equal)),
        ParseErrorCase("def ‸= 3", .expected(.macroName, found: .equal)),
        ParseErrorCase("def x‸", .expected(.definitionEquals(name: "x", parameters: []), found: .end)),
        ParseErrorCase("def f(a, b) ‸3", .expected(.definitionEquals(name: "f", parameters: ["a", "b"]),
                                                  found: .integer(3))),
        ParseErrorCase("def x =‸", .expected(.macroBody, found: .end)),
        ParseErrorCase("def ‸stats = 1", .expected(.macroName, found: .keywordStats)),
        ParseErrorCase("stats 1d6,‸", .expected(.comparedExpression, found: .end)),
        ParseErrorCase("stats 1d6, ‸, 2d6", .expected(.comparedExpression, found: .comma)),
        ParseErrorCase("stats 1d6, ‸)", .expected(.comparedExpression, found: .rightParen)),
        ParseErrorCase("stats ‸, 1d6", .expected(.expression, found: .comma)),
        ParseErrorCase("stats 1d6, 2d6 + ‸", .expected(.expression, found: .end)),
        ParseErrorCase("1d6‸, 2d6", .missingSeparator(.comma, suggestion: "1d6; 2d6")),
        ParseErrorCase("x = 1d6‸, 2d6", .missingSeparator(.comma, suggestion: "x = 1d6; 2d6")),
        ParseErrorCase("def ‸abs = 1", .expected(.macroName, found: .name("abs"))),
        ParseErrorCase("def ‸d6 = 3", .expected(.macroName, found: .dice)),
        ParseErrorCase("def f(a, ‸a) = 3", .parameterNamedTwice("a")),
        ParseErrorCase("def f(‸1) = 3", .expected(.parameterName, found: .integer(1))),
        ParseErrorCase("def f(a ‸b) = 3", .expected(.closingParenthesisAfterParameters, found: .name("b"))),
        ParseErrorCase("d6 ‸= 3", .unexpectedEquals),
        ParseErrorCase("‸abs = 3", .functionNameAssigned("abs")),
        ParseErrorCase("x = ‸", .expected(.assignedValue(name: "x"), found: .end)),
        ParseErrorCase("‸abs(1, 2)", .wrongArgumentCount(function: "abs", minimum: 1, maximum: 1, got: 2)),
        ParseErrorCase("‸round()", .wrongArgumentCount(function: "round", minimum: 1, maximum: 1, got: 0)),
        ParseErrorCase("‸min()", .wrongArgumentCount(function: "min", minimum: 1, maximum: nil, got: 0)),
        ParseErrorCase("‸repeat(1)", .wrongArgumentCount(function: "repeat", minimum: 2, maximum: 2, got: 1)),
        ParseErrorCase("abs(1 ‸2)", .expected(.argumentSeparator(function: "abs"), found: .integer(2))),
        // Only repeatCall takes modifiers; after another call the lexer reads a name.
        ParseErrorCase("max(1, 2)‸kh1", .modifierAfterSpace("kh1")),
        ParseErrorCase("‸abs", .functionNotCalled("abs")),
        ParseErrorCase("‸repeat + 1", .functionNotCalled("repeat")),
        ParseErrorCase("2d6 ‸kh3", .modifierAfterSpace("kh3")),
        ParseErrorCase("2d6 ‸ro", .modifierAfterSpace("ro")),
        ParseErrorCase("2d6 ‸dl10", .modifierAfterSpace("dl10")),
        // A word that only starts like a keyword is a name out of place, not a modifier.
        ParseErrorCase("1 ‸dog", .unexpectedToken(.name("dog"))),
        ParseErrorCase("1d20 ‸str", .unexpectedToken(.name("str"))),
        ParseErrorCase("2d6 ‸kh3x", .unexpectedToken(.name("kh3x"))),
        ParseErrorCase("4d6!>‸", .expected(.compareValue, found: .end)),
        ParseErrorCase("4d6!> ‸5", .spaceInComparePoint(after: .greater)),
        ParseErrorCase("2d6!>‸x", .expected(.compareValue, found: .name("x"))),
        ParseErrorCase("2d6!>-‸(1)", .expected(.compareValue, found: .leftParen)),
        ParseErrorCase("4d6mi‸", .modifierNeedsCount(.minimum)),
        ParseErrorCase("4d6ma ‸2", .modifierNeedsCount(.maximum)),
        ParseErrorCase("6d10cs‸", .modifierNeedsComparePoint(.countSuccesses)),
        ParseErrorCase("6d10df ‸1", .modifierNeedsComparePoint(.subtractFailures)),
        ParseErrorCase("2d6!!‸p", .unexpectedToken(.name("p"))),
        ParseErrorCase("4d6 ‸!", .unexpectedCharacter("'!'")),
        ParseErrorCase("1 < 2 ‸< 3", .chainedComparison),
        ParseErrorCase("1 == 2 ‸!= 3", .chainedComparison),
        ParseErrorCase("(1 + 2)‸)", .unexpectedToken(.rightParen)),
        ParseErrorCase("‸[fire]", .annotationWithoutTerm),
        ParseErrorCase("2d6 ‸[fire", .unterminatedAnnotation),
        ParseErrorCase("d‸{}", .emptyFaces),
        ParseErrorCase("d{1,‸,2}", .expected(.face, found: .comma)),
        ParseErrorCase("d{1,‸x}", .expected(.face, found: .name("x"))),
        ParseErrorCase("d{1 ‸2}", .expected(.closingBraceAfterFaces, found: .integer(2))),
        ParseErrorCase("‸99999999999999999999", .integerTooLarge),
        ParseErrorCase("1 + ‸\(String(repeating: "9", count: 400)).5",
                       .decimalTooLarge(String(repeating: "9", count: 400) + ".5")),
        // Other rollers' habits get a did-you-mean.
        ParseErrorCase("1 ‸2", .missingSeparator(.integer(2), suggestion: "1; 2")),
        ParseErrorCase("1d20‸, 1d20", .missingSeparator(.comma, suggestion: "1d20; 1d20")),
        ParseErrorCase("3d6 ‸1d6 # two rolls", .missingSeparator(.integer(1), suggestion: "3d6; 1d6 # two rolls")),
        ParseErrorCase("x = 1 ‸(2)", .missingSeparator(.leftParen, suggestion: "x = 1; (2)")),
        ParseErrorCase(String(repeating: "1 + ", count: 15) + "1 ‸2", .missingSeparator(.integer(2), suggestion: nil)),
        ParseErrorCase("‸/roll 1d20 + 5", .chatCommand("roll", roll: "1d20 + 5")),
        ParseErrorCase("‸/r", .chatCommand("r", roll: "")),
        ParseErrorCase("4d6‸p1", .foreignModifier("p1", suggestion: "4d6dl1")),
        ParseErrorCase("4d6‸ph1", .foreignModifier("ph1", suggestion: "4d6dh1")),
        // Only after dice that may take another modifier: not a number, not a bare `kh`.
        ParseErrorCase("9‸x", .unexpectedToken(.name("x"))),
        ParseErrorCase("0‸x10", .unexpectedToken(.name("x10"))),
        // A keyword in capitals: the keyword.
        ParseErrorCase("‸STATS 1d6", .foreignModifier("STATS", suggestion: "stats 1d6")),
        ParseErrorCase("‸If 1 then 2 else 3", .foreignModifier("If", suggestion: "if 1 then 2 else 3")),
        ParseErrorCase("foo ‸1d6", .missingSeparator(.integer(1), suggestion: "foo; 1d6")),
        ParseErrorCase("x = 1\n‸:vars", .promptCommandInScript(":vars")),
        ParseErrorCase("‸:max-dice 5", .promptCommandInScript(":max-dice")),
        ParseErrorCase("1 +‸", .expected(.expression, found: .end)),
        ParseErrorCase("1d6 +‸\n", .expected(.expression, found: .end)),
        ParseErrorCase("1d6 +\n‸;", .expected(.expression, found: .semicolon)),
        ParseErrorCase("1d6\n2d6 + ‸* 3", .expected(.expression, found: .star)),
        ParseErrorCase("‸🎲", .unexpectedCharacter("'🎲' (U+1F3B2)")),
        ParseErrorCase("1d6 + ‸é", .unexpectedCharacter("'é' (U+00E9)")),
        ParseErrorCase("2d6 [🎲 é] + ‸* 2", .expected(.expression, found: .star)),
        ParseErrorCase("1 +\t‸@", .unexpectedCharacter("'@'")),
    ]

    @Test(arguments: errors)
    func reportsErrorAtColumn(_ c: ParseErrorCase) {
        c.expectReported()
    }

    /// Bytes that are not text, and control characters, are errors with a position.
    static let binaryJunk: [(bytes: [UInt8], kind: DiceError.Kind, column: Int)] = [
        ([0x00], .unexpectedCharacter("U+0000"), 1),
        ([0x31, 0x20, 0x2B, 0x20, 0x1B], .unexpectedCharacter("U+001B"), 5),
        ([0xFF, 0xFE, 0x31], .invalidUTF8, 1),
        ([0x80], .invalidUTF8, 1),
        ([0x31, 0x2B, 0xC3], .invalidUTF8, 3),
        ([0x31, 0x2B, 0xED, 0xA0, 0x80], .invalidUTF8, 3),
        ([0x32, 0x64, 0x36, 0x20, 0x5B, 0xFF, 0x5D], .invalidUTF8, 5),
    ]

    @Test func binaryJunkIsAnError() {
        for junk in Self.binaryJunk {
            let source = SourceFile(name: "<test>", bytes: junk.bytes)
            let error = diceError { () throws(DiceError) in
                var parser = Parser(source)
                while try parser.nextStatement() != nil {}
            }
            #expect(error?.kind == junk.kind, "\(junk.bytes)")
            if let error {
                #expect(source.lineAndColumn(of: error.range.lowerBound).column == junk.column, "\(junk.bytes)")
            }
        }
    }

    @Test func randomBytesNeverTrap() {
        var generator = Xoshiro256StarStar(seed: 2024)
        for _ in 0..<2_000 {
            let length = Int(generator.next() % 24)
            let bytes = (0..<length).map { _ in
                // Mostly dice-like ASCII, sometimes anything.
                let pick = generator.next()
                if pick % 4 == 0 { return UInt8(truncatingIfNeeded: pick >> 8) }
                let alphabet = Array("0123456789d%F{}()[],;+-*/^<>=!khlrosmicfa \n#.xé".utf8)
                return alphabet[Int((pick >> 8) % UInt64(alphabet.count))]
            }
            var parser = Parser(SourceFile(name: "<fuzz>", bytes: bytes))
            do {
                while try parser.nextStatement() != nil {}
            } catch {
                #expect(error.range.lowerBound.offset >= 0 && error.range.lowerBound.offset <= bytes.count)
            }
        }
    }

    // MARK: - Nesting and long input

    static func parenthesized(_ depth: Int) -> String {
        String(repeating: "(", count: depth) + "1" + String(repeating: ")", count: depth)
    }

    @Test(arguments: [200, 256])
    func nestingWithinTheLimitParses(_ depth: Int) throws {
        #expect(try Parser.parseExpression(Self.parenthesized(depth)).dump == "1")
    }

    @Test(arguments: [
        parenthesized(257),
        String(repeating: "-", count: 300) + "1",
        String(repeating: "{", count: 300) + "1" + String(repeating: "}", count: 300),
        String(repeating: "2^", count: 300) + "1",
        String(repeating: "abs(", count: 300) + "1" + String(repeating: ")", count: 300),
    ])
    func nestingBeyondTheLimitIsAnError(_ text: String) {
        let error = diceError { () throws(DiceError) in try Parser.parseExpression(text) }
        #expect(error?.kind == .nestingTooDeep(limit: 256))
    }

    @Test func aStatementPastTheTokenLimitIsAnErrorAtTheTokenPastIt() throws {
        let limits = Limits(maxStatementTokens: 5)
        // `1 + 2 + 3` is 5 tokens: fine; `1 + 2 + 3 + 4` fails at its sixth, the last `+`.
        _ = try Parser.parseExpression("1 + 2 + 3", limits: limits)
        let text = "1 + 2 + 3 + 4"
        let error = diceError { () throws(DiceError) in try Parser.parseExpression(text, limits: limits) }
        #expect(error?.kind == .statementTooLong(limit: 5))
        #expect(error?.range.lowerBound.offset == 10)  // the sixth token, `+` before 4
        // Each statement has its own count, and blank lines and `;` between them count for none.
        let program = "1 + 2 + 3\n\n\n;;;\n\n\n1 + 2 + 3"
        #expect(try Parser.parseProgram(program, limits: limits).count == 2)
        let tooLong = diceError { () throws(DiceError) in try Parser.parseProgram("x = 1 + 2 + 3", limits: limits) }
        #expect(tooLong?.kind == .statementTooLong(limit: 5))
    }

    @Test func aHundredThousandTermSumIsAFlatChain() throws {
        let text = Array(repeating: "1d6", count: 100_000).joined(separator: " + ")
        let expr = try Parser.parseExpression(text)
        guard case .chain(let first, let rest) = expr.kind else {
            Issue.record("not a chain: \(expr.dump.prefix(40))")
            return
        }
        #expect(first.dump == "(dice 1 6)")
        #expect(rest.count == 99_999)
        #expect(rest.allSatisfy { $0.op == .add })
    }

    // MARK: - Source ranges

    @Test func rangesCoverTheirText() throws {
        let text = "2 * (1d20 + 5) [hit] >= 15"
        let expr = try Parser.parseExpression(text)
        let source = SourceFile(name: "<test>", text: text)
        #expect(source.text(of: expr.range) == text)
        guard case .comparison(_, let lhs, let rhs) = expr.kind else {
            Issue.record("not a comparison")
            return
        }
        #expect(source.text(of: lhs.range) == "2 * (1d20 + 5) [hit]")
        #expect(source.text(of: rhs.range) == "15")
    }
}
