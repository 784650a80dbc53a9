import Foundation

/// USD per token for each token class; nil where the price row gives no rate.
public struct ClassRates: Sendable, Equatable {
    public var input: Double?
    public var output: Double?
    public var cacheRead: Double?
    public var cacheWrite5m: Double?
    public var cacheWrite1h: Double?

    public init(
        input: Double? = nil, output: Double? = nil, cacheRead: Double? = nil, cacheWrite5m: Double? = nil,
        cacheWrite1h: Double? = nil
    ) {
        self.input = input
        self.output = output
        self.cacheRead = cacheRead
        self.cacheWrite5m = cacheWrite5m
        self.cacheWrite1h = cacheWrite1h
    }

    var isEmpty: Bool { self == ClassRates() }
}

/// Rates that apply to a whole request whose prompt is above `above` tokens.
public struct PriceTier: Sendable, Equatable {
    public let above: Int64
    public var rates: ClassRates
}

/// One row of a price table in LiteLLM's format, as pricing uses it.
///
/// Read fields (USD per token): `input_cost_per_token`, `output_cost_per_token`, `cache_read_input_token_cost`,
/// `cache_creation_input_token_cost` (5-minute writes), `cache_creation_input_token_cost_above_1hr` (1-hour
/// writes: "above_1hr" is the cache lifetime, not a token count), each also with `_above_<N>k_tokens` for the
/// long-context rate of a request above N × 1,000 prompt tokens; `tiered_pricing` (a list of whole-request
/// tiers, each with a `range` of prompt sizes, lower end exclusive); `provider_specific_entry.fast` (the
/// fast-mode multiplier). Service-tier variants (`_batches`, `_flex`, `_priority`, …) are not read: logs
/// rarely say which tier served a request, so standard rates apply. Every other field is ignored.
public struct ModelPrice: Sendable, Equatable {
    public let key: String
    public let provider: String?
    /// The row's `source`: where its prices were published.
    public let source: String?
    public var base: ClassRates
    /// Ascending by `above`.
    public var tiers: [PriceTier]
    public var fastMultiplier: Double?

    public init(
        key: String, provider: String? = nil, source: String? = nil, base: ClassRates, tiers: [PriceTier] = [],
        fastMultiplier: Double? = nil
    ) {
        self.key = key
        self.provider = provider
        self.source = source
        self.base = base
        self.tiers = tiers.sorted { $0.above < $1.above }
        self.fastMultiplier = fastMultiplier
    }

    /// A row without an input or an output rate prices nothing: its model is unpriced.
    public var isPriced: Bool { base.input != nil && base.output != nil }

    /// Anthropic's rows: missing cache rates then follow Anthropic's published multipliers.
    public var isAnthropic: Bool { (provider ?? "").contains("anthropic") || key.contains("claude") }

    static let classFields: [(name: String, path: any WritableKeyPath<ClassRates, Double?> & Sendable)] = [
        ("input_cost_per_token", \.input), ("output_cost_per_token", \.output),
        ("cache_read_input_token_cost", \.cacheRead), ("cache_creation_input_token_cost_above_1hr", \.cacheWrite1h),
        ("cache_creation_input_token_cost", \.cacheWrite5m),
    ]

    /// Parses one row. `problem` names the row and field of a value that is not a price.
    init(key: String, row: [String: Any]) throws(PriceRowError) {
        var base = ClassRates()
        var tiers: [Int64: ClassRates] = [:]
        for (field, value) in row {
            guard let (path, above) = ModelPrice.classField(field) else { continue }
            let rate = try ModelPrice.rate(value, field: field)
            if let above { tiers[above, default: ClassRates()][keyPath: path] = rate } else { base[keyPath: path] = rate }
        }
        if let list = row["tiered_pricing"] {
            guard let entries = list as? [Any] else { throw PriceRowError(field: "tiered_pricing", expected: "a list of tiers") }
            for (index, entry) in entries.enumerated() {
                let field = "tiered_pricing[\(index)]"
                guard let tier = entry as? [String: Any], let range = tier["range"] as? [Any], range.count == 2,
                    let low = ModelPrice.number(range[0]), low >= 0, low == low.rounded(), low < 1e12
                else { throw PriceRowError(field: field, expected: "an object with a range [from, to] of token counts") }
                var rates = ClassRates()
                for (name, value) in tier {
                    guard let (path, above) = ModelPrice.classField(name), above == nil else { continue }
                    rates[keyPath: path] = try ModelPrice.rate(value, field: field + "." + name)
                }
                if low == 0 {
                    if base.isEmpty { base = rates }
                } else {
                    tiers[Int64(low)] = rates
                }
            }
        }
        var fast: Double?
        if let specific = row["provider_specific_entry"] as? [String: Any], let value = specific["fast"] {
            guard let multiplier = ModelPrice.number(value), multiplier > 0, multiplier.isFinite else {
                throw PriceRowError(field: "provider_specific_entry.fast", expected: "a positive multiplier")
            }
            fast = multiplier
        }
        self.init(
            key: key, provider: row["litellm_provider"] as? String, source: row["source"] as? String, base: base,
            tiers: tiers.map { PriceTier(above: $0.key, rates: $0.value) }, fastMultiplier: fast)
    }

    /// The class a price field sets, and its threshold for `_above_<N>k_tokens` fields.
    static func classField(_ field: String) -> (WritableKeyPath<ClassRates, Double?>, Int64?)? {
        var name = Substring(field)
        var above: Int64?
        if name.hasSuffix("k_tokens"), let marker = name.range(of: "_above_", options: .backwards) {
            let digits = name[marker.upperBound..<name.index(name.endIndex, offsetBy: -"k_tokens".count)]
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let thousands = Int64(digits),
                thousands < 1_000_000_000
            else { return nil }
            above = thousands * 1000
            name = name[..<marker.lowerBound]
        }
        guard let path = classFields.first(where: { $0.name == name })?.path else { return nil }
        return (path, above)
    }

    static func rate(_ value: Any, field: String) throws(PriceRowError) -> Double {
        guard let rate = number(value), rate >= 0, rate.isFinite, rate < 1 else {
            throw PriceRowError(field: field, expected: "a number of USD per token (at least 0, below 1)")
        }
        return rate
    }

    /// A JSON number (never a string or a boolean), as `JSONParser.foundationValue` gives it.
    static func number(_ value: Any) -> Double? {
        switch value {
        case let number as Double: number
        case let number as Int64: Double(number)
        case let number as Int: Double(number)
        case let number as UInt64: Double(number)
        default: nil
        }
    }
}

/// What is wrong with a price row.
struct PriceRowError: Error {
    let field: String
    let expected: String
}
