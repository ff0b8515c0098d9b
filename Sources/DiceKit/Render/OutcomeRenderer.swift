/// Renders statement outcomes and errors as human text or JSON Lines (LANGUAGE.md §6).
public struct OutcomeRenderer: Sendable {
    /// How rolls are shown in human text (JSON's `"text"` is always plain).
    package var rolls: RollRenderer
    /// The width in columns that `use`'s lists wrap their descriptions to (a terminal's);
    /// nil: an entry a line, however long (output to a file or a pipe, for `grep`).
    public var width: Int?

    /// A renderer that shows rolls with `rolls`.
    public init(rolls: RollRenderer = .plain, width: Int? = nil) {
        self.rolls = rolls
        self.width = width
    }

    // MARK: - Human

    /// One line for a roll, assignment or definition.
    public func text(for outcome: Outcome) -> String {
        var out = ""
        appendText(for: outcome, into: &out)
        return out
    }

    /// `text(for:)` appended to UTF-8 bytes, without a `String` per line.
    package func text(for outcome: Outcome, into bytes: inout [UInt8]) {
        ByteWriter.appending(to: &bytes) { writer in appendText(for: outcome, into: &writer) }
    }

    /// `text(for:into:)` that stops once `bytes` would hold more than `maxBytes`: false then,
    /// with `bytes` cut short (the output cap, `Limits.maxOutputBytes`).
    package func text(for outcome: Outcome, into bytes: inout [UInt8], maxBytes: Int) -> Bool {
        ByteWriter.appending(to: &bytes, limit: maxBytes) { writer in appendText(for: outcome, into: &writer) }
    }

    /// Whether the user's text is escaped for Markdown too.
    private var markdown: Bool { rolls.style is MarkdownStyle }

    private func appendText<Out: TextOutput>(for outcome: Outcome, into out: inout Out) {
        switch outcome {
        case .roll(let roll):
            rolls.renderText(roll, into: &out)
        case .assignment(let name, let roll):
            out.write(user: name, markdown: markdown)
            out.write(" = ")
            if roll.isConstant {
                out.write(roll.value, escaping: true, markdown: markdown)
            } else {
                rolls.renderText(roll, into: &out)
            }
        case .definition(let macro):
            out.write(user: macro.definitionText, markdown: markdown)
        case .stats(let expr, _):
            out.write("stats ")
            out.write(user: expr.text, markdown: markdown)
        case .compare(let exprs, _):
            out.write("stats ")
            out.write(user: exprs.map(\.text).joined(separator: ", "), markdown: markdown)
        case .sweep(let expr, let sweep):
            out.write("stats ")
            out.write(user: SweepReport.title(expr, sweep), markdown: markdown)
        case .system(let system, let macros):
            // `use pbta`, then each macro defined with what it rolls: `  move(stat)  a move: ...`.
            // The summary wraps too, its next lines under its first (not as far in as an entry).
            let heading = "use \(system.name): "
            let room = markdown ? nil : width.map { max(20, $0 - heading.count) }
            out.write(text: heading)
            out.write(text: ListLayout.lines(of: system.summary, room: room)
                .joined(separator: "\n" + String(repeating: " ", count: heading.count)))
            writeList(macros.map { (OutcomeRenderer.signature($0), $0.summary) }, into: &out)
        case .systems(let systems):
            out.write("the game systems (use NAME defines their macros):")
            writeList(systems.map { ($0.name, $0.summary) }, into: &out)
        }
    }

    /// `use`'s list, a line an entry: its name in a column, then its description. Markdown
    /// for chat, where spaces do not align and `\_` is wider than what it shows, is a list
    /// instead: `- **move\_adv(stat = 0)**: A move with advantage...`.
    private func writeList<Out: TextOutput>(_ entries: [(name: String, description: String?)], into out: inout Out) {
        let layout = ListLayout(entries, width: markdown ? nil : width)
        for (name, description) in entries {
            if markdown {
                out.write("\n- **")
                out.write(user: name, markdown: true)
                out.write("**")
                guard let description else { continue }
                out.write(": ")
                out.write(user: description, markdown: true)
            } else {
                out.write("\n  ")
                out.write(user: name, markdown: false)
                guard let description else { continue }
                for (index, line) in layout.lines(of: description).enumerated() {
                    if index > 0 || 2 + name.count + 2 > layout.column {
                        out.write("\n")
                        out.write(text: String(repeating: " ", count: layout.column))
                    } else {
                        out.write(text: String(repeating: " ", count: layout.column - 2 - name.count))
                    }
                    out.write(user: line, markdown: false)
                }
            }
        }
    }

