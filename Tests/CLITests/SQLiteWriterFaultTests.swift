import Foundation
import Testing
import UnpromptTestSupport

/// A tool's SQLite database being written in WAL mode while scans read it (ZCode's table, rows committed one
/// transaction at a time by another process): each scan counts exactly the rows committed when it read, a
/// prefix of the writer's, and the scan after the writer is done counts the rest, once.
struct SQLiteWriterFaultTests {
    static let database = ".zcode/cli/db/db.sqlite"
    static let rows = 3_000

    static let schema = """
        import sqlite3, sys
        db = sqlite3.connect(sys.argv[1])
        db.execute("PRAGMA journal_mode = WAL")
        db.execute('''CREATE TABLE model_usage (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, turn_id TEXT,
            model_id TEXT NOT NULL, agent TEXT, mode TEXT, input_tokens INTEGER NOT NULL DEFAULT 0,
            output_tokens INTEGER NOT NULL DEFAULT 0, reasoning_tokens INTEGER NOT NULL DEFAULT 0,
            cache_creation_input_tokens INTEGER NOT NULL DEFAULT 0, cache_read_input_tokens INTEGER NOT NULL DEFAULT 0,
            started_at INTEGER NOT NULL, completed_at INTEGER, duration_ms INTEGER)''')
        db.commit()
        """

    /// Row i (from 0) has i + 1 input tokens and 1 output token, one transaction each.
    static let writer = """
        import sqlite3, sys, time
        db = sqlite3.connect(sys.argv[1], isolation_level=None)
        db.execute("PRAGMA synchronous = OFF")
        t0 = 1775296800000
        for i in range(int(sys.argv[2])):
            db.execute("BEGIN IMMEDIATE")
            db.execute("INSERT INTO model_usage VALUES (?, 's', 't', 'GLM-4.6', 'a', 'ask', ?, 1, 0, 0, 0, ?, ?, 10)",
                       ("mu_%d" % i, i + 1, t0 + i * 1000, t0 + i * 1000 + 10))
            db.execute("COMMIT")
            time.sleep(0.001)
        db.close()
        """

    static func committed(_ path: String) throws -> Int {
        let count = try Python.run(
            "import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT count(*) FROM model_usage').fetchone()[0])",
            arguments: [path])
        return Int(count.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    @Test func sqliteWriterInWALModeDuringTheScanGivesExactPrefixes() throws {
        let home = try HostileHome("wal-writer")
        defer { home.remove() }
        let path = home.home + "/" + Self.database
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        _ = try Python.run(Self.schema, arguments: [path])

        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        writer.arguments = ["python3", "-c", Self.writer, path, String(Self.rows)]
        writer.standardInput = FileHandle.nullDevice
        try writer.run()
        defer { if writer.isRunning { writer.terminate() } }

        var scansDuringWrites = 0
        var previous: Int64 = 0
        while writer.isRunning && scansDuringWrites < 20 {
            let before = try Self.committed(path)
            let scan = try home.run(["--json"])
            let after = try Self.committed(path)
            #expect(scan.status == 0, "\(scan.stderr)")
            let counted = try StoreReader.totals(store: home.store)["zcode"] ?? .zero
            let k = counted.events
            // A prefix of the writer's rows, read in one snapshot between the counts before and after the scan.
            #expect(Int64(before) <= k && k <= Int64(after), "\(before) <= \(k) <= \(after)")
            #expect(counted == StoreTotals(input: k * (k + 1) / 2, output: k, events: k))
            #expect(k >= previous, "nothing counted is ever lost")
            previous = k
            scansDuringWrites += 1
        }
        writer.waitUntilExit()
        #expect(writer.terminationStatus == 0)
        #expect(scansDuringWrites >= 2, "the writer ended before two scans ran during its writes")

        let n = Int64(Self.rows)
        let all = StoreTotals(input: n * (n + 1) / 2, output: n, events: n)
        for _ in 0..<2 {
            #expect(try home.run([]).status == 0)
            #expect(try StoreReader.totals(store: home.store)["zcode"] == all)
        }
    }
}
