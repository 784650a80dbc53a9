import Foundation
import Testing
import UnpromptTestSupport
@testable import UnpromptKit

/// `DeviceSync` in the library: imports replace each other whole, the newest complete export wins, damage and
/// newer versions are refused while the previous import stays, and the views sum the devices.
struct DeviceSyncTests {
    let m = Moments.monday
    let minute = Moments.minute

    /// A laptop and a desktop with different usage: the laptop's at 10:00 and 10:05, the desktop's at 10:30
    /// (30 minutes later: one use with the laptop's) and the next day.
    func devices() throws -> (laptop: TestDevice, desktop: TestDevice) {
        let laptop = try TestDevice()
        try laptop.add(
            [
                Moments.event("claude-code", "claude-sonnet-4-5", at: m, input: 100, output: 20, id: 1),
                Moments.event("claude-code", "claude-sonnet-4-5", at: m + 5 * minute, input: 50, output: 5, id: 2),
            ], measuredAt: m + 10 * minute)
        let desktop = try TestDevice()
        try desktop.add(
            [
                Moments.event("claude-code", "claude-sonnet-4-5", at: m + 30 * minute, input: 1000, output: 200, id: 3),
                Moments.event("codex", "gpt-5", at: m + 24 * 60 * minute, input: 7, output: 3, id: 4),
            ], measuredAt: m + 24 * 60 * minute + minute)
        return (laptop, desktop)
    }

    func tokens(_ device: TestDevice, _ selection: DeviceSelection = .all) throws -> [String: Int64] {
        var result: [String: Int64] = [:]
        for row in try device.store.buckets(fromQuarter: Int64.min, toQuarter: Int64.max, devices: selection) {
            result["\(row.quarter) \(row.tool) \(row.model)", default: 0] += row.counts.total
        }
        return result
    }

    @Test func bothDevicesHoldTheExactUnionAndSyncingAgainAddsNothing() throws {
        let folder = try TemporaryFolder()
        let (laptop, desktop) = try devices()
        let now = m + 2 * 24 * 60 * minute
        let own = (laptop: try tokens(laptop), desktop: try tokens(desktop))
        _ = try laptop.sync(folder.path, now: now, label: "laptop")
        let first = try desktop.sync(folder.path, now: now, label: "desktop")
        #expect(first.imported.map(\.label) == ["laptop"] && first.imported[0].tokens == 175)
        let second = try laptop.sync(folder.path, now: now, label: "laptop")
        #expect(second.imported.map(\.label) == ["desktop"] && !second.wrote, "the laptop's export held the same already")

        let union = own.laptop.merging(own.desktop, uniquingKeysWith: +)
        #expect(union.count == 3 && union.values.reduce(0, +) == 175 + 1200 + 10)
        #expect(try tokens(laptop) == union && tokens(desktop) == union)
        #expect(try tokens(laptop, .this) == own.laptop && tokens(desktop, .this) == own.desktop)
        let desktopID = try desktop.store.deviceID()
        #expect(try tokens(laptop, .device(desktopID)) == own.desktop)

        // One use: the desktop's 10:30 continues the laptop's 10:05.
        let day = m / 86_400_000
        for device in [laptop, desktop] {
            let days = try device.queries(now: now).days(from: day, through: day + 1)
            #expect(days.map(\.uses) == [1, 1], "uses are made of both devices' activity together")
            #expect(days.map(\.tokens) == [1375, 10])
        }
        // Again, on both: nothing imported, nothing written, nothing changed.
        for (device, label) in [(laptop, "laptop"), (desktop, "desktop")] {
            let again = try device.sync(folder.path, now: now + minute, label: label)
            #expect(again.imported.isEmpty && again.unchanged == 1 && !again.wrote)
        }
        #expect(try tokens(laptop) == union && tokens(desktop) == union)
    }

