import Foundation

/// One device's numbers-only export (a `DeviceImport`, as every other device imports it): the file it keeps in the
/// sync folder (`SyncFolder`), read by every other device (`DeviceSync`). Its document, in one zstd frame with a
/// content checksum after a header that names the device and the sequence number (`SyncExportHeader`), is a JSON
/// part described by docs/sync.schema.json, a newline, and each day packed as the store keeps it (version 4;
/// docs/SYNC.md "Packed days"): a merge checks those bytes (`DevicePacking.DayChecker`) and stores them as they are.
///
/// The document holds the device's id and label, the export's sequence number (larger is newer: the only
/// order that decides between two exports of one device), when it was written and when the device was last
/// measured, and the device's own history (`DeviceHistory`), never what it imported:
/// - `tools`, `models` and `windows`: the strings the rows name by index;
/// - `days`: per UTC day (days since 1970-01-01), the length of its packed bytes (version 4; before, in JSON: see
///   below); packed or not, its buckets as rows of integers: quarter-hour within the
///   day, tool, model, then the row's `BucketField`s (context band, logged cost 0/1, speed, tier, region,
///   the seven counts, events, logged cost in nano-USD, estimated events, web searches, web fetches; versions 1
///   and 2 held `BucketField.beforeDimensions` only), in order of the key and each key once; and its activity as
///   rows of 3 (quarter-hour within the day, first and last record in milliseconds into it), in quarter order;
/// - `limits`: rows of 6 (tool, window, time, used percent or null, window minutes or null, resets at or
///   null), in order of the first three;
/// - `confirmations`: every day's latest answer to `confirm` or undo of one (`SyncExportConfirmations`), the
///   person's, as this device holds them (version 1 held none: an empty list).
///
/// Reading refuses anything else: another format, a newer version, an unknown key, a value of the wrong kind
/// or outside its range, rows out of order. Nothing of a refused file is used.
public enum SyncExport: Sendable {
    public static let format = "unprompt-sync"
    /// 5 since a packed day's row holds only its fields that are not 0 (packing version 3); 4 since each day travels
    /// packed as the store keeps it (3: buckets carry their price dimensions and server-tool calls; 2:
    /// confirmations and the header); versions 1 to 4 are still read.
    public static let version: Int64 = 5

    /// Whether export `version` carries its days packed, after its JSON part.
    static func packsDays(version: Int64) -> Bool { version >= 4 }

    /// The packing version of export `version`'s days (`DevicePacking`).
    static func packing(version: Int64) -> UInt64 {
        version == 4 ? DevicePacking.everyFieldVersion : DevicePacking.dayVersion
    }
    /// Larger documents are refused (a year of a heavy user's buckets is a few MB).
    static let maxDocumentBytes = 1 << 30

    /// A bucket row's fields after its quarter-hour, tool and model, as export `version` writes them.
    static func bucketFields(version: Int64) -> [BucketField] {
        version < 3 ? BucketField.beforeDimensions : BucketField.allCases
    }

    /// What a device's id looks like: 32 lower-case hex digits.
    public static func isDeviceID(_ text: String) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    // MARK: - Writing

    /// The file's bytes: the header (`SyncExportHeader`), then the document in one zstd frame.
    public static func file(_ export: DeviceImport) -> Data {
        let frame = Zstd.compress(document(export))
        let header = SyncExportHeader(version: version, device: export.device, sequence: export.sequence, frameBytes: frame.count)
        return Data(header.frame()) + frame
    }

    /// The document: from version 4 its JSON part, a newline, then its days packed (`DevicePacking`), each
    /// the length the JSON part gives it; before, JSON alone (`version` 3 is still written for tests of reading it).
    public static func document(_ export: DeviceImport, version: Int64 = version) -> [UInt8] {
        var json = JSONBytes(capacity: 64 * export.history.buckets.count + 4096)
        json.raw("{\"format\":")
        json.string(Self.format)
        json.raw(",\"version\":")
        json.integer(version)
        json.raw(",\"device\":{\"id\":")
        json.string(export.device)
        json.raw(",\"label\":")
        json.string(export.label)
        json.raw("},\"sequence\":")
        json.integer(export.sequence)
        json.raw(",\"exportedAt\":")
        json.integer(export.exportedAt)
        json.byte(",")
        let body = Self.body(export.history, version: version)
        return json.bytes + body.json + [UInt8(ascii: "}")] + (packsDays(version: version) ? [UInt8(ascii: "\n")] + body.days : [])
    }

    /// A version 4 document's JSON part and its packed days: the JSON part ends at its first newline, which
    /// JSON as written never holds (strings escape it). The file's header says a document is version 4.
    static func split(document bytes: [UInt8]) -> (json: ArraySlice<UInt8>, days: ArraySlice<UInt8>?) {
        guard let end = bytes.firstIndex(of: UInt8(ascii: "\n")) else { return (bytes[...], nil) }
        return (bytes[..<end], bytes[(end + 1)...])
    }

