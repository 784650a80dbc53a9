import Foundation
import XCTest
@testable import UnpromptKit

/// The sqlite format: databases built here from SQL text (with the engine's own `Database`), read directly
/// through `SQLiteSourceReader`, through `DryRun` and, for resumes, through `Scanner` into a store.
final class SQLiteSourceReaderTests: XCTestCase {
    let utc = TimeZone(identifier: "UTC")!
    /// 2024-01-02T03:04:05Z in epoch seconds.
    static let t0: Int64 = 1_704_164_645

    var dir = ""

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("sqlite-reader-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        chmod(dir, 0o755)
        try? FileManager.default.removeItem(atPath: dir)
    }

    // MARK: Helpers

    /// A one-input sqlite descriptor whose records are rows `(id, at, tokens)`: `at` in epoch seconds, `tokens`
    /// the input count. `query` is the YAML value of the input's `query` key.
    func descriptor(query: String, identity: String = "identity: { key: [id], keep: first }", cumulative: String = "")
        throws -> Descriptor
    {
        let text = """
            schema: 1
            id: test
            name: Test
            inputs:
              - format: sqlite
                sources: [{ root: /nonexistent, glob: "*.db" }]
                query: \(query)
                records:
                  - name: row
                    time: { path: at, as: epoch_s }
                    tokens: { input: tokens }
                    counting: { input_includes_cache: false, output_includes_reasoning: true }
                    \(identity)
                    \(cumulative)
            """
        do {
            return try DescriptorLoader.load(text: text, file: "test.yaml")
        } catch {
            XCTFail("descriptor did not load: \(error)\n\(text)")
            throw error
        }
    }

    static let plainQuery = #"{ sql: "SELECT id, at, tokens FROM usage ORDER BY id" }"#

    /// A database at `name` holding what `sql` builds, closed (so it is a plain file, or a WAL database
    /// with no sidecars when `sql` asks for WAL mode).
    @discardableResult
    func database(_ name: String, _ sql: String) throws -> String {
        let path = dir + "/" + name
        let writer = try Database(path: path, options: [.readWrite, .create])
        try writer.execute(sql)
        return path
    }

    func read(_ descriptor: Descriptor, _ path: String, state: SourceState = SourceState()) throws(SourceReadError)
        -> SourceReadResult
    {
        let reader = SourceReaders.make(CompiledInput(descriptor.inputs[0], descriptor: descriptor), timeZone: utc)
        return try reader.read(path: path, sourceKey: SourceKey.of(path: path), from: 0, state: state)
    }

    func dryRun(_ descriptor: Descriptor) -> ReaderReport {
        DryRun(discovery: SourceDiscovery(environment: [:], home: "/nonexistent", rootOverride: dir), workers: 1)
            .run(descriptor)
    }

    func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    func inputTotal(_ result: SourceReadResult) -> Int64 { result.events.reduce(0) { $0 + $1.counts.input } }

    // MARK: Write-ahead log and read-only opening

    func testRowsHeldOnlyInTheWriteAheadLogAreReadAndNoFileChanges() throws {
        let path = dir + "/live.db"
        let writer = try Database(path: path, options: [.readWrite, .create])
        try writer.execute(
            """
            PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0;
            CREATE TABLE usage (id INTEGER PRIMARY KEY, at INTEGER, tokens INTEGER);
            INSERT INTO usage VALUES (1, \(Self.t0), 100);
            PRAGMA wal_checkpoint(TRUNCATE);
            INSERT INTO usage VALUES (2, \(Self.t0 + 60), 20);
            """)
        // The writer stays open, as a running tool holds its database: row 2 is in the WAL only, which an
        // immutable open (that ignores the WAL) proves.
        let immutable = try Database(path: SQLiteSourceReader.uri(path, immutable: true), options: [.readOnly, .uri])
        XCTAssertEqual(try immutable.prepare("SELECT count(*) FROM usage").rows().first?.int(0), 1)
        let databaseBefore = try XCTUnwrap(bytes(path))
        let logBefore = try XCTUnwrap(bytes(path + "-wal"))

        let result = try read(try descriptor(query: Self.plainQuery), path)

        XCTAssertEqual(result.events.map(\.counts.input), [100, 20])
        XCTAssertEqual(result.lines, 2)
        XCTAssertEqual(bytes(path), databaseBefore, "the database file must not change")
        XCTAssertEqual(bytes(path + "-wal"), logBefore, "the write-ahead log must not change")
        withExtendedLifetime(writer) {}
    }

