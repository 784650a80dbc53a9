import Foundation
import UnpromptKit

/// The tables of `limits` and of the limits in `today` (`LimitsReport`, `LimitCountdown`): one line per
/// window, with its used share, its reset and the time left; in `limits`, under each tool, with a derived
/// window's tokens, cost and start, each window's pace since it started (`LimitPace`: percentage points or
/// tokens an hour, and when it would be used up at that pace) and each reading's age. What a line cannot say
/// in a cell (a stale reading, a passed reset, where a derived window's end comes from) is said in a note
/// under the table.
enum LimitsTable {
    static let used = Table.Column("used", "used", .essential(3))
    static let tokens = Table.Column("tokens", "so far", .optional(5))
    static let cost = Table.Column("cost", "cost", .optional(5))
    static let from = Table.Column("from", "from", .optional(6))
    static let resets = Table.Column("resets", "resets", .essential(1))
    static let left = Table.Column("in", "in", .essential(2))
    static let logged = Table.Column("logged", "logged", .optional(4))
    static let pace = Table.Column("pace", "pace", .optional(3))
    static let usedUp = Table.Column("used-up", "used up at this pace", .optional(4))

    static let columns: [Table.Column] = [.label("tool / window"), used, tokens, cost, from, resets, left, pace, usedUp, logged]
    static var ids: [String] { UsageTable.ids(columns) }

    /// `5-hour window` for a derived window; `primary, 5-hour`, or `limit reached`, for a reading.
    static func name(_ window: LimitCountdown.Window) -> String {
        switch window {
        case .derived(let window): derivedName(window.minutes)
        case .reading(let reading): readingName(reading)
        }
    }

    static func derivedName(_ minutes: Int64) -> String { LocalFormat.window(minutes: minutes) + " window" }

    static func readingName(_ reading: LimitsReport.Reading) -> String {
        if reading.limitReached { return "limit reached" }
        let sample = reading.status.sample
        return LocalFormat.windowLabel(sample.window, minutes: sample.windowMinutes)
    }

    static func percent(_ reading: LimitsReport.Reading) -> String {
        reading.status.sample.usedPercent.map { String(format: "%.1f%%", $0) } ?? ""
    }

    /// A reset: `HH:MM` today, else `YYYY-MM-DD HH:MM` (compact: `MM-DD HH:MM`).
    static func moment(_ milliseconds: Int64, _ queries: UsageQueries) -> Table.Cell {
        let text = LocalFormat.moment(milliseconds, queries.calendar, today: queries.currentDay)
        return Table.Cell(text, compact: text.count > 5 ? String(text.dropFirst(5)) : nil)
    }

    /// `today`'s: a line per countdown at `now`, the time left to the second with `seconds`.
    static func countdowns(_ countdowns: [LimitCountdown], at now: Int64, _ queries: UsageQueries, seconds: Bool) -> Table {
        var table = Table([.label("tool / window"), used, resets, left])
        for countdown in countdowns {
            var percent = ""
            if case .reading(let reading) = countdown.window { percent = self.percent(reading) }
            let left = countdown.resetsIn(at: now)
            table.add([
                Table.Cell(countdown.tool + " " + name(countdown.window)), Table.Cell(percent), moment(countdown.resetsAt, queries),
                Table.Cell(seconds ? LocalFormat.countdown(left) : LocalFormat.duration(left)),
            ])
        }
        return table
    }

    /// The `limits` view's table and its notes.
    static func table(_ report: LimitsReport, _ queries: UsageQueries) -> (table: Table, notes: [String]) {
        var table = Table(columns)
        var notes: [String] = []
        for tool in report.tools {
            table.heading(tool)
            if let entry = report.windows.first(where: { $0.tool == tool }) {
                let window = entry.window
                table.add([
                    Table.Cell("  " + derivedName(entry.minutes)), "",
                    Table.Cell(CountsFormat.grouped(Int(window.tokens)), compact: LocalFormat.compact(window.tokens)),
                    Table.Cell(ReadingsFormat.text(entry.cost)), Table.Cell(LocalFormat.moment(window.start, queries.calendar, today: queries.currentDay)),
                    moment(window.end, queries), Table.Cell(LocalFormat.duration(entry.endsIn)),
                    Table.Cell(entry.tokensPerHour.map { CountsFormat.grouped(Int($0.rounded(.down))) + "/h" } ?? ""),
                ])
                notes.append(
                    "\(tool) \(derivedName(entry.minutes)): derived from use"
                        + (window.endFromLimit ? "; it ends at the reset a limit-reached record logged" : ""))
            } else if let minutes = report.derived[tool] {
                table.add([Table.Cell("  " + derivedName(minutes))])
                notes.append("\(tool) \(derivedName(minutes)): none in progress; the next starts with the next request")
            }
            for reading in report.readings where reading.status.sample.tool == tool {
                let status = reading.status
                let sample = status.sample
                var reset = Table.Cell("")
                var left = ""
                if status.stale {
                    left = "stale"
                    notes.append("\(tool) \(readingName(reading)): stale, logged longer ago than its window lasts")
                } else if let resetsAt = sample.resetsAt {
                    reset = moment(resetsAt, queries)
                    if let since = reading.sinceReset {
                        left = "passed"
                        notes.append("\(tool) \(readingName(reading)): reset \(LocalFormat.duration(since)) ago; no reading since")
                    } else if let resetsIn = status.resetsIn {
                        left = LocalFormat.duration(resetsIn)
                    }
                }
                table.add([
                    Table.Cell("  " + readingName(reading)), Table.Cell(percent(reading)), "", "", "", reset, Table.Cell(left),
                    Table.Cell(reading.pace.map { PaceFormat.percent($0.percentPerHour) + "/h" } ?? ""), usedUpCell(reading.pace, queries),
                    Table.Cell(LocalFormat.duration(status.age) + " ago"),
                ])
            }
        }
        if report.windows.contains(where: { $0.tokensPerHour != nil }) || report.readings.contains(where: { $0.pace != nil }) {
            notes.append("pace: since the window started, an hour; used up: when that pace would use the window up, before or after its reset")
        }
        return (table, notes)
    }

    /// When a window would be used up at its pace: `04:20, after the reset` (compact: `04:20 after`), or `never`.
    static func usedUpCell(_ pace: LimitPace?, _ queries: UsageQueries) -> Table.Cell {
        guard let pace else { return "" }
        guard let usedUp = pace.usedUpAt else { return "never" }
        let at = LocalFormat.moment(usedUp, queries.calendar, today: queries.currentDay)
        let side = pace.usedUpBeforeReset ? "before" : "after"
        return Table.Cell("\(at), \(side) the reset", compact: "\(at) \(side)")
    }
}
