import Foundation

/// The price table, water method and cost mode that a view's cost and water are read with.
///
/// Nothing is fetched: the data files ship with the program (`ReadingsLocation`), and the person may add an
/// override (`prices.json` in the `ConfigDirectory`).
public struct Readings: Sendable {
    public let table: PriceTable
    public let water: WaterEstimator
    public let mode: CostMode
    public let pricer: Pricer
    public let pricingDirectory: String
    /// The override file's path when it exists (never printed: views say "in force").
    public let overridePath: String?

    public static let waterFile = "water-method-v1.json"

    /// The dates of the data a view would read with, for `--version`: the price table's manifest and the water
    /// method, read without the table itself.
    public struct Dates: Sendable {
        public let table: PriceManifest
        public let water: WaterMethod
    }

    public static func dates(location: ReadingsLocation) throws(ReadingsUnavailable) -> Dates {
        let (pricing, water) = try directories(location)
        do {
            return Dates(
                table: try PriceTable.manifest(at: pricing + "/manifest.json"),
                water: try WaterMethod.load(path: water + "/" + waterFile))
        } catch {
            throw ReadingsUnavailable(message: error.description)
        }
    }

    private static func directories(_ location: ReadingsLocation) throws(ReadingsUnavailable) -> (pricing: String, water: String) {
        guard let pricing = location.pricingDirectory, let water = location.waterDirectory else {
            throw ReadingsUnavailable(
                message: "no pricing/ or water/ data directory found beside the binary; set \(ReadingsLocation.pricingVariable) and \(ReadingsLocation.waterVariable)")
        }
        return (pricing, water)
    }

    /// With `models`, the price table holds only the rows those models resolve to (`PriceTable.load(…models:)`).
    public static func load(mode: CostMode, location: ReadingsLocation, models: Set<String>? = nil) throws(ReadingsUnavailable)
        -> Readings
    {
        let (pricing, water) = try directories(location)
        do {
            let table: PriceTable
            if let models {
                table = try PriceTable.load(directory: pricing, override: location.overridePath, models: models)
            } else {
                table = try PriceTable.load(
                    directory: pricing, override: location.overridePath,
                    cache: location.cacheDirectory.flatMap { CacheFile.forThisProgram(path: $0 + "/prices.cache") }
                        .map(PriceTableCache.init))
            }
            let method = try WaterMethod.load(path: water + "/" + waterFile)
            return Readings(
                table: table, water: WaterEstimator(method: method), mode: mode, pricer: Pricer(table: table, mode: mode),
                pricingDirectory: pricing,
                overridePath: FileManager.default.fileExists(atPath: location.overridePath) ? location.overridePath : nil)
        } catch {
            throw ReadingsUnavailable(message: error.description)
        }
    }
}

/// Where the price and water data are: `$UNPROMPT_PRICING_DIR` / `$UNPROMPT_WATER_DIR`, else the
/// directories shipped with the front end (`builtIn`), and the person's override in the `ConfigDirectory`.
public struct ReadingsLocation: Sendable {
    public static let pricingVariable = "UNPROMPT_PRICING_DIR"
    public static let waterVariable = "UNPROMPT_WATER_DIR"

    public var pricingDirectory: String?
    public var waterDirectory: String?
    public var overridePath: String
    /// Where the price table is remembered as found valid (`PriceTableCache`); nil: checked whole every time.
    public var cacheDirectory: String?

    public init(pricingDirectory: String?, waterDirectory: String?, overridePath: String, cacheDirectory: String? = nil) {
        self.pricingDirectory = pricingDirectory
        self.waterDirectory = waterDirectory
        self.overridePath = overridePath
        self.cacheDirectory = cacheDirectory
    }

    /// `builtIn` gives a shipped data directory by name (`pricing`, `water`), or nil.
    public static func find(environment: [String: String], home: String, builtIn: (String) -> String?) -> ReadingsLocation {
        func directory(_ name: String, _ variable: String) -> String? {
            if let given = environment[variable], !given.isEmpty { return given }
            return builtIn(name)
        }
        return ReadingsLocation(
            pricingDirectory: directory("pricing", pricingVariable), waterDirectory: directory("water", waterVariable),
            overridePath: ConfigDirectory.path(environment: environment, home: home) + "/prices.json",
            cacheDirectory: CacheDirectory.path(environment: environment, home: home))
    }
}

/// The price or water data cannot be used.
public struct ReadingsUnavailable: Error, Sendable {
    public let message: String
}
