import Foundation

/// The one SQLite file that keeps usage: checkpoints (keyed by a hash of the path, never the path),
/// identities, buckets (`BucketKey`), per-quarter activity (for episodes), limit samples, settings and the
/// person's confirmations of days. Numbers only.
///
/// Every source's read is committed in one transaction — its new events, their identities and its new
/// checkpoint — so a crash at any instruction leaves either the old state or the new one (`ScanLedger`).
/// One connection, used by one thread at a time: a scan's workers commit through it in turn.
public final class UsageStore: Sendable {
    public static let schemaVersion: Int64 = 10

    private let connection: Locked<Connection>
    public let path: String

    /// The default location: `${XDG_DATA_HOME:-~/.local/share}/unprompt/usage.sqlite` on Linux,
    /// `~/Library/Application Support/Unprompt/usage.sqlite` on macOS.
    public static func defaultPath(environment: [String: String], home: String) -> String {
        UserDirectory.data.path(environment: environment, home: home) + "/usage.sqlite"
    }

    /// Opens (creating when missing) and migrates the store. A file that is not a store (`StoreFile`), is
    /// damaged, or was written by a newer version is refused with a clear message, and never written into.
    public init(path: String, readOnly: Bool = false) throws(StoreError) {
        self.path = path
        let kind = try StoreFile.examine(path)
        let exists = kind != .missing
        if !exists, readOnly {
            throw StoreError(message: "no store at this path yet: run a scan first", busy: false)
        }
        let directory = (path as NSString).deletingLastPathComponent
        if !exists, !directory.isEmpty {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw StoreError(message: "cannot create the store's directory: \(error.localizedDescription)", busy: false)
            }
        }
        // Creating and migrating the schema happens under the store's lock, so two processes opening a new
        // store at once take turns instead of one failing.
        let lock: StoreLock?
        do {
            lock = readOnly ? nil : try StoreLock(storePath: path)
        } catch {
            throw StoreDirectory.cannotWrite(storePath: path).map { StoreError(message: $0, busy: false) } ?? error
        }
        defer { lock?.release() }
        // Examined again under the lock: another process may have created the store meanwhile.
        let current = readOnly ? kind : try StoreFile.examine(path)
        // A view reads a store in a read-only folder from its file alone, when no write-ahead log is beside it.
        let database: Database
        let version: Int64
        do {
            database =
                readOnly && StoreDirectory.readableAsImmutable(storePath: path)
                ? try Database(path: SQLiteSourceReader.uri(path, immutable: true), options: [.readOnly, .uri])
                : try Database(path: path, options: readOnly ? [.readOnly] : [.readWrite, .create])
            if !readOnly, current != .store(marked: true) {
                // Marked first, before anything else is written: a new store is never without its mark.
                try database.execute("PRAGMA application_id = \(StoreFile.applicationID)")
            }
            version = try database.prepare("PRAGMA user_version").rows().first?.int(0) ?? 0
            // Reading the schema surfaces a file that is not a database at all.
            _ = try database.prepare("SELECT count(*) FROM sqlite_master").rows()
        } catch {
            // A folder that takes no write, or a full disk, is said as such: the store itself may be whole.
            if let reason = StoreDirectory.cannotWrite(storePath: path) {
                throw StoreError(message: "\(reason); the store was left as it is", busy: false)
            }
            throw StoreError(
                message: "the store is damaged or is not an Unprompt store (\(error.message)); it was left as it is",
                busy: error.busy)
        }
        if version > UsageStore.schemaVersion {
            throw StoreError(
                message: "the store was written by a newer version (schema \(version)); this version reads schema \(UsageStore.schemaVersion) and will not change it",
                busy: false)
        }
        if !readOnly {
            do {
                try database.execute("PRAGMA journal_mode=WAL")
                try database.execute("PRAGMA synchronous=NORMAL")
                if version < UsageStore.schemaVersion { try Self.upgrade(database, from: version, path: path) }
                try StoreSchema.addIndexes(database)
            } catch {
                throw StoreDirectory.cannotWrite(storePath: path).map { StoreError(message: $0, busy: false) } ?? error
            }
        } else if version < UsageStore.schemaVersion {
            throw StoreError(
                message: version == 0 ? "the store has not been created yet: run a scan first"
                    : "the store is from an older version (schema \(version)): run a scan once to upgrade it",
                busy: false)
        }
        connection = Locked(Connection(database: database))
    }

    /// Migrates a store of an older schema. A step that cannot run on what the file holds (a table of a later
    /// schema than its version says, a damaged page) is damage, said as such; a busy store or a folder that takes
    /// no write keeps its own error. The migration is one transaction, so the file is left as it was.
    private static func upgrade(_ database: Database, from version: Int64, path: String) throws(StoreError) {
        do {
            try StoreSchema.migrate(database, from: version)
        } catch {
            if error.busy || StoreDirectory.cannotWrite(storePath: path) != nil { throw error }
            throw StoreError(
                message: "the store is damaged: upgrading it from schema \(version) failed (\(error.message)); it was left as it is",
                busy: false)
        }
    }

    /// Runs `body` with the connection, which no other thread uses meanwhile. Damage SQLite meets on the way is
    /// said as the store's, and makes the page check due again (`refuseDamagedPagesWhenDue`): the next command
    /// that would write checks every page first, and refuses a damaged store.
    func locked<T: Sendable>(_ body: (Database) throws(StoreError) -> T) throws(StoreError) -> T {
        try lockedConnection { (connection: inout Connection) throws(StoreError) -> T in try body(connection.database) }
    }

    /// Runs `body` with the connection and the state of the scan that holds the store's lock, if any.
    func lockedConnection<T: Sendable>(_ body: (inout Connection) throws(StoreError) -> T) throws(StoreError) -> T {
        try connection.withLock { (connection: inout Connection) throws(StoreError) -> T in
            do throws(StoreError) {
                return try body(&connection)
            } catch {
                guard error.damaged else { throw error }
                let database = connection.database
                if database.isAutocommit { try? database.execute("DELETE FROM settings WHERE key = '\(Self.pagesCheckedKey)'") }
                throw Self.damaged(error.message)
            }
        }
    }

    /// The SQLite connection, and what holds while a scan through it has the store's lock (`lockForScan`).
    struct Connection {
        let database: Database
        /// Whether a scan holds the store's lock: its commits then share a transaction (`commit(_:)`).
        var scanning = false
        /// When the scan's open transaction began (`DispatchTime` nanoseconds); nil when none is open.
        var transactionStarted: UInt64?
        /// Whether the scan has asked if the store holds any identity (at its first commit).
        var keysChecked = false
        /// A superset of the identities and aliases stored, when the scan began on a store holding none
        /// (`StoredKeyFilter`); nil: nothing is known, every key is looked up.
        var storedKeys: StoredKeyFilter?
    }
}
