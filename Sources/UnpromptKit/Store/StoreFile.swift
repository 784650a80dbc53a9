import Foundation

/// What is at a store's path, found without writing a byte, so a file that is not a store is never written into
/// (another application's database given as `--store` keeps every byte, and gets no `-wal` or `-shm`).
///
/// - No file, or an empty one, is a new store.
/// - A store is marked by `PRAGMA application_id` (`applicationID`, set when it is created). A file whose header
///   carries it is a store.
/// - Stores written before the mark have an application id of 0: one is recognised by the tables every store
///   has had since schema 1, and gets the mark when next opened for writing.
/// - Anything else (not SQLite, another id, a database without those tables) is not a store.
enum StoreFile {
    /// "UNPS" in ASCII.
    static let applicationID: Int32 = 0x554E_5053
    /// The tables schema 1 created, which every store still has.
    static let ownTables: Set<String> = ["checkpoints", "identities", "buckets", "limit_samples", "settings"]

    enum Kind: Equatable {
        case missing
        case empty
        case store(marked: Bool)
    }

    static func examine(_ path: String) throws(StoreError) -> Kind {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return .missing }
            throw StoreError(message: "cannot examine the store: \(String(cString: strerror(errno)))", busy: false)
        }
        if info.st_mode & S_IFMT == S_IFDIR {
            throw StoreError(message: "the store's path is a directory, not a file; it was left as it is", busy: false)
        }
        if info.st_mode & S_IFMT != S_IFREG {
            throw StoreError(message: "the store's path is not a regular file; it was left as it is", busy: false)
        }
        if info.st_size == 0 { return .empty }
        let header = try self.header(path)
        guard header.count == 100, header.starts(with: Array("SQLite format 3\0".utf8)) else {
            throw StoreError(
                message: "the store is damaged or is not an Unprompt store (not a SQLite database); it was left as it is",
                busy: false)
        }
        let id = header[68..<72].reduce(Int32(0)) { $0 << 8 | Int32($1) }
        if id == applicationID { return .store(marked: true) }
        if id != 0 { throw notAStore("another application's SQLite database (application id \(id))") }
        let tables = try self.tables(path)
        guard ownTables.isSubset(of: tables) else { throw notAStore("a SQLite database without a store's tables") }
        return .store(marked: false)
    }

    private static func notAStore(_ what: String) -> StoreError {
        StoreError(message: "the file is not an Unprompt store: \(what); it was left as it is", busy: false)
    }

    private static func header(_ path: String) throws(StoreError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            throw StoreError(message: "cannot read the store: \(String(cString: strerror(errno)))", busy: false)
        }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 100)
        let count = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, 100, 0) }
        guard count >= 0 else {
            throw StoreError(message: "cannot read the store: \(String(cString: strerror(errno)))", busy: false)
        }
        return Array(bytes[..<count])
    }

    /// The table names in the database file itself, read as immutable: a read-only connection to a WAL database
    /// would create its `-wal` and `-shm`. (The header is read from the file too, so what a `-wal` holds is not
    /// seen: a store's tables reach its file at its first checkpoint, and its mark before any table is created.)
    private static func tables(_ path: String) throws(StoreError) -> Set<String> {
        do {
            let database = try Database(path: SQLiteSourceReader.uri(path, immutable: true), options: [.readOnly, .uri])
            return Set(try database.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").rows().compactMap { $0.text(0) })
        } catch {
            throw StoreError(
                message: "the store is damaged or is not an Unprompt store (\(error.message)); it was left as it is",
                busy: error.busy)
        }
    }
}
