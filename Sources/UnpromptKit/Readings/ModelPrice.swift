import Foundation

/// USD per token for each token class; nil where the price row gives no rate.
public struct ClassRates: Sendable, Equatable {
    public var input: Double?
    public var output: Double?
    public var cacheRead: Double?
    public var cacheWrite5m: Double?
    public var cacheWrite1h: Double?
    public var cacheWrite12h: Double?

    public init(
        input: Double? = nil, output: Double? = nil, cacheRead: Double? = nil, cacheWrite5m: Double? = nil,
        cacheWrite1h: Double? = nil, cacheWrite12h: Double? = nil
    ) {
        self.input = input
        self.output = output
        self.cacheRead = cacheRead
        self.cacheWrite5m = cacheWrite5m
        self.cacheWrite1h = cacheWrite1h
        self.cacheWrite12h = cacheWrite12h
    }

    var isEmpty: Bool { self == ClassRates() }
}

/// Rates that apply to a whole request whose prompt is above `above` tokens.
public struct PriceTier: Sendable, Equatable {
    public let above: Int64
    public var rates: ClassRates
}

/// A set of rates that replaces the standard ones for a request served another way: LiteLLM's `_priority`,
/// `_flex` and `_batches` fields, and `_fast` (this project's overlay, for fast-mode rates that are not one
/// multiplier of the standard ones, e.g. Opus 4.6 above 200K prompt tokens).
public enum PriceVariant: String, Sendable, CaseIterable {
    case priority, flex, batches, fast
}

/// Standard rates and long-context tiers of one variant.
public struct VariantRates: Sendable, Equatable {
    public var base = ClassRates()
    /// Ascending by `above`.
    public var tiers: [PriceTier] = []

    public init(base: ClassRates = ClassRates(), tiers: [PriceTier] = []) {
        self.base = base
        self.tiers = tiers.sorted { $0.above < $1.above }
    }
}

/// One row of a price table in LiteLLM's format, as pricing uses it.
///
/// Read fields (USD per token): `input_cost_per_token`, `output_cost_per_token`, `cache_read_input_token_cost`,
/// `cache_creation_input_token_cost` (5-minute writes), `cache_creation_input_token_cost_above_1hr` (1-hour
/// writes: "above_1hr" is the cache lifetime, not a token count), each also with `_above_<N>k_tokens` for the
/// long-context rate of a request above N × 1,000 prompt tokens, and each of those with a variant suffix
/// (`PriceVariant`); `tiered_pricing` (a list of whole-request tiers, each with a `range` of prompt sizes, lower
/// end exclusive); `provider_specific_entry.fast` (the fast-mode multiplier) and `.us` (US-only inference),
/// or `regional_processing_uplift_multiplier_us`; `search_context_cost_per_query` (USD per web search, its
/// `search_context_size_medium`, LiteLLM's default size). Every other field is ignored.
public struct ModelPrice: Sendable, Equatable {
    public let key: String
    public let provider: String?
    /// The row's `source`: where its prices were published.
    public let source: String?
    public var base: ClassRates
    /// Ascending by `above`.
    public var tiers: [PriceTier]
    public var fastMultiplier: Double?
    /// Rates of requests served with another tier or speed, where the row gives them.
    public var variants: [PriceVariant: VariantRates]
    /// Multiplier of every rate for a region (US-only inference).
    public var regionMultipliers: [InferenceRegion: Double]
    /// USD per web-search request.
    public var webSearchPerRequest: Double?

    public init(
        key: String, provider: String? = nil, source: String? = nil, base: ClassRates, tiers: [PriceTier] = [],
        fastMultiplier: Double? = nil, variants: [PriceVariant: VariantRates] = [:],
        regionMultipliers: [InferenceRegion: Double] = [:], webSearchPerRequest: Double? = nil
    ) {
        self.key = key
        self.provider = provider
        self.source = source
        self.base = base
        self.tiers = tiers.sorted { $0.above < $1.above }
        self.fastMultiplier = fastMultiplier
        self.variants = variants
        self.regionMultipliers = regionMultipliers
        self.webSearchPerRequest = webSearchPerRequest
    }

    /// The standard rates as a variant's.
    public var standard: VariantRates { VariantRates(base: base, tiers: tiers) }

    /// Rows in force on some days only (`dated_prices`), each whole, in date order; on other days this row is.
    public var dated: [DatedPrice] = []

    /// The row in force on `day` (days since 1970-01-01, UTC).
    public func inForce(onDay day: Int64) -> ModelPrice {
        dated.first { $0.covers(day) }?.price ?? self
    }

    /// A row without an input or an output rate prices nothing: its model is unpriced.
    public var isPriced: Bool { base.input != nil && base.output != nil }

    /// Anthropic's rows: missing cache rates then follow Anthropic's published multipliers.
    public var isAnthropic: Bool { (provider ?? "").contains("anthropic") || key.contains("claude") }

