import Foundation
import UnpromptKit

/// The price table, water method and cost mode a view shows its readings with.
///
/// Found like the readers: `$UNPROMPT_PRICING_DIR` / `$UNPROMPT_WATER_DIR`, else `share/unprompt-scan/pricing`
/// and `…/water` beside an installed binary, else the checkout's `pricing/` and `water/`. The user's
/// override is `prices.json` in the config directory (`ReadingsLocation.overridePath`). Nothing is fetched.
struct Readings {
    let table: PriceTable
    let water: WaterEstimator
    let mode: CostMode
    let pricer: Pricer
    let pricingDirectory: String
    /// The override file's path when it exists (never printed: views say "in force").
    let overridePath: String?

    /// `--cost-mode calculate|auto|logged`, by default `calculate`.
    static func costMode(_ arguments: Arguments) throws(UsageError) -> CostMode {
        let text = try arguments.single("--cost-mode") ?? CostMode.calculate.rawValue
        guard let mode = CostMode(rawValue: text) else {
            throw UsageError("--cost-mode: expected calculate, auto or logged, got '\(text)'")
        }
        return mode
    }

    /// The readings for `--cost-mode`, or nil (the reason printed) when the data files cannot be used.
    static func open(_ arguments: Arguments, _ environment: [String: String]) throws(UsageError) -> Readings? {
        let mode = try costMode(arguments)
        do {
            return try load(mode: mode, environment: environment)
        } catch {
            printError("unprompt-scan: \(error.message)")
            return nil
        }
    }

    static func load(mode: CostMode, environment: [String: String]) throws(ReadingsUnavailable) -> Readings {
        guard let pricing = ReadingsLocation.directory("pricing", variable: "UNPROMPT_PRICING_DIR", environment),
            let water = ReadingsLocation.directory("water", variable: "UNPROMPT_WATER_DIR", environment)
        else {
            throw ReadingsUnavailable(
                message: "no pricing/ or water/ data directory found beside the binary; set UNPROMPT_PRICING_DIR and UNPROMPT_WATER_DIR")
        }
        let override = ReadingsLocation.overridePath(environment)
        do {
            let table = try PriceTable.load(directory: pricing, override: override)
            let method = try WaterMethod.load(path: water + "/" + ReadingsLocation.waterFile)
            return Readings(
                table: table, water: WaterEstimator(method: method), mode: mode, pricer: Pricer(table: table, mode: mode),
                pricingDirectory: pricing, overridePath: FileManager.default.fileExists(atPath: override) ? override : nil)
        } catch {
            throw ReadingsUnavailable(message: error.description)
        }
    }

    /// `{"costMode", "priceTable": {"source", "date", "sha256"}, "priceOverride": bool, "waterMethod": {…}}`.
    var json: JSON {
        .object([
            ("costMode", .string(mode.rawValue)),
            ("priceTable", .object([
                ("source", table.manifest.map { .string($0.source) } ?? .null),
                ("date", table.manifest.map { .string($0.date) } ?? .null),
                ("sha256", table.manifest.map { .string($0.sha256) } ?? .null),
            ])),
            ("priceOverride", .bool(overridePath != nil)),
            ("waterMethod", .object([("version", .string(water.method.version)), ("date", .string(water.method.date))])),
        ])
    }

    /// One line naming what the readings are, for text views.
    var caption: String {
        let table = self.table.manifest.map { "prices \($0.date)" } ?? "prices"
        let mode = self.mode == .calculate ? "cost at API list prices" : "cost (\(self.mode.rawValue) mode)"
        return "\(mode), \(table)\(overridePath != nil ? " with your override" : ""); water estimated by \(water.method.version) (central, low–high); not a bill"
    }
}

/// The price or water data cannot be used (exit status 5).
struct ReadingsUnavailable: Error {
    let message: String
}

enum ReadingsLocation {
    static let waterFile = "water-method-v1.json"

    static func directory(_ name: String, variable: String, _ environment: [String: String]) -> String? {
        if let given = environment[variable], !given.isEmpty { return given }
        return BuiltInData.directory(name)
    }

    /// `prices.json` in the `ConfigDirectory`.
    static func overridePath(_ environment: [String: String]) -> String {
        ConfigDirectory.path(environment: environment, home: HomeDirectory.path(environment)) + "/prices.json"
    }
}
