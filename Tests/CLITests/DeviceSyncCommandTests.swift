import Foundation
import Testing
import UnpromptTestSupport

/// Two devices, run as a person would: two homes with different logs and two stores, one sync folder.
struct DeviceSyncCommandTests {
    typealias Home = ReportCommandTests.Home
    typealias Record = ReportCommandTests.Record
    typealias Counts = ReportCommandTests.Counts

    // The laptop: Claude on 2026-01-05 at 10:00 and 10:05 (sonnet), and 2026-01-06 (opus).
    static let a1 = Record.claude("L1", "2026-01-05T10:00:00.000Z", "claude-sonnet-4-5", 1)
    static let a2 = Record.claude("L2", "2026-01-05T10:05:00.000Z", "claude-sonnet-4-5", 2)
    static let a3 = Record.claude("L3", "2026-01-06T09:00:00.000Z", "claude-opus-4-5", 10)
    // The desktop: Claude on 2026-01-05 at 10:35 (sonnet: 30 minutes after the laptop's last, one use with it) and
    // 2026-01-07 (haiku), and Codex on 2026-02-01 (ReportCommandTests.e).
    static let b1 = Record.claude("D1", "2026-01-05T10:35:00.000Z", "claude-sonnet-4-5", 100)
    static let b2 = Record.claude("D2", "2026-01-07T12:00:00.000Z", "claude-haiku-4-5", 1000)

    /// The union by day, tool and model, worked out from the records.
    static let union: [(date: String, tool: String, model: String, counts: Counts)] = [
        ("2026-01-05", "claude-code", "claude-sonnet-4-5", a1.counts + a2.counts + b1.counts),
        ("2026-01-06", "claude-code", "claude-opus-4-5", a3.counts),
        ("2026-01-07", "claude-code", "claude-haiku-4-5", b2.counts),
        ("2026-02-01", "codex", "gpt-5", ReportCommandTests.e),
    ]

    final class Devices {
        let laptop: Home
        let desktop: Home
        let folder: String

        init() throws {
            laptop = try Home(records: [a1, a2, a3], codex: false)
            desktop = try Home(records: [b1, b2], codex: true)
            folder = laptop.root + "/Sync"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for (home, label) in [(laptop, "laptop"), (desktop, "desktop")] {
                let set = try home.run(["config", "set", "device-label", label, "--config", home.root + "/config.yaml"])
                #expect(set.status == 0, "\(set.stderr)")
            }
        }

        /// `sync` on `home`, at `now`.
        func sync(_ home: Home, now: String = "2026-02-02T12:00:00Z", json: Bool = true) throws -> Binary.Output {
            try home.run(
                ["sync", "--dir", folder, "--config", home.root + "/config.yaml"] + (json ? ["--json"] : []),
                environment: ["UNPROMPT_NOW": now])
        }

        func daily(_ home: Home, _ extra: [String] = []) throws -> Binary.Output {
            try home.run(["daily", "--no-scan", "--tz", "UTC", "--json", "--config", home.root + "/config.yaml"] + extra)
        }
    }

    /// A daily view's entries as (date, tool, model, counts), in order.
    func cells(_ output: Binary.Output) throws -> [(date: String, tool: String, model: String, counts: JSONTree)] {
        #expect(output.status == 0, "\(output.stderr)")
        guard case .array(let days)? = try JSONTree(parsing: output.stdout)["daily"] else { return [] }
        var result: [(String, String, String, JSONTree)] = []
        for day in days {
            guard case .string(let date)? = day["date"], case .object(let tools)? = day["byTool"] else { continue }
            for (tool, cell) in tools.sorted(by: { $0.key < $1.key }) {
                guard case .object(let models)? = cell["byModel"] else { continue }
                for (model, counts) in models.sorted(by: { $0.key < $1.key }) { result.append((date, tool, model, counts)) }
            }
        }
        return result
    }

    func expectUnion(_ output: Binary.Output, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let got = try cells(output)
        #expect(got.map { "\($0.date) \($0.tool) \($0.model)" } == Self.union.map { "\($0.date) \($0.tool) \($0.model)" }, sourceLocation: sourceLocation)
        #expect(got.map(\.counts) == Self.union.map(\.counts.tree), sourceLocation: sourceLocation)
    }

    func uses(_ output: Binary.Output, on date: String) throws -> JSONTree? {
        guard case .array(let days)? = try JSONTree(parsing: output.stdout)["daily"] else { return nil }
        return days.first { $0["date"] == .string(date) }?["uses"]
    }

