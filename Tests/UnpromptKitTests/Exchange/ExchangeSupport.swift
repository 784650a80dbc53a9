import Foundation
import UnpromptTestSupport
@testable import UnpromptKit

/// A device for the exchange tests: a temporary store filled by committing events directly, and its queries.
final class TestDevice {
    let directory: String
    let store: UsageStore
    private var reads = 0

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("device-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        store = try UsageStore(path: directory + "/usage.sqlite")
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    static let readings = try! Readings.load(mode: .calculate, location: QueryCorpus.readings)

    /// Commits `events` and `limits` as one new source, then records a measurement at `measuredAt`.
    func add(_ events: [TokenEvent], limits: [LimitSample] = [], measuredAt: Int64? = nil) throws {
        reads += 1
        let checkpoint = try Checkpoint(
            device: 1, inode: UInt64(reads), size: 1, modifiedNanoseconds: 1, offset: 1, headLength: 0, headHash: "",
            tailHash: "", state: SourceState())
        _ = try store.commit(sourceKey: "source-\(reads)", expected: nil, events: events, limits: limits, checkpoint: checkpoint)
        if let measuredAt { try store.recordMeasurement(at: measuredAt) }
    }

    func queries(now: Int64, devices: DeviceSelection = .all, zone: ViewZone = .utc) -> UsageQueries {
        UsageQueries(store: store, readings: Self.readings, zone: zone, workHours: .none, now: now, descriptors: [], devices: devices)
    }

    /// Syncs with `folder` at `now`, labelled `label`.
    func sync(_ folder: String, now: Int64, label: String) throws -> SyncReport {
        try DeviceSync.run(queries(now: now), directory: folder, label: label)
    }
}

/// A fresh temporary folder, removed with the value.
final class TemporaryFolder {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("folder-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

enum Moments {
    /// 2026-01-05T10:00:00Z, a Monday.
    static let monday: Int64 = 1_767_607_200_000
    static let minute: Int64 = 60_000

    static func event(
        _ tool: String, _ model: String, at time: Int64, input: Int64, output: Int64 = 0, cacheRead: Int64 = 0, id: UInt64,
        cost: Double? = nil
    ) -> TokenEvent {
        TokenEvent(
            tool: tool, time: time, model: model, counts: TokenCounts(input: input, cacheRead: cacheRead, output: output),
            loggedCost: cost, identity: Identity(high: id, low: id &* 31))
    }
}