    func testACleanlyClosedWALDatabaseIsReadWithoutCreatingFilesBesideIt() throws {
        let path = try database(
            "closed.db",
            """
            PRAGMA journal_mode = WAL;
            CREATE TABLE usage (id INTEGER PRIMARY KEY, at INTEGER, tokens INTEGER);
            INSERT INTO usage VALUES (1, \(Self.t0), 7), (2, \(Self.t0), 8);
            """)
        XCTAssertFalse(exists(path + "-wal") || exists(path + "-shm"), "closing the last connection removes both")
        XCTAssertEqual(bytes(path)?[18...19].map { $0 }, [2, 2], "the header says WAL")
        // Where it can, a read-only connection would create the -wal and -shm the WAL mode needs; where it
        // cannot (a read-only directory, for a user other than root), it would fail.
        chmod(dir, 0o555)
        let before = try XCTUnwrap(bytes(path))

        let result = try read(try descriptor(query: Self.plainQuery), path)

        XCTAssertEqual(result.events.map(\.counts.input), [7, 8])
        XCTAssertFalse(exists(path + "-wal"), "no -wal may be created beside the tool's database")
        XCTAssertFalse(exists(path + "-shm"), "no -shm may be created beside the tool's database")
        XCTAssertEqual(bytes(path), before)
    }

    // MARK: Failures and absent tables

    func testAFileThatIsNotADatabaseIsAnUnreadableSourceAndNothingIsKept() throws {
        let text = String(repeating: "these are not the bytes of a database\n", count: 40)
        FileManager.default.createFile(atPath: dir + "/usage.db", contents: Data(text.utf8))
        let d = try descriptor(query: Self.plainQuery)

        XCTAssertThrowsError(try read(d, dir + "/usage.db")) { error in
            XCTAssertTrue("\(error)".contains("not a database"), "\(error)")
        }
        let report = dryRun(d)
        XCTAssertEqual(report.sources, 1)
        XCTAssertEqual(report.failedSources, 1)
        XCTAssertEqual(report.skipped, [SkipReason.unreadableSource: 1])
        XCTAssertEqual(report.totals.total, .zero)
        XCTAssertEqual(report.problems.count, 1)
        XCTAssertEqual(report.problems.first?.line, 0)
        XCTAssertTrue(report.problems.first?.reason.contains("not a database") ?? false, "\(report.problems)")
    }

    func testASchemaMissingAColumnIsAClearFailure() throws {
        let path = try database(
            "old.db",
            """
            CREATE TABLE usage (id INTEGER PRIMARY KEY, at INTEGER);
            INSERT INTO usage VALUES (1, \(Self.t0));
            """)
        XCTAssertThrowsError(try read(try descriptor(query: Self.plainQuery), path)) { error in
            XCTAssertTrue("\(error)".contains("no such column: tokens"), "\(error)")
        }
    }

