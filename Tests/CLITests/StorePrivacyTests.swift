import Foundation
import Testing
import UnpromptTestSupport

@testable import UnpromptKit

/// Numbers only, in the store too: every fixture case (their paths, working directories, branches, prompts,
/// responses, tool output and file names carry the marker `CANARY`) is scanned from a tree whose own path
/// carries it, with planted extras (ids, an unreadable source, a malformed line); then no byte sequence
/// `canary`, in any case, may appear in the store's files, or in any output of the scan or of the views.
struct StorePrivacyTests {
    static let marker = "CANARY"

    struct Planted {
        let root: String
        let environment: [String: String]
    }

    /// Copies every fixture case of both readers under a directory named with the marker, and adds a
    /// session of its own whose ids, name and folder carry it, with a malformed line and an unreadable source.
    func plant() throws -> Planted {
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("unprompt-privacy-\(UUID().uuidString)/home-\(Self.marker)-user").path
        var roots: [String: [String]] = [:]
        for tool in ["claude-code", "codex"] {
            let cases = try FileManager.default.contentsOfDirectory(atPath: Repository.fixtures + "/" + tool).sorted()
                .filter { !$0.hasPrefix(".") }
            for name in cases {
                let target = root + "/\(tool)/\(name)-\(Self.marker)"
                try FileManager.default.createDirectory(
                    atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try FileManager.default.copyItem(atPath: Repository.fixtures + "/\(tool)/\(name)", toPath: target)
                roots[tool, default: []].append(target)
            }
        }
        // A session of our own: the marker in the folder, the file name, the ids that identities hash, and a
        // malformed line; and a source that cannot be read, named with the marker.
        let own = root + "/claude-own"
        let folder = own + "/projects/-home-\(Self.marker)-user-\(Self.marker)-project"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let session = ClaudeResponse.lines(1...4).replacingOccurrences(of: "Tail", with: Self.marker)
            .replacingOccurrences(of: "/home/dev/project", with: "/home/\(Self.marker)-user/\(Self.marker)-project")
            + #"{"type":"assistant","message":{"usage":{"input_tokens":"# + Self.marker + "\n"
        try session.write(toFile: folder + "/\(Self.marker)-session.jsonl", atomically: false, encoding: .utf8)
        if FileManager.default.fileExists(atPath: "/proc/self/mem") {
            try FileManager.default.createSymbolicLink(
                atPath: folder + "/\(Self.marker)-unreadable.jsonl", withDestinationPath: "/proc/self/mem")
        }
        roots["claude-code", default: []].append(own)
        return Planted(
            root: root,
            environment: [
                "CLAUDE_CONFIG_DIR": roots["claude-code"]!.joined(separator: ","),
                "CODEX_HOME": roots["codex"]!.joined(separator: ","),
            ])
    }

    /// Every file beside the store (the store, its write-ahead log and shared memory, its lock), raw bytes.
    func storeFiles(_ store: String) throws -> [(name: String, bytes: Data)] {
        let directory = (store as NSString).deletingLastPathComponent
        guard FileManager.default.fileExists(atPath: directory) else { return [] }
        return try FileManager.default.contentsOfDirectory(atPath: directory).sorted().map {
            ($0, try Data(contentsOf: URL(fileURLWithPath: directory + "/" + $0)))
        }
    }

    func containsMarker(_ bytes: Data) -> Bool {
        let needle = Array(Self.marker.lowercased().utf8)
        let lowered = bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        guard lowered.count >= needle.count else { return false }
        for start in 0...(lowered.count - needle.count) where lowered[start] == needle[0] {
            if Array(lowered[start..<(start + needle.count)]) == needle { return true }
        }
        return false
    }

    func expectNoMarker(_ output: Binary.Output, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!containsMarker(Data(output.stdout.utf8)), "\(what): the marker reached stdout", sourceLocation: sourceLocation)
        #expect(!containsMarker(Data(output.stderr.utf8)), "\(what): the marker reached stderr", sourceLocation: sourceLocation)
    }

