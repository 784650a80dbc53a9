import Foundation
import Testing
import UnpromptKit
import UnpromptTestSupport

@testable import unprompt_scan

/// The table views on terminals of every width: the width read from the terminal itself, no line ever wider
/// than it, and the bands' colors in `daily` and `weekly` (the calendar's palette; plain text with `NO_COLOR`).
struct TerminalWidthTests {
    typealias Record = ReportCommandTests.Record
    typealias Home = ReportCommandTests.Home

    static let now = ["UNPROMPT_NOW": "2026-02-08T12:00:00Z", "TZ": "UTC"]

    /// The calendar's February (`CalendarViewTests.february`: bands average, less, zero, more, much more, average
    /// and much more from the 2nd to the 8th, today), and one model with a long id.
    func home() throws -> Home {
        let home = try Home(
            records: CalendarViewTests.february + [
                Record.claude("L1", "2026-02-07T13:00:00.000Z", "vendor-experimental-reasoning-model-with-long-name-2026-preview", 1)
            ], codex: false)
        let scan = try home.run(["--tz", "UTC"], environment: Self.now)
        #expect(scan.status == 0, "\(scan.stderr)")
        return home
    }

    static let views: [[String]] = [
        ["daily"], ["weekly"], ["monthly"], ["today"], ["limits"], ["prices"], ["daily", "--tool", "claude-code"],
        ["weekly", "--start-of-week", "sun", "--last", "1"],
    ]

    @Test func noLineIsEverWiderThanTheTerminal() throws {
        let home = try home()
        for width in [24, 45, 63, 80, 100, 120, 151] {
            for view in Self.views {
                let output = try home.run(
                    view + (view == ["prices"] ? [] : ["--no-scan"]), environment: Self.now.merging(["COLUMNS": String(width)]) { $1 })
                #expect(output.status == 0, "\(view) at \(width): \(output.stderr)")
                let wide = output.stdout.split(separator: "\n").filter { $0.count > width }
                #expect(wide.isEmpty, "\(view) at \(width) columns: \(wide)")
            }
        }
        // The calendar's grid takes 62 columns; its title, legend and totals are broken to fit.
        for width in [63, 80, 100, 120] {
            let output = try home.run(["calendar", "--no-scan"], environment: Self.now.merging(["COLUMNS": String(width)]) { $1 })
            let wide = output.stdout.split(separator: "\n").filter { $0.count > width }
            #expect(output.status == 0 && wide.isEmpty, "calendar at \(width) columns: \(wide)")
        }
        // The long id is shortened in the middle where it does not fit, and whole where it does.
        let narrow = try home.run(["daily", "--no-scan"], environment: Self.now.merging(["COLUMNS": "63"]) { $1 })
        #expect(narrow.stdout.contains("    vendor-exper…026-preview     15 "), "\(narrow.stdout)")
        let full = try home.run(["daily", "--no-scan"], environment: Self.now)
        #expect(full.stdout.contains("    vendor-experimental-reasoning-model-with-long-name-2026-preview "))
    }

    @Test func theWidthIsTheTerminalsOwn() throws {
        let home = try home()
        let plain = ["NO_COLOR": "1"]
        for width in [80, 100, 120] {
            for view in [["daily"], ["weekly"], ["monthly"], ["today"], ["limits"], ["prices"], ["calendar"]] {
                let arguments = view + (view == ["prices"] ? [] : ["--no-scan"])
                let onTerminal = try home.onATerminal(arguments, environment: Self.now.merging(plain) { $1 }, columns: width)
                let piped = try home.run(arguments, environment: Self.now.merging(plain.merging(["COLUMNS": String(width)]) { $1 }) { $1 })
                // Only a terminal is told of a day waiting to be confirmed (`confirm`); the rest is the same.
                let shown = onTerminal.split(separator: "\n", omittingEmptySubsequences: false)
                    .filter { !$0.hasSuffix("is waiting to be confirmed: unprompt-scan confirm") }.joined(separator: "\n")
                #expect(shown == piped.stdout, "\(view) on a terminal \(width) columns wide")
            }
        }
        // The terminal's size wins over COLUMNS; without either, every column.
        let both = try home.onATerminal(
            ["daily", "--no-scan"], environment: Self.now.merging(["NO_COLOR": "1", "COLUMNS": "200"]) { $1 }, columns: 80)
        #expect(both.split(separator: "\n").allSatisfy { $0.count <= 80 } && !both.contains("cache read"))
        let neither = try home.run(["daily", "--no-scan"], environment: Self.now)
        #expect(neither.stdout.contains("cache write 1h") && neither.stdout.contains("bottle"))
    }