    @Test func bothDevicesShowTheExactUnionByDayToolAndModel() throws {
        let devices = try Devices()
        for home in [devices.laptop, devices.desktop, devices.laptop] {
            let output = try devices.sync(home)
            #expect(output.status == 0, "\(output.stderr)")
        }
        let onLaptop = try devices.daily(devices.laptop)
        let onDesktop = try devices.daily(devices.desktop)
        try expectUnion(onLaptop)
        #expect(onLaptop.stdout == onDesktop.stdout, "the same view, byte for byte, costs included")
        // One use on 2026-01-05: the desktop's 10:35 continues the laptop's 10:05.
        #expect(try uses(onLaptop, on: "2026-01-05") == .number(1))

        // Each device alone.
        let laptopOnly = try cells(try devices.daily(devices.laptop, ["--device", "this"]))
        #expect(laptopOnly.map(\.date) == ["2026-01-05", "2026-01-06"])
        #expect(try cells(try devices.daily(devices.laptop, ["--device", "desktop"])).map(\.date) == ["2026-01-05", "2026-01-07", "2026-02-01"])
        let unknown = try devices.daily(devices.laptop, ["--device", "phone"])
        #expect(unknown.status == 2 && unknown.stderr.contains("--device: no device 'phone'"), "\(unknown.stderr)")

        // `devices` lists both, with their tokens.
        let listed = try JSONTree(parsing: try devices.laptop.run(["devices", "--json", "--config", devices.laptop.root + "/config.yaml"]).stdout)
        guard case .array(let entries)? = listed["devices"] else { Issue.record("no devices"); return }
        #expect(entries.map { $0["label"] } == [.string("laptop"), .string("desktop")])
        #expect(entries.map { $0["this"] } == [.number(1), .number(0)])
        let laptopTokens = [Self.a1, Self.a2, Self.a3].map(\.counts).reduce(Counts(), +)
        let desktopTokens = [Self.b1, Self.b2].map(\.counts).reduce(ReportCommandTests.e, +)
        func total(_ c: Counts) -> Double { Double(c.input + c.output + c.cacheRead + c.cacheWrite5m + c.cacheWrite1h) }
        #expect(entries.map { $0["tokens"] } == [.number(total(laptopTokens)), .number(total(desktopTokens))])

        // Syncing again adds nothing: with a scan, each export carries a new measurement and is imported again,
        // replacing the previous import whole; without one, nothing is written or imported.
        for home in [devices.laptop, devices.desktop] { #expect(try devices.sync(home, now: "2026-02-02T12:05:00Z").status == 0) }
        #expect(try devices.daily(devices.laptop).stdout == onLaptop.stdout)
        #expect(try devices.daily(devices.desktop).stdout == onLaptop.stdout)
        for home in [devices.laptop, devices.desktop, devices.laptop] {
            _ = try home.run(["sync", "--no-scan", "--dir", devices.folder, "--config", home.root + "/config.yaml"])
        }
        for home in [devices.laptop, devices.desktop] {
            let again = try JSONTree(
                parsing: try home.run(["sync", "--no-scan", "--dir", devices.folder, "--json", "--config", home.root + "/config.yaml"]).stdout)
            #expect(again["imported"] == .array([]) && again["unchanged"] == .number(1))
            #expect(again["export"]?["written"] == .number(0))
        }
        #expect(try devices.daily(devices.laptop).stdout == onLaptop.stdout)

        // The laptop's logs deleted: its store keeps them, and so does its export.
        try FileManager.default.removeItem(atPath: devices.laptop.root + "/claude")
        #expect(try devices.sync(devices.laptop, now: "2026-02-02T12:10:00Z").status == 0)
        #expect(try devices.sync(devices.desktop, now: "2026-02-02T12:10:00Z").status == 0)
        try expectUnion(try devices.daily(devices.laptop))
        try expectUnion(try devices.daily(devices.desktop))
    }

    /// `sync --no-scan` loads no descriptor (only a scan reads them): a broken reader does not stop it, while
    /// the sync that scans refuses to run with it.
    @Test func aSyncWithoutAScanReadsNoDescriptor() throws {
        let devices = try Devices()
        #expect(try devices.sync(devices.desktop).status == 0)
        let readers = devices.laptop.root + "/broken-readers"
        try FileManager.default.createDirectory(atPath: readers, withIntermediateDirectories: true)
        try "id: broken\nthis is: [not a descriptor\n".write(toFile: readers + "/broken.yaml", atomically: true, encoding: .utf8)
        let arguments = ["sync", "--dir", devices.folder, "--config", devices.laptop.root + "/config.yaml", "--readers-dir", readers, "--json"]
        let scanning = try devices.laptop.run(arguments)
        #expect(scanning.status == 3, "\(scanning.stderr)")
        let merging = try devices.laptop.run(arguments + ["--no-scan"])
        #expect(merging.status == 0, "\(merging.stderr)")
        guard case .array(let imported)? = try JSONTree(parsing: merging.stdout)["imported"] else {
            Issue.record("no imported list: \(merging.stdout)")
            return
        }
        #expect(imported.map { $0["label"] } == [.string("desktop")])
    }

    @Test func aConflictCopyACutFileAndASyncSettingAreHandled() throws {
        let devices = try Devices()
        #expect(try devices.sync(devices.desktop).status == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: devices.folder)
        let desktopFile = try #require(names.first)
        let stem = String(desktopFile.dropLast(".export".count))
        // The desktop's export as Syncthing left it after a conflict: the export only as a conflict copy.
        try FileManager.default.moveItem(
            atPath: devices.folder + "/" + desktopFile, toPath: devices.folder + "/\(stem).sync-conflict-20260202-120000-7ABCDEF.export")
        #expect(try devices.sync(devices.laptop).status == 0)
        try expectUnion(try devices.daily(devices.laptop))

        // A newer desktop export, cut short in the folder: refused by name, the previous import stays.
        let more = Record.claude("D3", "2026-01-08T12:00:00.000Z", "claude-haiku-4-5", 7)
        try ([Self.b1, Self.b2, more].map(\.claudeLines).joined())
            .write(toFile: devices.desktop.root + "/claude/projects/-home-dev-project/5b0c.jsonl", atomically: true, encoding: .utf8)
        #expect(try devices.sync(devices.desktop, now: "2026-02-02T13:00:00Z").status == 0)
        let path = devices.folder + "/" + desktopFile
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: path))
        let refused = try devices.sync(devices.laptop, now: "2026-02-02T13:00:00Z", json: false)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("refused the export of desktop (device "), "\(refused.stderr)")
        #expect(refused.stderr.contains("cut short or damaged") && refused.stderr.contains("its previous import stays"), "\(refused.stderr)")
        try expectUnion(try devices.daily(devices.laptop))

        // With `sync-dir` set, a plain scan syncs: the desktop writes its export again (the cut file removed), and
        // the laptop's next scan imports it.
        try FileManager.default.removeItem(atPath: path)
        for home in [devices.desktop, devices.laptop] {
            let set = try home.run(["config", "set", "sync-dir", devices.folder, "--config", home.root + "/config.yaml"])
            #expect(set.status == 0, "\(set.stderr)")
            let scan = try home.run(["--config", home.root + "/config.yaml"], environment: ["UNPROMPT_NOW": "2026-02-02T14:00:00Z"])
            #expect(scan.status == 0, "\(scan.stderr)")
        }
        let dates = try cells(try devices.daily(devices.laptop)).map(\.date)
        #expect(dates == ["2026-01-05", "2026-01-06", "2026-01-07", "2026-01-08", "2026-02-01"], "\(dates)")
    }

    /// The desktop's clock runs ten minutes ahead. Both devices, read at the same moment, show the same today.
    @Test func clockSkewAndSimultaneousSyncsKeepOneTruth() throws {
        let laptop = try Home(records: [Record.claude("L1", "2026-03-10T10:00:00.000Z", "claude-sonnet-4-5", 1000)], codex: false)
        let desktop = try Home(records: [Record.claude("D1", "2026-03-10T10:20:00.000Z", "claude-opus-4-5", 10)], codex: false)
        let folder = laptop.root + "/Sync"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        func sync(_ home: Home, _ now: String) -> Process {
            let process = Binary.process(
                ["--store", home.store, "sync", "--dir", folder, "--json"], environment: home.environment.merging(["UNPROMPT_NOW": now]) { $1 })
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            return process
        }
        // Both at the same moment, several times (the desktop's clock ten minutes ahead).
        for round in 0..<4 {
            let processes = [sync(laptop, "2026-03-10T10:3\(round):00Z"), sync(desktop, "2026-03-10T10:4\(round):00Z")]
            for process in processes { try process.run() }
            for process in processes {
                process.waitUntilExit()
                #expect(process.terminationStatus == 0, "round \(round)")
            }
        }
        // Then one after the other, the laptop last without a scan, so both hold the same two exports.
        for (home, arguments, now) in [
            (laptop, [], "2026-03-10T10:34:00Z"), (desktop, [], "2026-03-10T10:44:00Z"), (laptop, ["--no-scan"], "2026-03-10T10:34:30Z"),
        ] {
            let output = try home.run(["sync", "--dir", folder, "--json"] + arguments, environment: ["UNPROMPT_NOW": now])
            #expect(output.status == 0, "\(output.stderr)")
        }
        for now in ["2026-03-10T10:35:00Z", "2026-03-10T10:45:00Z", "2026-03-10T12:00:00Z"] {
            let onLaptop = try laptop.json(["today", "--no-scan", "--tz", "UTC"], environment: ["UNPROMPT_NOW": now])
            let onDesktop = try desktop.json(["today", "--no-scan", "--tz", "UTC"], environment: ["UNPROMPT_NOW": now])
            #expect(onLaptop["estimate"] != nil && onLaptop["estimate"] == onDesktop["estimate"], "\(now): \(onLaptop) vs \(onDesktop)")
            #expect(onLaptop["tokens"] == .number(15_000 + 150) && onDesktop["tokens"] == onLaptop["tokens"], "\(onLaptop)")
        }
    }
}
