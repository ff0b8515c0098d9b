import Testing

/// `grammar/dice.ebnf` and the parser agree rule for rule, read as text from the package.
///
/// A *parsing method* is a method in `Sources/DiceKit/Parser` whose doc comment starts
/// with a grammar rule: `/// name = definition ;` (the definition may go on over the next
/// `///` lines; what follows its `;` is commentary). Then:
/// - a parsing method is named as its rule, and quotes the grammar's definition token for
///   token (spaces and `(* comments *)` aside);
/// - every rule of the grammar has exactly one parsing method, except the *token rules*, a
///   choice of single tokens (`separator = NEWLINE | ";" ;`), which the parser matches in a
///   `switch` on the current token.
@Suite struct GrammarTests {
    static let grammarPath = "grammar/dice.ebnf"
    static let parserFolder = "Sources/DiceKit/Parser"

    @Test func everyRuleHasOneParsingMethod() throws {
        let rules = try Self.grammarRules()
        let methods = try Self.parsingMethods()
        #expect(rules.count > 20, "no grammar read from \(Self.grammarPath)")
        for rule in rules where !rule.isTokenRule {
            let quoting = methods.filter { $0.rule == rule.name }
            #expect(quoting.count == 1, "rule '\(rule.name)' is quoted by \(quoting.count) parsing methods: \(quoting)")
        }
        let names = rules.map(\.name)
        #expect(Set(names).count == names.count, "a rule is defined twice: \(names)")
    }

