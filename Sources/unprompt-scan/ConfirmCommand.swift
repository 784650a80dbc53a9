import Foundation
import UnpromptKit

/// `unprompt-scan confirm [DATE] [--yes] [--context KIND]... [--undo] [--json] …`: the day's proposal — uses
/// personal and at work, tokens and cost — confirmed with one answer, or with context instead of a number.
///
/// DATE is `today`, `yesterday` or `YYYY-MM-DD`; without it, the day `UsageQueries.pendingDay` names. On a
/// terminal one key answers (`y`, `c`, `n`); otherwise `--yes` or `--context` is the answer, and without one the
/// command refuses (exit status 2). `--undo DATE` removes a day's answer. Every number comes from the query
/// layer (`DayProposal`, `Confirmation`, `Streak`).
enum ConfirmCommand {
    enum Answer {
        case yes
        case context(Confirmation.Context)
        case undo
        /// On a terminal: asked with one key.
        case ask
    }

    static func run(_ arguments: Arguments, _ operands: [String], catalog: ReaderCatalog, environment: [String: String])
        throws(UsageError) -> ExitCode
    {
        if operands.count > 1 { throw UsageError("confirm takes one DATE, not '\(operands.joined(separator: " "))'") }
        let date = try operands.first.map { text throws(UsageError) in
            guard let date = LocalDateExpression.parse(text) else {
                throw UsageError("confirm: expected \(LocalDateExpression.written), got '\(text)'")
            }
            return date
        }
        let answer = try answer(arguments, date: date)
        let json = arguments.has(Option.json.name)
        if json, case .ask = answer {
            throw UsageError("confirm --json prints an answer's result: give --yes, --context KIND or --undo DATE")
        }
        if case .ask = answer, !OneKey.available {
            throw UsageError("confirm needs an answer when it is not on a terminal: --yes, or --context KIND (\(Confirmation.Kind.written))")
        }
        let opened: ViewOpener.Opened
        switch try ViewOpener.open(arguments, catalog: catalog, environment: environment, writable: true) {
        case .success(let success): opened = success
        case .failure(let failure): return failure.status
        }
        let view = opened.view
        let status = ExitCode.worst(ScanWarning.status(view.scan), opened.syncStatus)
        let queries = view.queries
        let today = queries.currentDay
        let day: Int64
        if let date {
            day = date.day(today: today)
            if day > today {
                throw UsageError("confirm: \(CivilDate.dateString(ofDay: day)) is after today (\(CivilDate.dateString(ofDay: today)) in \(queries.zone.name))")
            }
        } else {
            do {
                guard let pending = try queries.pendingDay() else {
                    print(json ? JSON.object([("date", .null), ("streak", .int(queries.streak().days))]).text : nothingWaiting(queries))
                    return status
                }
                day = pending
            } catch {
                return StoreFailure.report(error)
            }
        }
        let outcome: ExitCode
        do {
            outcome = try respond(answer, day: day, queries: queries, json: json)
        } catch {
            return StoreFailure.report(error)
        }
        return outcome == .success ? status : outcome
    }

    /// The answer the options give (checked against each other), or `.ask`.
    static func answer(_ arguments: Arguments, date: LocalDateExpression?) throws(UsageError) -> Answer {
        let yes = arguments.has(Option.yes.name)
        let contexts = arguments.all(Option.context.name)
        if arguments.has(Option.undo.name) {
            if yes || !contexts.isEmpty { throw UsageError("--undo removes a day's answer; it takes no --yes or --context") }
            if date == nil { throw UsageError("confirm --undo needs the DATE whose answer it removes") }
            return .undo
        }
        if yes, !contexts.isEmpty {
            throw UsageError("--yes confirms the proposal as it is, --context confirms it with context: give one of them")
        }
        if yes { return .yes }
        guard !contexts.isEmpty else { return .ask }
        switch Confirmation.Context.parse(contexts) {
        case .success(let context): return .context(context)
        case .failure(let problem): throw UsageError("--context '\(problem.answer)': \(problem.message)")
        }
    }

