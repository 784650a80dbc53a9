import Foundation
import UnpromptKit
import UnpromptTestSupport

/// The golden files' corpus (`Tests/Golden/corpus`) scanned into a temporary store, for the query layer's own
/// tests. Its records, each Claude one of `u` units (input u, output 2u, cache read 3u, 5-minute write 4u,
/// 1-hour write 5u: 15u tokens), all times UTC:
///
/// | when | tool, model | tokens |
/// |---|---|---|
/// | 02-02 10:00 (Mon) | claude-code, sonnet-4-5, u 100 | 1,500 |
/// | 02-03 20:30 | claude-code, opus-4-5, u 50 | 750 |
/// | 02-10 09:30 | claude-code, sonnet-4-5, u 300 | 4,500 |
/// | 02-16 12:00 | claude-code, haiku-4-5, u 1,000 | 15,000 |
/// | 02-20 14:01, 14:05 | codex, gpt-5: 10,000 + 4,000 input, 30,000 + 8,000 cached, 20,000 + 1,000 output | 73,000 |
/// | 02-27 23:50 | claude-code, sonnet-4-5, u 20 | 300 |
/// | 03-02 08:00 (Mon) | claude-code, sonnet-4-5, u 200 | 3,000 |
/// | 03-05 15:00 | claude-code, claude-imaginary-9 (no price), u 7 | 105 |
/// | 03-09 18:40 | claude-code, sonnet-4-5, u 40 | 600 |
/// | 03-10 09:10, 09:40 | claude-code, sonnet-4-5, u 2 and 4 | 90 |
/// | 03-10 10:00 | codex, gpt-5: 100 input, 10 output; limits primary 12 % of 300 min (resets 12:30), secondary 40 % of 10,080 min (resets 03-14 00:00) | 110 |
/// | 03-10 11:00 | claude-code limit reached, resets 13:00 | |
/// | 03-10 11:20 | claude-code, opus-4-5, u 3 | 45 |
///
/// Work hours Mon-Fri 09:00-18:00 (`config.yaml`); the clock is 2026-03-10T11:30Z, a Tuesday.
final class QueryCorpus {
    static let corpus = Repository.root + "/Tests/Golden/corpus"
    /// 2026-03-10T11:30:00Z.
    static let now: Int64 = 1_773_142_200_000
    static let minute: Int64 = 60_000
    /// 2026-03-10 as a day number.
    static let today: Int64 = 20522

    let directory: String
    let storePath: String
    let descriptors: [Descriptor]

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("queries-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        storePath = directory + "/usage.sqlite"
        descriptors = ReaderCatalog(directories: [Repository.readers]).descriptors
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    static let environment = ["CLAUDE_CONFIG_DIR": corpus + "/claude", "CODEX_HOME": corpus + "/codex"]
    static var step: ScanStep { ScanStep(environment: environment, home: "/nonexistent-home") }
    static let readings = ReadingsLocation(
        pricingDirectory: Repository.root + "/pricing", waterDirectory: Repository.root + "/water",
        overridePath: "/nonexistent-home/prices.json")

    func request(now: Int64 = QueryCorpus.now, scan: Bool = true, zone: ViewZone = .utc, settings: String? = nil) -> ViewRequest {
        ViewRequest(
            storePath: storePath, scan: scan, settingsPath: settings ?? Self.corpus + "/config.yaml", readings: Self.readings,
            costMode: .calculate, zone: zone, now: now)
    }

    /// Scans the corpus (the first time: later scans find nothing new) and opens the queries at `now`.
    func queries(now: Int64 = QueryCorpus.now, zone: ViewZone = .utc, descriptors: [Descriptor]? = nil) throws -> UsageQueries {
        let opened = try UsageQueries.open(request(now: now, zone: zone), descriptors: self.descriptors, step: Self.step)
        guard let descriptors else { return opened.queries }
        return UsageQueries(
            store: opened.queries.store, readings: opened.queries.readings, zone: zone, workHours: opened.queries.workHours,
            now: now, descriptors: descriptors)
    }

    /// The corpus's Claude descriptor with its `derived_window` section replaced by `section` (or none).
    func claude(derivedWindow section: String) throws -> Descriptor {
        let file = Repository.readers + "/claude-code.yaml"
        let text = try String(contentsOfFile: file, encoding: .utf8)
        guard let start = text.range(of: "derived_window:") else { throw Missing(what: "derived_window in \(file)") }
        return try DescriptorLoader.load(text: String(text[..<start.lowerBound]) + section, file: file, expectedID: "claude-code")
    }
}

struct Missing: Error {
    let what: String
}
