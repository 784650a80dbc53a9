/// An export's `confirmations` (version 2 on): every day's latest answer or undo, in day order, each an object of
/// numbers only (docs/sync.schema.json):
/// - an answer: `day`, `at` (its `confirmedAt`), `origin`, `quarters` ([first, end) of the day's quarter-hours
///   where it was confirmed), `kinds` (bits: 1 no-work, 2 worked, 4 hours-changed, 8 elsewhere), `worked`
///   ([start, end] in minutes, with `worked` only, else null), `hours` (rows of [weekdays, start, end]) and
///   `numbers` ([uses, work uses, tokens, work tokens]);
/// - an undo: `day`, `at`, `origin` and `undone: true`.
extension SyncExport {
    static let answerKeys: Set<String> = ["day", "at", "origin", "quarters", "kinds", "worked", "hours", "numbers"]
    static let undoKeys: Set<String> = ["day", "at", "origin", "undone"]

    static func write(confirmations entries: [ConfirmationEntry], into json: inout JSONBytes) {
        json.byte("[")
        for (index, entry) in entries.sorted(by: { $0.day < $1.day }).enumerated() {
            if index > 0 { json.byte(",") }
            json.raw("{\"day\":")
            json.integer(entry.day)
            json.raw(",\"at\":")
            json.integer(entry.at)
            json.raw(",\"origin\":")
            json.integer(entry.origin)
            guard let answer = entry.answer else {
                json.raw(",\"undone\":true}")
                continue
            }
            json.raw(",\"quarters\":")
            json.integers([answer.quarters.lowerBound, answer.quarters.upperBound])
            json.raw(",\"kinds\":")
            json.integer(answer.context.bits)
            json.raw(",\"worked\":")
            if let worked = answer.context.worked {
                json.integers([Int64(worked.start), Int64(worked.end)])
            } else {
                json.raw("null")
            }
            json.raw(",\"hours\":[")
            for (position, row) in answer.hours.rows.enumerated() {
                if position > 0 { json.byte(",") }
                json.integers([row.weekdays, Int64(row.range.start), Int64(row.range.end)])
            }
            json.raw("],\"numbers\":")
            let numbers = answer.numbers
            json.integers([Int64(numbers.uses), Int64(numbers.workUses), numbers.tokens, numbers.workTokens])
            json.byte("}")
        }
        json.byte("]")
    }
}

/// Reads the `confirmations` of an export strictly: anything out of its range or order refuses the file.
struct SyncConfirmationReader {
    let parser: JSONParser
    let problem: (String) -> SyncExportProblem

    func read(_ ref: JSONRef) throws(SyncExportProblem) -> [ConfirmationEntry] {
        guard case .array = parser.value(of: ref) else { throw problem("its confirmations are not a list") }
        var entries: [ConfirmationEntry] = []
        for (index, element) in parser.elements(of: ref).enumerated() {
            let what = "confirmation \(index + 1)"
            guard case .object = parser.value(of: element) else { throw problem("\(what) is not an object") }
            var fields: [String: JSONRef] = [:]
            for (key, value) in parser.entries(of: element) {
                guard fields[key] == nil else { throw problem("\(what) names \(key) twice") }
                fields[key] = value
            }
            let keys = Set(fields.keys)
            guard keys == SyncExport.answerKeys || keys == SyncExport.undoKeys else {
                throw problem("\(what) holds neither exactly an answer's fields nor an undo's")
            }
            guard let day = integer(fields["day"]!), abs(day) < 10_000_000, let at = integer(fields["at"]!),
                let origin = integer(fields["origin"]!), (0..<(1 << 60)).contains(origin)
            else { throw problem("\(what)'s day, at or origin is out of its range") }
            guard entries.last.map({ $0.day < day }) ?? true else { throw problem("the confirmations are not in day order, each day once") }
            if keys == SyncExport.undoKeys {
                guard case .bool(true) = parser.value(of: fields["undone"]!) else { throw problem("\(what)'s undone is not true") }
                entries.append(ConfirmationEntry(undoneDay: day, at: at, origin: origin))
                continue
            }
            let answer = try self.answer(fields, day: day, at: at, what: what)
            entries.append(ConfirmationEntry(answer: answer, origin: origin))
        }
        return entries
    }

