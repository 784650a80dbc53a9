import Foundation
internal import CSQLite

/// A failure reported by SQLite, with its message. `busy` is true when another connection holds a lock.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public let busy: Bool
    /// SQLite found the file damaged (`SQLITE_CORRUPT`, `SQLITE_NOTADB`) while it read or wrote it.
    public let damaged: Bool

    public init(message: String, busy: Bool, damaged: Bool = false) {
        self.message = message
        self.busy = busy
        self.damaged = damaged
    }

    public var description: String { message }
}

/// One SQLite connection. Not thread-safe: one owner at a time. C types stay inside this file.
final class Database {
    private var handle: OpaquePointer?
    let path: String

    struct OpenOptions: OptionSet {
        let rawValue: Int32
        static let readOnly = OpenOptions(rawValue: SQLITE_OPEN_READONLY)
        static let readWrite = OpenOptions(rawValue: SQLITE_OPEN_READWRITE)
        static let create = OpenOptions(rawValue: SQLITE_OPEN_CREATE)
        /// `path` is a `file:` URI, so it can carry `mode=ro` or `immutable=1`.
        static let uri = OpenOptions(rawValue: SQLITE_OPEN_URI)
    }

    init(path: String, options: OpenOptions, busyTimeoutMilliseconds: Int32 = 5000) throws(StoreError) {
        self.path = path
        let flags = options.rawValue | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close(handle)
            handle = nil
            throw StoreError(message: message, busy: code == SQLITE_BUSY)
        }
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
        sqlite3_extended_result_codes(handle, 1)
    }

    deinit {
        cache.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Work left before every statement of this connection is stopped, counted in thousands of SQLite's
    /// virtual-machine steps (`sqlite3_progress_handler`); nil: no limit.
    private final class WorkBudget {
        var remaining: Int64
        init(_ remaining: Int64) { self.remaining = remaining }
    }

    private var budget: WorkBudget?

    /// Stops the statement running, and every later one, once `steps` virtual-machine steps have run on this
    /// connection: a query that never ends (a recursive CTE) fails with SQLITE_INTERRUPT instead of hanging.
    func limitWork(toSteps steps: Int64) {
        let budget = WorkBudget(max(1, steps / 1000))
        self.budget = budget
        sqlite3_progress_handler(
            handle, 1000,
            { context in
                let budget = Unmanaged<WorkBudget>.fromOpaque(context!).takeUnretainedValue()
                budget.remaining -= 1
                return budget.remaining < 0 ? 1 : 0
            }, Unmanaged.passUnretained(budget).toOpaque())
    }

    /// Whether `limitWork` stopped a statement.
    var workExhausted: Bool { (budget?.remaining ?? 0) < 0 }

    /// Makes the running statement fail with SQLITE_INTERRUPT at its next step.
    func interrupt() { sqlite3_interrupt(handle) }

    func execute(_ sql: String) throws(StoreError) {
        var error: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &error)
        guard code == SQLITE_OK else {
            let message = error.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(error)
            throw StoreError(message: Self.saying(code, message), busy: isBusy(code))
        }
    }

    /// Whether `sql` ends with a complete statement (SQLite's own test, `sqlite3_complete`): a script split
    /// at such ends runs statement by statement as it runs whole.
    static func isComplete(_ sql: String) -> Bool { sqlite3_complete(sql) != 0 }

    /// Statements prepared once and reused: a scan runs the same few statements thousands of times.
    private var cache: [String: Statement] = [:]

    func prepare(_ sql: String) throws(StoreError) -> Statement {
        if let cached = cache[sql] { return cached }
        let statement = try compile(sql)
        cache[sql] = statement
        return statement
    }

    private func compile(_ sql: String) throws(StoreError) -> Statement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else { throw failure(code) }
        return Statement(statement, database: self)
    }

    /// Runs `body` in one transaction: all of it is stored, or (on a throw or a crash) none of it.
    func transaction<T>(immediate: Bool = true, _ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try execute(immediate ? "BEGIN IMMEDIATE" : "BEGIN")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    var changes: Int { Int(sqlite3_changes(handle)) }

    fileprivate func failure(_ code: Int32) -> StoreError {
        StoreError(
            message: Self.saying(code, String(cString: sqlite3_errmsg(handle))), busy: isBusy(code),
            damaged: code & 0xFF == SQLITE_CORRUPT || code & 0xFF == SQLITE_NOTADB)
    }

    /// No transaction is open (SQLite's autocommit mode).
    var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

    /// SQLite's message, with a full disk said plainly: its own words ("database or disk is full") read as
    /// if the database might be at fault.
    private static func saying(_ code: Int32, _ message: String) -> String {
        code & 0xFF == SQLITE_FULL ? "disk full (\(message))" : message
    }

    private func isBusy(_ code: Int32) -> Bool {
        code & 0xff == SQLITE_BUSY || code & 0xff == SQLITE_LOCKED
    }
}

/// A prepared statement, reused across rows: bind, step, read columns, reset.
final class Statement {
    private let statement: OpaquePointer
    private unowned let database: Database

    fileprivate init(_ statement: OpaquePointer, database: Database) {
        self.statement = statement
        self.database = database
    }

    deinit { sqlite3_finalize(statement) }

