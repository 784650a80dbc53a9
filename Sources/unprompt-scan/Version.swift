import Foundation
import UnpromptKit

/// `--version [--json]`: the release, the commit the binary was built from (`buildCommit`, written by the
/// BuildCommit plugin; `unknown` outside a git checkout), and the dates of the data it computes readings with.
enum VersionCommand {
    static let release = "0.1.0"

    static func run(json: Bool, environment: [String: String]) -> ExitCode {
        let readings: Readings
        do {
            readings = try Readings.load(mode: .calculate, location: .beside(environment: environment))
        } catch {
            print("unprompt-scan \(release) (commit \(buildCommit))")
            printError("unprompt-scan: \(error.message)")
            return .invalidData
        }
        let table = readings.table.manifest
        let water = readings.water.method
        if json {
            print(JSON.object([
                ("version", .string(release)), ("commit", .string(buildCommit)),
                ("priceTable", .object([
                    ("date", table.map { .string($0.date) } ?? .null), ("source", table.map { .string($0.source) } ?? .null),
                ])),
                ("waterMethod", .object([("version", .string(water.version)), ("date", .string(water.date))])),
            ]).text)
        } else {
            print("unprompt-scan \(release) (commit \(buildCommit))")
            print("price table \(table?.date ?? "without a manifest")\(table.map { ", \($0.source)" } ?? "")")
            print("water method \(water.version), \(water.date)")
        }
        return .success
    }
}
