import Foundation
import UnpromptKit

/// Today (`TodayReport`) as `unprompt-scan today` and a plain `unprompt-scan` print it.
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

    static func text(_ result: TodayReport, _ queries: UsageQueries) -> String {
        let heading = "today, \(CivilDate.dateString(ofDay: result.day)) (\(queries.zone.name)):"
        let reading = result.reading
        let events = result.usage.total.events
        guard result.estimate.tokens > 0 || events > 0 else { return heading + " no usage recorded" }
        let measured = "\(CountsFormat.grouped(Int(reading.tokens))) tokens in \(CountsFormat.grouped(Int(events))) event\(events == 1 ? "" : "s")"
        var first = heading + " "
        if let measuredAt = result.measuredAt {
            if result.estimate.tokens == reading.tokens {
                first += measured + (result.estimate.live ? ", live" : ", measured at " + LocalFormat.time(measuredAt, queries.calendar))
            } else {
                let pace = CountsFormat.grouped(Int(result.tokensPerMinute)) + " a minute"
                first += "≈ \(CountsFormat.grouped(Int(result.estimate.tokens))) tokens, "
                first += result.estimate.live
                    ? "live: \(measured) measured at \(LocalFormat.time(measuredAt, queries.calendar, seconds: true)), then \(pace)"
                    : "measured at \(LocalFormat.time(measuredAt, queries.calendar)): \(measured), then \(pace) for at most 3 minutes"
            }
        } else {
            first += measured
        }
        let total = result.readings.total
        let cost = ReadingsFormat.text(total.cost)
        let water = ReadingsFormat.text(total.water)
        if !cost.isEmpty || !water.isEmpty {
            first += " · " + [cost, water.isEmpty ? "" : "water " + water].filter { !$0.isEmpty }.joined(separator: " · ")
        }
        var lines = [first]
        let work = !queries.workHours.isEmpty
        lines.append(
            "  uses: \(reading.uses)" + (work ? " (work \(reading.workUses), personal \(reading.personalUses))" : ""))
        if work {
            lines.append(
                "  tokens: work \(CountsFormat.grouped(Int(reading.workTokens))), personal \(CountsFormat.grouped(Int(reading.personalTokens)))"
                    + " (work hours \(queries.workHours))")
        }
        if !result.usage.isEmpty {
            var table = TextTable(header: UsageView.header("tool / model") + ["cost", "water"])
            UsageView.addBreakdown(result.usage, to: &table, indent: "", readings: result.readings)
            lines += table.render().map { "  " + $0 }
            lines.append("  " + queries.readings.caption)
            lines += ReadingsFormat.notes(total.cost, mode: queries.readings.mode, unpricedTokens: total.unpricedTokens)
                .map { "  " + $0 }
        }
        return lines.joined(separator: "\n")
    }
}
