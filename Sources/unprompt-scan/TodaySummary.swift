import Foundation
import UnpromptKit

/// Today, as `unprompt-scan today` and a plain `unprompt-scan` show it: today being the local date of the
/// clock in the user's zone (`--tz`, else `TZ`, else the system zone).
///
/// - tokens by tool and model, with their cost at API list prices and their water, from the same
///   quarter-hour buckets as `daily` (today's line here equals today's line of `daily` in the same zone);
/// - uses (episodes started today) and, with work hours set, the work and personal part of uses and tokens;
/// - the live estimate (`LiveEstimate`): the count when the store was last measured, plus the recent pace
///   for at most three minutes; past them it is shown as "measured at HH:MM".
enum TodaySummary {
    struct Result {
        let day: Int64
        let zone: ZoneOption
        let calendar: LocalCalendar
        let usage: PeriodUsage
        /// Cost and water of `usage`, cell by cell.
        let readings: ReadingsBreakdown
        let readingsInUse: Readings
        let reading: DayReading
        let workHours: WorkHours
        /// When a scan last brought the store up to date; nil if none has recorded it.
        let measuredAt: Int64?
        /// Tokens per second around `measuredAt`.
        let pace: Double
        let estimate: LiveEstimate.Reading
    }

    static func read(_ context: ViewContext) throws(StoreError) -> Result {
        let day = context.today
        let calendar = context.calendar
        let reading = try context.days(from: day, through: day)[0]
        var usage = PeriodUsage(period: day)
        var readings = ReadingsBreakdown([], context.readings)
        var measuredAt: Int64?
        var pace = 0.0
        if let store = context.store {
            let bounds = LocalCalendar.quarterBounds(fromDay: day, throughDay: day)
            let rows = try store.buckets(fromQuarter: bounds.lowerBound, toQuarter: bounds.upperBound)
            usage = calendar.group(rows, by: .day, fromDay: day, throughDay: day).first ?? usage
            // The bounds reach into the days either side (any zone's day fits in them): price today's rows only.
            let today = calendar.partition(rows, by: .day, fromDay: day, throughDay: day)[day] ?? []
            readings = ReadingsBreakdown(today, context.readings)
            // A measurement after the clock's moment did not exist yet then.
            measuredAt = try store.measuredAt().flatMap { $0 <= context.now ? $0 : nil }
            if let measuredAt {
                let quarter = CivilDate.floorDivide(measuredAt, Bucket.quarterMilliseconds)
                pace = LiveEstimate.pace(of: try store.buckets(fromQuarter: quarter - 1, toQuarter: quarter + 1), measuredAt: measuredAt)
            }
        }
        let dayStart = calendar.firstQuarter(ofDay: day) * Bucket.quarterMilliseconds
        var estimate = LiveEstimate.Reading(tokens: reading.tokens, live: false)
        if let measuredAt {
            // Measured on an earlier day, the count is that day's: the estimate of today does not use it.
            let count = calendar.day(ofMilliseconds: measuredAt) == day ? reading.tokens : 0
            estimate = LiveEstimate(count: count, pace: pace, measuredAt: measuredAt).reading(now: context.now, dayStart: dayStart)
        }
        return Result(
            day: day, zone: context.zone, calendar: calendar, usage: usage, readings: readings,
            readingsInUse: context.readings, reading: reading, workHours: context.workHours,
            measuredAt: measuredAt, pace: pace, estimate: estimate)
    }

    /// One `daily` entry's shape (`date`, `totals`, `events`, `cost`, `water`, `byModel`, `costByModel`,
    /// `waterByModel`, `byTool`) with the zone and `readings` (the price table and water method), and then:
    /// `tokens` (today's total as measured), `uses`, `work` and `personal` (`tokens`, `uses`), `workHours`
    /// (their written form, or null), `band` and `baseline` (see `calendar`), `measuredAt` (or null),
    /// `pace` (tokens per second) and `estimate` (`tokens`, `live`).
    static func json(_ result: Result) -> JSON {
        guard case .object(let entries) = UsageView.json(result.usage, label: nil, readings: result.readings) else { return .null }
        let reading = result.reading
        return .object(
            [("date", .string(CivilDate.dateString(ofDay: result.day))), ("timeZone", .string(result.zone.name))] + entries + [
                ("tokens", .integer(reading.tokens)),
                ("uses", .int(reading.uses)),
                ("work", .object([("tokens", .integer(reading.workTokens)), ("uses", .int(reading.workUses))])),
                ("personal", .object([("tokens", .integer(reading.personalTokens)), ("uses", .int(reading.personalUses))])),
                ("workHours", result.workHours.isEmpty ? .null : .string(result.workHours.description)),
                ("band", .string(reading.band.rawValue)),
                ("baseline", reading.baseline.map { .number($0) } ?? .null),
                ("measuredAt", result.measuredAt.map { .string(CountsFormat.instant($0)) } ?? .null),
                ("pace", .number(result.pace)),
                ("estimate", .object([("tokens", .integer(result.estimate.tokens)), ("live", .bool(result.estimate.live))])),
                ("readings", result.readingsInUse.json),
            ])
    }

    static func text(_ result: Result) -> String {
        let heading = "today, \(CivilDate.dateString(ofDay: result.day)) (\(result.zone.name)):"
        let reading = result.reading
        let events = result.usage.total.events
        guard result.estimate.tokens > 0 || events > 0 else { return heading + " no usage recorded" }
        let measured = "\(CountsFormat.grouped(Int(reading.tokens))) tokens in \(CountsFormat.grouped(Int(events))) event\(events == 1 ? "" : "s")"
        var first = heading + " "
        if let measuredAt = result.measuredAt {
            if result.estimate.tokens == reading.tokens {
                first += measured + (result.estimate.live ? ", live" : ", measured at " + LocalFormat.time(measuredAt, result.calendar))
            } else {
                let pace = CountsFormat.grouped(Int((result.pace * 60).rounded(.down))) + " a minute"
                first += "≈ \(CountsFormat.grouped(Int(result.estimate.tokens))) tokens, "
                first += result.estimate.live
                    ? "live: \(measured) measured at \(LocalFormat.time(measuredAt, result.calendar, seconds: true)), then \(pace)"
                    : "measured at \(LocalFormat.time(measuredAt, result.calendar)): \(measured), then \(pace) for at most 3 minutes"
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
        let work = !result.workHours.isEmpty
        lines.append(
            "  uses: \(reading.uses)" + (work ? " (work \(reading.workUses), personal \(reading.personalUses))" : ""))
        if work {
            lines.append(
                "  tokens: work \(CountsFormat.grouped(Int(reading.workTokens))), personal \(CountsFormat.grouped(Int(reading.personalTokens)))"
                    + " (work hours \(result.workHours))")
        }
        if !result.usage.isEmpty {
            var table = TextTable(header: UsageView.header("tool / model") + ["cost", "water"])
            UsageView.addBreakdown(result.usage, to: &table, indent: "", readings: result.readings)
            lines += table.render().map { "  " + $0 }
            lines.append("  " + result.readingsInUse.caption)
            lines += ReadingsFormat.notes(total.cost, mode: result.readingsInUse.mode, unpricedTokens: total.unpricedTokens)
                .map { "  " + $0 }
        }
        return lines.joined(separator: "\n")
    }
}