    static func respond(_ answer: Answer, day: Int64, queries: UsageQueries, json: Bool) throws(StoreError) -> ExitCode {
        let proposal = try queries.proposal(for: day)
        switch answer {
        case .undo:
            let (after, removed) = try queries.undo(day: day)
            if json {
                print(try result(proposal, after).text)
            } else {
                let name = ConfirmationFormat.dayName(day, today: queries.currentDay)
                print(removed ? "\(name): its answer is removed" : "\(name) was not confirmed: nothing to remove")
                print(ConfirmationFormat.streak(after.streak()) ?? "no days confirmed in a row")
            }
            return .success
        case .yes:
            return try keep(.none, proposal, queries, json: json)
        case .context(let context):
            return try keep(context, proposal, queries, json: json)
        case .ask:
            return try ask(proposal, queries)
        }
    }

    /// Keeps the answer, then prints the day as the views now show it, and the streak.
    static func keep(_ context: Confirmation.Context, _ proposal: DayProposal, _ queries: UsageQueries, json: Bool)
        throws(StoreError) -> ExitCode
    {
        let after: UsageQueries
        do {
            after = try queries.confirm(day: proposal.day, context: context)
        } catch {
            switch error {
            case .store(let error): throw error
            case .afterToday: preconditionFailure("a day after today is refused before it is proposed")
            }
        }
        if json {
            print(try result(proposal, after).text)
            return .success
        }
        let reading = try after.days(from: proposal.day, through: proposal.day)[0]
        let name = ConfirmationFormat.dayName(proposal.day, today: queries.currentDay)
        let with = context.isEmpty ? "" : " with " + ConfirmationFormat.context(context)
        print("confirmed \(name)\(with): " + ConfirmationFormat.numbers(reading, proposal.readings, isToday: proposal.isToday))
        if reading.confirmation?.incomplete == true { print("marked incomplete: AI also used somewhere nothing here can see") }
        if let streak = ConfirmationFormat.streak(after.streak()) { print(streak) }
        return .success
    }

    /// One key: `y` confirms, `c` gives context, `n` (or Escape, Ctrl-C, Ctrl-D) is "not now".
    static func ask(_ proposal: DayProposal, _ queries: UsageQueries) throws(StoreError) -> ExitCode {
        if let current = proposal.current {
            let with = current.context.isEmpty ? "" : " with " + ConfirmationFormat.context(current.context)
            print("(confirmed before\(with); an answer now replaces it)")
        }
        print(ConfirmationFormat.question(proposal, today: queries.currentDay))
        while true {
            guard let key = OneKey.key("[y] yes   [c] context   [n] not now ") else { return notNow() }
            switch key {
            case UInt8(ascii: "y"), UInt8(ascii: "Y"):
                print("y")
                return try keep(.none, proposal, queries, json: false)
            case UInt8(ascii: "c"), UInt8(ascii: "C"):
                print("c")
                guard let context = askContext(proposal, queries) else { return notNow() }
                return try keep(context, proposal, queries, json: false)
            case UInt8(ascii: "n"), UInt8(ascii: "N"), UInt8(ascii: "q"):
                print("n")
                return notNow()
            case _ where OneKey.leaveKeys.contains(key):
                print("")
                return notNow()
            default:
                print("")
            }
        }
    }

    static func notNow() -> ExitCode {
        print("not now: nothing kept")
        return .success
    }

