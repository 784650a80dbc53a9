/// The only thing readers emit: one usage record, as numbers.
///
/// It never carries text from a log beyond the tool id and a sanitized model id. `identity` is an opaque
/// hash used to count a record once however often it is written; `nil` means the record has no key and
/// counts as it is.
public struct TokenEvent: Sendable, Equatable {
    public let tool: String
    /// Milliseconds since 1970-01-01T00:00:00Z.
    public let time: Int64
    public let model: String
    public let counts: TokenCounts
    /// A cost in USD written by the tool itself, when it writes one.
    public let loggedCost: Double?
    public let identity: Identity?
    /// The hash older versions gave the same key, when it is another (they hashed an object in a key as the
    /// bytes it was written with): a store they wrote knows the record by it. See `Deduplicator`.
    public let legacyIdentity: Identity?
    /// Which copy counts when the same identity is seen again.
    public let keep: KeepRule
    /// A second name the record registers (see `IdentityAlias`).
    public let alias: Identity?
    /// True when the record is a duplicate if its alias was registered before.
    public let checkAlias: Bool
    /// Whom the alias is registered for when not the record's own identity: its alias group.
    public let aliasOwner: Identity?
    /// True when the tool's counts are its own estimate rather than the provider's.
    public let estimated: Bool
    /// Speed, service tier and region, as far as the record states them.
    public let dimensions: PriceDimensions
    /// Server-tool calls billed per request (web searches, web fetches).
    public let serverTools: ServerToolCounts

    public init(
        tool: String, time: Int64, model: String, counts: TokenCounts, loggedCost: Double? = nil,
        identity: Identity? = nil, legacyIdentity: Identity? = nil, keep: KeepRule = .first, alias: Identity? = nil,
        checkAlias: Bool = false, aliasOwner: Identity? = nil, estimated: Bool = false,
        dimensions: PriceDimensions = .unrecorded, serverTools: ServerToolCounts = .zero
    ) {
        self.tool = tool
        self.time = time
        self.model = model
        self.counts = counts
        self.loggedCost = loggedCost
        self.identity = identity
        self.legacyIdentity = legacyIdentity
        self.keep = keep
        self.alias = alias
        self.checkAlias = checkAlias
        self.aliasOwner = aliasOwner
        self.estimated = estimated
        self.dimensions = dimensions
        self.serverTools = serverTools
    }
}

/// Which of several records with one identity counts.
public enum KeepRule: String, Sendable, CaseIterable {
    /// The first seen; later copies are duplicates.
    case first
    /// The latest seen replaces the earlier one.
    case last
    /// A later copy with a larger total replaces the earlier one (streaming snapshots grow).
    case largest
}
