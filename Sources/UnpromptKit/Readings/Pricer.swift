/// Prices buckets with a price table: the cost of a bucket is the sum, over its token classes, of tokens
/// times the class's rate, with every class of a request above a long-context threshold at that tier's rate.
///
/// Rules (docs/METHOD.md, "Cost"):
/// - Counts are disjoint (`TokenCounts`): uncached input, cache reads, 5-minute and 1-hour cache writes and
///   output are each billed once at their own rate. Reasoning is inside output and billed as output; the
///   `reasoning` count is never added again.
/// - 1-hour cache writes use `cache_creation_input_token_cost_above_1hr`.
/// - A request whose prompt (input + cache read + cache writes) is above a row's threshold is billed
///   *entirely* at that tier's rates (the highest threshold it is above); a class the tier does not price
///   keeps its base rate and the tokens are counted as approximate.
/// - A missing cache rate falls back, as approximate: on Anthropic rows to Anthropic's multipliers of input
///   (read 0.1×, 5-minute write 1.25×, 1-hour write 2×), elsewhere to the input rate (1-hour writes to the
///   5-minute write rate when there is one).
/// - A model with no price row is unpriced: its tokens and events are counted as uncosted, never as $0.
/// - A bucket with a logged cost and no tokens (a tool that logs only a cost) shows its logged cost in every
///   mode, since there is nothing to calculate from.
///
/// Model ids are resolved once per pricer (it caches them), so one pricer serves one view, from any thread.
public final class Pricer: Sendable {
    public let table: PriceTable
    public let mode: CostMode
    private let resolutions = Locked<[String: PriceResolution?]>([:])

    public init(table: PriceTable, mode: CostMode = .calculate) {
        self.table = table
        self.mode = mode
    }

    public func resolution(of model: String) -> PriceResolution? {
        if let cached = resolutions.withLock({ $0[model] }) { return cached }
        let resolved = table.resolve(model)
        resolutions.withLock { $0[model] = resolved }
        return resolved
    }

    public func reading(of rows: some Sequence<BucketRow>) -> CostReading {
        var total = CostReading()
        for row in rows { total += reading(of: row) }
        return total
    }

    public func reading(of row: BucketRow) -> CostReading {
        var reading = CostReading()
        reading.estimatedEvents = row.estimatedEvents
        reading.serverTools = row.serverTools
        let tokens = row.counts.total
        // Records with a cost and no tokens (a tool that logs only its cost) have nothing to calculate
        // from: their logged cost stands in every mode.
        if row.costLogged, mode != .calculate || tokens == 0 {
            let usd = Double(row.loggedCostNanos) / 1e9
            reading.usd = usd
            reading.loggedUSD = usd
            reading.costedEvents = row.events
            reading.loggedEvents = row.events
            reading.costedTokens = tokens
            return reading
        }
        guard mode != .logged, let resolution = resolution(of: row.model) else {
            reading.uncostedTokens = tokens
            reading.uncostedEvents = row.events
            if mode != .logged { reading.unpricedModels = [row.model] }
            return reading
        }
        // The row in force on the bucket's UTC day (dated overlay rows).
        let price = resolution.price.inForce(onDay: CivilDate.floorDivide(row.quarter, LocalCalendar.quartersPerDay))
        let cost = Pricer.cost(
            row.counts, band: row.contextAbove, price: price, fast: resolution.fast,
            dimensions: row.dimensions, serverTools: row.serverTools)
        reading.usd = cost.usd
        reading.assumed = cost.assumed
        reading.costedEvents = row.events
        reading.costedTokens = tokens
        reading.approximateTokens = cost.approximate ? tokens : 0
        return reading
    }

