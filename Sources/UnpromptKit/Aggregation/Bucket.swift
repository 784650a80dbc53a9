/// What a usage record is summed under: its quarter-hour, tool and model, plus the facts pricing needs and a
/// sum cannot keep (see `ContextBand`, `costLogged` and `PriceDimensions`).
///
/// Records with the same key are summed into one `BucketRow`; a price table applied to the rows later gives
/// exactly the cost it would give applied to each record, so history is re-priced without re-reading logs.
public struct BucketKey: Hashable, Sendable {
    /// Quarter-hours since 1970-01-01T00:00Z.
    public let quarter: Int64
    public let tool: String
    public let model: String
    /// The record's `ContextBand`, or `ContextBand.unknown`.
    public let contextAbove: Int64
    /// True when the tool logged a cost for the record (the row's logged costs are all of its records').
    public let costLogged: Bool
    /// Speed, tier and region: each changes the rate of every token of the record.
    public let dimensions: PriceDimensions

    public init(
        quarter: Int64, tool: String, model: String, contextAbove: Int64, costLogged: Bool,
        dimensions: PriceDimensions = .unrecorded
    ) {
        self.quarter = quarter
        self.tool = tool
        self.model = model
        self.contextAbove = contextAbove
        self.costLogged = costLogged
        self.dimensions = dimensions
    }

    public init(_ event: TokenEvent) {
        self.init(
            quarter: Bucket.quarter(of: event.time), tool: event.tool, model: event.model,
            contextAbove: ContextBand.of(event.counts), costLogged: LoggedCost.nanos(event.loggedCost) != nil,
            dimensions: event.dimensions)
    }

    /// The same key at another quarter-hour.
    public func moved(to quarter: Int64) -> BucketKey {
        BucketKey(
            quarter: quarter, tool: tool, model: model, contextAbove: contextAbove, costLogged: costLogged,
            dimensions: dimensions)
    }
}

/// One bucket: the sums of the records under one `BucketKey`. The atom every view is derived from.
public struct BucketRow: Sendable, Equatable {
    public let quarter: Int64
    public let tool: String
    public let model: String
    public let counts: TokenCounts
    public let events: Int64
    public let contextAbove: Int64
    public let costLogged: Bool
    /// The logged costs of the row's records, in billionths of a USD (an integer, so replacing a record
    /// subtracts its cost exactly).
    public let loggedCostNanos: Int64
    /// Records whose counts are the tool's own estimate.
    public let estimatedEvents: Int64
    public let dimensions: PriceDimensions
    /// The server-tool calls of the row's records, summed.
    public let serverTools: ServerToolCounts

    public init(
        quarter: Int64, tool: String, model: String, counts: TokenCounts, events: Int64, contextAbove: Int64 = 0,
        costLogged: Bool = false, loggedCostNanos: Int64 = 0, estimatedEvents: Int64 = 0,
        dimensions: PriceDimensions = .unrecorded, serverTools: ServerToolCounts = .zero
    ) {
        self.quarter = quarter
        self.tool = tool
        self.model = model
        self.counts = counts
        self.events = events
        self.contextAbove = contextAbove
        self.costLogged = costLogged
        self.loggedCostNanos = loggedCostNanos
        self.estimatedEvents = estimatedEvents
        self.dimensions = dimensions
        self.serverTools = serverTools
    }

    public var key: BucketKey {
        BucketKey(
            quarter: quarter, tool: tool, model: model, contextAbove: contextAbove, costLogged: costLogged,
            dimensions: dimensions)
    }
}

/// The sums a record adds to (or, replaced, removes from) its bucket.
public struct BucketDelta: Sendable, Equatable {
    public var counts = TokenCounts.zero
    public var events: Int64 = 0
    public var loggedCostNanos: Int64 = 0
    public var estimatedEvents: Int64 = 0
    public var serverTools = ServerToolCounts.zero

    public init() {}

