import Foundation
import UnpromptKit

/// `--version [--json]`: the release, the commit the binary was built from (`buildCommit`, written by the
/// BuildCommit plugin; `unknown` outside a git checkout), and the dates of the data it computes readings with.
enum VersionCommand {
    static let release = "0.1.0"

    static func run(json: Bool, environment: [String: String]) -> ExitCode {
        // Only the files it prints from: the price table's manifest and the water method, never the table itself.
        let dates: Readings.Dates
        do {
            dates = try Readings.dates(location: .beside(environment: environment))
        } catch {
            print("unprompt-scan \(release) (commit \(buildCommit))")
            printError("unprompt-scan: \(error.message)")
            return .invalidData
        }
        let table = dates.table
        let water = dates.water
        if json {
            print(JSON.object([
                ("version", .string(release)), ("commit", .string(buildCommit)),
                ("priceTable", .object([
                    ("date", .string(table.date)), ("source", .string(table.source)),
                ])),
                ("waterMethod", .object([("version", .string(water.version)), ("date", .string(water.date))])),
            ]).text)
        } else {
            print("unprompt-scan \(release) (commit \(buildCommit))")
            print("price table \(table.date), \(table.source)")
            print("water method \(water.version), \(water.date)")
        }
        return .success
    }
}
