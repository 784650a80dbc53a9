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
}
