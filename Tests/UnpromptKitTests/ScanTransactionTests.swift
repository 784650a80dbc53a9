import Foundation
import XCTest
import UnpromptTestSupport
@testable import UnpromptKit

/// The store during a scan (`lockForScan`): its commits share one transaction until `finishCommits`, and a scan
/// that began on a store holding no identity looks up only the keys it wrote (`StoredKeyFilter`).
final class ScanTransactionTests: XCTestCase {
    var dir = ""

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("scan-tx-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: dir)
    }

    private func read(_ key: String, _ events: [TokenEvent]) throws -> SourceCommit {
        let checkpoint = try Checkpoint(
            device: 1, inode: 2, size: 1, modifiedNanoseconds: 3, offset: 1, headLength: 0, headHash: "",
            tailHash: "t", state: SourceState())
        return SourceCommit(sourceKey: key, expected: nil, events: events, limits: [], checkpoint: checkpoint)
    }

    private func event(_ input: Int64, id: UInt64, keep: KeepRule = .largest, alias: UInt64? = nil) -> TokenEvent {
        TokenEvent(
            tool: "t", time: 0, model: "m", counts: TokenCounts(input: input), identity: Identity(high: id, low: ~id),
            keep: keep, alias: alias.map { Identity(high: $0, low: $0) }, checkAlias: alias != nil)
    }

    /// What another connection sees: only what was committed.
    private func committedInput(_ path: String) throws -> Int64 {
        try UsageStore(path: path, readOnly: true).buckets(fromQuarter: 0, toQuarter: 1).reduce(0) { $0 + $1.counts.input }
    }

    func testAScansCommitsAreKeptTogetherOnceFinished() throws {
        let path = dir + "/u.sqlite"
        let store = try UsageStore(path: path)
        let lease = try store.lockForScan()
        let started = DispatchTime.now().uptimeNanoseconds
        _ = try store.commit([try read("a", [event(5, id: 1)])])
        _ = try store.commit([try read("b", [event(7, id: 2)])])
        // A machine so loaded that two one-event commits took a second has committed them, as it should.
        if Double(DispatchTime.now().uptimeNanoseconds - started) < store.commitGroup.seconds * 1e9 {
            XCTAssertEqual(try committedInput(path), 0, "nothing is committed before a second has passed or the scan ends")
        }
        try store.finishCommits()
        lease.release()
        XCTAssertEqual(try committedInput(path), 12)
        XCTAssertNotNil(try store.checkpoint(for: "b"))
    }

    /// A scan that fails before `finishCommits` keeps nothing of its open transaction: no count, no checkpoint.
    func testAScanLeftUnfinishedKeepsNothing() throws {
        let path = dir + "/u.sqlite"
        let store = try UsageStore(path: path)
        let lease = try store.lockForScan()
        _ = try store.commit([try read("a", [event(5, id: 1)])])
        lease.release()
        XCTAssertEqual(try committedInput(path), 0)
        XCTAssertNil(try store.checkpoint(for: "a"))
        // The store takes commits again, each its own transaction outside a scan.
        _ = try store.commit([try read("a", [event(5, id: 1)])])
        XCTAssertEqual(try committedInput(path), 5)
    }

    /// A copy in a later group of a scan into a new store is found (the filter holds what the scan wrote), by
    /// its identity and by its alias; a larger copy replaces the kept one.
    func testCopiesAcrossGroupsOfAScanIntoANewStoreCountOnce() throws {
        let path = dir + "/u.sqlite"
        let store = try UsageStore(path: path)
        let lease = try store.lockForScan()
        _ = try store.commit([try read("a", [event(5, id: 1), event(3, id: 2, keep: .first), event(4, id: 3, alias: 9)])])
        let second = try store.commit([
            try read("b", [event(5, id: 1), event(8, id: 2, keep: .first), event(6, id: 4, alias: 9), event(9, id: 1)])
        ])
        try store.finishCommits()
        lease.release()
        XCTAssertEqual(second, [CommitOutcome(counted: 0, duplicates: 4)])
        XCTAssertEqual(try committedInput(path), 9 + 3 + 4)
    }

    /// A store that already holds identities when the scan begins is looked up for every key.
    func testAScanIntoAStoreHoldingIdentitiesFindsThem() throws {
        let path = dir + "/u.sqlite"
        let store = try UsageStore(path: path)
        _ = try store.commit([try read("a", [event(5, id: 1), event(2, id: 7, alias: 8)])])
        let lease = try store.lockForScan()
        let again = try store.commit([try read("b", [event(5, id: 1), event(2, id: 6, alias: 8)])])
        try store.finishCommits()
        lease.release()
        XCTAssertEqual(again, [CommitOutcome(counted: 0, duplicates: 2)])
        XCTAssertEqual(try committedInput(path), 7)
    }

    func testTheFilterHoldsEveryKeyInsertedAndFewOthers() {
        var filter = StoredKeyFilter()
        var random = SeededRandom(seed: 14)
        let inserted = (0..<20_000).map { _ in Identity(high: random.next(), low: random.next()) }
        for key in inserted { filter.insert(key) }
        XCTAssertTrue(inserted.allSatisfy { filter.mayContain($0) })
        let others = (0..<20_000).map { _ in Identity(high: random.next(), low: random.next()) }
        let falsePositives = others.filter { filter.mayContain($0) }.count
        XCTAssertLessThan(falsePositives, 20, "about 1 in 10,000 at this load")
    }
}