    func testADatabaseWithoutTheRequiredTableHasNothingAndNoError() throws {
        let path = try database("other.db", "CREATE TABLE settings (key TEXT, value TEXT);")
        let d = try descriptor(query: #"{ sql: "SELECT id, at, tokens FROM usage", requires: [usage] }"#)

        let result = try read(d, path)

        XCTAssertEqual(result.lines, 0)
        XCTAssertEqual(result.events.count, 0)
        XCTAssertEqual(result.skipped, [:])
        let report = dryRun(d)
        XCTAssertEqual(report.failedSources, 0)
        XCTAssertEqual(report.sources, 1)
    }

    func testTheFirstQueryVariantWhoseTablesAllExistIsRun() throws {
        let d = try descriptor(
            query: """

                  - { sql: "SELECT id, at, tokens * 10 AS tokens FROM usage_v2", requires: [usage_v2, usage] }
                  - { sql: "SELECT id, at, tokens FROM usage", requires: usage }
              """)
        XCTAssertEqual(d.inputs[0].sqlQueries.map(\.requires), [["usage_v2", "usage"], ["usage"]])
        let old = try database(
            "old.db",
            """
            CREATE TABLE usage (id INTEGER PRIMARY KEY, at INTEGER, tokens INTEGER);
            INSERT INTO usage VALUES (1, \(Self.t0), 3);
            """)
        XCTAssertEqual(try read(d, old).events.map(\.counts.input), [3])

        let migrated = try database(
            "new.db",
            """
            CREATE TABLE usage (id INTEGER PRIMARY KEY, at INTEGER, tokens INTEGER);
            CREATE TABLE usage_v2 (id INTEGER PRIMARY KEY, at INTEGER, tokens INTEGER);
            INSERT INTO usage VALUES (1, \(Self.t0), 3);
            INSERT INTO usage_v2 VALUES (1, \(Self.t0), 4);
            """)
        XCTAssertEqual(try read(d, migrated).events.map(\.counts.input), [40])

        let neither = try database("neither.db", "CREATE TABLE usage_v2 (id INTEGER);")
        XCTAssertEqual(try read(d, neither).lines, 0)
    }

    /// `table.column` in `requires` needs the column too: a table without it runs the next variant.
    func testAVariantCanRequireAColumn() throws {
        let d = try descriptor(
            query: """

                  - { sql: "SELECT id, at, tokens FROM usage", requires: [usage.at] }
                  - { sql: "SELECT id, created AS at, tokens * 10 AS tokens FROM usage", requires: usage }
              """)
        let withAt = try database(
            "at.db", "CREATE TABLE usage (id INTEGER PRIMARY KEY, at INTEGER, tokens INTEGER); INSERT INTO usage VALUES (1, \(Self.t0), 3);")
        XCTAssertEqual(try read(d, withAt).events.map(\.counts.input), [3])
        let withoutAt = try database(
            "created.db",
            "CREATE TABLE usage (id INTEGER PRIMARY KEY, created INTEGER, tokens INTEGER); INSERT INTO usage VALUES (1, \(Self.t0), 3);")
        XCTAssertEqual(try read(d, withoutAt).events.map(\.counts.input), [30])
    }

    // MARK: Columns

    func testBLOBsThatHoldTextAreReadAsStringsAndOthersAsNull() throws {
        let path = try database(
            "blobs.db",
            """
            CREATE TABLE kv (key TEXT, value BLOB);
            INSERT INTO kv VALUES ('text', CAST('{"n": 5}' AS BLOB)), ('empty', X''), ('binary', X'FF00FE');
            """)
        let text = """
            schema: 1
            id: test
            name: Test
            inputs:
              - format: sqlite
                sources: [{ root: /nonexistent, glob: "*.db" }]
                query: { sql: "SELECT key, value, 1704164645 AS at FROM kv ORDER BY key DESC" }
                records:
                  - name: row
                    decode: value
                    skip:
                      empty: { value: "" }
                      binary: { value: { present: false } }
                    time: { path: at, as: epoch_s }
                    tokens: { input: value.n }
                    counting: { input_includes_cache: false, output_includes_reasoning: true }
            """
        let result = try read(try DescriptorLoader.load(text: text, file: "test.yaml"), path)

        XCTAssertEqual(result.events.map(\.counts.input), [5])
        XCTAssertEqual(result.skipped, ["empty": 1, "binary": 1])
    }

    // MARK: Resuming through the scanner

    func scan(_ descriptor: Descriptor, into store: UsageStore) throws -> ScanReport {
        try Scanner(store: store, discovery: SourceDiscovery(environment: [:], home: "/nonexistent", rootOverride: dir), workers: 1)
            .scan([descriptor])
    }

    func storedInput(_ store: UsageStore) throws -> Int64 {
        try store.buckets(fromQuarter: 0, toQuarter: Int64.max).reduce(0) { $0 + $1.counts.input }
    }

    func testAWatermarkResumesWithNewRowsAndAnUpdatedRowReplacesItsEarlierCopy() throws {
        let path = dir + "/usage.db"
        let writer = try Database(path: path, options: [.readWrite, .create])
        try writer.execute(
            """
            CREATE TABLE usage (id INTEGER PRIMARY KEY, at INTEGER, tokens INTEGER, updated INTEGER);
            INSERT INTO usage VALUES (1, \(Self.t0), 1, 5), (2, \(Self.t0), 10, 10), (3, \(Self.t0), 100, 20);
            """)
        let d = try descriptor(
            query: #"{ sql: "SELECT id, at, tokens, updated FROM usage WHERE updated >= :watermark ORDER BY updated", watermark: updated }"#,
            identity: "identity: { key: [id], keep: last }")
        let store = try UsageStore(path: dir + "/store/usage.sqlite")

        let first = try scan(d, into: store)
        XCTAssertEqual(first.counted, 3)
        XCTAssertEqual(try storedInput(store), 111)

        // Row 3 grows in place (its `updated` moves on) and row 4 is new; rows 1 and 2 are below the
        // watermark (20) and are not read again.
        try writer.execute(
            """
            UPDATE usage SET tokens = 300, updated = 40 WHERE id = 3;
            INSERT INTO usage VALUES (4, \(Self.t0), 1000, 30);
            """)
        let second = try scan(d, into: store)

        XCTAssertEqual(second.read, 1)
        XCTAssertEqual(second.counted, 1, "row 4 is new")
        XCTAssertEqual(second.duplicates, 1, "row 3 replaces its earlier copy; rows 1 and 2 are not read")
        XCTAssertEqual(try storedInput(store), 1 + 10 + 300 + 1000)
        let saved = try XCTUnwrap(try store.checkpoint(for: SourceKey.of(path: path))?.state())
        XCTAssertEqual(saved.watermark, .integer(40))

        let third = try scan(d, into: store)
        XCTAssertEqual(third.unchanged, 1, "nothing changed: the database is not opened")
        XCTAssertEqual(try storedInput(store), 1311)
    }

    func testQueryVariantsShareTheRunningTotalsAcrossASchemaMigration() throws {
        let path = dir + "/sessions.db"
        let writer = try Database(path: path, options: [.readWrite, .create])
        try writer.execute(
            """
            CREATE TABLE sessions (id TEXT PRIMARY KEY, at INTEGER, total INTEGER);
            INSERT INTO sessions VALUES ('s1', \(Self.t0), 500);
            """)
        // Old schema: a running total per session. New schema: the same total, now kept in a ledger.
        let d = try descriptor(
            query: """

                  - { sql: "SELECT session AS id, at, sum(tokens) AS tokens FROM ledger GROUP BY session", requires: [ledger] }
                  - { sql: "SELECT id, at, total AS tokens FROM sessions", requires: [sessions] }
              """,
            identity: "", cumulative: "cumulative: { key: id }")
        let store = try UsageStore(path: dir + "/store/usage.sqlite")
        _ = try scan(d, into: store)
        XCTAssertEqual(try storedInput(store), 500)

        try writer.execute(
            """
            CREATE TABLE ledger (session TEXT, at INTEGER, tokens INTEGER);
            INSERT INTO ledger VALUES ('s1', \(Self.t0 + 60), 500), ('s1', \(Self.t0 + 120), 70);
            """)
        _ = try scan(d, into: store)

        XCTAssertEqual(try storedInput(store), 570, "the new variant continues the baseline of the old one")
    }
}
