import Foundation

/// Low, central and high values of one estimate.
public struct WaterRange: Sendable, Equatable {
    public var low: Double
    public var central: Double
    public var high: Double

    public init(low: Double, central: Double, high: Double) {
        self.low = low
        self.central = central
        self.high = high
    }

    public static let zero = WaterRange(low: 0, central: 0, high: 0)

    public static func += (a: inout WaterRange, b: WaterRange) {
        a.low += b.low
        a.central += b.central
        a.high += b.high
    }
}

/// Estimated water, in liters: the total and its on-site part (cooling at the data centre); the rest is
/// off-site (consumed generating the electricity).
public struct WaterReading: Sendable, Equatable {
    public var liters = WaterRange.zero
    public var onSiteLiters = WaterRange.zero

    public init() {}

    public static func += (a: inout WaterReading, b: WaterReading) {
        a.liters += b.liters
        a.onSiteLiters += b.onSiteLiters
    }
}

/// The water method (docs/METHOD.md, "Water"), with its factors read from a versioned data file:
///
///     outputEquivalent = output + 0.05·input + 0.05·(every cache write) + 0.005·cacheRead
///     energy (Wh)      = outputEquivalent / 1000 × e_out × classFactor          (facility energy)
///     water (mL)       = energy × (WUE_site / PUE + EWIF)                        (L/kWh = mL/Wh)
///
/// The low, central and high values each take that end of every factor. Output includes reasoning.
public struct WaterMethod: Sendable {
    public let version: String
    public let date: String
    public let weights: (output: Double, input: Double, cacheWrite: Double, cacheRead: Double)
    public let energyWhPerThousand: WaterRange
    public let onSiteLitersPerKWhIT: WaterRange
    public let pue: WaterRange
    public let offSiteLitersPerKWh: WaterRange
    public let classFactors: [String: Double]
    /// In order: the first rule whose text the normalized model id contains gives its class.
    public let classRules: [(class: String, contains: String)]

    /// The class of a model (`small`, `medium`, `large` or `unknown`).
    public func modelClass(_ model: String) -> String {
        let id = ModelNormalizer.normalized(model)
        return classRules.first { id.contains($0.contains) }?.class ?? "unknown"
    }

    /// The class factor of a model (normalizing its id: cache it when pricing many rows, see `WaterEstimator`).
    public func classFactor(_ model: String) -> Double {
        classFactors[modelClass(model)] ?? classFactors["unknown"] ?? 1
    }

    public func reading(_ counts: TokenCounts, model: String) -> WaterReading {
        reading(counts, classFactor: classFactor(model))
    }

    public func reading(_ counts: TokenCounts, classFactor factor: Double) -> WaterReading {
        let equivalent = weights.output * Double(counts.output) + weights.input * Double(counts.input)
            + weights.cacheWrite * Double(counts.cacheWrite)
            + weights.cacheRead * Double(counts.cacheRead)
        func liters(_ e: Double, _ wue: Double, _ pue: Double, _ ewif: Double) -> (Double, Double) {
            let wattHours = equivalent / 1000 * e * factor
            return (wattHours * (wue / pue + ewif) / 1000, wattHours * (wue / pue) / 1000)
        }
        let low = liters(energyWhPerThousand.low, onSiteLitersPerKWhIT.low, pue.low, offSiteLitersPerKWh.low)
        let central = liters(
            energyWhPerThousand.central, onSiteLitersPerKWhIT.central, pue.central, offSiteLitersPerKWh.central)
        let high = liters(energyWhPerThousand.high, onSiteLitersPerKWhIT.high, pue.high, offSiteLitersPerKWh.high)
        var reading = WaterReading()
        reading.liters = WaterRange(low: low.0, central: central.0, high: high.0)
        reading.onSiteLiters = WaterRange(low: low.1, central: central.1, high: high.1)
        return reading
    }

    // MARK: Loading

