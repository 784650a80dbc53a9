import Foundation
import Testing
import UnpromptKit

/// Readings that reach the store outside any log (a status line's): a repeated reading is kept as the moment
/// it began and the latest moment it was seen, and one seen again within a minute is not written at all.
struct LimitReadingsStoreTests {
    let directory: String
    var path: String { directory + "/usage.sqlite" }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("readings-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    func reading(_ used: Double, at seconds: Int64, window: String = "five_hour") -> LimitSample {
        LimitSample(
            tool: "t", time: 1_773_142_200_000 + seconds * 1000, window: window, usedPercent: used, windowMinutes: 300,
            resetsAt: 1_773_154_800_000)
    }

    func stored() throws -> [LimitSample] {
        let store = try UsageStore(path: path, readOnly: true)
        return try store.limitSamples(tool: "t", window: "five_hour", since: 0)
    }

    @Test func aRunOfEqualReadingsKeepsItsFirstAndLatestMoments() throws {
        _ = try UsageStore(path: path)
        for (used, at) in [(10.0, 0), (10, 120), (10, 240), (10, 360), (12, 480), (12, 600)] {
            try UsageStore.recordReadings([reading(used, at: Int64(at))], storePath: path)
        }
        #expect(try stored() == [reading(10, at: 0), reading(10, at: 360), reading(12, at: 480), reading(12, at: 600)])
        // Recording the same readings again changes nothing.
        try UsageStore.recordReadings([reading(12, at: 600)], storePath: path)
        #expect(try stored().count == 4)
    }

    @Test func aReadingSeenAgainWithinAMinuteIsNotWrittenAgain() throws {
        _ = try UsageStore(path: path)
        try UsageStore.recordReadings([reading(10, at: 0)], storePath: path)
        let store = try UsageStore(path: path, readOnly: true)
        #expect(try store.readingsToRecord([reading(10, at: 59)]).isEmpty)
        #expect(try store.readingsToRecord([reading(10, at: 60)]) == [reading(10, at: 60)], "a minute on: its time moves")
        #expect(try store.readingsToRecord([reading(11, at: 1)]) == [reading(11, at: 1)], "a new share is new at once")
        #expect(try store.readingsToRecord([reading(10, at: 5, window: "seven_day")]).count == 1, "another window")
    }

    @Test func noStoreIsRefusedAndNoneIsCreated() throws {
        #expect(throws: StoreError.self) { try UsageStore.recordReadings([reading(1, at: 0)], storePath: path) }
        #expect(!FileManager.default.fileExists(atPath: path), "a status line never creates the store")
        try UsageStore.recordReadings([], storePath: path)
    }
}