    /// Where `use`'s list puts its descriptions in a terminal `width` columns wide. In 80
    /// columns pf2e's `damage(bonus, ac, n, sides, mod = 0, attack = 1, agile = 0)` put every
    /// description 63 columns in, and each broke mid-word at the terminal's edge. When an
    /// entry does not fit on its line, the descriptions start at most two fifths of the
    /// way in, a longer name has its description on the lines below it, and a description
    /// wraps between words.
    struct ListLayout {
        /// The column the descriptions start in.
        let column: Int
        /// How many columns a line of a description may take; nil: no limit.
        let room: Int?

        init(_ entries: [(name: String, description: String?)], width: Int?) {
            let names = entries.map(\.name.count).max() ?? 0
            let fits = entries.allSatisfy { 2 + names + 2 + ($0.description?.count ?? 0) <= width ?? .max }
            guard let width, !fits else {
                column = 2 + names + 2
                room = nil
                return
            }
            column = 2 + min(names, max(8, width * 2 / 5 - 4)) + 2
            room = max(20, width - column)
        }

        /// `description` in lines of at most `room` columns, broken between words (a word
        /// longer than that has a line of its own).
        func lines(of description: String) -> [String] { Self.lines(of: description, room: room) }

        /// `text` in lines of at most `room` columns (nil: no limit), broken between words.
        static func lines(of description: String, room: Int?) -> [String] {
            guard let room, description.count > room else { return [description] }
            var lines: [String] = []
            var line = ""
            for word in description.split(separator: " ") {
                if !line.isEmpty, line.count + 1 + word.count > room {
                    lines.append(line)
                    line = ""
                }
                line += line.isEmpty ? String(word) : " " + word
            }
            if !line.isEmpty { lines.append(line) }
            return lines
        }
    }

    /// A macro's name and parameters as it is called: `move(stat)`, `atk(bonus = 0)`.
    static func signature(_ macro: Macro) -> String {
        guard !macro.parameters.isEmpty else { return macro.name }
        let written = macro.parameters.map { parameter in macro.defaults[parameter].map { "\(parameter) = \($0.text)" } ?? parameter }
        return "\(macro.name)(\(written.joined(separator: ", ")))"
    }

    // MARK: - JSON

    /// One JSON object for a roll, assignment or definition, without a newline; with the
    /// statement's notices as `"notes"` (their messages) and, for a name that changed what it
    /// is, `"replaced"` (`"variable"` or `"macro"`).
    public func json(for outcome: Outcome, input: String, notices: [Notice] = []) -> String {
        json(for: outcome, input: input, notices: notices, maxBytes: .max) ?? ""
    }

    /// `json(for:input:notices:)`, or nil if it would take more than `maxBytes` bytes (the
    /// output cap, `Limits.maxOutputBytes`), found out before much more than that is held.
    package func json(for outcome: Outcome, input: String, notices: [Notice] = [], maxBytes: Int) -> String? {
        var json = JSONWriter()
        json.limit = maxBytes
        json.beginObject()
        json.string("input", input)
        switch outcome {
        case .roll(let roll):
            writeRoll(roll, into: &json)
        case .assignment(let name, let roll):
            json.string("name", name)
            writeRoll(roll, into: &json)
        case .definition(let macro):
            json.string("defined", macro.name)
            writeParameters(of: macro, into: &json)
            json.string("body", macro.body.text)
        case .system(let system, let macros):
            json.string("system", system.name)
            json.beginArray("defined")
            for macro in macros {
                json.beginObject()
                json.string("name", macro.name)
                writeParameters(of: macro, into: &json)
                if let summary = macro.summary { json.string("description", summary) }
                json.endObject()
            }
            json.endArray()
        case .systems(let systems):
            json.beginArray("systems")
            for system in systems {
                json.beginObject()
                json.string("name", system.name)
                json.string("description", system.summary)
                json.endObject()
            }
            json.endArray()
        case .stats, .compare, .sweep:
            break
        }
        if let replaced = notices.lazy.compactMap(\.replacedKind).first { json.string("replaced", replaced) }
        if !notices.isEmpty {
            json.beginArray("notes")
            for notice in notices { json.string(nil, notice.message) }
            json.endArray()
        }
        json.endObject()
        return json.isCut ? nil : json.text
    }