    @Test func theNewestCompleteExportWinsAndAnOlderOneChangesNothing() throws {
        let folder = try TemporaryFolder()
        let (laptop, desktop) = try devices()
        let now = m + 2 * 24 * 60 * minute
        let laptopID = try laptop.store.deviceID()
        let file = folder.path + "/" + SyncFolder.fileName(device: laptopID)
        _ = try laptop.sync(folder.path, now: now, label: "laptop")
        let older = try Data(contentsOf: URL(fileURLWithPath: file))
        try laptop.add([Moments.event("claude-code", "claude-opus-4-5", at: now - minute, input: 9, id: 9)], measuredAt: now)
        #expect(try laptop.sync(folder.path, now: now, label: "laptop").sequence == 2)
        let newer = try Data(contentsOf: URL(fileURLWithPath: file))

        // The newer export as Syncthing's conflict copy, the older one under the export's own name.
        try newer.write(to: URL(fileURLWithPath: folder.path + "/unprompt-\(laptopID).sync-conflict-20260107-100000-ABCDEFG.export"))
        try older.write(to: URL(fileURLWithPath: file))
        try Data("partial".utf8).write(to: URL(fileURLWithPath: folder.path + "/.syncthing.unprompt-\(laptopID).export.tmp"))
        let report = try desktop.sync(folder.path, now: now, label: "desktop")
        #expect(report.imported.map(\.sequence) == [2] && report.refused.isEmpty && report.partial == 1)
        #expect(try tokens(desktop, .device(laptopID)) == tokens(laptop, .this))

        // Only the older one left: it is older than the import, and changes nothing.
        try FileManager.default.removeItem(atPath: folder.path + "/unprompt-\(laptopID).sync-conflict-20260107-100000-ABCDEFG.export")
        let stale = try desktop.sync(folder.path, now: now, label: "desktop")
        #expect(stale.imported.isEmpty && stale.unchanged == 1)
        #expect(try tokens(desktop, .device(laptopID)) == tokens(laptop, .this))
    }

    @Test func aDamagedOrNewerFileIsRefusedAndThePreviousImportStays() throws {
        let folder = try TemporaryFolder()
        let (laptop, desktop) = try devices()
        let now = m + 2 * 24 * 60 * minute
        let laptopID = try laptop.store.deviceID()
        _ = try laptop.sync(folder.path, now: now, label: "laptop")
        _ = try desktop.sync(folder.path, now: now, label: "desktop")
        let imported = try tokens(desktop, .device(laptopID))
        let file = folder.path + "/" + SyncFolder.fileName(device: laptopID)
        let good = try Data(contentsOf: URL(fileURLWithPath: file))

        var history = try laptop.queries(now: now).exportHistory()
        history.buckets = []
        var newer = SyncExport.document(
            DeviceImport(device: laptopID, label: "laptop", sequence: 50, exportedAt: now, history: history), version: 3)
        newer = Array(String(decoding: newer, as: UTF8.self).replacingOccurrences(
            of: "\"version\":3,", with: "\"version\":\(SyncExport.version + 1),").utf8)
        let damaged: [(Data, SyncExportProblem.Kind, String?)] = [
            (good.prefix(good.count - 9), .damaged, "laptop"),
            (Zstd.compress(newer), .newerVersion(SyncExport.version + 1), "laptop"),
            (Data(repeating: 0x55, count: 300), .damaged, "laptop"),
        ]
        for (data, kind, label) in damaged {
            try data.write(to: URL(fileURLWithPath: file))
            let report = try desktop.sync(folder.path, now: now, label: "desktop")
            #expect(report.refused.count == 1 && report.imported.isEmpty)
            #expect(report.refused.first?.problem.kind == kind)
            // A file whose header cannot be read is named by the device in its name and its previous import.
            #expect(report.refused.first?.label == label && report.refused.first?.device == laptopID)
            #expect(try tokens(desktop, .device(laptopID)) == imported, "the previous import stays")
        }
    }

