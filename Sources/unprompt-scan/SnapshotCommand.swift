import Foundation
import UnpromptKit

/// `unprompt-scan snapshot [--json] [--tz ZONE] [--no-scan] [--store PATH] [--config FILE]`: one versioned
/// document for widgets and the phone, always JSON, described by `docs/snapshot.schema.json`.
///
/// It holds numbers only: instants as milliseconds since 1970, local days as day numbers (days since
/// 1970-01-01 in the person's zone), and no string but enumerated ids — tool ids, model ids, limit window
/// names, band names and kinds of context. Everything in it comes from the store and the clock, as the other
/// views show it: `usage` is today's line, `uses` today's episodes, `limits` and `fiveHourWindows` the `limits`
/// view, `streak` and `proposal` what `today` and `confirm` say, and `days` the last 35 days of the calendar,
/// today included, each with its confirmation.
enum SnapshotCommand {
    static func run(_ arguments: Arguments, catalog: ReaderCatalog, environment: [String: String]) throws(UsageError) -> ExitCode {
        return try ViewOpener.show(arguments, catalog: catalog, environment: environment) { queries throws(StoreError) in
            json(try queries.snapshot()).text
        }
    }

    static func json(_ snapshot: Snapshot) -> JSON {
        let today = snapshot.today
        return .object([
            ("version", .int(Snapshot.version)),
            ("generatedAt", .integer(snapshot.generatedAt)),
            ("utcOffsetMinutes", .integer(snapshot.utcOffsetMinutes)),
            ("workHoursSet", .bool(snapshot.workHoursSet)),
            ("usage", usage(today)),
            ("uses", .object([
                ("today", .int(today.reading.uses)), ("work", .int(today.reading.workUses)),
                ("personal", .int(today.reading.personalUses)),
            ])),
            ("limits", .array(snapshot.limits.readings.map { limit($0) })),
            ("fiveHourWindows", .array(snapshot.limits.windows.map { entry in
                .object([
                    ("tool", .string(entry.tool)), ("start", .integer(entry.window.start)), ("end", .integer(entry.window.end)),
                    ("tokens", .integer(entry.window.tokens)), ("cost", cost(entry.cost)),
                    ("endFromLimit", .bool(entry.window.endFromLimit)),
                    ("tokensPerHour", PaceFormat.json(entry.tokensPerHour)),
                ])
            })),
            ("streak", .int(today.confirmations.streak.days)),
            ("proposal", today.confirmations.proposal.map { .integer($0) } ?? .null),
            ("days", .array(snapshot.days.map { entry in
                let day = entry.reading
                return .object([
                    ("day", .integer(day.day)), ("dayStart", .integer(entry.dayStart)), ("tokens", .integer(day.tokens)),
                    ("cost", cost(entry.readings.cost)), ("water", water(entry.readings.water)),
                    ("band", .string(day.band.rawValue)), ("uses", .int(day.uses)),
                    ("workTokens", .integer(day.workTokens)), ("workUses", .int(day.workUses)),
                ] + ConfirmationFormat.json(day.confirmation))
            })),
        ])
    }

    static func usage(_ today: TodayReport) -> JSON {
        let reading = today.reading
        let usage = today.usage
        let byTool: [JSON] = usage.byTool.keys.sorted().map { tool in
            .object([("tool", .string(tool)), ("tokens", .integer(usage.total(ofTool: tool).counts.total))])
        }
        let byModel: [JSON] = usage.byTool.keys.sorted().flatMap { tool in
            usage.byTool[tool]!.sorted { $0.key < $1.key }.map { model, cell -> JSON in
                .object([("tool", .string(tool)), ("model", .string(model)), ("tokens", .integer(cell.counts.total))])
            }
        }
        return .object([
            ("day", .integer(today.day)),
            ("dayStart", .integer(today.dayStart)),
            ("tokens", .integer(reading.tokens)),
            ("cost", cost(today.readings.total.cost)),
            ("water", water(today.readings.total.water)),
            ("measuredAt", today.measuredAt.map { .integer($0) } ?? .null),
            ("pace", .number(today.pace)),
            ("estimate", .integer(today.estimate.tokens)),
            ("live", .bool(today.estimate.live)),
            ("work", .object([("tokens", .integer(reading.workTokens))])),
            ("personal", .object([("tokens", .integer(reading.personalTokens))])),
            ("byTool", .array(byTool)),
            ("byModel", .array(byModel)),
        ])
    }

    static func limit(_ reading: LimitsReport.Reading) -> JSON {
        let status = reading.status
        let sample = status.sample
        return .object([
            ("tool", .string(sample.tool)), ("window", .string(sample.window)),
            ("usedPercent", sample.usedPercent.map { .number($0) } ?? .null),
            ("windowMinutes", status.windowMinutes.map { .integer($0) } ?? .null),
            ("resetsAt", sample.resetsAt.map { .integer($0) } ?? .null),
            ("measuredAt", .integer(sample.time)),
            ("stale", .bool(status.stale)),
            ("pace", PaceFormat.json(reading.pace, instant: { .integer($0) })),
        ])
    }

    /// `{"usd", "unpricedTokens", "approximateTokens", "assumed"}`: `usd` at API list prices (logged costs as the cost
    /// mode says), as `ReadingsFormat.usd` writes it.
    static func cost(_ reading: CostReading) -> JSON {
        .object([
            ("usd", ReadingsFormat.usd(reading)),
            ("unpricedTokens", .integer(reading.uncostedTokens)),
            ("approximateTokens", .integer(reading.approximateTokens)),
            ("assumed", ReadingsFormat.assumed(reading)),
        ])
    }

    /// `{"low", "central", "high"}` liters.
    static func water(_ reading: WaterReading) -> JSON { ReadingsFormat.json(reading.liters) }
}
