import Foundation
import XCTest
import UnpromptTestSupport
@testable import UnpromptKit

/// A descriptor that changes how it names a record (`identity.former`) keeps counting it once in a store written
/// under the old name.
final class FormerIdentityTests: XCTestCase {
    var dir = ""

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("former-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir + "/home/sessions/p", withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: dir)
    }

    func write(input: Int64) throws {
        let document = #"{"model": "m", "providerLockTimestamp": "2026-04-02T10:00:00.000Z", "tokenUsage": {"inputTokens": \#(input)}}"#
        try document.write(toFile: dir + "/home/sessions/p/s1.settings.json", atomically: true, encoding: .utf8)
    }

    func scan(_ store: UsageStore) throws -> ScanReport {
        try Scanner(
            store: store, discovery: SourceDiscovery(environment: [:], home: "/nonexistent", rootOverride: dir + "/home"),
            workers: 1
        ).scan([try DescriptorLoader.load(path: Repository.readers + "/factory-droid.yaml")])
    }

    func totalInput(_ store: UsageStore) throws -> Int64 {
        try store.buckets(fromQuarter: 0, toQuarter: Int64.max).reduce(0) { $0 + $1.counts.input }
    }

    /// Factory Droid's sessions were named by their lock time and are now named by their file: a session counted
    /// under the old name, which has grown since, adds only its growth.
    func testARecordCountedUnderTheFormerKeyCountsOnlyItsGrowth() throws {
        let store = try UsageStore(path: dir + "/usage.sqlite")
        try write(input: 100)
        XCTAssertEqual(try scan(store).counted, 1)
        // The store an older version wrote: the session's identity is the hash of its lock time.
        var hasher = IdentityHasher()
        hasher.combine("factory-droid")
        hasher.combine("2026-04-02T10:00:00.000Z")
        let old = hasher.finalize()
        let database = try Database(path: store.path, options: [.readWrite])
        try database.prepare("UPDATE identities SET high = ?1, low = ?2").run([
            .integer(Int64(bitPattern: old.high)), .integer(Int64(bitPattern: old.low)),
        ])
        XCTAssertEqual(database.changes, 1)

        try write(input: 250)
        let report = try scan(store)
        XCTAssertEqual(report.counted, 0)
        XCTAssertEqual(report.duplicates, 1)
        XCTAssertEqual(try totalInput(store), 250)
    }
}