    /// Reads a water method file (`water/water-method-v1.json`); every factor must be present and positive.
    public static func load(path: String) throws(PriceDataError) -> WaterMethod {
        let object = try PriceTable.object(at: path)
        func fail(_ message: String) -> PriceDataError { PriceDataError(file: path, message: message) }
        func number(_ value: Any?, _ field: String) throws(PriceDataError) -> Double {
            guard let value = value.flatMap(ModelPrice.number), value.isFinite, value >= 0 else {
                throw fail("field '\(field)' must be a number, at least 0")
            }
            return value
        }
        func range(_ field: String) throws(PriceDataError) -> WaterRange {
            let entry = object[field] as? [String: Any]
            let result = WaterRange(
                low: try number(entry?["low"], field + ".low"), central: try number(entry?["central"], field + ".central"),
                high: try number(entry?["high"], field + ".high"))
            guard result.low <= result.central, result.central <= result.high else {
                throw fail("field '\(field)' must have low ≤ central ≤ high")
            }
            return result
        }
        guard let version = object["version"] as? String, let date = object["date"] as? String else {
            throw fail("fields 'version' and 'date' must be strings")
        }
        let weights = object["tokenWeights"] as? [String: Any]
        let pue = try range("pue")
        guard pue.low > 0 else { throw fail("field 'pue.low' must be above 0") }
        guard let factors = object["classFactors"] as? [String: Any], factors["unknown"] != nil else {
            throw fail("field 'classFactors' must be an object with an 'unknown' factor")
        }
        var classFactors: [String: Double] = [:]
        for (name, value) in factors { classFactors[name] = try number(value, "classFactors." + name) }
        guard let rules = object["classRules"] as? [Any] else { throw fail("field 'classRules' must be a list") }
        var classRules: [(class: String, contains: String)] = []
        for (index, rule) in rules.enumerated() {
            guard let rule = rule as? [String: Any], let name = rule["class"] as? String, classFactors[name] != nil,
                let text = rule["contains"] as? String, !text.isEmpty
            else { throw fail("classRules[\(index)] must have a 'class' named in classFactors and a 'contains' text") }
            classRules.append((name, text))
        }
        return WaterMethod(
            version: version, date: date,
            weights: (
                try number(weights?["output"], "tokenWeights.output"), try number(weights?["input"], "tokenWeights.input"),
                try number(weights?["cacheWrite"], "tokenWeights.cacheWrite"),
                try number(weights?["cacheRead"], "tokenWeights.cacheRead")
            ),
            energyWhPerThousand: try range("energyWhPerThousandOutputEquivalent"),
            onSiteLitersPerKWhIT: try range("onSiteLitersPerKWhIT"), pue: pue,
            offSiteLitersPerKWh: try range("offSiteLitersPerKWh"), classFactors: classFactors, classRules: classRules)
    }
}

/// The water method applied to many buckets, classifying each model id once (from any thread).
public final class WaterEstimator: Sendable {
    public let method: WaterMethod
    private let factors = Locked<[String: Double]>([:])

    public init(method: WaterMethod) { self.method = method }

    public func reading(_ counts: TokenCounts, model: String) -> WaterReading {
        if let factor = factors.withLock({ $0[model] }) { return method.reading(counts, classFactor: factor) }
        let factor = method.classFactor(model)
        factors.withLock { $0[model] = factor }
        return method.reading(counts, classFactor: factor)
    }

    public func reading(of rows: some Sequence<BucketRow>) -> WaterReading {
        var total = WaterReading()
        for row in rows { total += reading(row.counts, model: row.model) }
        return total
    }
}

/// A day's "bottle level": its central water estimate as a share of the fullest day among the 30 days up to
/// and including it (days without use count as empty). The fullest recent day fills the bottle; a level says
/// how this day compares with the user's own recent days, never with a goal or a good/bad scale.
public enum BottleLevel: Sendable {
    public static let windowDays: Int64 = 30

    /// Levels (0…1) for `days`, from central liters per day (missing days are 0). A day whose window holds
    /// no water at all has no level.
    public static func levels(liters: [Int64: Double], days: [Int64]) -> [Int64: Double] {
        var result: [Int64: Double] = [:]
        for day in days {
            let fullest = ((day - windowDays + 1)...day).map { liters[$0] ?? 0 }.max() ?? 0
            if fullest > 0 { result[day] = (liters[day] ?? 0) / fullest }
        }
        return result
    }
}