    /// The kinds of context, one key each; Enter keeps them, Escape leaves. Nil when the person leaves.
    static func askContext(_ proposal: DayProposal, _ queries: UsageQueries) -> Confirmation.Context? {
        let thatDay = proposal.isToday ? "today" : "that day"
        print("context, one key each; Enter keeps it, Escape leaves without keeping anything:")
        print("  [n] no-work        I didn't work \(thatDay): its work counts as personal")
        print("  [w] worked         I worked at these hours \(thatDay): HH:MM-HH:MM counts as work")
        print("  [h] hours-changed  my work hours changed from \(thatDay) on (now \(proposal.hours))")
        print("  [e] elsewhere      I also used AI somewhere this can't see: the day is incomplete")
        var context = Confirmation.Context()
        while true {
            guard let key = OneKey.key("context: " + (context.isEmpty ? "none yet" : ConfirmationFormat.context(context)) + " ")
            else { return nil }
            // A key is not echoed: end its prompt's line.
            print("")
            switch key {
            case UInt8(ascii: "n"), UInt8(ascii: "e"):
                let kind: Confirmation.Kind = key == UInt8(ascii: "n") ? .noWork : .elsewhere
                if context.kinds.contains(kind) { context.remove(kind) } else { context.add(kind) }
            case UInt8(ascii: "w"):
                guard let range = askLine("worked HH:MM-HH:MM (empty: none): ", parse: { text in
                    WorkHours.parseRange(text).map { Optional($0) }
                }) else { return nil }
                if let range { context.add(worked: range) } else { context.remove(.worked) }
            case UInt8(ascii: "h"):
                guard let hours = askLine("new work hours, such as Mon-Fri 10:00-19:00, or none (empty: unchanged): ", parse: { text in
                    WorkHours.parse(text).map { Optional($0) }
                }) else { return nil }
                if let hours { context.add(hoursChanged: hours) } else { context.remove(.hoursChanged) }
            case 10, 13:
                if !context.isEmpty { return context }
                print("no context chosen yet (Escape leaves)")
            case _ where OneKey.leaveKeys.contains(key):
                return nil
            default:
                break
            }
        }
    }

    /// A line read until it parses: `.some(nil)` for an empty line, nil when input ends.
    static func askLine<T>(_ prompt: String, parse: (String) -> Result<T?, WorkHoursProblem>) -> T?? {
        while true {
            guard let text = OneKey.line(prompt) else { return nil }
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { return .some(nil) }
            switch parse(trimmed) {
            case .success(let value): return .some(value)
            case .failure(let problem): print("  column \(problem.offset + 1) of '\(trimmed)': \(problem.message)")
            }
        }
    }

    /// Without a DATE and with nothing waiting.
    static func nothingWaiting(_ queries: UsageQueries) -> String {
        let today = queries.currentDay
        let minute = queries.proposalMinute(ofDay: today)
        let when = minute < 1440 ? String(format: "%02d:%02d", minute / 60, minute % 60) : "tomorrow"
        var lines = [
            queries.schedule.confirmations[today] != nil
                ? "nothing waiting: today and the days before it are confirmed"
                : "nothing waiting: the days before today are confirmed, and today's proposal comes at \(when) (`unprompt-scan confirm today` asks now)"
        ]
        if let streak = ConfirmationFormat.streak(queries.streak()) { lines.append(streak) }
        return lines.joined(separator: "\n")
    }

    /// `{"date", "timeZone", "confirmed", "context", "confirmedAt", "worked", "workHours", "incomplete",
    /// "tokens", "uses", "work": {"tokens", "uses"}, "personal": {…}, "since": {"uses", "tokens"}, "cost",
    /// "streak"}`: the day after the answer, as the views show it.
    static func result(_ proposal: DayProposal, _ after: UsageQueries) throws(StoreError) -> JSON {
        let reading = try after.days(from: proposal.day, through: proposal.day)[0]
        let confirmation = reading.confirmation
        return .object(
            [("date", .string(CivilDate.dateString(ofDay: proposal.day))), ("timeZone", .string(after.zone.name))]
                + ConfirmationFormat.json(confirmation) + [
                    ("confirmedAt", confirmation.map { .string(CountsFormat.instant($0.confirmedAt)) } ?? .null),
                    ("worked", confirmation?.context.worked.map { .string(WorkHours.range($0)) } ?? .null),
                    ("workHours", .string(after.schedule.hours(onDay: proposal.day).description)),
                    ("incomplete", .bool(confirmation?.incomplete ?? false)),
                    ("tokens", .integer(reading.tokens)),
                    ("uses", .int(reading.uses)),
                    ("work", .object([("tokens", .integer(reading.workTokens)), ("uses", .int(reading.workUses))])),
                    ("personal", .object([("tokens", .integer(reading.personalTokens)), ("uses", .int(reading.personalUses))])),
                    ("since", .object([("uses", .int(reading.usesSince)), ("tokens", .integer(reading.tokensSince))])),
                    ("cost", ReadingsFormat.json(proposal.readings.cost)),
                    ("streak", .int(after.streak().days)),
                ])
    }
}
