/// Where a record states the price dimensions of its request (`PriceDimensions`) and its per-request
/// server-tool calls (`ServerToolCounts`): the `dimensions:` block of a record rule. Paths are read under
/// `tokens_at`, as the token fields are; `@name` reads a carried value.
public struct DimensionSpec: Sendable {
    public let speed: MappedValue?
    public let tier: MappedValue?
    public let region: MappedValue?
    public let webSearch: CountSpec?
    public let webFetch: CountSpec?

    static let none = DimensionSpec(speed: nil, tier: nil, region: nil, webSearch: nil, webFetch: nil)
}

/// A value whose text is one of a dimension's enum cases after `map` (the tool's string → the case's name).
/// A string that is neither mapped nor a case's name, like an absent value, means "not recorded": the request
/// is priced at the standard value and the cost says so (`assumed`). Its tokens still count: a tier the meter
/// does not know is no reason to lose the usage.
public struct MappedValue: Sendable {
    public let value: ValueSpec
    public let map: [String: String]

    /// The case `text` names, after the map.
    func resolve<D: StoredDimension>(_ text: String, as: D.Type) -> D? {
        D(rawValue: map[text] ?? text)
    }
}
