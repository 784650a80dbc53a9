import Foundation
import XCTest
import UnpromptTestSupport
@testable import UnpromptKit

/// The store's own contract: what it refuses, and what one commit does.
final class UsageStoreTests: XCTestCase {
    var dir = ""

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: dir)
    }

    func checkpoint(offset: Int64, tail: String = "t") throws -> Checkpoint {
        try Checkpoint(
            device: 1, inode: 2, size: offset, modifiedNanoseconds: 3, offset: offset, headLength: 0, headHash: "",
            tailHash: tail, state: SourceState())
    }

    func event(_ input: Int64, id: UInt64, at time: Int64, keep: KeepRule = .largest) -> TokenEvent {
        TokenEvent(
            tool: "t", time: time, model: "m", counts: TokenCounts(input: input),
            identity: Identity(high: id, low: id), keep: keep)
    }

    func testAStoreFromANewerVersionIsRefusedAndLeftAsItIs() throws {
        let path = dir + "/u.sqlite"
        _ = try UsageStore(path: path)
        try Database(path: path, options: [.readWrite]).execute("PRAGMA user_version = 99")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try UsageStore(path: path)) { error in
            XCTAssertTrue("\(error)".contains("written by a newer version (schema 99)"), "\(error)")
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
    }

    /// The rows `problems()` counts are found through an index that holds only them, so a sound store's check
    /// reads no row; a store without the index (written by an older version) gets it at its next writable open.
    func testImplausibleRowsAreCountedThroughTheirIndex() throws {
        let path = dir + "/u.sqlite"
        _ = try UsageStore(path: path)
        func plan() throws -> String {
            try Database(path: path, options: [.readOnly]).prepare(
                "EXPLAIN QUERY PLAN SELECT count(*) FROM buckets WHERE \(UsageStore.implausibleBucket)"
            ).rows().compactMap { $0.text(3) }.joined(separator: "; ")
        }
        XCTAssertTrue(try plan().contains("USING INDEX buckets_implausible"))
        try Database(path: path, options: [.readWrite]).execute("DROP INDEX buckets_implausible")
        XCTAssertFalse(try plan().contains("buckets_implausible"))
        let store = try UsageStore(path: path)
        XCTAssertTrue(try plan().contains("USING INDEX buckets_implausible"))
        XCTAssertEqual(try store.problems(), [])
        try Database(path: path, options: [.readWrite]).execute(
            """
            INSERT INTO buckets (quarter, tool, model, context_above, cost_logged, speed, tier, region, input, cache_read,
                cache_write_5m, cache_write_1h, cache_write_12h, output, reasoning, events, logged_cost_nanos,
                estimated_events, web_search, web_fetch)
            VALUES (1, 't', 'm', 0, 0, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0),
                (2, 't', 'm', 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0)
            """)
        XCTAssertEqual(try store.problems().map(\.message).first?.hasPrefix("1 bucket row holds counts no record could give"), true)
    }

    func testAFileThatIsNotAStoreIsReportedAndNeverRecreated() throws {
        let path = dir + "/u.sqlite"
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try garbage.write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try UsageStore(path: path)) { error in
            XCTAssertTrue("\(error)".contains("damaged or is not an Unprompt store"), "\(error)")
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), garbage)
    }

    /// Stores written before the application id are recognised by their tables, and marked when opened to write;
    /// a new store is marked from its first write.
    func testAForeignSQLiteDatabaseIsToldApartFromAStoreWithoutTheMark() throws {
        let path = dir + "/u.sqlite"
        let store = try UsageStore(path: path)
        XCTAssertEqual(try StoreFile.examine(path), .store(marked: true))
        _ = try store.commit(sourceKey: "s", expected: nil, events: [event(5, id: 1, at: 0)], limits: [], checkpoint: checkpoint(offset: 1))
        try Database(path: path, options: [.readWrite]).execute("PRAGMA application_id = 0; PRAGMA wal_checkpoint(TRUNCATE)")
        XCTAssertEqual(try StoreFile.examine(path), .store(marked: false))
        _ = try UsageStore(path: path, readOnly: true)
        XCTAssertEqual(try StoreFile.examine(path), .store(marked: false), "a read-only open writes nothing")
        let reopened = try UsageStore(path: path)
        try Database(path: path, options: [.readWrite]).execute("PRAGMA wal_checkpoint(TRUNCATE)")
        XCTAssertEqual(try StoreFile.examine(path), .store(marked: true))
        XCTAssertEqual(try reopened.buckets(fromQuarter: 0, toQuarter: 1).first?.counts.input, 5)
        try Database(path: path, options: [.readWrite]).execute("PRAGMA application_id = 7; PRAGMA wal_checkpoint(TRUNCATE)")
        XCTAssertThrowsError(try UsageStore(path: path)) { error in
            XCTAssertTrue("\(error)".contains("another application's SQLite database"), "\(error)")
        }
    }

    func testReadOnlyOpenOfAMissingStoreCreatesNothing() {
        XCTAssertThrowsError(try UsageStore(path: dir + "/none.sqlite", readOnly: true))
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/none.sqlite"))
    }

    /// A rescan compares stats with the stamps alone, looked up by the source key's value; each stamp is its
    /// checkpoint's, and the default of a ledger that keeps only whole checkpoints (the dry run's) says the same. A
    /// key that is no source key's exact text (a leading zero, upper case) names no source, and is left out.
    func testStampsAreTheCheckpointsStatFields() throws {
        let store = try UsageStore(path: dir + "/u.sqlite")
        XCTAssertEqual(try store.checkpointStamps(), [:])
        let a = Identity(high: 0x1f, low: 0)
        let b = Identity(high: UInt64.max, low: 0xabc)
        _ = try store.commit(
            sourceKey: a.description, expected: nil, events: [], limits: [], checkpoint: try checkpoint(offset: 10))
        _ = try store.commit(
            sourceKey: b.description, expected: nil, events: [],
            limits: [], checkpoint: try Checkpoint(
                device: UInt64.max, inode: 1 << 63, size: 99, modifiedNanoseconds: -5, offset: 40, headLength: 4, headHash: "h",
                tailHash: "t", state: SourceState()))
        for foreign in ["01f:0", "1F:0", "a", "1f:0:0", "1f:", "11111111111111111:0"] {
            _ = try store.commit(
                sourceKey: foreign, expected: nil, events: [], limits: [], checkpoint: try checkpoint(offset: 1))
        }
        let stamps = try store.checkpointStamps()
        XCTAssertEqual(a.description, "1f:0")
        XCTAssertEqual(stamps[a], CheckpointStamp(device: 1, inode: 2, size: 10, modifiedNanoseconds: 3))
        XCTAssertEqual(stamps[b], CheckpointStamp(device: UInt64.max, inode: 1 << 63, size: 99, modifiedNanoseconds: -5))
        XCTAssertEqual(stamps.count, 2)
        let all = try store.allCheckpoints()
        XCTAssertEqual(all.count, 8)
        for (identity, stamp) in stamps { XCTAssertEqual(all[identity.description]?.stamp, stamp) }
        XCTAssertEqual(DryRunLedger().checkpointStamps(), [:])
    }

    /// A source key is found again from its text: every identity's, and none that another text would give.
    func testASourceKeysTextGivesItsIdentityBack() {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<1000 {
            let identity = Identity(
                high: random.next() >> UInt64.random(in: 0...63), low: random.next() >> UInt64.random(in: 0...63))
            var text = identity.description
            XCTAssertEqual(text.withUTF8 { Identity(description: UnsafeRawBufferPointer($0)) }, identity, text)
        }
        for text in ["0:0", "ffffffffffffffff:ffffffffffffffff"] {
            var copy = text
            XCTAssertEqual(copy.withUTF8 { Identity(description: UnsafeRawBufferPointer($0)) }?.description, text)
        }
        for text in ["", ":", "0", "00:0", "0:00", "A:0", "0:g", " 1:0", "1:0 ", "1:2:3", "10000000000000000:0"] {
            var copy = text
            XCTAssertNil(copy.withUTF8 { Identity(description: UnsafeRawBufferPointer($0)) }, text)
        }
        XCTAssertEqual(SourceKey.of(path: "/a/b.jsonl"), SourceKey.identity(of: "/a/b.jsonl").description)
    }

    /// A read whose starting checkpoint has moved (another scan got there first) writes nothing.
    func testACommitFromAStaleCheckpointWritesNothing() throws {
        let store = try UsageStore(path: dir + "/u.sqlite")
        let first = try store.commit(
            sourceKey: "s", expected: nil, events: [event(5, id: 1, at: 0)], limits: [], checkpoint: try checkpoint(offset: 10))
        XCTAssertEqual(first, CommitOutcome(counted: 1, duplicates: 0, applied: true))
        let stale = try store.commit(
            sourceKey: "s", expected: nil, events: [event(7, id: 2, at: 0)], limits: [], checkpoint: try checkpoint(offset: 20))
        XCTAssertEqual(stale.applied, false)
        XCTAssertEqual(try store.checkpoint(for: "s")?.offset, 10)
        XCTAssertEqual(try store.buckets(fromQuarter: 0, toQuarter: 1).map(\.counts.input), [5])
    }

    /// A larger copy read later, in another file and another quarter-hour, moves the record: the old
    /// quarter-hour's row goes, the new one holds the larger counts, and the total holds one copy.
    func testALargerCopyReplacesTheRecordAcrossCommits() throws {
        let store = try UsageStore(path: dir + "/u.sqlite")
        let quarter = Bucket.quarterMilliseconds
        _ = try store.commit(
            sourceKey: "a", expected: nil, events: [event(5, id: 1, at: 0)], limits: [], checkpoint: try checkpoint(offset: 1))
        let outcome = try store.commit(
            sourceKey: "b", expected: nil, events: [event(9, id: 1, at: 3 * quarter), event(4, id: 1, at: 4 * quarter)],
            limits: [], checkpoint: try checkpoint(offset: 1))
        XCTAssertEqual(outcome, CommitOutcome(counted: 0, duplicates: 2, applied: true))
        let rows = try store.buckets(fromQuarter: 0, toQuarter: 10)
        XCTAssertEqual(rows.map(\.quarter), [3])
        XCTAssertEqual(rows.map(\.counts.input), [9])
        XCTAssertEqual(rows.map(\.events), [1])
    }

    func testKeepFirstIdentitiesAreCountedOnceAcrossSources() throws {
        let store = try UsageStore(path: dir + "/u.sqlite")
        for key in ["a", "b", "c"] {
            _ = try store.commit(
                sourceKey: key, expected: nil, events: [event(5, id: 7, at: 0, keep: .first)], limits: [],
                checkpoint: try checkpoint(offset: 1))
        }
        XCTAssertEqual(try store.buckets(fromQuarter: 0, toQuarter: 1).map(\.events), [1])
    }

    func testOnlyTheLatestLimitReadingOfEachWindowIsKeptPerRead() throws {
        let store = try UsageStore(path: dir + "/u.sqlite")
        func sample(_ window: String, _ time: Int64, _ used: Double) -> LimitSample {
            LimitSample(tool: "codex", time: time, window: window, usedPercent: used, windowMinutes: 300, resetsAt: nil)
        }
        _ = try store.commit(
            sourceKey: "a", expected: nil, events: [],
            limits: [sample("primary", 5, 10), sample("primary", 9, 30), sample("secondary", 7, 2), sample("primary", 8, 20)],
            checkpoint: try checkpoint(offset: 1))
        XCTAssertEqual(try store.latestLimits(), [sample("primary", 9, 30), sample("secondary", 7, 2)])
        let rows = try Database(path: dir + "/u.sqlite", options: [.readOnly]).prepare("SELECT count(*) FROM limit_samples").rows()
        XCTAssertEqual(rows.first?.int(0), 2)
    }

    /// The alias rule holds across commits (reads of different files, in different scans).
    func testAnAliasRegisteredInOneReadCatchesAReplayInALaterOne() throws {
        let store = try UsageStore(path: dir + "/u.sqlite")
        let alias = Identity(high: 77, low: 77)
        func aliased(_ input: Int64, _ id: UInt64, check: Bool) -> TokenEvent {
            TokenEvent(
                tool: "t", time: 0, model: "m", counts: TokenCounts(input: input), identity: Identity(high: id, low: id),
                keep: .largest, alias: alias, checkAlias: check)
        }
        _ = try store.commit(
            sourceKey: "parent", expected: nil, events: [aliased(5, 1, check: false)], limits: [],
            checkpoint: try checkpoint(offset: 1))
        let replay = try store.commit(
            sourceKey: "side", expected: nil, events: [aliased(5, 2, check: true)], limits: [],
            checkpoint: try checkpoint(offset: 1))
        XCTAssertEqual(replay, CommitOutcome(counted: 0, duplicates: 1, applied: true))
        let growing = try store.commit(
            sourceKey: "parent", expected: try store.checkpoint(for: "parent"), events: [aliased(9, 1, check: true)],
            limits: [], checkpoint: try checkpoint(offset: 2))
        XCTAssertEqual(growing, CommitOutcome(counted: 0, duplicates: 1, applied: true), "replaced by its own larger copy")
        XCTAssertEqual(try store.buckets(fromQuarter: 0, toQuarter: 1).map(\.counts.input), [9])
    }

    /// The tables of schema 1 and 2 exactly as those versions created them, with one record each.
    static let schemaOne = LegacyStore.schemaOneTables + """
        INSERT INTO buckets VALUES (0, 't', 'm', 5, 0, 0, 0, 0, 0, 1);
        INSERT INTO identities VALUES (1, 1, 1, 0, 't', 'm', 5, 0, 0, 0, 0, 0);
        INSERT INTO checkpoints VALUES ('a', 1, 2, 3, 3, 3, 0, '', 't', x'');
        """
    static let schemaTwo = schemaOne + LegacyStore.schemaTwoAliases

    func oldStore(_ schema: String, version: Int) throws -> String {
        let path = dir + "/u.sqlite"
        let database = try Database(path: path, options: [.readWrite, .create])
        try database.execute(schema + "PRAGMA user_version = \(version);")
        return path
    }

    func testAVersionOneStoreIsUpgradedInPlace() throws {
        let path = try oldStore(Self.schemaOne, version: 1)
        XCTAssertThrowsError(try UsageStore(path: path, readOnly: true)) { error in
            XCTAssertTrue("\(error)".contains("older version (schema 1)"), "\(error)")
        }
        let upgraded = try UsageStore(path: path)
        XCTAssertEqual(try upgraded.buckets(fromQuarter: 0, toQuarter: 1).map(\.counts.input), [5])
        XCTAssertEqual(
            try Database(path: path, options: [.readOnly]).prepare("PRAGMA user_version").rows().first?.int(0),
            UsageStore.schemaVersion)
    }

    /// Schema 5 and before stored Codex's windows by their slot: those whose length says which window they
    /// are are renamed to it, the others keep their names.
    func testAVersionFiveStoreNamesItsLimitWindowsByTheirLength() throws {
        let path = dir + "/u.sqlite"
        _ = try UsageStore(path: path)
        let database = try Database(path: path, options: [.readWrite])
        try database.execute(
            LegacyStore.beforeSchemaNine + """
            INSERT INTO limit_samples VALUES ('t', 'primary', 1, 10, 300, NULL), ('t', 'secondary', 1, 20, 10080, NULL),
                ('t', 'primary', 2, 30, 10079, NULL), ('t', 'primary', 3, 40, NULL, NULL), ('t', 'primary', 4, 50, 1440, NULL),
                ('t', 'limit_reached', 5, 100, 300, NULL);
            DROP TABLE sync_devices; DROP TABLE sync_days; DROP TABLE sync_limits; DROP TABLE friends;
            DELETE FROM settings WHERE key IN ('device_id', 'friend_id');
            PRAGMA user_version = 5;
            """)
        _ = try UsageStore(path: path)
        let rows = try database.prepare("SELECT window, time FROM limit_samples ORDER BY time, window").rows()
            .map { "\($0.text(0) ?? "")@\($0.int(1) ?? 0)" }
        XCTAssertEqual(rows, ["five_hour@1", "weekly@1", "weekly@2", "primary@3", "primary@4", "limit_reached@5"])
    }

    /// Schema 2 kept no prompt size and no logged cost: its rows move to the unknown band, and a record
    /// replaced later leaves exactly that band.
    func testAVersionTwoStoreKeepsItsCountsInTheUnknownBand() throws {
        let path = try oldStore(Self.schemaTwo, version: 2)
        let store = try UsageStore(path: path)
        let rows = try store.buckets(fromQuarter: 0, toQuarter: 1)
        XCTAssertEqual(rows, [
            BucketRow(quarter: 0, tool: "t", model: "m", counts: TokenCounts(input: 5), events: 1, contextAbove: ContextBand.unknown)
        ])
        XCTAssertNil(try store.checkpoint(for: "a"), "forgotten for episodes (schema 4): the log is read again")
        // The same identity, larger and above 200k prompt tokens: it replaces the old record.
        let larger = TokenEvent(
            tool: "t", time: 0, model: "m", counts: TokenCounts(input: 1, cacheRead: 200_000), loggedCost: 0.25,
            identity: Identity(high: 1, low: 1), keep: .largest)
        let outcome = try store.commit(
            sourceKey: "a", expected: nil, events: [larger], limits: [],
            checkpoint: try checkpoint(offset: 9))
        XCTAssertEqual(outcome, CommitOutcome(counted: 0, duplicates: 1, applied: true))
        XCTAssertEqual(try store.buckets(fromQuarter: 0, toQuarter: 1), [
            BucketRow(
                quarter: 0, tool: "t", model: "m", counts: TokenCounts(input: 1, cacheRead: 200_000), events: 1,
                contextAbove: 200_000, costLogged: true, loggedCostNanos: 250_000_000)
        ])
    }

    /// A replaced record leaves its own band and logged-cost bucket exactly, even when the new copy lands in
    /// another one.
    func testAReplacementMovesBetweenBandsExactly() throws {
        let store = try UsageStore(path: dir + "/u.sqlite")
        func copy(_ cacheRead: Int64, cost: Double?, estimated: Bool) -> TokenEvent {
            TokenEvent(
                tool: "t", time: 0, model: "m", counts: TokenCounts(input: 10, cacheRead: cacheRead, output: 1),
                loggedCost: cost, identity: Identity(high: 7, low: 7), keep: .largest, estimated: estimated)
        }
        _ = try store.commit(
            sourceKey: "s", expected: nil, events: [copy(99_000, cost: 0.1, estimated: true)], limits: [],
            checkpoint: try checkpoint(offset: 1))
        XCTAssertEqual(try store.buckets(fromQuarter: 0, toQuarter: 1).map(\.key), [
            BucketKey(quarter: 0, tool: "t", model: "m", contextAbove: 32_000, costLogged: true)
        ])
        _ = try store.commit(
            sourceKey: "s", expected: try store.checkpoint(for: "s"), events: [copy(300_000, cost: nil, estimated: false)],
            limits: [], checkpoint: try checkpoint(offset: 2))
        XCTAssertEqual(try store.buckets(fromQuarter: 0, toQuarter: 1), [
            BucketRow(
                quarter: 0, tool: "t", model: "m", counts: TokenCounts(input: 10, cacheRead: 300_000, output: 1), events: 1,
                contextAbove: 272_000)
        ])
    }

    /// Logged costs sum exactly (integer nano-USD), and records with and without one stay apart.
    func testLoggedCostsSumExactlyAndApart() throws {
        let store = try UsageStore(path: dir + "/u.sqlite")
        let events = [0.1, 0.2, nil, 0.3].enumerated().map { index, cost in
            TokenEvent(tool: "t", time: Int64(index), model: "m", counts: TokenCounts(output: 1), loggedCost: cost, estimated: index == 2)
        }
        _ = try store.commit(sourceKey: "s", expected: nil, events: events, limits: [], checkpoint: try checkpoint(offset: 1))
        let rows = try store.buckets(fromQuarter: 0, toQuarter: 1)
        XCTAssertEqual(rows.map(\.costLogged), [false, true])
        XCTAssertEqual(rows.map(\.loggedCostNanos), [0, 600_000_000])
        XCTAssertEqual(rows.map(\.events), [1, 3])
        XCTAssertEqual(rows.map(\.estimatedEvents), [1, 0])
    }

    /// A store written before episodes (schema 2, as that version created it) is upgraded in place: its
    /// usage stays, every quarter-hour with usage is seeded as activity with its bounds, and its checkpoints
    /// are forgotten, so the next scan reads every log again. Those records are all duplicates by identity
    /// (nothing counts twice) and their exact times replace the seeded bounds.
    func testASchemaTwoStoreGetsActivityAndReadsItsLogsAgain() throws {
        let path = dir + "/u.sqlite"
        let quarter = Bucket.quarterMilliseconds
        let v2 = try Database(path: path, options: [.readWrite, .create])
        try v2.execute(
            """
            \(LegacyStore.schemaOneTables)
            \(LegacyStore.schemaTwoAliases)
            INSERT INTO identities (high, low, keep) VALUES (1, 1, 0), (2, 2, 0);
            INSERT INTO buckets VALUES (10, 't', 'm', 5, 0, 0, 0, 0, 0, 1), (40, 't', 'm', 7, 0, 0, 0, 0, 0, 1);
            INSERT INTO checkpoints VALUES ('s', 1, 2, 9, 3, 9, 0, '', 't', x'7b7d');
            PRAGMA user_version = 2;
            """)
        let store = try UsageStore(path: path)
        XCTAssertEqual(try store.checkpoint(for: "s"), nil, "read again by the next scan")
        XCTAssertEqual(
            try store.activity(fromQuarter: 0, toQuarter: 100),
            [
                ActivityQuarter(quarter: 10, first: 10 * quarter, last: 11 * quarter - 1),
                ActivityQuarter(quarter: 40, first: 40 * quarter, last: 41 * quarter - 1),
            ])
        // The log of quarter 10 is still there: read again, its record is a duplicate and its time exact.
        let again = try store.commit(
            sourceKey: "s", expected: nil,
            events: [TokenEvent(tool: "t", time: 10 * quarter + 60_000, model: "m", counts: TokenCounts(input: 5), identity: Identity(high: 1, low: 1))],
            limits: [], checkpoint: try checkpoint(offset: 9))
        XCTAssertEqual(again, CommitOutcome(counted: 0, duplicates: 1, applied: true))
        XCTAssertEqual(try store.buckets(fromQuarter: 0, toQuarter: 100).map(\.counts.input), [5, 7])
        XCTAssertEqual(
            try store.activity(fromQuarter: 0, toQuarter: 100),
            [
                ActivityQuarter(quarter: 10, first: 10 * quarter + 60_000, last: 10 * quarter + 60_000),
                ActivityQuarter(quarter: 40, first: 40 * quarter, last: 41 * quarter - 1),
            ])
    }

    func testReopeningAnExistingStoreKeepsEverything() throws {
        let path = dir + "/u.sqlite"
        _ = try UsageStore(path: path).commit(
            sourceKey: "a", expected: nil, events: [event(5, id: 1, at: 0)], limits: [], checkpoint: try checkpoint(offset: 3))
        let again = try UsageStore(path: path)
        XCTAssertEqual(try again.checkpoint(for: "a")?.offset, 3)
        XCTAssertEqual(try UsageStore(path: path, readOnly: true).buckets(fromQuarter: 0, toQuarter: 1).count, 1)
    }
}
