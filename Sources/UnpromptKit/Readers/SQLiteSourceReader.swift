import Foundation

/// Reads a tool's SQLite database with the query its descriptor declares. Each row is a record whose fields
/// are its columns, so every rule of the language applies to it as to a JSON line.
///
/// Contract:
/// - The database is opened read-only (`mode=ro`, a busy timeout, `query_only`), never `immutable=1` while a
///   `-wal` or `-shm` file is beside it, so rows still held only in the WAL are read and nothing is written.
///   The one exception (as SQLite documents): a WAL database closed cleanly has neither file, and a read-only
///   connection would create both beside it (or fail where it cannot); it is read as immutable instead, which
///   is exact because no writer has it open, and a writer that opens it later writes a `-wal`, which the
///   next scan sees as a change.
/// - The query runs in one short read transaction. An input may give variants of its query for the schemas
///   its tool has had: the first whose `requires` tables (and `table.column` columns) all exist is run, and a
///   database that no variant fits has nothing for this input (no rows, no error).
/// - With a watermark, `:watermark` is bound to the highest value read before (the smallest value of all on
///   the first read; SQLite orders numbers before text), and the highest value seen is kept in the source's
///   state. Use `>=` so rows written later with the same value are not missed; identities keep the rows read
///   twice from counting twice. Rows whose watermark column is NULL leave it as it is.
/// - A read has a budget (`QueryLimits`): at most `steps` of SQLite's virtual-machine steps and `rows` rows. A
///   query past either (a recursive CTE that never ends) is stopped, and the source is unreadable with that
///   reason: nothing of it is kept, and its checkpoint does not move.
/// - Any other failure (not a database, a missing column, a lock held past the timeout) throws, and the
///   caller keeps nothing of the read.
/// - Columns become fields: integers and reals as numbers, text as strings, BLOBs as strings when they are
///   UTF-8 text (JSON kept in a BLOB) and null otherwise, NULL as null.
/// - A BLOB in a column the query names in `decompress` is decompressed first, and must give UTF-8 text of
///   at most `maxDecompressedBytes`; a row where it does not is skipped and counted (`bad-compressed-data`,
///   `document-too-large`), never read as empty. Other values of such a column are taken as they are, so the
///   SQL can pass rows stored uncompressed as text.
final class SQLiteSourceReader: SourceReader {
    static let busyTimeoutMilliseconds: Int32 = 2000
    static let maxDecompressedBytes = 64 << 20

    /// What one read of one database may cost.
    struct QueryLimits {
        /// SQLite virtual-machine steps, counted by deterministic work rather than time: the costliest shipped
        /// query, Cursor's, takes about 120 steps a bubble (measured on 200,000), so this reads some 4 million
        /// bubbles, years of a heavy user; an endless recursive query stops after some 15 s to a minute.
        var steps: Int64
        /// Rows returned: twice those million bubbles; the events of this many rows are about the memory a read
        /// may take.
        var rows: Int

        static let standard = QueryLimits(steps: 500_000_000, rows: 2_000_000)
    }

    private let input: CompiledInput
    private let queries: [SQLQuery]
    private let rootPaths: JSONPathSet
    private let timeZone: TimeZone
    private let parser = JSONParser()
    /// Model ids read, kept from source to source (`ModelCache`).
    private let models = ModelCache()
    private let limits: QueryLimits

    init(input: CompiledInput, queries: [SQLQuery], timeZone: TimeZone, limits: QueryLimits = .standard) {
        self.input = input
        self.queries = queries
        rootPaths = JSONPathSet(input.rootPointers)
        self.timeZone = timeZone
        self.limits = limits
    }

    var resumesAtOffset: Bool { false }