    private func answer(_ fields: [String: JSONRef], day: Int64, at: Int64, what: String) throws(SyncExportProblem) -> Confirmation {
        let perDay = LocalCalendar.quartersPerDay
        guard let quarters = integers(fields["quarters"]!, count: 2), quarters[0] < quarters[1],
            quarters[1] - quarters[0] <= perDay + 8, abs(quarters[0] - day * perDay) <= perDay
        else { throw problem("\(what)'s quarters are not the quarter-hours of its day") }
        guard let bits = integer(fields["kinds"]!), (0...15).contains(bits) else { throw problem("\(what)'s kinds are not bits 1 to 8") }
        var hoursRows: [WorkHours.Row] = []
        guard case .array = parser.value(of: fields["hours"]!) else { throw problem("\(what)'s hours are not a list") }
        for element in parser.elements(of: fields["hours"]!) {
            guard let row = integers(element, count: 3), (1...127).contains(row[0]), let range = range(row[1], row[2]) else {
                throw problem("\(what)'s hours are not rows of weekdays (bits 1 to 64), start and end on quarter-hours")
            }
            hoursRows.append(WorkHours.Row(weekdays: row[0], range: range))
        }
        let hours = WorkHours(rows: hoursRows)
        var context = Confirmation.Context()
        let worked: WorkHours.Range?
        switch parser.value(of: fields["worked"]!) {
        case .null: worked = nil
        default:
            guard let pair = integers(fields["worked"]!, count: 2), let range = range(pair[0], pair[1]) else {
                throw problem("\(what)'s worked range is not a start and an end on quarter-hours")
            }
            worked = range
        }
        guard (worked != nil) == (bits & Confirmation.Kind.worked.bit != 0) else {
            throw problem("\(what) has a worked range without the worked kind, or the kind without a range")
        }
        for kind in Confirmation.Kind.kinds(ofBits: bits) {
            switch kind {
            case .worked: context.add(worked: worked!)
            case .hoursChanged: context.add(hoursChanged: hours)
            default: context.add(kind)
            }
        }
        guard let numbers = integers(fields["numbers"]!, count: 4), numbers.allSatisfy({ $0 >= 0 }), numbers[1] <= numbers[0],
            numbers[3] <= numbers[2], numbers[0] <= Int64(Int32.max)
        else { throw problem("\(what)'s numbers are not uses, work uses, tokens and work tokens") }
        return Confirmation(
            day: day, quarters: quarters[0]..<quarters[1], confirmedAt: at, context: context, hours: hours,
            numbers: Confirmation.Numbers(uses: Int(numbers[0]), workUses: Int(numbers[1]), tokens: numbers[2], workTokens: numbers[3]))
    }

    /// A work range as the store keeps it: a start of 0…1425 and an end of 15…1440 on quarter-hours, not equal.
    private func range(_ start: Int64, _ end: Int64) -> WorkHours.Range? {
        guard (0..<1440).contains(start), (1...1440).contains(end), start % 15 == 0, end % 15 == 0, start != end else { return nil }
        return WorkHours.Range(start: Int(start), end: Int(end))
    }

    private func integer(_ ref: JSONRef) -> Int64? {
        if case .int(let value) = parser.value(of: ref) { return value }
        return nil
    }

    private func integers(_ ref: JSONRef, count: Int) -> [Int64]? {
        guard case .array = parser.value(of: ref) else { return nil }
        let values = parser.elements(of: ref).compactMap(integer)
        return values.count == count && parser.elements(of: ref).count == count ? values : nil
    }
}