    /// A file without a header (an old version's export, read whole) and a file with one of the same device: the
    /// newer by sequence is imported; when the newer one is damaged, the older one without a header after all.
    @Test func aFileWithoutAHeaderAndANewerOneWithOne() throws {
        let (laptop, _) = try devices()
        let now = m + 2 * 24 * 60 * minute
        let laptopID = try laptop.store.deviceID()
        let history = try laptop.queries(now: now).exportHistory()
        func headerless(sequence: Int64) -> Data {
            Zstd.compress(SyncExport.document(DeviceImport(device: laptopID, label: "old", sequence: sequence, exportedAt: now, history: history), version: 3))
        }
        func withHeader(sequence: Int64) -> Data {
            SyncExport.file(DeviceImport(device: laptopID, label: "new", sequence: sequence, exportedAt: now, history: history))
        }
        let cases: [(old: Int64, new: Int64, damageNew: Bool, imported: String?, refused: Int)] = [
            (5, 6, false, "new", 0),
            (5, 6, true, "old", 1),
            (7, 6, false, "old", 0),
        ]
        for (old, new, damageNew, expected, refusedCount) in cases {
            let folder = try TemporaryFolder()
            try headerless(sequence: old).write(to: URL(fileURLWithPath: folder.path + "/unprompt-\(laptopID) 2.export"))
            let newer = withHeader(sequence: new)
            try (damageNew ? newer.prefix(newer.count - 9) : newer).write(to: URL(fileURLWithPath: folder.path + "/" + SyncFolder.fileName(device: laptopID)))
            let desktop = try TestDevice()
            let report = try desktop.sync(folder.path, now: now, label: "desktop")
            #expect(report.imported.map(\.label) == [expected].compactMap { $0 }, "\(old), \(new), damaged \(damageNew)")
            #expect(report.imported.map(\.sequence) == [expected == "new" ? new : old])
            #expect(report.refused.count == refusedCount && report.unchanged == 0)
            #expect(try tokens(desktop, .device(laptopID)) == tokens(laptop, .this))
            // Again: nothing newer than the import.
            let again = try desktop.sync(folder.path, now: now, label: "desktop")
            #expect(again.imported.isEmpty && again.unchanged == 1, "\(old), \(new), damaged \(damageNew): \(again)")
        }
    }

    /// Syncing reads each file's header first: an export no newer than its import is not read further (damage
    /// after its header goes unseen, and changes nothing); a newer one is read whole, and refused when damaged.
    @Test func anExportNoNewerThanItsImportIsNotReadBeyondItsHeader() throws {
        let folder = try TemporaryFolder()
        let (laptop, desktop) = try devices()
        let now = m + 2 * 24 * 60 * minute
        _ = try laptop.sync(folder.path, now: now, label: "laptop")
        _ = try desktop.sync(folder.path, now: now, label: "desktop")
        let laptopID = try laptop.store.deviceID()
        let imported = try tokens(desktop, .device(laptopID))
        let file = URL(fileURLWithPath: folder.path + "/" + SyncFolder.fileName(device: laptopID))
        func damage() throws {
            var data = try Data(contentsOf: file)
            data[data.count - 20] ^= 0x40
            try data.write(to: file)
        }
        try damage()
        let again = try desktop.sync(folder.path, now: now, label: "desktop")
        #expect(again.refused.isEmpty && again.imported.isEmpty && again.unchanged == 1, "only its header was read")

        try laptop.add([Moments.event("codex", "gpt-5", at: now - minute, input: 5, id: 9)], measuredAt: now)
        #expect(try laptop.sync(folder.path, now: now, label: "laptop").sequence == 2)
        try damage()
        let newer = try desktop.sync(folder.path, now: now, label: "desktop")
        #expect(newer.refused.map(\.label) == ["laptop"] && newer.refused.first?.problem.kind == .damaged && newer.imported.isEmpty)
        #expect(try tokens(desktop, .device(laptopID)) == imported, "the previous import stays")
    }

    @Test func aDeviceNeverImportsItsOwnExport() throws {
        let folder = try TemporaryFolder()
        let (laptop, _) = try devices()
        let now = m + 2 * 24 * 60 * minute
        _ = try laptop.sync(folder.path, now: now, label: "laptop")
        let id = try laptop.store.deviceID()
        try FileManager.default.copyItem(
            atPath: folder.path + "/" + SyncFolder.fileName(device: id), toPath: folder.path + "/unprompt-\(id) 2.export")
        let again = try laptop.sync(folder.path, now: now, label: "laptop")
        #expect(try again.imported.isEmpty && again.refused.isEmpty && laptop.store.importedDevices().isEmpty)
    }