    func read(fd: Int32, path: String, sourceKey: String, from offset: Int64, state: SourceState) throws(SourceReadError)
        -> SourceReadResult
    {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw SourceReadError(errno: errno, operation: "stat") }
        var result = SourceReadResult()
        result.state = state
        result.endOffset = Int64(info.st_size)
        let immutable = Self.isWriteAheadLogged(fd) && !Self.hasSidecars(path)
        var overBudget: String?
        do {
            try read(path: path, sourceKey: sourceKey, immutable: immutable, into: &result, overBudget: &overBudget)
        } catch {
            throw SourceReadError(operation: "query", detail: overBudget ?? error.message)
        }
        return result
    }

    /// `overBudget` says why the read was stopped, when it was.
    private func read(
        path: String, sourceKey: String, immutable: Bool, into result: inout SourceReadResult, overBudget: inout String?
    ) throws(StoreError) {
        let database = try Database(
            path: Self.uri(path, immutable: immutable), options: [.readOnly, .uri],
            busyTimeoutMilliseconds: Self.busyTimeoutMilliseconds)
        database.limitWork(toSteps: limits.steps)
        defer {
            if database.workExhausted {
                overBudget = "the query ran past its budget of \(limits.steps) SQLite steps (a query that never ends?)"
            }
        }
        try database.execute("PRAGMA query_only = 1")
        try database.transaction(immediate: false) { () throws(StoreError) in
            let tables = Set(
                try database.prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')").rows().compactMap { $0.text(0) })
            var columns: [String: Set<String>] = [:]
            func exists(_ requirement: String) throws(StoreError) -> Bool {
                // `table.column`: the table, with that column.
                guard let dot = requirement.firstIndex(of: ".") else { return tables.contains(requirement) }
                let table = String(requirement[..<dot])
                guard tables.contains(table) else { return false }
                if columns[table] == nil {
                    columns[table] = Set(
                        try database.prepare("SELECT name FROM pragma_table_info(?1)").rows([.text(table)]).compactMap { $0.text(0) })
                }
                return columns[table]!.contains(String(requirement[requirement.index(after: dot)...]))
            }
            var chosen: SQLQuery?
            variants: for query in queries {
                for requirement in query.requires where !(try exists(requirement)) { continue variants }
                chosen = query
                break
            }
            guard let query = chosen else { return }
            let statement = try database.prepare(query.sql)
            let names = statement.columnNames
            let watermarkColumn = query.watermark.flatMap { names.firstIndex(of: $0) }
            if query.watermark != nil, watermarkColumn == nil {
                throw StoreError(message: "the query returns no column named '\(query.watermark!)' (its watermark)", busy: false)
            }
            let bound: [SQLValue] = statement.parameterCount == 0 ? [] : [Self.value(of: result.state.watermark)]
            let extractor = RecordExtractor(input: input, timeZone: timeZone, sourceKey: sourceKey, path: path, models: models)
            var state = result.state
            var highest = state.watermark
            var rowNumber = 0
            try statement.forEachRow(bound) { row in
                rowNumber += 1
                guard rowNumber <= limits.rows else {
                    overBudget = "the query returned more than \(limits.rows) rows (a query that never ends?)"
                    database.interrupt()
                    return
                }
                result.lines += 1
                if let column = watermarkColumn, let mark = Self.watermark(row.values[column]), highest.map({ $0 < mark }) ?? true {
                    highest = mark
                }
                let record: [UInt8]
                do throws(RowSkip) {
                    record = try Self.record(names, row, decompress: query.decompress, protobuf: query.protobuf)
                } catch {
                    result.skip(error.reason, line: rowNumber, problem: true)
                    return
                }
                do {
                    let root = try record.withUnsafeBytes { bytes throws(JSONParseError) in try parser.parse(copying: bytes) }
                    parser.extract(rootPaths, in: root)
                    extractor.process(root: root, parser: parser, line: rowNumber, state: &state, into: &result)
                } catch {
                    result.skip(SkipReason.badValue, line: rowNumber, problem: true)
                }
            }
            state.watermark = highest
            result.state = state
        }
    }

    /// A row whose compressed column could not be read, with the skip reason.
    struct RowSkip: Error {
        let reason: String
    }

    /// A row as a JSON object, one field per column.
    static func record(
        _ names: [String], _ row: Statement.Row, decompress: [String: Compression] = [:], protobuf: ProtobufColumns? = nil
    ) throws(RowSkip) -> [UInt8] {
        var json = JSONText()
        json.open()
        for (name, value) in zip(names, row.values) {
            if let protobuf, let root = protobuf.roots[name] {
                switch value {
                case .null: json.field(name, number: "null")
                case .blob(let v):
                    guard v.count <= maxDecompressedBytes else { throw RowSkip(reason: SkipReason.documentTooLarge) }
                    do {
                        json.key(name)
                        json.raw(try ProtobufDecoder(messages: protobuf.messages).json(Array(v), as: root))
                    } catch {
                        throw RowSkip(reason: SkipReason.badProtobuf)
                    }
                default: throw RowSkip(reason: SkipReason.badProtobuf)
                }
                continue
            }
            switch value {
            case .blob(let v) where decompress[name] == .zstd:
                let text: [UInt8]
                do {
                    text = try Zstd.decompress(v, limit: maxDecompressedBytes)
                } catch {
                    throw RowSkip(reason: error.tooLarge ? SkipReason.documentTooLarge : SkipReason.badCompressedData)
                }
                guard let string = String(validating: text, as: UTF8.self) else {
                    throw RowSkip(reason: SkipReason.badCompressedData)
                }
                json.field(name, string: string)
            case .integer(let v): json.field(name, number: String(v))
            case .real(let v) where v.isFinite: json.field(name, number: "\(v)")
            case .text(let v): json.field(name, string: v)
            case .blob(let v):
                if let text = String(validating: v, as: UTF8.self) {
                    json.field(name, string: text)
                } else {
                    json.field(name, number: "null")
                }
            case .null, .real: json.field(name, number: "null")
            }
        }
        json.close()
        return json.bytes
    }

    static func watermark(_ value: SQLValue) -> Watermark? {
        switch value {
        case .integer(let v): .integer(v)
        case .real(let v): .real(v)
        case .text(let v): .text(v)
        case .null, .blob: nil
        }
    }

    static func value(of watermark: Watermark?) -> SQLValue {
        switch watermark {
        case .integer(let v): .integer(v)
        case .real(let v): .real(v)
        case .text(let v): .text(v)
        case nil: .integer(Int64.min)
        }
    }

    /// The path's bytes (`SystemPath`) percent-encoded, except the characters a URI path keeps as they are.
    static func uri(_ path: String, immutable: Bool) -> String {
        var encoded = ""
        for byte in SystemPath.bytes(path) {
            let kept = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || "/-._~!$&'()*+,;=:@".utf8.contains(byte)
            encoded += kept ? String(UnicodeScalar(byte)) : String(format: "%%%02X", byte)
        }
        return "file:\(encoded)?mode=ro" + (immutable ? "&immutable=1" : "")
    }

    /// Whether the database file's header says WAL mode (file format bytes 18 and 19 are 2).
    static func isWriteAheadLogged(_ fd: Int32) -> Bool {
        var versions: (UInt8, UInt8) = (0, 0)
        let count = withUnsafeMutableBytes(of: &versions) { pread(fd, $0.baseAddress, 2, 18) }
        return count == 2 && versions == (2, 2)
    }

    static func hasSidecars(_ path: String) -> Bool {
        SystemPath.exists(path + "-wal") || SystemPath.exists(path + "-shm")
    }
}