    public init(_ event: TokenEvent) {
        counts = event.counts
        events = 1
        loggedCostNanos = LoggedCost.nanos(event.loggedCost) ?? 0
        estimatedEvents = event.estimated ? 1 : 0
        serverTools = event.serverTools
    }

    /// What a bucket row holds, to be summed with another's.
    public init(_ row: BucketRow) {
        counts = row.counts
        events = row.events
        loggedCostNanos = row.loggedCostNanos
        estimatedEvents = row.estimatedEvents
        serverTools = row.serverTools
    }

    public var isZero: Bool {
        counts.isZero && events == 0 && loggedCostNanos == 0 && estimatedEvents == 0 && serverTools.isZero
    }

    public static func += (a: inout BucketDelta, b: BucketDelta) {
        a.counts += b.counts
        a.events = a.events.saturatingAdd(b.events)
        a.loggedCostNanos = a.loggedCostNanos.saturatingAdd(b.loggedCostNanos)
        a.estimatedEvents = a.estimatedEvents.saturatingAdd(b.estimatedEvents)
        a.serverTools = a.serverTools + b.serverTools
    }

    public static func -= (a: inout BucketDelta, b: BucketDelta) {
        a.counts -= b.counts
        a.events = a.events.saturatingSubtract(b.events)
        a.loggedCostNanos = a.loggedCostNanos.saturatingSubtract(b.loggedCostNanos)
        a.estimatedEvents = a.estimatedEvents.saturatingSubtract(b.estimatedEvents)
        a.serverTools = a.serverTools - b.serverTools
    }

    public func row(_ key: BucketKey) -> BucketRow {
        BucketRow(
            quarter: key.quarter, tool: key.tool, model: key.model, counts: counts, events: events,
            contextAbove: key.contextAbove, costLogged: key.costLogged, loggedCostNanos: loggedCostNanos,
            estimatedEvents: estimatedEvents, dimensions: key.dimensions, serverTools: serverTools)
    }
}

public enum Bucket: Sendable {
    public static let quarterMilliseconds: Int64 = 15 * 60 * 1000

    public static func quarter(of milliseconds: Int64) -> Int64 {
        milliseconds >= 0
            ? milliseconds / quarterMilliseconds : (milliseconds - quarterMilliseconds + 1) / quarterMilliseconds
    }
}

/// The band of a request's prompt size that pricing needs: long-context rates apply to a *whole request*
/// whose prompt (input + cache read + both cache writes) is above a threshold, so a sum of requests cannot
/// tell afterwards which were above it. Each record is kept under the largest boundary its prompt exceeds.
///
/// The boundaries are every threshold in LiteLLM's field names (`…_above_32k_tokens` to `…_above_512k_tokens`,
/// "k" = 1,000) and the range edges of its `tiered_pricing` rows, as of the bundled table. For any of them,
/// "prompt > threshold" is exactly "band ≥ threshold". A future threshold between two boundaries cannot be
/// decided for the records between them; pricing then uses the lower rates and says the cost is approximate.
public enum ContextBand: Sendable {
    public static let boundaries: [Int64] = [32_000, 100_000, 128_000, 200_000, 256_000, 272_000, 512_000]
    /// Records stored before the store kept bands (schema 3): their prompt size is not known.
    public static let unknown: Int64 = -1

    /// The largest boundary the prompt is above, or 0.
    public static func of(_ counts: TokenCounts) -> Int64 {
        let prompt = counts.input.saturatingAdd(counts.cacheRead).saturatingAdd(counts.cacheWrite)
        return boundaries.last { prompt > $0 } ?? 0
    }

    /// The next boundary above a band (nil above the last).
    public static func next(after band: Int64) -> Int64? { boundaries.first { $0 > band } }
}

/// A logged cost in billionths of a USD. Only finite amounts within ±9 billion USD count as logged.
public enum LoggedCost: Sendable {
    public static func nanos(_ usd: Double?) -> Int64? {
        guard let usd, usd.isFinite, abs(usd) < 9e9 else { return nil }
        return Int64((usd * 1e9).rounded())
    }
}
