/// Token totals overall, by model and by UTC day: the figures a dry run prints.
public struct UsageTotals: Sendable, Equatable {
    public var total = TokenCounts.zero
    public var byModel: [String: TokenCounts] = [:]
    /// Keyed by days since 1970-01-01 (UTC).
    public var byDay: [Int64: TokenCounts] = [:]
    public var events = 0
    /// The sum of the costs the tools logged themselves (USD), for events that carry one.
    public var loggedCost = 0.0

    public init() {}

    public mutating func add(_ event: TokenEvent) {
        total += event.counts
        byModel[event.model, default: .zero] += event.counts
        byDay[CivilDate.day(ofMilliseconds: event.time), default: .zero] += event.counts
        events += 1
        loggedCost += event.loggedCost ?? 0
    }

    public mutating func remove(_ event: TokenEvent) {
        total -= event.counts
        byModel[event.model, default: .zero] -= event.counts
        byDay[CivilDate.day(ofMilliseconds: event.time), default: .zero] -= event.counts
        if byModel[event.model] == .zero { byModel[event.model] = nil }
        if byDay[CivilDate.day(ofMilliseconds: event.time)] == .zero { byDay[CivilDate.day(ofMilliseconds: event.time)] = nil }
        events -= 1
        loggedCost -= event.loggedCost ?? 0
    }
}