    /// `{"input": ..., "stats": {"exact": true, "mean": ..., "stdev": ..., "min": ..., "max": ...,
    /// "median": ..., "p10": ..., "p90": ..., "distribution": [[outcome, probability], ...],
    /// "at_most": [[outcome, P(≤ outcome)], ...]}}`, with `"truncated"` (the mass of an
    /// explosion tail or a large sum's far tails that was cut), and when estimated by simulation
    /// `"rolls"` and `"stderr"` (the largest standard error of a probability). `"min"` and
    /// `"max"` are the expression's own ends: `null` when unbounded (explosions). When a
    /// simulation cannot work them out, there are none: `"sample_min"` and `"sample_max"` give
    /// its sample's, so that no reader takes them for the ends.
    ///
    /// - Complexity: O(*k*) for *k* outcomes.
    public func json(for report: DistributionReport, input: String) -> String {
        var json = JSONWriter()
        json.beginObject()
        json.string("input", input)
        json.beginObject("stats")
        writeReport(report, into: &json)
        json.endObject()
        json.endObject()
        return json.text
    }

    /// The members of a `stats` object: `"exact"`, `"mean"`, ..., `"distribution"`.
    func writeReport(_ report: DistributionReport, into json: inout JSONWriter) {
        json.bool("exact", report.exact)
        if let rolls = report.sampleCount { json.number("rolls", rolls) }
        if let standardError = report.standardError { json.number("stderr", standardError) }
        let distribution = report.distribution
        guard !distribution.hasSymbolic else { return writeValues(report, into: &json) }
        json.number("mean", distribution.mean)
        json.number("stdev", distribution.standardDeviation)
        for (key, end, sample) in [("min", report.minimum, distribution.minimum), ("max", report.maximum, distribution.maximum)] {
            switch end {
            case .value(let number): json.number(key, number)
            case .unbounded: json.null(key)
            case nil: if let sample { json.number("sample_" + key, sample) }
            }
        }
        if let percentiles = distribution.percentiles {
            json.number("median", percentiles.median)
            json.number("p10", percentiles.p10)
            json.number("p90", percentiles.p90)
        }
        writeOutcomes(report, into: &json)
    }

    /// The members of a `stats` object whose outcomes are not all numbers: `"mean"` and
    /// `"stdev"` null, each tally field's mean and stdev under `"fields"`, the outcomes as
    /// numbers, strings or objects in the order of `stats`.
    private func writeValues(_ report: DistributionReport, into json: inout JSONWriter) {
        let distribution = report.distribution
        json.null("mean")
        json.null("stdev")
        if let fields = distribution.fieldMoments {
            json.beginObject("fields")
            for field in fields {
                json.beginObject(field.name)
                json.number("mean", field.mean)
                json.number("stdev", field.stdev)
                json.endObject()
            }
            json.endObject()
        }
        writeOutcomes(report, into: &json)
    }

    /// `"truncated"` when a tail was cut, then `"distribution"` and `"at_most"`: each outcome
    /// (a number, string or object) with its probability, and with P(≤ it) in the same order.
    private func writeOutcomes(_ report: DistributionReport, into json: inout JSONWriter) {
        let distribution = report.distribution
        if report.truncatedMass > 0 { json.number("truncated", report.truncatedMass) }
        for (key, outcomes) in [("distribution", distribution.valueOutcomes), ("at_most", distribution.valueAtMost)] {
            json.beginArray(key)
            for outcome in outcomes {
                json.beginArray()
                json.value(nil, outcome.value)
                json.probability(nil, outcome.probability)
                json.endArray()
            }
            json.endArray()
        }
    }

    /// `{"input": ..., "error": {"message": ..., "line": L, "column": C}}`
    /// - Parameter message: the text to write in place of `error.message` (see `DiagnosticRenderer`).
    public func json(for error: DiceError, in source: SourceFile, input: String, message: String? = nil) -> String {
        json(forFailure: message ?? error.message, at: error.range.lowerBound, in: source, input: input)
    }

