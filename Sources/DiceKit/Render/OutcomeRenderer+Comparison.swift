extension OutcomeRenderer {
    /// `{"input": ..., "compare": [{"expr": ..., "exact": true, "mean": ..., ..., "distribution":
    /// [...]}, ...]}` for `stats e1, e2, ...`: each member is a `stats` object (see
    /// `json(for:input:)`) led by its expression's source text.
    ///
    /// - Complexity: O(*k*) for *k* outcomes in all.
    package func json(comparing reports: [(expression: String, report: DistributionReport)], input: String) -> String {
        var json = JSONWriter()
        json.beginObject()
        json.string("input", input)
        json.beginArray("compare")
        for entry in reports {
            json.beginObject()
            json.string("expr", entry.expression)
            writeReport(entry.report, into: &json)
            json.endObject()
        }
        json.endArray()
        json.endObject()
        return json.text
    }
}

extension OutcomeRenderer {
    /// `{"input": ..., "name": NAME, "sweep": [{NAME: value, "exact": true, "mean": ..., ...,
    /// "distribution": [...], "at_most": [...]}, ...]}` for `stats E for NAME in A..B`: each
    /// row is a `stats` object (see `json(for:input:)`) led by the name's value.
    ///
    /// `nil` when it would pass `maxBytes` (the output cap), found out row by row: `stats 1d1000
    /// + x for x in 1..1000` was written whole, 50 MB, before the cap refused it.
    ///
    /// - Complexity: O(*k*) for *k* outcomes in all.
    package func json(for sweep: SweepReport, input: String, maxBytes: Int = .max) -> String? {
        var json = JSONWriter()
        json.limit = maxBytes
        json.beginObject()
        json.string("input", input)
        json.string("name", sweep.name)
        json.beginArray("sweep")
        for row in sweep.rows where !json.isCut {
            json.beginObject()
            json.number(sweep.name, row.value)
            writeReport(row.report, into: &json)
            json.endObject()
            if json.room == 0 { json.cut() }
        }
        json.endArray()
        json.endObject()
        // A string past the room is dropped and marks the text cut, as `json(for:input:notices:maxBytes:)` has it.
        return json.isCut ? nil : json.text
    }
}
