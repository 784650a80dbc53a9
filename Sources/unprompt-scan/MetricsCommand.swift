import Foundation
import UnpromptKit

/// `unprompt-scan metrics [--tz ZONE] [--no-scan] [--cost-mode M] [--store PATH]`: today and the plan limits in
/// the Prometheus text format (`PrometheusText`), from the same snapshot as `snapshot` (`serve` gives the same at
/// `/metrics`). Every value is a gauge of the moment it was made: today's counts start again at local midnight.
///
/// For node_exporter's textfile collector, write the file whole and rename it into place, e.g.
/// `unprompt-scan metrics > DIR/unprompt.prom.tmp && mv DIR/unprompt.prom.tmp DIR/unprompt.prom`.
enum MetricsCommand {
    static func run(_ arguments: Arguments, catalog: ReaderCatalog, environment: [String: String]) throws(UsageError) -> ExitCode {
        try ViewOpener.show(arguments, catalog: catalog, environment: environment, terminator: "") { queries throws(StoreError) in
            text(try queries.snapshot())
        }
    }

    static func text(_ snapshot: Snapshot) -> String {
        let today = snapshot.today
        let usage = today.usage
        var cells: [(labels: [(String, String)], usage: UsageCell, readings: ReadingCell)] = []
        for tool in usage.byTool.keys.sorted() {
            for (model, cell) in usage.byTool[tool]!.sorted(by: { $0.key < $1.key }) {
                cells.append(([("tool", tool), ("model", model)], cell, today.readings.byToolModel[tool]?[model] ?? ReadingCell()))
            }
        }
        var out = PrometheusText()
        out.family(
            "unprompt_today_tokens",
            help: "Tokens counted today (the local day), by tool and model: input, output, cache reads and cache writes.",
            cells.map { .init(labels: $0.labels, value: Double($0.usage.counts.total)) })
        out.family(
            "unprompt_today_events", help: "Usage records counted today, by tool and model.",
            cells.map { .init(labels: $0.labels, value: Double($0.usage.events)) })
        out.family(
            "unprompt_today_tokens_estimate",
            help: "Today's tokens, live: the count at the last scan plus the recent pace, for at most 3 minutes after it.",
            [.init(labels: [], value: Double(today.estimate.tokens))])
        out.family(
            "unprompt_today_cost_usd",
            help: "Today's cost at API list prices (not a bill), by tool and model; models without a price have no sample.",
            cells.compactMap { cell in cell.readings.cost.shownUSD.map { .init(labels: cell.labels, value: $0) } })
        out.family(
            "unprompt_today_unpriced_tokens", help: "Today's tokens of models without a price, by tool and model.",
            cells.map { .init(labels: $0.labels, value: Double($0.readings.cost.uncostedTokens)) })
        out.family(
            "unprompt_today_water_liters",
            help: "Today's estimated water in liters (the published method's low, central and high values), by tool and model.",
            cells.flatMap { cell in
                let liters = cell.readings.water.liters
                return [("low", liters.low), ("central", liters.central), ("high", liters.high)].map { estimate, value in
                    PrometheusText.Sample(labels: cell.labels + [("estimate", estimate)], value: value)
                }
            })
        let reading = today.reading
        out.family(
            "unprompt_today_uses",
            help: "Uses started today (runs of activity from any tool with gaps of at most 2 hours), work and personal.",
            [
                .init(labels: [("split", "work")], value: Double(reading.workUses)),
                .init(labels: [("split", "personal")], value: Double(reading.personalUses)),
            ])
        out.family(
            "unprompt_measured_at_seconds", help: "When a scan last brought the store up to date, in seconds since 1970.",
            today.measuredAt.map { [.init(labels: [], value: Double($0) / 1000)] } ?? [])
        let readings = snapshot.limits.readings
        func labels(_ reading: LimitsReport.Reading) -> [(String, String)] {
            [("tool", reading.status.sample.tool), ("window", reading.status.sample.window)]
        }
        out.family(
            "unprompt_limit_used_percent", help: "The latest plan-limit reading of each tool's window, in percent used.",
            readings.compactMap { r in r.status.sample.usedPercent.map { .init(labels: labels(r), value: $0) } })
        out.family(
            "unprompt_limit_resets_at_seconds", help: "When each window resets, in seconds since 1970.",
            readings.compactMap { r in r.status.sample.resetsAt.map { .init(labels: labels(r), value: Double($0) / 1000) } })
        out.family(
            "unprompt_limit_logged_at_seconds", help: "When each reading was logged, in seconds since 1970.",
            readings.map { .init(labels: labels($0), value: Double($0.status.sample.time) / 1000) })
        out.family(
            "unprompt_limit_stale", help: "1 when a reading is older than its window (its window has ended since), else 0.",
            readings.map { .init(labels: labels($0), value: $0.status.stale ? 1 : 0) })
        return out.rendered
    }
}
