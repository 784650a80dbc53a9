import Foundation

/// What a run of a fixture case gave, in the shape of the dry run's JSON report and of the case's
/// `expected.json`: `sources`, `lines`, `records`, `events`, `skipped`, `totals`, `byModel`, `byDay` (UTC),
/// `loggedCost`, `limits` (the latest sample of each window), `limitSamples` and `problems` (line and reason:
/// a problem's source number depends on sorting only).
public enum FixtureFigures: Sendable {
    /// What a store holds that a case's `expected.json` also says; the rest only a dry run reports.
    public static let storedKeys: Set<String> = ["events", "totals", "byModel", "byDay", "loggedCost", "limits"]

    /// A dry run's figures.
    public static func of(_ report: ReaderReport) -> [String: FixtureJSON] {
        var figures = counted(
            totals: report.totals.total, events: Int64(report.totals.events), byModel: report.totals.byModel,
            byDay: report.totals.byDay, loggedCostNanos: (report.totals.loggedCost * 1e9).rounded(), limits: report.latestLimits)
        figures["sources"] = .number(Double(report.sources))
        figures["lines"] = .number(Double(report.lines))
        figures["records"] = .number(Double(report.records))
        figures["skipped"] = .object(report.skipped.mapValues { .number(Double($0)) })
        figures["limitSamples"] = .number(Double(report.limitSamples))
        figures["problems"] = .array(report.problems.map { .object(["line": .number(Double($0.line)), "reason": .string($0.reason)]) })
        return figures
    }

    /// One tool's figures in a store: its buckets and its latest limit samples, read back.
    public static func of(store: UsageStore, tool: String) throws(StoreError) -> [String: FixtureJSON] {
        let rows = try store.buckets(fromQuarter: Int64.min, toQuarter: Int64.max, tools: [tool])
        var totals = TokenCounts.zero
        var byModel: [String: TokenCounts] = [:]
        var byDay: [Int64: TokenCounts] = [:]
        var events: Int64 = 0
        var nanos: Int64 = 0
        for row in rows {
            totals += row.counts
            byModel[row.model, default: .zero] += row.counts
            byDay[CivilDate.floorDivide(row.quarter, LocalCalendar.quartersPerDay), default: .zero] += row.counts
            events += row.events
            nanos += row.loggedCostNanos
        }
        return counted(
            totals: totals, events: events, byModel: byModel, byDay: byDay, loggedCostNanos: Double(nanos),
            limits: try store.latestLimits().filter { $0.tool == tool })
    }

    private static func counted(
        totals: TokenCounts, events: Int64, byModel: [String: TokenCounts], byDay: [Int64: TokenCounts],
        loggedCostNanos: Double, limits: [LimitSample]
    ) -> [String: FixtureJSON] {
        [
            "events": .number(Double(events)),
            "totals": json(totals),
            "byModel": .object(byModel.mapValues(json)),
            "byDay": .object(Dictionary(uniqueKeysWithValues: byDay.map { (CivilDate.dateString(ofDay: $0.key), json($0.value)) })),
            "loggedCost": .number(loggedCostNanos / 1e9),
            "limits": .array(limits.sorted { $0.window < $1.window }.map(json)),
        ]
    }

    private static func json(_ counts: TokenCounts) -> FixtureJSON {
        .object([
            "input": .number(Double(counts.input)), "output": .number(Double(counts.output)),
            "cacheRead": .number(Double(counts.cacheRead)), "cacheWrite5m": .number(Double(counts.cacheWrite5m)),
            "cacheWrite1h": .number(Double(counts.cacheWrite1h)), "cacheWrite12h": .number(Double(counts.cacheWrite12h)),
            "reasoning": .number(Double(counts.reasoning)),
        ])
    }

    private static func json(_ sample: LimitSample) -> FixtureJSON {
        .object([
            "window": .string(sample.window),
            "time": .string(CivilDate.instantString(milliseconds: sample.time)),
            "usedPercent": sample.usedPercent.map { .number($0) } ?? .null,
            "windowMinutes": sample.windowMinutes.map { .number(Double($0)) } ?? .null,
            "resetsAt": sample.resetsAt.map { .string(CivilDate.instantString(milliseconds: $0)) } ?? .null,
        ])
    }
}