    /// A digest of everything the export holds but its sequence number and time: two exports with the same
    /// digest tell another device the same.
    public static func digest(label: String, history: DeviceHistory) -> String {
        // FNV-1a, 64 bits: a change detector, not a security check.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        let body = body(history, version: version)
        for byte in label.utf8 + [0] + body.json + body.days {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }

    /// From `"measuredAt"` to the last list, without the closing brace; and from version 4 the days packed.
    private static func body(_ history: DeviceHistory, version: Int64) -> (json: [UInt8], days: [UInt8]) {
        var json = JSONBytes(capacity: 64 * history.buckets.count + 1024)
        json.raw("\"measuredAt\":")
        json.optional(history.measuredAt)
        var tools = Interned()
        var models = Interned()
        var windows = Interned()
        for row in history.buckets {
            tools.add(row.tool)
            models.add(row.model)
        }
        for sample in history.limits {
            tools.add(sample.tool)
            windows.add(sample.window)
        }
        tools.sortByBytes()
        models.sortByBytes()
        windows.sortByBytes()
        json.raw(",\"tools\":")
        json.strings(tools.strings)
        json.raw(",\"models\":")
        json.strings(models.strings)
        json.raw(",\"windows\":")
        json.strings(windows.strings)

        let perDay = LocalCalendar.quartersPerDay
        let fields = bucketFields(version: version)
        let keyColumns = keyColumns(fields)
        struct Row {
            let tool: Int64
            let model: Int64
            let row: BucketRow
        }
        var days: [Int64: (buckets: [Row], activity: [ActivityQuarter])] = [:]
        for row in history.buckets {
            days[CivilDate.floorDivide(row.quarter, perDay), default: ([], [])].buckets.append(
                Row(tool: tools.index[row.tool]!, model: models.index[row.model]!, row: row))
        }
        for quarter in history.activity {
            days[CivilDate.floorDivide(quarter.quarter, perDay), default: ([], [])].activity.append(quarter)
        }
        // Version 4 packs each day as an importing device's store keeps it: the same packer, fed the same rows
        // in the same order as reading a version 3 document feeds it, so both give the same blobs.
        let names = tools.strings + models.strings.filter { tools.index[$0] == nil }
        let nameIDs = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
        let toolIDs = tools.strings.map { nameIDs[$0]! }
        let modelIDs = models.strings.map { nameIDs[$0]! }
        var packer = DevicePacking.DayPacker(names: names, version: packing(version: version))
        var values = [Int64](repeating: 0, count: BucketField.allCases.count)
        var packedDays: [UInt8] = []
        json.raw(",\"days\":[")
        for (position, day) in days.keys.sorted().enumerated() {
            let firstQuarter = day * perDay
            let entry = days[day]!
            let rows = entry.buckets.map { item in
                [item.row.quarter - firstQuarter, item.tool, item.model] + fields.map { item.row[$0] }
            }.sorted { Self.keyPrecedes($0, $1, keyColumns: keyColumns) }
            let activity = entry.activity.sorted(by: { $0.quarter < $1.quarter }).map { quarter in
                let start = quarter.quarter * Bucket.quarterMilliseconds
                return [quarter.quarter - firstQuarter, quarter.first - start, quarter.last - start]
            }
            if position > 0 { json.byte(",") }
            guard !packsDays(version: version) else {
                packer.start(day: day)
                for row in rows {
                    for (offset, field) in fields.enumerated() { values[field.rawValue] = row[3 + offset] }
                    values.withUnsafeBufferPointer { values in
                        packer.bucket(offset: row[0], tool: toolIDs[Int(row[1])], model: modelIDs[Int(row[2])], values: values)
                    }
                }
                for quarter in activity { packer.activity(offset: quarter[0], first: quarter[1], last: quarter[2]) }
                let blob = packer.blob()
                json.integers([day, Int64(blob.count)])
                packedDays += blob
                continue
            }
            json.raw("{\"day\":")
            json.integer(day)
            json.raw(",\"buckets\":[")
            for (index, row) in rows.enumerated() {
                if index > 0 { json.byte(",") }
                json.integers(row)
            }
            json.raw("],\"activity\":[")
            for (index, quarter) in activity.enumerated() {
                if index > 0 { json.byte(",") }
                json.integers(quarter)
            }
            json.raw("]}")
        }
        json.raw("],\"limits\":[")
        let limits = history.limits.sorted {
            (tools.index[$0.tool]!, windows.index[$0.window]!, $0.time) < (tools.index[$1.tool]!, windows.index[$1.window]!, $1.time)
        }
        for (index, sample) in limits.enumerated() {
            if index > 0 { json.byte(",") }
            json.byte("[")
            json.integer(tools.index[sample.tool]!)
            json.byte(",")
            json.integer(windows.index[sample.window]!)
            json.byte(",")
            json.integer(sample.time)
            json.byte(",")
            json.number(sample.usedPercent)
            json.byte(",")
            json.optional(sample.windowMinutes)
            json.byte(",")
            json.optional(sample.resetsAt)
            json.byte("]")
        }
        json.raw("],\"confirmations\":")
        write(confirmations: history.confirmations, into: &json)
        return (json.bytes, packedDays)
    }

    /// The columns of a bucket row (its quarter-hour, tool and model, then `fields`) that order it: those three,
    /// then the key fields, in order.
    static func keyColumns(_ fields: [BucketField]) -> [Int] {
        [0, 1, 2] + fields.indices.filter { fields[$0].isKey }.map { 3 + $0 }
    }

    /// Whether bucket row `a` comes before `b`, by `keyColumns`.
    static func keyPrecedes<Row: RandomAccessCollection<Int64>>(_ a: Row, _ b: Row, keyColumns: [Int]) -> Bool where Row.Index == Int {
        for column in keyColumns where a[column] != b[column] { return a[column] < b[column] }
        return false
    }

    /// Strings numbered in their UTF-8 order (as SQLite orders text): rows in order of their indices are then
    /// in the store's order, which an importing device keeps without sorting, and the same history always gives
    /// the same document.
    private struct Interned {
        var index: [String: Int64] = [:]
        var strings: [String] = []

        mutating func add(_ text: String) {
            guard index[text] == nil else { return }
            index[text] = Int64(strings.count)
            strings.append(text)
        }

        mutating func sortByBytes() {
            strings.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for (position, text) in strings.enumerated() { index[text] = Int64(position) }
        }
    }
}
