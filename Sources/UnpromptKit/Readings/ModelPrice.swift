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

    /// Parses one row, an object of `parser`'s document. `PriceRowError` names the field of a value that is not a
    /// price. A dated row without a provider takes `inheritedProvider`, its outer row's.
    init(key: String, row: JSONRef, in parser: JSONParser, inheritedProvider: String? = nil) throws(PriceRowError) {
        let row = PriceFields(row, parser)
        var base = ClassRates()
        var tiers: [Int64: ClassRates] = [:]
        var variantBase: [PriceVariant: ClassRates] = [:]
        var variantTiers: [PriceVariant: [Int64: ClassRates]] = [:]
        for (field, value) in row.entries where ModelPrice.mentionsCost(field) {
            var name = field[...]
            var variant: PriceVariant?
            if let found = ModelPrice.variantSuffixes.first(where: { ModelPrice.equal(name.suffix($0.suffix.count), $0.suffix) }) {
                variant = found.variant
                name = name.dropLast(found.suffix.count)
            }
            guard let (path, above) = ModelPrice.classField(name) else { continue }
            let rate = try ModelPrice.rate(parser.value(of: value)) { String(decoding: field, as: UTF8.self) }
            switch (variant, above) {
            case (nil, nil): base[keyPath: path] = rate
            case (nil, let above?): tiers[above, default: ClassRates()][keyPath: path] = rate
            case (let variant?, nil): variantBase[variant, default: ClassRates()][keyPath: path] = rate
            case (let variant?, let above?): variantTiers[variant, default: [:]][above, default: ClassRates()][keyPath: path] = rate
            }
        }
        if let list = row["tiered_pricing"] {
            guard case .array(let entries) = list else { throw PriceRowError(field: "tiered_pricing", expected: "a list of tiers") }
            for (index, entry) in parser.elements(of: entries).enumerated() {
                let field = "tiered_pricing[\(index)]"
                let tier = PriceFields(entry, parser)
                guard case .object = parser.value(of: entry), case .array(let range)? = tier["range"], case let ends = parser.elements(of: range),
                    ends.count == 2, let low = ModelPrice.number(parser.value(of: ends[0])), low >= 0, low == low.rounded(), low < 1e12
                else { throw PriceRowError(field: field, expected: "an object with a range [from, to] of token counts") }
                var rates = ClassRates()
                for (name, value) in tier.entries {
                    guard let (path, above) = ModelPrice.classField(name[...]), above == nil else { continue }
                    rates[keyPath: path] = try ModelPrice.rate(parser.value(of: value)) { field + "." + String(decoding: name, as: UTF8.self) }
                }
                if low == 0 {
                    if base.isEmpty { base = rates }
                } else {
                    tiers[Int64(low)] = rates
                }
            }
        }
        var specific: PriceFields?
        if case .object(let entry)? = row["provider_specific_entry"] { specific = PriceFields(entry, parser) }
        func multiplier(_ value: JSONValue?, _ field: String) throws(PriceRowError) -> Double? {
            guard let value else { return nil }
            guard let multiplier = ModelPrice.number(value), multiplier > 0, multiplier.isFinite else {
                throw PriceRowError(field: field, expected: "a positive multiplier")
            }
            return multiplier
        }
        let fast = try multiplier(specific?["fast"], "provider_specific_entry.fast")
        var regions: [InferenceRegion: Double] = [:]
        let uplift = try multiplier(row["regional_processing_uplift_multiplier_us"], "regional_processing_uplift_multiplier_us")
        regions[.us] = try multiplier(specific?["us"], "provider_specific_entry.us") ?? uplift
        var webSearch: Double?
        if let search = row["search_context_cost_per_query"] {
            guard case .object(let sizes) = search, let medium = PriceFields(sizes, parser)["search_context_size_medium"],
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
        let provider = row.contains("litellm_provider") ? row.text("litellm_provider") : inheritedProvider
        self.init(
            key: key, provider: provider, source: row.text("source"), base: base,
            tiers: tiers.map { PriceTier(above: $0.key, rates: $0.value) }, fastMultiplier: fast, variants: variants,
            regionMultipliers: regions, webSearchPerRequest: webSearch)

        if let list = row["dated_prices"] { dated = try ModelPrice.dated(list, key: key, provider: provider, in: parser) }
    }

    /// `dated_prices: [{valid_from, valid_until, source, …price fields}]`: each a whole row in force from
    /// `valid_from` through `valid_until` (UTC dates, inclusive; either may be absent: open-ended), with its
    /// source. Windows must not overlap, so exactly one row is in force on any day.
    static func dated(_ list: JSONValue, key: String, provider: String?, in parser: JSONParser) throws(PriceRowError) -> [DatedPrice] {
        guard case .array(let array) = list, case let entries = parser.elements(of: array), !entries.isEmpty else {
            throw PriceRowError(field: "dated_prices", expected: "a list of rows, each with valid_from or valid_until and a source")
        }
        var result: [DatedPrice] = []
        for (index, entry) in entries.enumerated() {
            let field = "dated_prices[\(index)]"
            let row = PriceFields(entry, parser)
            guard case .object = parser.value(of: entry), !row.contains("dated_prices") else {
                throw PriceRowError(field: field, expected: "a row of price fields (without dated_prices of its own)")
            }
            func date(_ name: String) throws(PriceRowError) -> Int64? {
                guard let value = row[name] else { return nil }
                guard case .string(let text) = value, let day = CivilDate.day(parsing: String(decoding: text, as: UTF8.self)) else {
                    throw PriceRowError(field: field + "." + name, expected: "a date YYYY-MM-DD")
                }
                return day
            }
            let from = try date("valid_from")
            let until = try date("valid_until")
            guard from != nil || until != nil, from ?? Int64.min <= until ?? Int64.max else {
                throw PriceRowError(field: field, expected: "valid_from or valid_until, the first not after the second")
            }
            guard row.text("source") != nil else { throw PriceRowError(field: field + ".source", expected: "where the price was published") }
            let price: ModelPrice
            do {
                price = try ModelPrice(key: key, row: entry, in: parser, inheritedProvider: provider)
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
    static func mentionsCost(_ field: String) -> Bool { mentionsCost(bytes: field.utf8) }

    static func mentionsCost(_ field: UnsafeRawBufferPointer) -> Bool { mentionsCost(bytes: field) }

    private static func mentionsCost(bytes field: some Sequence<UInt8>) -> Bool {
        // "cost" repeats no letter, so after a mismatch only a new "c" can start a match.
        var matched = 0
        for byte in field {
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
        var field = field
        return field.withUTF8 { classField(UnsafeRawBufferPointer($0)[...]) }
    }

    /// `classField` of a field's UTF-8 bytes.
    static func classField(_ field: Slice<UnsafeRawBufferPointer>) -> (WritableKeyPath<ClassRates, Double?>, Int64?)? {
        var name = field
        var above: Int64?
        if name.count > tokensSuffix.count, equal(name.suffix(tokensSuffix.count), tokensSuffix),
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
        guard let path = classFieldNames.first(where: { equal(name, $0.name) })?.path else { return nil }
        return (path, above)
    }

    /// `classFields`' names as bytes.
    private static let classFieldNames = classFields.map { (name: Array($0.name.utf8), path: $0.path) }

    /// Whether `bytes` are exactly `literal`: a length, then one `memcmp` (every field of every row passes here).
    private static func equal(_ bytes: Slice<UnsafeRawBufferPointer>, _ literal: [UInt8]) -> Bool {
        bytes.count == literal.count
            && literal.withUnsafeBytes { literal in
                literal.isEmpty || memcmp(UnsafeRawBufferPointer(rebasing: bytes).baseAddress!, literal.baseAddress!, literal.count) == 0
            }
    }

    /// Each variant's field suffix (`_priority`), as bytes.
    private static let variantSuffixes = PriceVariant.allCases.map { (variant: $0, suffix: Array(("_" + $0.rawValue).utf8)) }
    private static let tokensSuffix = Array("k_tokens".utf8)
    private static let aboveMarker = Array("_above_".utf8)

    /// Where the last occurrence of `marker` in `bytes` starts (an index of `bytes`), if any.
    private static func lastStart(of marker: [UInt8], in bytes: Slice<UnsafeRawBufferPointer>) -> Int? {
        guard bytes.count >= marker.count else { return nil }
        var start = bytes.endIndex - marker.count
        while start >= bytes.startIndex {
            if equal(bytes[start..<(start + marker.count)], marker) { return start }
            start -= 1
        }
        return nil
    }

    /// `field` names the field when the value is no rate (made only then).
    static func rate(_ value: JSONValue, field: () -> String) throws(PriceRowError) -> Double {
        guard let rate = number(value), rate >= 0, rate.isFinite, rate < 1 else {
            throw PriceRowError(field: field(), expected: "a number of USD per token (at least 0, below 1)")
        }
        return rate
    }

    /// A JSON number (never a string or a boolean).
    static func number(_ value: JSONValue) -> Double? {
        switch value {
        case .double(let number): number
        case .int(let number): Double(number)
        case .uint(let number): Double(number)
        default: nil
        }
    }

    /// A JSON number as `JSONParser.foundationValue` gives it (the manifest's and the water method's).
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

/// The fields of a JSON object as a price row reads them, by their names' bytes: a name written twice is its first
/// writing.
struct PriceFields {
    private let parser: JSONParser
    let entries: [(key: UnsafeRawBufferPointer, value: JSONRef)]

    init(_ object: JSONRef, _ parser: JSONParser) {
        self.parser = parser
        let all = parser.entriesByBytes(of: object)
        var entries: [(key: UnsafeRawBufferPointer, value: JSONRef)] = []
        entries.reserveCapacity(all.count)
        written: for (index, entry) in all.enumerated() {
            for earlier in all[..<index] where Self.same(earlier.key, entry.key) { continue written }
            entries.append(entry)
        }
        self.entries = entries
    }

    func contains(_ name: String) -> Bool { self[name] != nil }

    subscript(name: String) -> JSONValue? {
        var name = name
        return name.withUTF8 { name in
            entries.first { Self.same($0.key, UnsafeRawBufferPointer(name)) }.map { parser.value(of: $0.value) }
        }
    }

    /// The field's text when it is a string.
    func text(_ name: String) -> String? {
        guard case .string(let bytes)? = self[name] else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func same(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        a.count == b.count && (a.count == 0 || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
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
