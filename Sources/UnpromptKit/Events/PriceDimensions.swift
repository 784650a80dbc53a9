/// The facts of a request, beside its token counts, that change its price: how fast it was served, under which
/// service tier, in which inference region. Each is nil when the record does not say (or says something the
/// descriptor does not map), and is then priced as the standard value and reported as assumed
/// (`CostReading.assumed`). Enums only: a tool's own strings never reach the store.
public struct PriceDimensions: Sendable, Hashable {
    public var speed: Speed?
    public var tier: ServiceTier?
    public var region: InferenceRegion?

    public init(speed: Speed? = nil, tier: ServiceTier? = nil, region: InferenceRegion? = nil) {
        self.speed = speed
        self.tier = tier
        self.region = region
    }

    /// Nothing recorded: every dimension assumed standard (records stored before the store kept them).
    public static let unrecorded = PriceDimensions()

    /// The store's columns: 0 where nothing is recorded.
    public var codes: (speed: Int64, tier: Int64, region: Int64) {
        (speed?.code ?? 0, tier?.code ?? 0, region?.code ?? 0)
    }

    /// One number that orders dimensions as the store's columns do.
    public var order: Int64 { codes.speed * 100 + codes.tier * 10 + codes.region }

    public init(codes speed: Int64?, _ tier: Int64?, _ region: Int64?) {
        self.init(speed: Speed.decode(speed), tier: ServiceTier.decode(tier), region: InferenceRegion.decode(region))
    }
}

/// How a store column holds a dimension: 0 for "not recorded", else a fixed positive code.
public protocol StoredDimension: CaseIterable, Sendable, Hashable, RawRepresentable where RawValue == String {
    var code: Int64 { get }
}

extension StoredDimension {
    public static func decode(_ code: Int64?) -> Self? { allCases.first { $0.code == code } }
}

/// `fast` is Anthropic's fast mode (a multiplier on every token class of the request).
public enum Speed: String, StoredDimension {
    case standard, fast
    public var code: Int64 { self == .standard ? 1 : 2 }
}

/// The processing tier that served a request. `priority` is OpenAI's priority processing (sold as "fast"
/// in Codex) and Anthropic's Priority Tier; `flex` and `batch` are the discounted tiers.
public enum ServiceTier: String, StoredDimension {
    case standard, priority, flex, batch
    public var code: Int64 {
        switch self {
        case .standard: 1
        case .priority: 2
        case .flex: 3
        case .batch: 4
        }
    }
}

/// Where the request was processed: `us` is US-only inference (Anthropic's `inference_geo: "us"`).
public enum InferenceRegion: String, StoredDimension {
    case global, us
    public var code: Int64 { self == .global ? 1 : 2 }
}

/// Per-request charges a record counts beside its tokens: server-side tool calls billed by the call.
public struct ServerToolCounts: Sendable, Hashable {
    public var webSearch: Int64
    public var webFetch: Int64

    public init(webSearch: Int64 = 0, webFetch: Int64 = 0) {
        self.webSearch = webSearch
        self.webFetch = webFetch
    }

    public static let zero = ServerToolCounts()
    public var isZero: Bool { self == .zero }

    public static func + (a: ServerToolCounts, b: ServerToolCounts) -> ServerToolCounts {
        ServerToolCounts(
            webSearch: a.webSearch.saturatingAdd(b.webSearch), webFetch: a.webFetch.saturatingAdd(b.webFetch))
    }

    public static func - (a: ServerToolCounts, b: ServerToolCounts) -> ServerToolCounts {
        ServerToolCounts(
            webSearch: a.webSearch.saturatingSubtract(b.webSearch),
            webFetch: a.webFetch.saturatingSubtract(b.webFetch))
    }
}