    /// Binds values to `?1`, `?2`, … in order.
    func bind(_ values: [SQLValue]) throws(StoreError) {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        for (index, value) in values.enumerated() {
            let position = Int32(index + 1)
            let code: Int32
            switch value {
            case .null: code = sqlite3_bind_null(statement, position)
            case .integer(let v): code = sqlite3_bind_int64(statement, position, v)
            case .real(let v): code = sqlite3_bind_double(statement, position, v)
            case .text(let v): code = sqlite3_bind_text(statement, position, v, -1, csqlite_transient())
            case .blob(let v):
                code = v.withUnsafeBytes { sqlite3_bind_blob(statement, position, $0.baseAddress, Int32($0.count), csqlite_transient()) }
            }
            guard code == SQLITE_OK else { throw database.failure(code) }
        }
    }

    /// Steps once: true when a row is ready to read, false when done.
    func step() throws(StoreError) -> Bool {
        let code = sqlite3_step(statement)
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE { return false }
        throw database.failure(code)
    }

    /// Binds and runs a statement that returns no rows.
    func run(_ values: [SQLValue] = []) throws(StoreError) {
        try bind(values)
        defer { sqlite3_reset(statement) }
        while try step() {}
    }

    /// Binds `values`, then `blob` as the next parameter where it lies (SQLite copies it only into its pages, not
    /// first into a buffer of its own: a merge writes megabytes of packed days), and runs the statement.
    func run(_ values: [SQLValue], borrowing blob: UnsafeRawBufferPointer) throws(StoreError) {
        try bind(values)
        defer { sqlite3_reset(statement) }
        // SQLITE_STATIC (nil): the bytes stay valid until the reset above, which is all SQLite asks of them.
        let code = sqlite3_bind_blob64(statement, Int32(values.count + 1), blob.baseAddress, UInt64(blob.count), nil)
        guard code == SQLITE_OK else { throw database.failure(code) }
        while try step() {}
    }

    /// How many parameters the statement takes.
    var parameterCount: Int { Int(sqlite3_bind_parameter_count(statement)) }

    /// The names of the result's columns.
    var columnNames: [String] {
        (0..<sqlite3_column_count(statement)).map { String(cString: sqlite3_column_name(statement, $0)) }
    }

    /// Binds and calls `body` with each row in turn, holding one row at a time.
    func forEachRow(_ values: [SQLValue] = [], _ body: (Row) -> Void) throws(StoreError) {
        try bind(values)
        defer { sqlite3_reset(statement) }
        while try step() { body(Row(statement)) }
    }

    /// Binds and calls `body` with each row in turn, its columns read where SQLite holds them: for a query of
    /// many rows read once (a rescan's checkpoint stamps), with no row copied.
    func forEachRow(_ values: [SQLValue] = [], reading body: (Columns) -> Void) throws(StoreError) {
        try bind(values)
        defer { sqlite3_reset(statement) }
        while try step() { body(Columns(statement: statement)) }
    }

    /// The columns of the row a statement is on, read as `Row` reads them.
    struct Columns {
        fileprivate let statement: OpaquePointer

        func int(_ index: Int32) -> Int64? {
            sqlite3_column_type(statement, index) == SQLITE_INTEGER ? sqlite3_column_int64(statement, index) : nil
        }

        func text(_ index: Int32) -> String? {
            sqlite3_column_type(statement, index) == SQLITE_TEXT ? String(cString: sqlite3_column_text(statement, index)) : nil
        }

        /// A text column's UTF-8 where SQLite holds it, valid only inside `body`.
        func withText<T>(_ index: Int32, _ body: (UnsafeRawBufferPointer) -> T) -> T? {
            guard sqlite3_column_type(statement, index) == SQLITE_TEXT, let text = sqlite3_column_text(statement, index)
            else { return nil }
            return body(UnsafeRawBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, index))))
        }
    }

    /// Binds and collects every row.
    func rows(_ values: [SQLValue] = []) throws(StoreError) -> [Row] {
        try bind(values)
        defer { sqlite3_reset(statement) }
        var result: [Row] = []
        while try step() { result.append(Row(statement)) }
        return result
    }

    /// One row's columns, read while the statement is on it.
    struct Row {
        let values: [SQLValue]

        fileprivate init(_ statement: OpaquePointer) {
            values = (0..<sqlite3_column_count(statement)).map { column in
                switch sqlite3_column_type(statement, column) {
                case SQLITE_INTEGER: .integer(sqlite3_column_int64(statement, column))
                case SQLITE_FLOAT: .real(sqlite3_column_double(statement, column))
                case SQLITE_TEXT: .text(String(cString: sqlite3_column_text(statement, column)))
                case SQLITE_BLOB:
                    // A zero-length BLOB has no pointer at all.
                    .blob(
                        sqlite3_column_blob(statement, column).map {
                            Data(bytes: $0, count: Int(sqlite3_column_bytes(statement, column)))
                        } ?? Data())
                default: .null
                }
            }
        }

        func int(_ index: Int) -> Int64? { if case .integer(let v) = values[index] { v } else { nil } }
        /// An integer, or a real held within Int64: SQLite turns an integer sum that overflows into a real.
        func count(_ index: Int) -> Int64? {
            switch values[index] {
            case .integer(let v): v
            case .real(let v): Int64(saturating: v)
            default: nil
            }
        }
        func double(_ index: Int) -> Double? {
            switch values[index] {
            case .real(let v): v
            case .integer(let v): Double(v)
            default: nil
            }
        }
        func text(_ index: Int) -> String? { if case .text(let v) = values[index] { v } else { nil } }
        func blob(_ index: Int) -> Data? { if case .blob(let v) = values[index] { v } else { nil } }
    }
}

enum SQLValue {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
}

extension SQLValue {
    init(_ value: Int64?) { self = value.map { .integer($0) } ?? .null }
    init(_ value: Double?) { self = value.map { .real($0) } ?? .null }
}
