/// The numbers of a bucket row after its quarter-hour, tool and model, in one order: the one list that a
/// device's export (`SyncExport`) and an imported day as the store packs it (`DevicePacking`) write a row in,
/// so a field added to the row is added to both at once.
public enum BucketField: Int, Sendable, CaseIterable {
    case contextAbove, costLogged, speed, tier, region
    case input, cacheRead, cacheWrite5m, cacheWrite1h, cacheWrite12h, output, reasoning
    case events, loggedCostNanos, estimatedEvents, webSearch, webFetch

    /// The fields of export versions 1 and 2 and of packing version 1, in their order: before the store kept the price
    /// dimensions, server-tool calls and 12-hour cache writes (schema 9). Read as `allCases` with those 0 ("not
    /// recorded", none).
    public static let beforeDimensions: [BucketField] = [
        .contextAbove, .costLogged, .input, .cacheRead, .cacheWrite5m, .cacheWrite1h, .output, .reasoning, .events,
        .loggedCostNanos, .estimatedEvents,
    ]

    /// The fields a row's tokens are the sum of: those `TokenCounts.total` sums (reasoning is inside output).
    public static let tokens: [BucketField] = [.input, .cacheRead, .cacheWrite5m, .cacheWrite1h, .cacheWrite12h, .output]

    /// True for the fields of the bucket key (`BucketKey`): rows are ordered by them, and two rows of one
    /// quarter-hour, tool and model differ in one of them.
    public var isKey: Bool { [.contextAbove, .costLogged, .speed, .tier, .region].contains(self) }

    /// Whether a stored row can hold `value` in this field.
    public func admits(_ value: Int64) -> Bool {
        switch self {
        case .contextAbove: value >= ContextBand.unknown
        case .costLogged: value == 0 || value == 1
        case .speed: value == 0 || Speed.decode(value) != nil
        case .tier: value == 0 || ServiceTier.decode(value) != nil
        case .region: value == 0 || InferenceRegion.decode(value) != nil
        case .loggedCostNanos: true
        default: value >= 0
        }
    }
}

extension BucketRow {
    /// The row's value of `field`.
    public subscript(field: BucketField) -> Int64 {
        let c = counts
        let d = dimensions.codes
        switch field {
        case .contextAbove: return contextAbove
        case .costLogged: return costLogged ? 1 : 0
        case .speed: return d.speed
        case .tier: return d.tier
        case .region: return d.region
        case .input: return c.input
        case .cacheRead: return c.cacheRead
        case .cacheWrite5m: return c.cacheWrite5m
        case .cacheWrite1h: return c.cacheWrite1h
        case .cacheWrite12h: return c.cacheWrite12h
        case .output: return c.output
        case .reasoning: return c.reasoning
        case .events: return events
        case .loggedCostNanos: return loggedCostNanos
        case .estimatedEvents: return estimatedEvents
        case .webSearch: return serverTools.webSearch
        case .webFetch: return serverTools.webFetch
        }
    }

    /// A row from `values` of `fields` (in that order); a field not among them is 0.
    public init(quarter: Int64, tool: String, model: String, fields: [BucketField], values: [Int64]) {
        var v = [Int64](repeating: 0, count: BucketField.allCases.count)
        for (field, value) in zip(fields, values) { v[field.rawValue] = value }
        func value(_ field: BucketField) -> Int64 { v[field.rawValue] }
        self.init(
            quarter: quarter, tool: tool, model: model,
            counts: TokenCounts(
                input: value(.input), cacheRead: value(.cacheRead), cacheWrite5m: value(.cacheWrite5m),
                cacheWrite1h: value(.cacheWrite1h), cacheWrite12h: value(.cacheWrite12h), output: value(.output),
                reasoning: value(.reasoning)),
            events: value(.events), contextAbove: value(.contextAbove), costLogged: value(.costLogged) == 1,
            loggedCostNanos: value(.loggedCostNanos), estimatedEvents: value(.estimatedEvents),
            dimensions: PriceDimensions(codes: value(.speed), value(.tier), value(.region)),
            serverTools: ServerToolCounts(webSearch: value(.webSearch), webFetch: value(.webFetch)))
    }
}