    @Test func noCanaryReachesTheStoreOrAnyOutput() throws {
        let planted = try plant()
        defer { try? FileManager.default.removeItem(atPath: (planted.root as NSString).deletingLastPathComponent) }
        let stores = FileManager.default.temporaryDirectory.appendingPathComponent("unprompt-privacy-store-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: stores) }
        let jsonStore = stores + "/json/usage.sqlite"
        let textStore = stores + "/text/usage.sqlite"

        // The planted tree really carries the marker, in content and in paths.
        let plantedFiles = FileManager.default.enumerator(atPath: planted.root)!.allObjects as! [String]
        #expect(plantedFiles.contains { $0.hasSuffix(".jsonl") && $0.contains(Self.marker) })
        #expect(containsMarker(try Data(contentsOf: URL(fileURLWithPath: planted.root + "/" + plantedFiles.first { $0.hasSuffix("-session.jsonl") }!))))

        let unreadable = FileManager.default.fileExists(atPath: "/proc/self/mem")
        let json = try Binary.run(["--store", jsonStore, "--json"], environment: planted.environment)
        #expect(json.status == (unreadable ? 1 : 0), "\(json.stderr)")
        expectNoMarker(json, "scan --json")
        let report = try JSONTree(parsing: json.stdout)["scan"]
        if case .array(let problems)? = report?["problems"] {
            #expect(!problems.isEmpty, "the planted malformed line and unreadable source should be reported")
        }
        let text = try Binary.run(["--store", textStore], environment: planted.environment)
        #expect(text.status == (unreadable ? 1 : 0), "\(text.stderr)")
        expectNoMarker(text, "scan (text)")

        // The store counted something: the check below is not vacuous.
        let totals = try StoreReader.totals(store: jsonStore)
        #expect((totals["claude-code"]?.events ?? 0) > 0 && (totals["codex"]?.events ?? 0) > 0, "\(totals)")

        // A second scan with nothing new, and the views over the store, read-only and after a scan.
        expectNoMarker(try Binary.run(["--store", jsonStore, "--json"], environment: planted.environment), "rescan")
        let views: [[String]] = [
            ["daily", "--since", "2020-01-01"], ["monthly", "--since", "2020-01-01"], ["today"], ["calendar"],
            ["calendar", "--month", "2026-01"], ["limits"], ["snapshot"],
        ]
        for view in views {
            for format in [["--json"], []] {
                let output = try Binary.run(view + ["--no-scan", "--store", jsonStore] + format, environment: planted.environment)
                #expect(output.status == 0, "\(view) --no-scan \(format): \(output.stderr)")
                expectNoMarker(output, "\(view) --no-scan \(format)")
            }
            let scanned = try Binary.run(view + ["--store", textStore], environment: planted.environment)
            expectNoMarker(scanned, "\(view) after a scan")
        }

        // The export a sync writes (version 4: its JSON part and its packed days, decompressed) holds none either.
        let folder = stores + "/sync"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let sync = try Binary.run(["sync", "--no-scan", "--dir", folder, "--store", jsonStore], environment: planted.environment)
        #expect(sync.status == 0, "\(sync.stderr)")
        expectNoMarker(sync, "sync")
        let exports = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".export") }
        #expect(exports.count == 1)
        for name in exports {
            let file = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
            let document = try Zstd.decompress(file, limit: 1 << 30)
            #expect(SyncExport.split(document: document).days.map(\.count) ?? 0 > 1000, "the export holds the days packed")
            #expect(!containsMarker(Data(name.utf8)) && !containsMarker(file) && !containsMarker(Data(document)), "\(name) holds the marker")
        }