    @Test func everyParsingMethodIsItsRule() throws {
        let rules = Dictionary(try Self.grammarRules().map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let methods = try Self.parsingMethods()
        #expect(methods.count > 20, "no parsing methods found in \(Self.parserFolder)")
        for method in methods {
            #expect(method.function == method.rule, "\(method): the method quoting '\(method.rule)' is '\(method.function ?? "none")'")
            guard let rule = rules[method.rule] else {
                Issue.record("\(method): '\(method.rule)' is no rule of \(Self.grammarPath)")
                continue
            }
            #expect(method.definition == rule.definition, """
                \(method): the doc comment and the grammar differ
                  doc:     \(method.rule) = \(EBNF.text(method.definition)) ;
                  grammar: \(rule.name) = \(EBNF.text(rule.definition)) ;
                """)
        }
    }

    /// Every rule a definition names is defined, and every rule but `program` is used.
    @Test func theGrammarIsClosed() throws {
        let rules = try Self.grammarRules()
        let defined = Set(rules.map(\.name))
        var used: Set<String> = []
        for rule in rules {
            for case .name(let name) in rule.definition where !EBNF.isTokenName(name) {
                used.insert(name)
                #expect(defined.contains(name), "'\(rule.name)' uses '\(name)', which is not defined")
            }
        }
        #expect(defined.subtracting(used).sorted() == ["program"], "rules no other rule uses")
    }

    /// The criterion at work on made-up text, so a broken reader cannot pass vacuously.
    @Test func theReadersFindRulesAndMethods() {
        let grammar = """
            (* a comment with "quotes" and x = y ; (* nested: z = 1 ; *) w = 2 ; *)
            sum  = term { ( "+" | ";" ) term } ;   (* trailing *)
            sep  = NEWLINE | ";" ;
            """
        let rules = EBNF.rules(in: grammar)
        #expect(rules.map(\.name) == ["sum", "sep"])
        #expect(rules.map(\.isTokenRule) == [false, true])
        #expect(EBNF.text(rules[0].definition) == #"term { ( "+" | ";" ) term }"#)

        let source = """
            extension Parser {
                /// sum = term { ( "+" | ";" )
                ///       term } ;  (loops; `x = 1` is commentary)
                @discardableResult
                mutating func sum() throws(DiceError) -> Expr {
                /// A helper, not a rule: x = 1.
                func helper() {}
            }
            """
        let methods = Self.parsingMethods(in: source, file: "Made.swift")
        #expect(methods.count == 1)
        #expect(methods.first?.rule == "sum" && methods.first?.function == "sum")
        #expect(methods.first?.definition == rules[0].definition)
    }

    // MARK: - Reading

    struct ParsingMethod: CustomStringConvertible {
        var file: String
        var line: Int
        var rule: String
        var definition: [EBNF.Token]
        /// The name of the function declared after the doc comment.
        var function: String?
        var description: String { "\(file):\(line)" }
    }

    static func grammarRules() throws -> [EBNF.Rule] {
        EBNF.rules(in: try PackageFiles.text(grammarPath))
    }

    static func parsingMethods() throws -> [ParsingMethod] {
        try PackageFiles.swiftFiles(in: parserFolder).flatMap { path in
            parsingMethods(in: try PackageFiles.text(path), file: path)
        }
    }

    /// The doc comments of `source` that start with `name =`, and the function each documents.
    static func parsingMethods(in source: String, file: String) -> [ParsingMethod] {
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.drop(while: { $0 == " " || $0 == "\t" }) }
        var methods: [ParsingMethod] = []
        var index = 0
        while index < lines.count {
            guard lines[index].hasPrefix("///") else {
                index += 1
                continue
            }
            let start = index
            var doc: [Substring] = []
            while index < lines.count, lines[index].hasPrefix("///") {
                doc.append(lines[index].dropFirst(3))
                index += 1
            }
            let tokens = EBNF.tokens(doc.joined(separator: "\n"))
            guard tokens.count >= 2, case .name(let rule) = tokens[0], tokens[1] == .symbol("="),
                  rule.first?.isLowercase == true else { continue }
            let definition = Array(tokens.dropFirst(2).prefix { $0 != .symbol(";") })
            var declaration = index
            while declaration < lines.count, lines[declaration].hasPrefix("@") { declaration += 1 }
            let function = declaration < lines.count ? functionName(in: lines[declaration]) : nil
            methods.append(ParsingMethod(file: file, line: start + 1, rule: rule, definition: definition,
                                         function: function))
        }
        return methods
    }

    /// `sum` in `mutating func sum() ...`.
    static func functionName(in line: Substring) -> String? {
        guard let range = line.range(of: "func ") else { return nil }
        let name = line[range.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        return name.isEmpty ? nil : String(name)
    }
}

/// Just enough EBNF to compare rules: terminals, names and symbols, comments skipped.
enum EBNF {
    enum Token: Hashable, CustomStringConvertible {
        /// `"+"`, with the text between the quotes.
        case terminal(String)
        /// A rule (`additive`) or a lexical token (`INTEGER`).
        case name(String)
        /// `=`, `|`, `;`, brackets, or any other character.
        case symbol(Character)

        var description: String {
            switch self {
            case .terminal(let text): return "\"\(text)\""
            case .name(let name): return name
            case .symbol(let symbol): return String(symbol)
            }
        }
    }

    struct Rule {
        var name: String
        var definition: [Token]
        /// A choice of single tokens: terminals and lexical names separated by `|`.
        var isTokenRule: Bool {
            definition.allSatisfy { token in
                switch token {
                case .terminal: return true
                case .name(let name): return isTokenName(name)
                case .symbol(let symbol): return symbol == "|"
                }
            }
        }
    }

    /// `INTEGER`, `NAME`: the lexer's tokens are written in capitals.
    static func isTokenName(_ name: String) -> Bool {
        name.allSatisfy { $0.isUppercase || $0 == "_" }
    }

    static func text(_ tokens: [Token]) -> String {
        tokens.map(\.description).joined(separator: " ")
    }

    static func tokens(_ text: String) -> [Token] {
        var tokens: [Token] = []
        var rest = Substring(text)
        while let first = rest.first {
            if first.isWhitespace {
                rest = rest.dropFirst()
            } else if rest.hasPrefix("(*") {
                rest = afterComment(rest)
            } else if first == "\"" {
                let body = rest.dropFirst()
                let quoted = body.prefix { $0 != "\"" }
                tokens.append(.terminal(String(quoted)))
                rest = body.dropFirst(quoted.count + 1)
            } else if first.isLetter || first == "_" {
                let name = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                tokens.append(.name(String(name)))
                rest = rest.dropFirst(name.count)
            } else {
                tokens.append(.symbol(first))
                rest = rest.dropFirst()
            }
        }
        return tokens
    }

    /// The text after the comment `text` starts with; comments nest, as in the lexical
    /// rules at the end of the grammar.
    static func afterComment(_ text: Substring) -> Substring {
        var rest = text.dropFirst(2)
        var depth = 1
        while depth > 0, !rest.isEmpty {
            if rest.hasPrefix("(*") {
                depth += 1
                rest = rest.dropFirst(2)
            } else if rest.hasPrefix("*)") {
                depth -= 1
                rest = rest.dropFirst(2)
            } else {
                rest = rest.dropFirst()
            }
        }
        return rest
    }

    /// The rules `name = definition ;` of a grammar text.
    static func rules(in grammar: String) -> [Rule] {
        let tokens = tokens(grammar)
        var rules: [Rule] = []
        var index = 0
        while index + 1 < tokens.count {
            guard case .name(let name) = tokens[index], tokens[index + 1] == .symbol("=") else {
                index += 1
                continue
            }
            let definition = tokens[(index + 2)...].prefix { $0 != .symbol(";") }
            rules.append(Rule(name: name, definition: Array(definition)))
            index += 2 + definition.count + 1
        }
        return rules
    }
}
