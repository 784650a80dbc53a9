/// Which cost a reading shows.
public enum CostMode: String, Sendable, CaseIterable {
    /// Every bucket priced from its tokens at list prices (the default: comparable across tools and time).
    case calculate
    /// The tool's logged cost where it logged one, else the calculated cost.
    case auto
    /// Only logged costs; records without one are counted as having no cost.
    case logged
}

/// The cost reading of some buckets: USD where a price (or a logged cost) exists, and the tokens and events
/// without one, which are shown as such, never as $0.
public struct CostReading: Sendable, Equatable {
    /// Calculated and logged parts together.
    public var usd: Double = 0
    /// The part of `usd` that tools logged.
    public var loggedUSD: Double = 0
    /// Events whose cost is in `usd`, and among them those with a logged cost.
    public var costedEvents: Int64 = 0
    public var loggedEvents: Int64 = 0
    public var costedTokens: Int64 = 0
    /// Tokens and events with no cost: no price for the model (calculated), or no logged cost (`logged`).
    public var uncostedTokens: Int64 = 0
    public var uncostedEvents: Int64 = 0
    /// Models without a price, when a calculated cost was wanted.
    public var unpricedModels: Set<String> = []
    /// Tokens priced with an assumed rate: a rate missing from the row (Anthropic's multipliers, else the
    /// input rate), a long-context band not known (stored before schema 3) or not decidable for the row's
    /// threshold, or a fast-mode id without a multiplier.
    public var approximateTokens: Int64 = 0
    /// Events whose token counts are the tool's own estimate.
    public var estimatedEvents: Int64 = 0
    /// What the calculated cost assumed because the records did not say (`CostAssumption`).
    public var assumed: Set<CostAssumption> = []
    /// Server-tool calls of the buckets read (web searches are costed where the row has a rate).
    public var serverTools = ServerToolCounts.zero

    public init() {}

    /// True when some of the tokens have a cost; otherwise the reading is shown as unpriced, not $0.
    public var hasCost: Bool { costedEvents > 0 }

    public static func += (a: inout CostReading, b: CostReading) {
        a.usd += b.usd
        a.loggedUSD += b.loggedUSD
        a.costedEvents = a.costedEvents.saturatingAdd(b.costedEvents)
        a.loggedEvents = a.loggedEvents.saturatingAdd(b.loggedEvents)
        a.costedTokens = a.costedTokens.saturatingAdd(b.costedTokens)
        a.uncostedTokens = a.uncostedTokens.saturatingAdd(b.uncostedTokens)
        a.uncostedEvents = a.uncostedEvents.saturatingAdd(b.uncostedEvents)
        a.unpricedModels.formUnion(b.unpricedModels)
        a.approximateTokens = a.approximateTokens.saturatingAdd(b.approximateTokens)
        a.estimatedEvents = a.estimatedEvents.saturatingAdd(b.estimatedEvents)
        a.assumed.formUnion(b.assumed)
        a.serverTools = a.serverTools + b.serverTools
    }
}

/// A price dimension a cost took as standard because the records did not state it, or a tier the price row
/// does not price (billed at standard). Shown in JSON as `assumed: ["standard-tier", …]`.
public enum CostAssumption: String, Sendable, CaseIterable, Comparable {
    case standardSpeed = "standard-speed"
    case standardTier = "standard-tier"
    case standardRegion = "standard-region"
    case standardRateForTier = "standard-rate-for-tier"

    public static func < (a: CostAssumption, b: CostAssumption) -> Bool { a.rawValue < b.rawValue }
}