    @Test func onATerminalADaysTokensTakeItsBandsColorWithALegend() throws {
        let home = try home()
        let reset = CalendarGrid.reset
        let daily = try home.onATerminal(["daily", "--no-scan"], environment: Self.now)
        // Each day's total fills its cell in its band's shade; the total column is 9 wide (1,052,715 tokens).
        #expect(daily.contains(CalendarGrid.style(.average) + "      300" + reset), "\(daily)")
        #expect(daily.contains(CalendarGrid.style(.less) + "      150" + reset))
        #expect(daily.contains(CalendarGrid.style(.more) + "      300" + reset))
        #expect(daily.contains(CalendarGrid.style(.muchMore) + "    1,500" + reset))
        #expect(daily.contains("bands: each day's tokens against the mean of the 30 days before it\n"))
        #expect(daily.contains(CalendarGrid.style(.average) + " A " + reset + " average (2/3 to 3/2 of it)"))
        #expect(daily.contains(CalendarGrid.style(.average) + "      465" + reset), "the 7th: 450 and the long id's 15")
        // A tool's and a model's lines are not days: no color.
        #expect(daily.split(separator: "\n").filter { $0.hasPrefix("  claude") || $0.hasPrefix("    ") }.allSatisfy { !$0.contains("\u{1B}") })

        let weekly = try home.onATerminal(["weekly", "--no-scan"], environment: Self.now)
        // Bands of the 2nd to the 8th: average, less, zero, more, much more, average, much more.
        let shades = [
            (CalendarGrid.style(.average), "A "), (CalendarGrid.style(.less), "L "), (CalendarGrid.style(.zero), "Z "),
            (CalendarGrid.style(.more), "M "), (CalendarGrid.style(.muchMore), "M+"), (CalendarGrid.style(.average), "A "),
            (CalendarGrid.style(.muchMore), "M+"),
        ]
        let strip = shades.map { style, letter in
            style + letter.trimmingCharacters(in: .whitespaces) + reset + (letter.hasSuffix(" ") ? " " : "")
        }.joined().trimmingCharacters(in: .whitespaces)
        #expect(weekly.contains(strip), "\(weekly)")

        // The colors are the calendar's five shades of one hue and nothing else: no red, no green.
        let styles: Set<String> = [
            CalendarGrid.style(.zero), CalendarGrid.style(.less), CalendarGrid.style(.average), CalendarGrid.style(.more),
            CalendarGrid.style(.muchMore),
        ]
        for output in [daily, weekly] {
            var rest = Substring(output)
            while let start = rest.firstIndex(of: "\u{1B}") {
                let sequence = rest[start...].prefix { $0 != "m" } + "m"
                #expect(styles.contains(String(sequence)) || String(sequence) == reset, "\(sequence.debugDescription)")
                rest = rest[rest.index(start, offsetBy: sequence.count)...]
            }
        }

        // NO_COLOR: plain text. The daily total has no band then, and no legend; the week's strip its letters.
        let plainDaily = try home.onATerminal(["daily", "--no-scan"], environment: Self.now.merging(["NO_COLOR": "1"]) { $1 }, columns: 120)
        #expect(!plainDaily.contains("\u{1B}") && !plainDaily.contains("bands:"))
        let plainWeekly = try home.onATerminal(["weekly", "--no-scan"], environment: Self.now.merging(["NO_COLOR": "1"]) { $1 }, columns: 120)
        #expect(!plainWeekly.contains("\u{1B}") && plainWeekly.contains("  A L Z M M+A M+\n"), "\(plainWeekly)")
        #expect(plainWeekly.contains("  Z zero · L less (under 2/3 of the mean) · A average (2/3 to 3/2 of it)"))
        // Not a terminal: plain too.
        #expect(!(try home.run(["daily", "--no-scan"], environment: Self.now)).stdout.contains("\u{1B}"))
    }

    @Test func columnsChooseAndWideShowsEveryOne() throws {
        let home = try home()
        let narrow = Self.now.merging(["COLUMNS": "50"]) { $1 }
        let chosen = try home.run(["daily", "--no-scan", "--columns", "uses,total"], environment: narrow)
        let header = chosen.stdout.split(separator: "\n").first { $0.hasPrefix("date / tool / model") }
        #expect(header?.hasSuffix("  uses  total") == true, "\(chosen.stdout)")
        #expect(chosen.stdout.split(separator: "\n").allSatisfy { $0.count <= 50 })
        // Chosen columns are never dropped: a table wider than the terminal is cut at its edge.
        let many = try home.run(["daily", "--no-scan", "--columns", "input,output,cache-read,total,cost,water"], environment: narrow)
        #expect(many.stdout.contains("cache read") && many.stdout.split(separator: "\n").allSatisfy { $0.count <= 50 })
        #expect(many.stdout.contains("…\n"), "\(many.stdout)")
        // --wide: every column, whatever the width: the table's lines are those printed without a terminal.
        let wide = try home.run(["daily", "--no-scan", "--wide"], environment: narrow)
        let full = try home.run(["daily", "--no-scan"], environment: Self.now)
        let rows = full.stdout.split(separator: "\n").filter { $0.hasPrefix("date / tool") || $0.hasPrefix("2026-") || $0.hasPrefix("total ") }
        #expect(rows.count == 8 && rows.allSatisfy { wide.stdout.split(separator: "\n").contains($0) }, "\(wide.stdout)")
    }
}
