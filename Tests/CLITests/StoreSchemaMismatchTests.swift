import Foundation
import Testing
import UnpromptTestSupport

/// A store whose schema version says older than its tables are (its user_version set back by hand or by damage):
/// the upgrade cannot run on it, which is said as damage, and the file is left as it was.
struct StoreSchemaMismatchTests {
    @Test func olderSchemaVersionOverNewerTablesIsSaidDamagedAndLeftAsItIs() throws {
        let home = try HostileHome("schema-mismatch")
        defer { home.remove() }
        try home.write(HostileHome.claudeRecord("a", input: "100"), at: ".claude/projects/p/a.jsonl")
        #expect(try home.run([]).status == 0)
        _ = try Python.run(
            "import sqlite3, sys; db = sqlite3.connect(sys.argv[1]); db.execute('PRAGMA user_version = 1'); db.commit(); db.close()",
            arguments: [home.store])
        let before = try Data(contentsOf: URL(fileURLWithPath: home.store))
        try home.write(HostileHome.claudeRecord("a", input: "100") + HostileHome.claudeRecord("b", input: "7"), at: ".claude/projects/p/a.jsonl")
        let scan = try home.run([])
        #expect(scan.status == 4)
        #expect(scan.stderr.contains("the store is damaged: upgrading it from schema 1 failed"), "\(scan.stderr)")
        #expect(scan.stderr.contains("it was left as it is"), "\(scan.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: home.store)) == before)
    }
}
