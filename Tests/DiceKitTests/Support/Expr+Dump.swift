@testable import DiceKit

/// A compact tree dump for tests: `4d6kh3 + 2` dumps as `(+ (dice 4 6 kh3) 2)`.
extension Expr {
    /// The tree as an S-expression, without source ranges.
    var dump: String {
        switch kind {
        case .number(let number): return number.description
        case .name(let name): return name
        case .call(let name, let arguments):
            return "(call \(name)" + arguments.map { " " + $0.dump }.joined() + ")"
        case .function(let function, let arguments):
            return "(\(function.rawValue)" + arguments.map { " " + $0.dump }.joined() + ")"
        case .unary(let op, let operand):
            return "(\(op == .negate ? "neg" : "pos") \(operand.dump))"
        case .chain(let first, let rest):
            if rest.count == 1, let only = rest.first {
                return "(\(only.op.rawValue) \(first.dump) \(only.operand.dump))"
            }
            return "(chain \(first.dump)" + rest.map { " \($0.op.rawValue) \($0.operand.dump)" }.joined() + ")"
        case .power(let base, let exponent):
            return "(^ \(base.dump) \(exponent.dump))"
        case .comparison(let op, let lhs, let rhs):
            return "(\(op.rawValue) \(lhs.dump) \(rhs.dump))"
        case .dice(let term):
            let count = term.count?.dump ?? "_"
            let sides: String
            switch term.sides {
            case .number(let expr): sides = expr.dump
            case .percentile: sides = "%"
            case .fate: sides = "F"
            case .faces(let faces): sides = "{" + faces.map(String.init).joined(separator: ",") + "}"
            case .symbols(let faces): sides = "{" + faces.map(\.literal).joined(separator: ",") + "}"
            }
            return "(dice \(count) \(sides)" + term.modifiers.map { " " + $0.dump }.joined() + ")"
        case .group(let members, let modifiers, _):
            return "(group [" + members.map { $0.dump }.joined(separator: " ") + "]"
                + modifiers.map { " " + $0.dump }.joined() + ")"
        case .repeat(let count, let body, let modifiers):
            return "(repeat \(count.dump) \(body.dump)" + modifiers.map { " " + $0.dump }.joined() + ")"
        case .annotated(let inner, let label):
            return "(note \(inner.dump) \"\(label)\")"
        case .conditional(let condition, let then, let otherwise):
            return "(if \(condition.dump) \(then.dump) \(otherwise.dump))"
        case .binding(let name, let value, let body):
            return "(let \(name) \(value.dump) \(body.dump))"
        case .text(let text):
            return Value.quoted(text)
        case .match(let subject, let entries, let otherwise):
            return "(match \(subject.dump)" + entries.map { " [\($0.pattern.dump): \($0.result.dump)]" }.joined()
                + (otherwise.map { " [else: \($0.dump)]" } ?? "") + ")"
        case .tally(let fields):
            return "(tally" + fields.map { " [\($0.name) \($0.value.dump)]" }.joined() + ")"
        case .field(let tally, let name):
            return "(. \(tally.dump) \(name))"
        case .logical(let op, let lhs, let rhs):
            return "(\(op.rawValue) \(lhs.dump) \(rhs.dump))"
        case .not(let operand):
            return "(not \(operand.dump))"
        case .count(let pool, let point):
            return "(count \(pool.dump) \(point.dump))"
        case .given(let value, let condition):
            return "(given \(value.dump) \(condition.dump))"
        }
    }
}

extension MatchEntry.Pattern {
    /// `7`, `7-9`, `10+`, `6-`, `>=5`, `"orc"`, `(dc)`: the pattern with its bounds dumped.
    var dump: String {
        func bound(_ expr: Expr) -> String {
            switch expr.kind {
            case .number, .text: return expr.dump
            default: return "(" + expr.dump + ")"
            }
        }
        switch self {
        case .equal(let value): return bound(value)
        case .between(let low, let high): return bound(low) + "-" + bound(high)
        case .orMore(let value): return bound(value) + "+"
        case .orLess(let value): return bound(value) + "-"
        case .point(let point): return point.dump
        }
    }
}

extension ComparePoint {
    /// `>=5`, `<>1`, `="hit"`, `>(x)`: the operator (`=` and `<>` for equality) and the value.
    var dump: String {
        let op = self.op == .equal ? "=" : self.op == .notEqual ? "<>" : self.op.rawValue
        switch value.kind {
        case .number, .text: return op + value.dump
        default: return op + "(" + value.dump + ")"
        }
    }
}

extension DiceModifier {
    /// `kh3`, `kh(x)`, `!>=5`, `r`: the modifier in canonical notation, arguments dumped.
    var dump: String {
        func count(_ expr: Expr?) -> String {
            guard let expr else { return "" }
            if case .number = expr.kind { return expr.dump }
            return "(" + expr.dump + ")"
        }
        func point(_ point: ComparePoint?) -> String { point?.dump ?? "" }
        switch kind {
        case .keep(let extreme, let n): return (extreme == .highest ? "kh" : "kl") + count(n)
        case .drop(let extreme, let n): return (extreme == .highest ? "dh" : "dl") + count(n)
        case .explode(let explosion, let p): return explosion.rawValue + point(p)
        case .reroll(let once, let p): return (once ? "ro" : "r") + point(p)
        case .minimum(let n): return "mi" + count(n)
        case .maximum(let n): return "ma" + count(n)
        case .countSuccesses(let p): return "cs" + point(p)
        case .countFailures(let p): return "cf" + point(p)
        case .subtractFailures(let p): return "df" + point(p)
        case .sort(let ascending): return ascending ? "sa" : "sd"
        case .unique: return "u"
        }
    }
}

extension Stmt {
    /// The statement as an S-expression, without source ranges.
    var dump: String {
        switch kind {
        case .expression(let expr): return expr.dump
        case .assignment(let name, let expr): return "(= \(name) \(expr.dump))"
        case .update(let name, let op, let expr): return "(\(op.rawValue)= \(name) \(expr.dump))"
        case .definition(let name, let parameters, let defaults, let body):
            let written = parameters.map { parameter in defaults[parameter].map { "\(parameter)=\($0.dump)" } ?? parameter }
            return "(def \(name) [\(written.joined(separator: " "))] \(body.dump))"
        case .stats(let expr): return "(stats \(expr.dump))"
        case .compare(let exprs): return "(stats \(exprs.map(\.dump).joined(separator: " ")))"
        case .sweep(let expr, let name, let from, let to): return "(sweep \(expr.dump) \(name) \(from.dump) \(to.dump))"
        case .use(let name): return name.map { "(use \($0))" } ?? "(use)"
        }
    }
}