        for store in [jsonStore, textStore] {
            let files = try storeFiles(store)
            #expect(files.contains { $0.name == "usage.sqlite" })
            for (name, bytes) in files {
                #expect(!containsMarker(Data(name.utf8)), "a store file is named with the marker")
                #expect(!containsMarker(bytes), "\(name) holds the marker's bytes")
            }
        }
    }

    /// Every reader, not only the two above: each descriptor is copied with its roots pointed at all of its
    /// fixture cases (as `--dry-run --root` reads them; SQL fixtures built into databases), everything is scanned
    /// into one store, and the views are read from it. No byte of the marker may reach the store or any output.
    @Test func noReadersFixturesLeaveACanaryInTheStore() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("unprompt-privacy-all-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: work) }
        let readers = work + "/readers"
        try FileManager.default.createDirectory(atPath: readers, withIntermediateDirectories: true)
        let root = try NSRegularExpression(pattern: #"root:\s*"[^"]*""#)
        var toolsWithCases = 0
        for file in try FileManager.default.contentsOfDirectory(atPath: Repository.readers) where file.hasSuffix(".yaml") {
            let tool = String(file.dropLast(5))
            let folder = Repository.fixtures + "/" + tool
            let cases = try FileManager.default.contentsOfDirectory(atPath: folder).sorted().filter { !$0.hasPrefix(".") }
            let roots = try cases.map { try FixtureDatabases.prepared(folder + "/" + $0) }
            #expect(!roots.contains { $0.contains(",") }, "a case path holds a comma, so it cannot join a root list")
            toolsWithCases += roots.isEmpty ? 0 : 1
            let text = try String(contentsOfFile: Repository.readers + "/" + file, encoding: .utf8)
            let pointed = root.stringByReplacingMatches(
                in: text, range: NSRange(text.startIndex..., in: text),
                withTemplate: NSRegularExpression.escapedTemplate(for: "root: \"\(roots.joined(separator: ","))\""))
            try pointed.write(toFile: readers + "/" + file, atomically: true, encoding: .utf8)
        }
        #expect(toolsWithCases >= 20)
        let store = work + "/store/usage.sqlite"
        let scan = try Binary.run(["--store", store, "--readers-dir", readers, "--json"])
        #expect(scan.status == 0 || scan.status == 1, "\(scan.stderr)")
        expectNoMarker(scan, "scan of every reader's fixtures")
        let counted = try StoreReader.totals(store: store)
        #expect(counted.count >= 15, "most readers' fixtures count something: \(counted.keys.sorted())")
        let readStore = ["--no-scan", "--store", store, "--readers-dir", readers, "--json"]
        for view in [["daily", "--since", "2020-01-01"] + readStore, ["monthly", "--since", "2020-01-01"] + readStore, ["snapshot"] + readStore, ["prices", "--store", store, "--json"]] {
            let output = try Binary.run(view)
            #expect(output.status == 0, "\(view): \(output.stderr)")
            expectNoMarker(output, "\(view)")
        }
        for (name, bytes) in try storeFiles(store) {
            #expect(!containsMarker(bytes), "\(name) holds the marker's bytes")
        }
    }

    /// The same while the write-ahead log still holds the pages: a scan killed after its commits (before a
    /// clean close could fold the log into the store) leaves a log, and it holds no marker either.
    @Test func noCanaryInAWriteAheadLogLeftByAKilledScan() throws {
        let planted = try plant()
        defer { try? FileManager.default.removeItem(atPath: (planted.root as NSString).deletingLastPathComponent) }
        let stores = FileManager.default.temporaryDirectory.appendingPathComponent("unprompt-privacy-store-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: stores) }
        let store = stores + "/usage.sqlite"
        var sawLog = false
        for delay in [0.02, 0.04, 0.06, 0.08, 0.12, 0.2] {
            try? FileManager.default.removeItem(atPath: stores)
            let run = try BinaryRun(["--store", store, "--json"], environment: planted.environment, captureOutput: false)
            Thread.sleep(forTimeInterval: delay)
            run.kill()
            for (name, bytes) in try storeFiles(store) {
                if name.hasSuffix("-wal") && !bytes.isEmpty { sawLog = true }
                #expect(!containsMarker(bytes), "\(name) holds the marker's bytes (killed after \(delay) s)")
            }
        }
        // Whether a kill found a log depends on timing; the assertion above is what matters.
        print("StorePrivacyTests: a write-ahead log was \(sawLog ? "" : "not ")caught by a kill")
    }
}