    /// The cost of counts whose requests all fall in one context band and share their price dimensions, whether
    /// an assumed rate was used, and which dimensions were assumed standard (docs/METHOD.md, "Cost"):
    /// 1. The rate set: the tier's variant rates (`_priority`, `_flex`, `_batches`) when the row has them, else
    ///    the standard rates (a tier the row does not price is billed at standard, as assumed); for fast mode,
    ///    the row's `_fast` rates when it has them.
    /// 2. Tokens × rates, with long-context tiers as before.
    /// 3. Fast mode without `_fast` rates: × `provider_specific_entry.fast` (no multiplier: standard, approximate).
    /// 4. A region: × its multiplier, when the row has one.
    /// 5. Plus web searches × the row's per-search rate (no rate: not costed, approximate).
    public static func cost(
        _ counts: TokenCounts, band: Int64, price: ModelPrice, fast: Bool = false,
        dimensions: PriceDimensions = PriceDimensions(speed: .standard, tier: .standard, region: .global),
        serverTools: ServerToolCounts = .zero
    ) -> (usd: Double, approximate: Bool, assumed: Set<CostAssumption>) {
        var assumed: Set<CostAssumption> = []
        if dimensions.speed == nil, !fast { assumed.insert(.standardSpeed) }
        if dimensions.tier == nil { assumed.insert(.standardTier) }
        if dimensions.region == nil { assumed.insert(.standardRegion) }
        let isFast = fast || dimensions.speed == .fast
        var rates = price.standard
        var variantLacksTier = false
        switch dimensions.tier {
        case .priority?, .flex?, .batch?:
            let variant: PriceVariant = dimensions.tier == .priority ? .priority : dimensions.tier == .flex ? .flex : .batches
            if let found = price.variants[variant] { rates = found } else { assumed.insert(.standardRateForTier) }
            // A variant without long-context rows cannot say what a long request costs at that tier.
            if rates.tiers.isEmpty, price.tiers.contains(where: { band >= $0.above }) { variantLacksTier = true }
        case .standard?, nil: break
        }
        let fastRates = isFast ? price.variants[.fast] : nil
        if let fastRates { rates = fastRates }
        var (usd, approximate) = cost(counts, band: band, rates: rates, anthropic: price.isAnthropic)
        if variantLacksTier { approximate = true }
        if isFast, fastRates == nil {
            if let multiplier = price.fastMultiplier { usd *= multiplier } else { approximate = true }
        }
        if let region = dimensions.region, let multiplier = price.regionMultipliers[region] { usd *= multiplier }
        if serverTools.webSearch > 0 {
            if let rate = price.webSearchPerRequest { usd += Double(serverTools.webSearch) * rate } else { approximate = true }
        }
        return (usd, approximate, assumed)
    }

    /// Tokens × one rate set's rates, with every class of a request above a long-context threshold at that
    /// tier's rate.
    static func cost(_ counts: TokenCounts, band: Int64, rates price: VariantRates, anthropic: Bool)
        -> (usd: Double, approximate: Bool)
    {
        var approximate = false
        var tier: ClassRates?
        if !price.tiers.isEmpty {
            if band == ContextBand.unknown {
                approximate = true
            } else {
                tier = price.tiers.last { band >= $0.above }?.rates
                // A threshold between this band and the next cannot be decided for these requests.
                let next = ContextBand.next(after: band) ?? Int64.max
                if price.tiers.contains(where: { $0.above > band && $0.above < next }) { approximate = true }
            }
        }
        let base = price.base
        let input = tier?.input ?? base.input ?? 0
        func rate(_ path: KeyPath<ClassRates, Double?>, tokens: Int64, fallback: () -> Double) -> Double {
            guard tokens != 0 else { return 0 }
            if let tier {
                if let value = tier[keyPath: path] { return value }
                approximate = true
            }
            if let value = base[keyPath: path] { return value }
            approximate = true
            return fallback()
        }
        let output = rate(\.output, tokens: counts.output) { 0 }
        let uncached = rate(\.input, tokens: counts.input) { 0 }
        let read = rate(\.cacheRead, tokens: counts.cacheRead) { anthropic ? input * 0.1 : input }
        let write5m = rate(\.cacheWrite5m, tokens: counts.cacheWrite5m) { anthropic ? input * 1.25 : input }
        let write1h = rate(\.cacheWrite1h, tokens: counts.cacheWrite1h) {
            anthropic ? input * 2 : (tier?.cacheWrite5m ?? base.cacheWrite5m ?? input)
        }
        // OpenAI's 12-hour write costs twice its default (30-minute) one, where a row lacks the rate.
        let write12h = rate(\.cacheWrite12h, tokens: counts.cacheWrite12h) { 2 * (tier?.cacheWrite5m ?? base.cacheWrite5m ?? input) }
        let usd = Double(counts.input) * uncached + Double(counts.cacheRead) * read
            + Double(counts.cacheWrite5m) * write5m + Double(counts.cacheWrite1h) * write1h
            + Double(counts.cacheWrite12h) * write12h + Double(counts.output) * output
        return (usd, approximate)
    }
}