    /// Every device extrapolates each device from that device's own measurement: the laptop measured at
    /// 10:10 with a pace, the desktop (its clock ten minutes ahead) at a moment still to come on the laptop's.
    @Test func theLiveEstimateIsTheSameOnEveryDeviceHoldingTheSameExports() throws {
        let folder = try TemporaryFolder()
        let laptop = try TestDevice()
        try laptop.add([Moments.event("claude-code", "claude-sonnet-4-5", at: m + 5 * minute, input: 900, id: 1)], measuredAt: m + 10 * minute)
        let desktop = try TestDevice()
        try desktop.add([Moments.event("codex", "gpt-5", at: m + 8 * minute, input: 60, id: 2)], measuredAt: m + 22 * minute)
        _ = try laptop.sync(folder.path, now: m + 10 * minute, label: "laptop")
        _ = try desktop.sync(folder.path, now: m + 22 * minute, label: "desktop")
        _ = try laptop.sync(folder.path, now: m + 11 * minute, label: "laptop")

        for now in [m + 11 * minute, m + 12 * minute, m + 30 * minute] {
            let onLaptop = try laptop.queries(now: now).today()
            let onDesktop = try desktop.queries(now: now).today()
            #expect(onLaptop.estimate == onDesktop.estimate && onLaptop.reading.tokens == 960)
            #expect(onLaptop.measuredAt == onDesktop.measuredAt)
        }
        // At 10:12 the laptop's 900 tokens over 09:45-10:10 (0.6 per second) have grown for 120 s; the desktop's
        // measurement (10:22) is later than the clock, so its 60 tokens count as they are.
        let at1012 = try laptop.queries(now: m + 12 * minute).today()
        #expect(at1012.estimate == LiveEstimate.Reading(tokens: 900 + 72 + 60, live: true))
        #expect(at1012.measuredAt == m + 10 * minute)
    }

    @Test func devicesAreMergedExactlyAndInTheStoresOrder() {
        let a = [
            BucketRow(quarter: 1, tool: "b", model: "m", counts: TokenCounts(input: 1), events: 1),
            BucketRow(quarter: 2, tool: "a", model: "m", counts: TokenCounts(input: 2), events: 1, loggedCostNanos: 5),
        ]
        let b = [
            BucketRow(quarter: 1, tool: "a", model: "m", counts: TokenCounts(output: 4), events: 2),
            BucketRow(quarter: 2, tool: "a", model: "m", counts: TokenCounts(input: 8), events: 3, loggedCostNanos: 7),
            BucketRow(quarter: 2, tool: "a", model: "m", counts: TokenCounts(input: 16), events: 1, costLogged: true),
            BucketRow(
                quarter: 2, tool: "a", model: "m", counts: TokenCounts(input: 32), events: 1, costLogged: true,
                dimensions: PriceDimensions(speed: .fast), serverTools: ServerToolCounts(webSearch: 3)),
        ]
        let a2 = a + [
            BucketRow(
                quarter: 2, tool: "a", model: "m", counts: TokenCounts(input: 64), events: 1, costLogged: true,
                dimensions: PriceDimensions(speed: .fast), serverTools: ServerToolCounts(webSearch: 1, webFetch: 2))
        ]
        let merged = DeviceMerge.buckets([a2, b])
        #expect(merged.map { "\($0.quarter)\($0.tool)\($0.costLogged)" } == ["1afalse", "1bfalse", "2afalse", "2atrue", "2atrue"])
        #expect(merged[2].counts.input == 10 && merged[2].events == 4 && merged[2].loggedCostNanos == 12)
        #expect(merged[3].dimensions == .unrecorded && merged[3].counts.input == 16, "a fast row is kept apart, after the one not stated")
        #expect(merged[4].counts.input == 96 && merged[4].serverTools == ServerToolCounts(webSearch: 4, webFetch: 2))
        #expect(DeviceMerge.buckets([b, a2]) == merged, "whatever order the devices come in")

        let activity = DeviceMerge.activity([
            [ActivityQuarter(quarter: 3, first: 10, last: 20)],
            [ActivityQuarter(quarter: 3, first: 5, last: 15), ActivityQuarter(quarter: 4, first: 30, last: 31)],
        ])
        #expect(activity == [ActivityQuarter(quarter: 3, first: 5, last: 20), ActivityQuarter(quarter: 4, first: 30, last: 31)])
    }
}
