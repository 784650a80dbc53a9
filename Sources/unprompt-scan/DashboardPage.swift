import Foundation
import UnpromptKit

/// The page of `report` and `serve` (`DashboardReport`), as one self-contained HTML document: inline CSS and
/// SVG, no font, image, script or URL from anywhere, every number in the HTML itself (visible with scripts
/// off), each as `<data value="…" data-key="…">` beside its formatted text. Its only script ticks the
/// countdowns between two readings; the served page's also asks the server for the snapshot and reloads when
/// the store has changed. Nothing on it is a goal, a verdict or a warning.
struct DashboardPage {
    let report: DashboardReport
    let queries: UsageQueries
    /// Served by `serve`: the page polls `snapshot.json` (same origin) and reloads when the numbers change.
    let live: Bool

    var snapshot: Snapshot { report.snapshot }
    var calendar: LocalCalendar { queries.calendar }
    var today: Int64 { queries.currentDay }

    func at(_ milliseconds: Int64) -> String { LocalFormat.moment(milliseconds, calendar, today: today) }

    /// The document, and the policy that allows exactly its inline style and script (for a server's header).
    func render() -> (html: String, contentSecurityPolicy: String) {
        let script = DashboardScript.countdowns + (live ? DashboardScript.poll : "")
        let policy = [
            "default-src 'none'", "style-src \(HTML.hashSource(DashboardStyle.css))", "script-src \(HTML.hashSource(script))",
            live ? "connect-src 'self'" : nil, "img-src 'none'", "base-uri 'none'", "form-action 'none'",
        ].compactMap { $0 }.joined(separator: "; ")
        let day = CivilDate.civil(ofDay: today)
        let title = "Unprompt · \(day.day) \(CalendarGrid.monthNames[Int(day.month - 1)]) \(day.year)"
        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark">
            <meta http-equiv="Content-Security-Policy" content="\(HTML.escaped(policy))">
            <meta name="referrer" content="no-referrer">
            <title>\(HTML.escaped(title))</title>
            <style>\(DashboardStyle.css)</style>
            </head>
            <body data-generated="\(snapshot.generatedAt)">

            """
        html += header() + "<main>\n" + todaySection() + monthSection() + bottleSection() + limitsSection() + recentSection()
            + modelsSection() + methodSection() + "</main>\n" + footer()
        html += "<script>\(script)</script>\n</body>\n</html>\n"
        return (html, policy)
    }

    // MARK: Sections

    func header() -> String {
        let day = CivilDate.civil(ofDay: today)
        let weekday = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"][WorkHours.weekday(ofDay: today)]
        var line = "\(weekday) \(day.day) \(CalendarGrid.monthNames[Int(day.month - 1)]) \(day.year) · \(HTML.escaped(queries.zone.name))"
        if let measured = snapshot.today.measuredAt {
            line += " · measured at " + HTML.escaped(at(measured))
        } else {
            line += " · not measured yet: run <code>unprompt-scan</code>"
        }
        line += " · this page made at " + HTML.escaped(LocalFormat.time(snapshot.generatedAt, calendar))
        return "<header>\n<h1>Unprompt</h1>\n<p class=\"sub\">\(line)</p>\n</header>\n"
    }

    func todaySection() -> String {
        let today = snapshot.today
        let reading = today.reading
        let total = today.readings.total
        var uses = "<div class=\"card\"><div class=\"label\">Uses today</div><div class=\"big\">"
            + HTML.number(String(reading.uses), value: String(reading.uses), key: "today.uses") + "</div>"
        uses += "<p class=\"note\">personal " + HTML.number(String(reading.personalUses), value: String(reading.personalUses), key: "today.uses.personal")
            + " · work " + HTML.number(String(reading.workUses), value: String(reading.workUses), key: "today.uses.work")
            + (queries.workHours.isEmpty ? " (no work hours set)" : "") + "</p></div>\n"
        var tokens = "<div class=\"card\"><div class=\"label\">Tokens today</div><div class=\"big\">"
            + HTML.number(CountsFormat.grouped(Int(today.estimate.tokens)), value: String(today.estimate.tokens), key: "today.tokens")
            + "</div><p class=\"note\">"
        if let measuredAt = today.measuredAt {
            tokens += today.estimate.live
                ? "live: measured at \(HTML.escaped(LocalFormat.time(measuredAt, calendar, seconds: true))), then the recent pace"
                : "measured at \(HTML.escaped(at(measuredAt)))"
        } else {
            tokens += "as the store holds them"
        }
        tokens += "; every tool</p></div>\n"
        let costText = ReadingsFormat.text(total.cost)
        let cost = "<div class=\"card\"><div class=\"label\">Cost at API list prices</div><div class=\"big\">"
            + HTML.number(costText.isEmpty ? "$0.00" : costText, value: total.cost.shownUSD.map { String(ReadingsFormat.rounded($0)) } ?? "", key: "today.cost")
            + "</div><p class=\"note\">what these tokens would cost at public API prices; not a bill</p></div>\n"
        let water = "<div class=\"card\"><div class=\"label\">Water, estimated</div><div class=\"big\">"
            + waterNumber(total.water, key: "today.water", range: false) + "</div><p class=\"note\">central estimate; from "
            + Self.waterText(total.water.liters.low, unitOf: total.water.liters.central) + " to "
            + Self.waterText(total.water.liters.high, unitOf: total.water.liters.central) + " (<a href=\"#method\">how</a>)</p></div>\n"
        return "<section class=\"wide\" aria-labelledby=\"h-today\">\n<h2 id=\"h-today\">Today</h2>\n<div class=\"cards\">\n"
            + uses + tokens + cost + water + "</div>\n</section>\n"
    }

    func monthSection() -> String {
        let month = report.month
        let year = CivilDate.floorDivide(month.month, 12)
        let name = "\(CalendarGrid.monthNames[Int(month.month - year * 12)]) \(year)"
        var html = "<section aria-labelledby=\"h-month\">\n<h2 id=\"h-month\">\(name)</h2>\n"
        html += "<table class=\"calendar\"><caption class=\"note\">each day's tokens, its color against the mean of the \(DayBand.baselineDays) days before it</caption>\n<thead><tr>"
        html += ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].map { "<th scope=\"col\">\($0)</th>" }.joined() + "</tr></thead>\n<tbody>\n"
        let first = CivilDate.firstDay(ofMonth: month.month)
        let last = CivilDate.lastDay(ofMonth: month.month)
        let byDay = Dictionary(uniqueKeysWithValues: month.days.map { ($0.day, $0) })
        var weekStart = first - Int64(WorkHours.weekday(ofDay: first))
        while weekStart <= last {
            html += "<tr>"
            for day in weekStart..<(weekStart + 7) {
                guard day >= first, day <= last else {
                    html += "<td></td>"
                    continue
                }
                let number = CivilDate.civil(ofDay: day).day
                let date = CivilDate.dateString(ofDay: day)
                guard let reading = byDay[day] else {
                    html += "<td class=\"day future\"><span class=\"d\">\(number)</span></td>"
                    continue
                }
                html += "<td class=\"day band-\(reading.band.rawValue)\" data-band=\"\(reading.band.rawValue)\" data-date=\"\(date)\""
                    + " title=\"\(date): \(CountsFormat.grouped(Int(reading.tokens))) tokens, \(Self.bandName(reading.band))\">"
                    + "<span class=\"d\">\(number)</span>"
                    + HTML.number(LocalFormat.compact(reading.tokens), value: String(reading.tokens), key: "day.\(date).tokens") + "</td>"
            }
            html += "</tr>\n"
            weekStart += 7
        }
        html += "</tbody></table>\n<ul class=\"legend\" aria-label=\"bands\">"
        html += DayBand.allCases.map { band in
            "<li><span class=\"swatch band-\(band.rawValue)\"></span>\(Self.bandName(band))</li>"
        }.joined() + "</ul>\n"
        html += "<p class=\"note\">less: under 2/3 of the mean; average: 2/3 to 3/2 of it; more: to 3 times it; much more: above. "
            + "A scale of your own days, not a target.</p>\n"
        html += "<p>month so far: " + HTML.number(CountsFormat.grouped(Int(month.tokens)), value: String(month.tokens), key: "month.tokens")
            + " tokens, " + HTML.number(String(month.uses), value: String(month.uses), key: "month.uses") + " uses</p>\n"
        return html + "</section>\n"
    }

    static func bandName(_ band: DayBand) -> String {
        switch band {
        case .zero: "zero"
        case .less: "less"
        case .average: "average"
        case .more: "more"
        case .muchMore: "much more"
        }
    }

    func bottleSection() -> String {
        var html = "<section aria-labelledby=\"h-bottle\">\n<h2 id=\"h-bottle\">Bottle</h2>\n<div class=\"bottle\">"
        html += PixelBottle.svg(level: report.bottleLevel)
        html += "<div>"
        if let level = report.bottleLevel {
            let shown = level > 0 && level < 0.005 ? "under 1%" : ReadingsFormat.bottle(level)
            html += "<p class=\"big\">" + HTML.number(shown, value: String(ReadingsFormat.rounded(level)), key: "bottle.level")
                + "</p><p>today's water as a share of the fullest day of the last \(BottleLevel.windowDays) days (your own days fill it)</p>"
        } else {
            html += "<p>no water in the last \(BottleLevel.windowDays) days: the bottle is empty</p>"
        }
        html += "<p class=\"note\">today: " + waterNumber(snapshot.today.readings.total.water, key: "bottle.water") + "</p>"
        return html + "</div></div>\n</section>\n"
    }

    func limitsSection() -> String {
        let limits = snapshot.limits
        var html = "<section aria-labelledby=\"h-limits\">\n<h2 id=\"h-limits\">Plan limits</h2>\n"
        guard !limits.tools.isEmpty else {
            return html + "<p class=\"muted\">no plan-limit readings and no window in progress</p>\n</section>\n"
        }
        for tool in limits.tools {
            html += "<h3>\(HTML.escaped(tool))</h3>\n"
            if let entry = limits.windows.first(where: { $0.tool == tool }) {
                html += windowBlock(entry)
            }
            for reading in limits.readings where reading.status.sample.tool == tool { html += readingBlock(reading) }
        }
        return html + "</section>\n"
    }

    func windowBlock(_ entry: LimitsReport.Window) -> String {
        let key = "window.\(entry.tool)"
        var html = "<div class=\"limit\"><div class=\"row\"><span>\(LocalFormat.window(minutes: entry.minutes)) window, from use</span><span>"
            + HTML.number(CountsFormat.grouped(Int(entry.window.tokens)), value: String(entry.window.tokens), key: key + ".tokens")
            + " tokens"
        let cost = ReadingsFormat.text(entry.cost)
        if !cost.isEmpty {
            html += " · " + HTML.number(cost, value: entry.cost.shownUSD.map { String(ReadingsFormat.rounded($0)) } ?? "", key: key + ".cost")
        }
        html += "</span></div><p class=\"note\">\(HTML.escaped(at(entry.window.start))) to \(HTML.escaped(at(entry.window.end))), ends "
            + countdown(until: entry.window.end, key: key + ".end")
            + (entry.window.endFromLimit ? " (the reset logged with a limit-reached record)" : "")
        if let line = PaceFormat.text(tokensPerHour: entry.tokensPerHour, since: entry.window.start, at: at) { html += "<br>" + HTML.escaped(line) }
        return html + "</p></div>\n"
    }

    func readingBlock(_ reading: LimitsReport.Reading) -> String {
        let status = reading.status
        let sample = status.sample
        let key = "limit.\(sample.tool).\(sample.window)"
        let name =
            reading.limitReached ? "limit reached at \(at(sample.time))" : LocalFormat.windowLabel(sample.window, minutes: status.windowMinutes)
        var html = "<div class=\"limit\"><div class=\"row\"><span>\(HTML.escaped(name))</span>"
        if let used = sample.usedPercent, !reading.limitReached {
            html += "<span>" + HTML.number(String(format: "%.1f%%", used), value: String(used), key: key + ".used") + " used</span></div>"
            html += Self.meter(used)
        } else {
            html += "</div>"
        }
        html += "<p class=\"note\">"
        if status.stale {
            html += "stale: logged \(LocalFormat.duration(status.age)) ago, longer ago than its window lasts"
        } else if let reset = sample.resetsAt, let since = reading.sinceReset {
            html += "reset at \(HTML.escaped(at(reset))), \(LocalFormat.duration(since)) ago; no reading since"
        } else {
            if let reset = sample.resetsAt, status.resetsIn != nil {
                html += "resets at \(HTML.escaped(at(reset))), " + countdown(until: reset, key: key + ".resetsAt")
            }
            if !reading.limitReached { html += (sample.resetsAt == nil ? "" : "; ") + "logged \(LocalFormat.duration(status.age)) ago" }
        }
        if let pace = reading.pace { html += "<br>" + HTML.escaped(PaceFormat.text(pace, at: at)) }
        return html + "</p></div>\n"
    }

    /// `in 1h 2m`, ticked by the page's script from the moment the page was made.
    func countdown(until: Int64, key: String) -> String {
        "<time datetime=\"\(CountsFormat.instant(until))\" data-until=\"\(until)\" data-key=\"\(HTML.escaped(key))\">in "
            + LocalFormat.duration(until - snapshot.generatedAt) + "</time>"
    }

    /// A bar of the used share (past 100 % drawn full), in the page's one neutral color.
    static func meter(_ used: Double) -> String {
        let width = 300.0
        let filled = min(max(used, 0), 100) / 100 * width
        return "<svg class=\"chart\" viewBox=\"0 0 300 8\" role=\"img\" aria-label=\"\(String(format: "%.1f", used)) percent used\">"
            + "<rect width=\"300\" height=\"8\" rx=\"4\" class=\"px-air\"/><rect width=\"\(String(format: "%.1f", filled))\" height=\"8\" rx=\"4\" class=\"px-used\"/></svg>"
    }

    func recentSection() -> String {
        let recent = report.recent
        let tools = report.recentTools
        var html = "<section class=\"wide\" aria-labelledby=\"h-recent\">\n<h2 id=\"h-recent\">Last \(DashboardReport.recentDays) days by tool</h2>\n"
        guard !recent.entries.isEmpty else { return html + "<p class=\"muted\">no usage in the last \(DashboardReport.recentDays) days</p>\n</section>\n" }
        html += "<ul class=\"keys\">" + tools.enumerated().map { index, tool in
            "<li><svg width=\"14\" height=\"14\" aria-hidden=\"true\"><rect width=\"14\" height=\"14\" rx=\"3\" fill=\"\(Self.color(index))\"/></svg>\(HTML.escaped(tool))</li>"
        }.joined() + "</ul>\n"
        html += chart(recent, tools: tools)
        html += "<table><thead><tr><th scope=\"col\">date</th>" + tools.map { "<th scope=\"col\">\(HTML.escaped($0))</th>" }.joined()
            + "<th scope=\"col\">total</th><th scope=\"col\">cost</th></tr></thead>\n<tbody>\n"
        for entry in recent.entries.reversed() {
            let date = CivilDate.dateString(ofDay: entry.usage.period)
            html += "<tr><td>\(date)</td>"
            for tool in tools {
                let tokens = entry.usage.total(ofTool: tool).counts.total
                html += "<td>" + HTML.number(CountsFormat.grouped(Int(tokens)), value: String(tokens), key: "recent.\(date).\(tool)") + "</td>"
            }
            let total = entry.usage.total.counts.total
            let cost = ReadingsFormat.text(entry.readings.total.cost)
            html += "<td>" + HTML.number(CountsFormat.grouped(Int(total)), value: String(total), key: "recent.\(date).total") + "</td><td>"
                + HTML.number(cost, value: entry.readings.total.cost.shownUSD.map { String(ReadingsFormat.rounded($0)) } ?? "", key: "recent.\(date).cost")
                + "</td></tr>\n"
        }
        return html + "</tbody></table>\n</section>\n"
    }

    static func color(_ index: Int) -> String { DashboardStyle.toolColors[index % DashboardStyle.toolColors.count] }

    /// One bar a day, stacked by tool, its height its tokens against the fullest of the days shown.
    func chart(_ recent: PeriodReport, tools: [String]) -> String {
        let days = DashboardReport.recentDays
        let (width, height, gap) = (900.0, 160.0, 4.0)
        let barWidth = width / Double(days) - gap
        let first = today - days + 1
        let fullest = Double(max(report.recentFullest, 1))
        var svg = "<svg class=\"chart\" viewBox=\"0 0 \(Int(width)) \(Int(height + 18))\" role=\"img\" aria-label=\"tokens per day by tool, the last \(days) days\">"
        for entry in recent.entries {
            let x = Double(entry.usage.period - first) * (barWidth + gap) + gap / 2
            var y = height
            for (index, tool) in tools.enumerated() {
                let tokens = entry.usage.total(ofTool: tool).counts.total
                guard tokens > 0 else { continue }
                let h = Double(tokens) / fullest * height
                y -= h
                svg += "<rect x=\"\(String(format: "%.1f", x))\" y=\"\(String(format: "%.1f", y))\" width=\"\(String(format: "%.1f", barWidth))\" height=\"\(String(format: "%.1f", max(h, 0.5)))\" fill=\"\(Self.color(index))\">"
                    + "<title>\(CivilDate.dateString(ofDay: entry.usage.period)) \(HTML.escaped(tool)): \(CountsFormat.grouped(Int(tokens))) tokens</title></rect>"
            }
        }
        svg += "<line x1=\"0\" y1=\"\(Int(height) + 1)\" x2=\"\(Int(width))\" y2=\"\(Int(height) + 1)\" class=\"axis\"/>"
        svg += "<text x=\"0\" y=\"\(Int(height) + 14)\">\(CivilDate.dateString(ofDay: first))</text>"
        svg += "<text x=\"\(Int(width))\" y=\"\(Int(height) + 14)\" text-anchor=\"end\">\(CivilDate.dateString(ofDay: today))</text>"
        return svg + "</svg>\n"
    }

    func modelsSection() -> String {
        let month = report.month
        let year = CivilDate.floorDivide(month.month, 12)
        let name = "\(CalendarGrid.monthNames[Int(month.month - year * 12)]) \(year)"
        var html = "<section class=\"wide\" aria-labelledby=\"h-models\">\n<h2 id=\"h-models\">By model, \(name)</h2>\n"
        guard let entry = report.monthUsage.entries.first else { return html + "<p class=\"muted\">no usage this month</p>\n</section>\n" }
        let models = entry.usage.byModel.sorted { ($1.value.counts.total, $0.key) < ($0.value.counts.total, $1.key) }
        html += "<table><thead><tr><th scope=\"col\">model</th><th scope=\"col\">tokens</th>"
            + "<th scope=\"col\">cost at API list prices</th><th scope=\"col\">water, estimated</th></tr></thead>\n<tbody>\n"
        for (model, cell) in models {
            let readings = entry.readings.byModel[model] ?? ReadingCell()
            let key = "model.\(model)"
            let cost = ReadingsFormat.text(readings.cost)
            html += "<tr><td>\(HTML.escaped(model))</td><td>"
                + HTML.number(CountsFormat.grouped(Int(cell.counts.total)), value: String(cell.counts.total), key: key + ".tokens")
                + "</td><td>" + HTML.number(cost, value: readings.cost.shownUSD.map { String(ReadingsFormat.rounded($0)) } ?? "", key: key + ".cost")
                + "</td><td>" + waterNumber(readings.water, key: key + ".water") + "</td></tr>\n"
        }
        let total = entry.readings.total
        html += "</tbody></table>\n"
        let notes = ReadingsFormat.notes(total.cost, mode: queries.readings.mode, unpricedTokens: total.unpricedTokens)
        if !notes.isEmpty { html += "<p class=\"note\">" + notes.map(HTML.escaped).joined(separator: "<br>") + "</p>\n" }
        let table = queries.readings.table.manifest
        html += "<p class=\"note\">Prices: " + (table.map { HTML.escaped("\($0.source), \($0.date), SHA-256 \($0.sha256.prefix(12))…") } ?? "the bundled table")
            + (queries.readings.overridePath != nil ? ", with your override" : "") + ". Water: "
            + HTML.escaped("\(queries.readings.water.method.version), \(queries.readings.water.method.date)")
            + ". <a href=\"#method\">How these are computed</a>.</p>\n"
        return html + "</section>\n"
    }

    func methodSection() -> String {
        """
        <section id="method" class="wide" aria-labelledby="h-method">
        <h2 id="h-method">How these numbers are made</h2>
        <p>Unprompt reads the logs your AI tools already write on this computer and keeps numbers only: tokens per \
        quarter-hour, tool and model, and when each tool was active. No prompt, path, project or file name is kept.</p>
        <p><strong>Tokens</strong> are input, output, cache reads and cache writes, each record counted once. \
        <strong>Uses</strong> are runs of activity from any tool with gaps of at most 2 hours, by the day they start; \
        work or personal by your work hours. Today's count is live for three minutes after a scan: the count then, \
        plus the recent pace.</p>
        <p><strong>Cost</strong> is what the tokens would cost at public API list prices (\(HTML.escaped(queries.readings.caption))). \
        It is not your bill: most plans are flat. A model without a price is shown as unpriced, never as $0.</p>
        <p><strong>Water</strong> is an estimate from the energy of the tokens and published water factors of data \
        centers, with a low and a high bound; the method is the project's docs/METHOD.md.</p>
        <p><strong>Bands</strong> compare each day with the mean of the \(DayBand.baselineDays) days before it; the \
        <strong>bottle</strong> compares today's water with the fullest of your last \(BottleLevel.windowDays) days. \
        <strong>Pace</strong> is how fast a limit window was used since it began, and when it would be used up at that \
        pace. All of it is measured; none of it is a goal.</p>
        </section>

        """
    }

    func footer() -> String {
        "<footer><p>Measured, never judged. Made by unprompt-scan from the store on this computer; this page loads nothing from anywhere.</p></footer>\n"
    }

    /// `2.9 L (0.42–13.8)` (or only `2.9 L` without `range`), its value the central liters.
    func waterNumber(_ water: WaterReading, key: String, range: Bool = true) -> String {
        let liters = water.liters
        let text = liters.high > 0 ? (range ? ReadingsFormat.text(water) : Self.waterText(liters.central, unitOf: liters.central)) : "0 L"
        return HTML.number(text, value: String(ReadingsFormat.rounded(liters.central)), key: key)
    }

    /// Liters in the unit `ReadingsFormat` picks for `reference` (mL below a liter), three significant digits.
    static func waterText(_ liters: Double, unitOf reference: Double) -> String {
        reference < 1 ? ReadingsFormat.number(liters * 1000) + " mL" : ReadingsFormat.number(liters) + " L"
    }
}
