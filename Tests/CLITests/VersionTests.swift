import Foundation
import Testing
import UnpromptTestSupport

/// `--version` names the release, the commit and the data files' own dates and versions.
struct VersionTests {
    func string(_ tree: JSONTree?) -> String? {
        if case .string(let text)? = tree { return text }
        return nil
    }

    @Test func versionNamesTheCommitAndTheDataItReadsWith() throws {
        let text = try Binary.run(["--version"])
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(text.stdout)")
        #expect(
            lines.first?.wholeMatch(of: /unprompt-scan \d+\.\d+\.\d+ \(commit ([0-9a-f]{12}(\+dirty)?|unknown)\)/) != nil,
            "\(text.stdout)")

        let json = try JSONTree(parsing: try Binary.run(["--version", "--json"]).stdout)
        let manifest = try JSONTree(contentsOf: Repository.root + "/pricing/manifest.json")
        let water = try JSONTree(contentsOf: Repository.root + "/water/water-method-v1.json")
        guard let date = string(manifest["date"]), let source = string(manifest["source"]),
            let method = string(water["version"]), let methodDate = string(water["date"])
        else {
            Issue.record("pricing/manifest.json or the water method lacks its date or version")
            return
        }
        #expect(json["priceTable"]?["date"] == .string(date))
        #expect(json["waterMethod"]?["version"] == .string(method))
        #expect(lines.dropFirst().first == "price table \(date), \(source)")
        #expect(lines.last == "water method \(method), \(methodDate)")
    }

    /// It prints the price table's manifest, so it reads that and not the table: a table that would not load
    /// does not stop it, and a missing manifest does.
    @Test func versionReadsTheManifestNotTheTable() throws {
        let pricing = FileManager.default.temporaryDirectory.appendingPathComponent("unprompt-version-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: pricing, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: pricing) }
        try FileManager.default.copyItem(atPath: Repository.root + "/pricing/manifest.json", toPath: pricing + "/manifest.json")
        try "not a price table".write(toFile: pricing + "/litellm-prices.json", atomically: true, encoding: .utf8)
        let environment = ["UNPROMPT_PRICING_DIR": pricing, "UNPROMPT_WATER_DIR": Repository.root + "/water"]
        let shown = try Binary.run(["--version"], environment: environment)
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("price table "), "\(shown.stdout)")
        let refused = try Binary.run(["daily"], environment: environment)
        #expect(refused.status == 5, "a view still loads, and refuses, the whole table: \(refused.stderr)")

        try FileManager.default.removeItem(atPath: pricing + "/manifest.json")
        let missing = try Binary.run(["--version"], environment: environment)
        #expect(missing.status == 5)
        #expect(missing.stderr.contains("manifest.json"), "\(missing.stderr)")
    }
}