    static let classFields: [(name: String, path: any WritableKeyPath<ClassRates, Double?> & Sendable)] = [
        ("input_cost_per_token", \.input), ("output_cost_per_token", \.output),
        ("cache_read_input_token_cost", \.cacheRead), ("cache_creation_input_token_cost_above_1hr", \.cacheWrite1h),
        ("cache_creation_input_token_cost_above_12hr", \.cacheWrite12h), ("cache_creation_input_token_cost", \.cacheWrite5m),
    ]

    /// Parses one row. `problem` names the row and field of a value that is not a price.
    init(key: String, row: [String: Any]) throws(PriceRowError) {
        var base = ClassRates()
        var tiers: [Int64: ClassRates] = [:]
        var variantBase: [PriceVariant: ClassRates] = [:]
        var variantTiers: [PriceVariant: [Int64: ClassRates]] = [:]
        for (field, value) in row where ModelPrice.mentionsCost(field) {
            // Bytes, not `Substring.hasSuffix`: every field of every row of the bundled table passes here at start-up.
            var name = Array(field.utf8)[...]
            var variant: PriceVariant?
            if let found = ModelPrice.variantSuffixes.first(where: { name.count >= $0.suffix.count && name.suffix($0.suffix.count).elementsEqual($0.suffix) }) {
                variant = found.variant
                name = name.dropLast(found.suffix.count)
            }
            guard let (path, above) = ModelPrice.classField(name) else { continue }
            let rate = try ModelPrice.rate(value, field: field)
            switch (variant, above) {
            case (nil, nil): base[keyPath: path] = rate
            case (nil, let above?): tiers[above, default: ClassRates()][keyPath: path] = rate
            case (let variant?, nil): variantBase[variant, default: ClassRates()][keyPath: path] = rate
            case (let variant?, let above?): variantTiers[variant, default: [:]][above, default: ClassRates()][keyPath: path] = rate
            }
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
        let specific = row["provider_specific_entry"] as? [String: Any] ?? [:]
        func multiplier(_ value: Any?, _ field: String) throws(PriceRowError) -> Double? {
            guard let value else { return nil }
            guard let multiplier = ModelPrice.number(value), multiplier > 0, multiplier.isFinite else {
                throw PriceRowError(field: field, expected: "a positive multiplier")
            }
            return multiplier
        }
        let fast = try multiplier(specific["fast"], "provider_specific_entry.fast")
        var regions: [InferenceRegion: Double] = [:]
        let uplift = try multiplier(row["regional_processing_uplift_multiplier_us"], "regional_processing_uplift_multiplier_us")
        regions[.us] = try multiplier(specific["us"], "provider_specific_entry.us") ?? uplift
        var webSearch: Double?
        if let search = row["search_context_cost_per_query"] {
            guard let sizes = search as? [String: Any], let medium = sizes["search_context_size_medium"],
                let rate = ModelPrice.number(medium), rate >= 0, rate < 100
            else {
                throw PriceRowError(
                    field: "search_context_cost_per_query", expected: "an object with search_context_size_medium, in USD per search")
            }
            webSearch = rate
        }
        var variants: [PriceVariant: VariantRates] = [:]
        for variant in Set(variantBase.keys).union(variantTiers.keys) {
            variants[variant] = VariantRates(
                base: variantBase[variant] ?? ClassRates(),
                tiers: (variantTiers[variant] ?? [:]).map { PriceTier(above: $0.key, rates: $0.value) })
        }
        self.init(
            key: key, provider: row["litellm_provider"] as? String, source: row["source"] as? String, base: base,
            tiers: tiers.map { PriceTier(above: $0.key, rates: $0.value) }, fastMultiplier: fast, variants: variants,
            regionMultipliers: regions, webSearchPerRequest: webSearch)

        if let list = row["dated_prices"] { dated = try ModelPrice.dated(list, key: key, outer: row) }
    }

    /// `dated_prices: [{valid_from, valid_until, source, …price fields}]`: each a whole row in force from
    /// `valid_from` through `valid_until` (UTC dates, inclusive; either may be absent: open-ended), with its
    /// source. Windows must not overlap, so exactly one row is in force on any day.
    static func dated(_ list: Any, key: String, outer: [String: Any]) throws(PriceRowError) -> [DatedPrice] {
        guard let entries = list as? [Any], !entries.isEmpty else {
            throw PriceRowError(field: "dated_prices", expected: "a list of rows, each with valid_from or valid_until and a source")
        }
        var result: [DatedPrice] = []
        for (index, entry) in entries.enumerated() {
            let field = "dated_prices[\(index)]"
            guard var row = entry as? [String: Any], row["dated_prices"] == nil else {
                throw PriceRowError(field: field, expected: "a row of price fields (without dated_prices of its own)")
            }
            func date(_ name: String) throws(PriceRowError) -> Int64? {
                guard let value = row[name] else { return nil }
                guard let text = value as? String, let day = CivilDate.day(parsing: text) else {
                    throw PriceRowError(field: field + "." + name, expected: "a date YYYY-MM-DD")
                }
                return day
            }
            let from = try date("valid_from")
            let until = try date("valid_until")
            guard from != nil || until != nil, from ?? Int64.min <= until ?? Int64.max else {
                throw PriceRowError(field: field, expected: "valid_from or valid_until, the first not after the second")
            }
            guard row["source"] is String else { throw PriceRowError(field: field + ".source", expected: "where the price was published") }
            if row["litellm_provider"] == nil { row["litellm_provider"] = outer["litellm_provider"] }
            let price: ModelPrice
            do {
                price = try ModelPrice(key: key, row: row)
            } catch {
                throw PriceRowError(field: field + "." + error.field, expected: error.expected)
            }
            guard price.isPriced else { throw PriceRowError(field: field, expected: "an input and an output price") }
            let dated = DatedPrice(validFrom: from, validUntil: until, price: price)
            if result.contains(where: { $0.overlaps(dated) }) {
                throw PriceRowError(field: field, expected: "dates that no other dated row of this model covers")
            }
            result.append(dated)
        }
        return result.sorted { ($0.validFrom ?? Int64.min) < ($1.validFrom ?? Int64.min) }
    }

    /// The class a price field sets, and its threshold for `_above_<N>k_tokens` fields.
    /// Whether `field` holds `cost`, as every class field's name does: most of a row's fields (limits, modes,
    /// `supports_…` flags) are passed over without looking for a variant or a tier in them.
    static func mentionsCost(_ field: String) -> Bool {
        // "cost" repeats no letter, so after a mismatch only a new "c" can start a match.
        var matched = 0
        for byte in field.utf8 {
            if byte == costBytes[matched] {
                matched += 1
                if matched == costBytes.count { return true }
            } else {
                matched = byte == costBytes[0] ? 1 : 0
            }
        }
        return false
    }

    private static let costBytes = Array("cost".utf8)

    static func classField(_ field: String) -> (WritableKeyPath<ClassRates, Double?>, Int64?)? {
        classField(Array(field.utf8)[...])
    }

    /// `classField` of a field's UTF-8 bytes.
    static func classField(_ field: ArraySlice<UInt8>) -> (WritableKeyPath<ClassRates, Double?>, Int64?)? {
        var name = field
        var above: Int64?
        if name.count > tokensSuffix.count, name.suffix(tokensSuffix.count).elementsEqual(tokensSuffix),
            let marker = lastStart(of: aboveMarker, in: name.dropLast(tokensSuffix.count))
        {
            let digits = name[(marker + aboveMarker.count)..<(name.endIndex - tokensSuffix.count)]
            var thousands: Int64 = 0
            for byte in digits {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                thousands = thousands * 10 + Int64(byte - UInt8(ascii: "0"))
                if thousands >= 1_000_000_000 { return nil }
            }
            guard !digits.isEmpty else { return nil }
            above = thousands * 1000
            name = name[..<marker]
        }
        guard let path = classFields.first(where: { $0.name.utf8.elementsEqual(name) })?.path else { return nil }
        return (path, above)
    }

    /// Each variant's field suffix (`_priority`), as bytes.
    private static let variantSuffixes = PriceVariant.allCases.map { (variant: $0, suffix: Array(("_" + $0.rawValue).utf8)) }
    private static let tokensSuffix = Array("k_tokens".utf8)
    private static let aboveMarker = Array("_above_".utf8)

    /// Where the last occurrence of `marker` in `bytes` starts (an index of `bytes`), if any.
    private static func lastStart(of marker: [UInt8], in bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count >= marker.count else { return nil }
        var start = bytes.endIndex - marker.count
        while start >= bytes.startIndex {
            if bytes[start..<(start + marker.count)].elementsEqual(marker) { return start }
            start -= 1
        }
        return nil
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

/// A row in force on the days from `validFrom` through `validUntil` (days since 1970-01-01, UTC, inclusive;
/// nil: open-ended).
public struct DatedPrice: Sendable, Equatable {
    public let validFrom: Int64?
    public let validUntil: Int64?
    public let price: ModelPrice

    public func covers(_ day: Int64) -> Bool { day >= (validFrom ?? Int64.min) && day <= (validUntil ?? Int64.max) }

    func overlaps(_ other: DatedPrice) -> Bool {
        (validFrom ?? Int64.min) <= (other.validUntil ?? Int64.max) && (other.validFrom ?? Int64.min) <= (validUntil ?? Int64.max)
    }
}

/// What is wrong with a price row.
struct PriceRowError: Error {
    let field: String
    let expected: String
}
