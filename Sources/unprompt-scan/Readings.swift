import Foundation
import UnpromptKit

/// `--cost-mode calculate|auto|logged`, by default `calculate`.
enum CostModeOption {
    static func parse(_ arguments: Arguments) throws(UsageError) -> CostMode {
        let text = arguments.single("--cost-mode") ?? CostMode.calculate.rawValue
        guard let mode = CostMode(rawValue: text) else {
            throw UsageError("--cost-mode: expected calculate, auto or logged, got '\(text)'")
        }
        return mode
    }
}

extension ReadingsLocation {
    /// Found like the readers: `$UNPROMPT_PRICING_DIR` / `$UNPROMPT_WATER_DIR`, else `share/unprompt-scan/pricing`
    /// and `…/water` beside an installed binary, else the checkout's `pricing/` and `water/`; the override in
    /// the config directory.
    static func beside(environment: [String: String]) -> ReadingsLocation {
        find(environment: environment, home: HomeDirectory.path(environment), builtIn: BuiltInData.directory)
    }
}

extension Readings {
    /// The readings for `mode`, or nil after printing why the data files cannot be used (exit status 5).
    static func open(mode: CostMode, environment: [String: String]) -> Readings? {
        do {
            return try load(mode: mode, location: .beside(environment: environment))
        } catch {
            printError("unprompt-scan: \(error.message)")
            return nil
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
