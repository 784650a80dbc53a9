/// Damages a store as a bad sector or a torn copy would: the header of one table's first page overwritten, after
/// its write-ahead log was folded into the file. The other pages, and every total the views read, stay whole.
public enum StoreDamage: Sendable {
    public static func breakFirstPage(of table: String, store: String) throws {
        _ = try Python.run(
            """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute('PRAGMA wal_checkpoint(TRUNCATE)')
            page = db.execute('SELECT rootpage FROM sqlite_master WHERE name = ?', (sys.argv[2],)).fetchone()[0]
            size = db.execute('PRAGMA page_size').fetchone()[0]
            db.close()
            with open(sys.argv[1], 'r+b') as f:
                f.seek((page - 1) * size)
                f.write(bytes([0x0d]) + bytes([0xff]) * 11)
            """,
            arguments: [store, table])
    }
}