    /// The same object for a failure the command met at `location`, not the language's: a
    /// chart that could not be written (`--svg`).
    package func json(forFailure message: String, at location: SourceLocation, in source: SourceFile,
                      input: String) -> String {
        let (line, column) = source.lineAndColumn(of: location)
        var json = JSONWriter()
        json.beginObject()
        json.string("input", input)
        json.beginObject("error")
        json.string("message", message)
        json.number("line", line)
        json.number("column", column)
        json.endObject()
        json.endObject()
        return json.text
    }

    /// `"parameters":["bonus"]`, and for those that have a default, `"defaults":{"bonus":"0"}`:
    /// each default as the expression it is (evaluated at each call that leaves it out).
    private func writeParameters(of macro: Macro, into json: inout JSONWriter) {
        json.beginArray("parameters")
        for parameter in macro.parameters { json.string(nil, parameter) }
        json.endArray()
        guard !macro.defaults.isEmpty else { return }
        json.beginObject("defaults")
        for parameter in macro.parameters {
            if let value = macro.defaults[parameter] { json.string(parameter, value.text) }
        }
        json.endObject()
    }

    private func writeRoll(_ roll: Roll, into json: inout JSONWriter) {
        json.value("value", roll.value)
        // JSON's own escaping keeps the user's text exact.
        let plain = RollRenderer(style: .plain, maxShown: rolls.maxShown, escapesUserText: false)
        var text: [UInt8] = []
        guard plain.render(roll, into: &text, maxBytes: json.room) else { return json.cut() }
        json.string("text", String(decoding: text, as: UTF8.self))
        json.beginArray("rolls")
        for (pool, counts, macro) in roll.countedPools {
            if json.isCut { return }
            // One text or tally die under a macro's name is named by it, as in the text.
            let notation = macro.flatMap { pool.onlyFace == nil ? nil : plain.call(of: $0) } ?? pool.notation
            write(pool, notation: notation, counts: counts, into: &json)
        }
        json.endArray()
        // Members of a huge repeat past those listed: how many dice they rolled is not kept.
        let omittedMembers = roll.omittedMembers
        if omittedMembers > 0 { json.number("more_members", omittedMembers) }
        // Every annotation, whatever term it labels (`3 [bonus]` has no dice to carry it).
        let labels = roll.labels
        if !labels.isEmpty {
            json.beginArray("labels")
            for (label, labelled) in labels {
                guard let breakdown = plain.breakdown(labelled, maxBytes: json.room) else { return json.cut() }
                json.beginObject()
                json.string("label", label)
                json.string("text", breakdown)
                json.value("value", labelled.value)
                json.endObject()
            }
            json.endArray()
        }
    }

    /// A pool's object; `counts` false when it is in a group member that was dropped: then
    /// no die of it is kept, and each is marked dropped.
    private func write(_ pool: DicePool, notation: String, counts: Bool, into json: inout JSONWriter) {
        json.beginObject()
        json.string("notation", notation)
        json.value("value", pool.value)
        if let annotation = pool.annotation { json.string("annotation", annotation) }
        if pool.isCount { json.bool("count", true) }
        json.beginArray("dice")
        for die in pool.dice {
            json.beginObject()
            json.value("value", pool.faceValue(of: die))
            json.bool("kept", counts && die.isCounted)
            let names: [(Die.Flags, String)] = [
                (.dropped, "dropped"), (.rerolled, "rerolled"), (.exploded, "exploded"), (.extra, "extra"),
                (.compounded, "compounded"), (.penetrated, "penetrated"), (.clamped, "clamped"),
                (.success, "success"), (.failure, "failure"),
            ]
            for (flag, name) in names where die.flags.contains(flag) || (flag == .dropped && !counts && die.isCounted) {
                json.bool(name, true)
            }
            if pool.showsHighestFace(die) { json.bool("max", true) }
            if pool.showsLowestFace(die) { json.bool("min", true) }
            json.endObject()
        }
        json.endArray()
        if pool.omitted > 0 { json.number("more", pool.omitted) }
        json.endObject()
    }
}
