import Foundation
import UnpromptKit

/// Today (`TodayReport`) as `unprompt-scan today`, `today --live` and a plain `unprompt-scan` print it.
enum TodaySummary {
    /// One `daily` entry's shape (`date`, `totals`, `events`, `cost`, `water`, `byModel`, `costByModel`,
    /// `waterByModel`, `byTool`) with the zone and `readings` (the price table and water method), and then:
    /// `tokens` (today's total as measured), `uses`, `work` and `personal` (`tokens`, `uses`), `workHours`
    /// (their written form, or null), `band` and `baseline` (see `calendar`), `measuredAt` (or null),
    /// `pace` (tokens per second) and `estimate` (`tokens`, `live`); `confirmed` and `context` (today's
    /// answer), `streak` (confirmed days in a row) and `proposal` (the date `confirm` proposes, or null).
    static func json(_ result: TodayReport, _ queries: UsageQueries) -> JSON {
        guard case .object(let entries) = UsageView.json(result.usage, label: nil, readings: result.readings) else { return .null }
        let reading = result.reading
        return .object(
            [("date", .string(CivilDate.dateString(ofDay: result.day))), ("timeZone", .string(queries.zone.name))] + entries + [
                ("tokens", .integer(reading.tokens)),
                ("uses", .int(reading.uses)),
                ("work", .object([("tokens", .integer(reading.workTokens)), ("uses", .int(reading.workUses))])),
                ("personal", .object([("tokens", .integer(reading.personalTokens)), ("uses", .int(reading.personalUses))])),
                ("workHours", queries.workHours.isEmpty ? .null : .string(queries.workHours.description)),
                ("band", .string(reading.band.rawValue)),
                ("baseline", reading.baseline.map { .number($0) } ?? .null),
                ("measuredAt", result.measuredAt.map { .string(CountsFormat.instant($0)) } ?? .null),
                ("pace", .number(result.pace)),
                ("estimate", .object([("tokens", .integer(result.estimate.tokens)), ("live", .bool(result.estimate.live))])),
                ("readings", queries.readings.json),
            ] + ConfirmationFormat.json(reading.confirmation) + [
                ("streak", .int(result.confirmations.streak.days)),
                ("proposal", result.confirmations.proposal.map { .string(CivilDate.dateString(ofDay: $0)) } ?? .null),
            ])
    }

    /// The tool table's columns.
    static let columns = UsageTable.columns("tool / model")

    /// `today` and the plain scan: the limits close to a reset (`LimitsReport.closeToReset`).
    static func text(_ result: TodayReport, limits: LimitsReport, _ queries: UsageQueries, layout: TableLayout) -> String {
        lines(result, countdowns: limits.closeToReset(at: queries.now), at: queries.now, queries, layout: layout).joined(separator: "\n")
    }

    /// Today at `now` (the report's moment, or a later one of the same day for `today --live`):
    /// - first, today's uses (personal and work, with work hours) beside today's tokens (the live estimate),
    ///   then the cost at API rates and the water;
    /// - the day, and how the tokens were measured; the work and personal tokens;
    /// - `countdowns`, each with its reset and the time left (`seconds`: to the second);
    /// - the tools and their models, then what the readings are.
    static func lines(
        _ result: TodayReport, countdowns: [LimitCountdown], at now: Int64, _ queries: UsageQueries, layout: TableLayout,
        seconds: Bool = false
    ) -> [String] {
        let width = layout.width
        let reading = result.reading
        let events = result.usage.total.events
        let estimate = result.liveEstimate(at: now)
        let day = "\(WorkHours.dayNames[WorkHours.weekday(ofDay: result.day)]) \(CivilDate.dateString(ofDay: result.day)) (\(queries.zone.name))"
        var lines: [String] = []
        if estimate.tokens > 0 || events > 0 {
            let work = !queries.workHours.isEmpty
            var first = ["\(reading.uses) use\(reading.uses == 1 ? "" : "s") today" + (work ? " (personal \(reading.personalUses), work \(reading.workUses))" : "")]
            first.append((estimate.tokens == reading.tokens ? "" : "≈ ") + CountsFormat.grouped(Int(estimate.tokens)) + " tokens")
            let total = result.readings.total
            first += [ReadingsFormat.text(total.cost), ReadingsFormat.central(total.water).isEmpty ? "" : "water " + ReadingsFormat.central(total.water)]
                .filter { !$0.isEmpty }
            lines += Prose.parts(first, width: width)
            lines += Prose.parts([day, measurement(result, estimate, events: events, queries)], indent: "  ", width: width)
            if work {
                lines += Prose.wrap(
                    "  tokens: work \(CountsFormat.grouped(Int(reading.workTokens))), personal \(CountsFormat.grouped(Int(reading.personalTokens)))"
                        + " (work hours \(queries.workHours))", width: width)
            }
        } else {
            lines += Prose.wrap("no usage recorded today, \(day)", width: width)
        }
        if !countdowns.isEmpty {
            lines += Prose.wrap(
                seconds ? "limits:" : "limits close to a reset (within \(LimitsReport.closeToResetMilliseconds / 3_600_000) hours):",
                width: width)
            lines += LimitsTable.countdowns(countdowns, at: now, queries, seconds: seconds).render(layout.indented(by: 2)).map { "  " + $0 }
        }
        if !result.usage.isEmpty {
            var table = Table(columns)
            UsageTable.addBreakdown(result.usage, to: &table, indent: "", readings: result.readings)
            lines += table.render(layout.indented(by: 2)).map { "  " + $0 }
            let total = result.readings.total
            lines += Prose.wrap(
                (["  " + queries.readings.caption]
                    + ReadingsFormat.notes(total.cost, mode: queries.readings.mode, unpricedTokens: total.unpricedTokens).map { "  " + $0 }),
                width: width)
        }
        return lines
    }

    /// How today's tokens were measured: at a scan, live for three minutes after it, or estimated at its pace.
    static func measurement(_ result: TodayReport, _ estimate: LiveEstimate.Reading, events: Int64, _ queries: UsageQueries) -> String {
        let measured = "\(CountsFormat.grouped(Int(result.reading.tokens))) tokens in \(CountsFormat.grouped(Int(events))) event\(events == 1 ? "" : "s")"
        guard let measuredAt = result.measuredAt else { return measured }
        if estimate.tokens == result.reading.tokens {
            return measured + (estimate.live ? ", live" : ", measured at " + LocalFormat.time(measuredAt, queries.calendar))
        }
        let pace = CountsFormat.grouped(Int(result.tokensPerMinute)) + " a minute"
        return estimate.live
            ? "live: \(measured) measured at \(LocalFormat.time(measuredAt, queries.calendar, seconds: true)), then \(pace)"
            : "measured at \(LocalFormat.time(measuredAt, queries.calendar)): \(measured), then \(pace) for at most 3 minutes"
    }
}
