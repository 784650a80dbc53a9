import Foundation

/// Why an export file was refused. Nothing of it is used: the device's previous import stays.
public struct SyncExportProblem: Error, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// Cut short, damaged, or not what the schema says.
        case damaged
        /// Written by a newer version of the format (`version`), which this one does not read.
        case newerVersion(Int64)
        /// Not an Unprompt export at all.
        case notAnExport
    }

    public let kind: Kind
    public let message: String
    /// The device and label the file names, when that much of it could be read.
    public let device: String?
    public let label: String?
}

extension SyncExport {
    /// Reads an export file: one zstd frame holding the document.
    public static func read(file data: Data) throws(SyncExportProblem) -> DeviceImport {
        unpacked(try readPacked(file: data))
    }

    /// Reads the JSON document (`bytes` gains simdjson's padding at its end).
    public static func decode(document bytes: inout [UInt8]) throws(SyncExportProblem) -> DeviceImport {
        unpacked(try decodePacked(document: &bytes))
    }

    /// Reads an export file into the rows the store keeps of it: each day packed straight from the document's
    /// rows (`DevicePacking.DayPacker`), with no `BucketRow` between.
    /// `parser` may be reused from one file to the next (not by two threads at once).
    static func readPacked(file data: Data, parser: JSONParser = JSONParser()) throws(SyncExportProblem) -> PackedImport {
        var bytes: [UInt8]
        do {
            bytes = try Zstd.decompress(data, limit: maxDocumentBytes, reserving: JSONParser.padding)
        } catch {
            throw SyncExportProblem(
                kind: .damaged,
                message: error.tooLarge ? "it would be larger than \(maxDocumentBytes >> 20) MB" : "it is cut short or damaged (zstd: \(error.message))",
                device: nil, label: nil)
        }
        let header =
            data.starts(with: SyncExportHeader.magic)
            ? SyncExportHeader.read(prefix: Array(data.prefix(8 + SyncExportHeader.maxBytes)), fileBytes: data.count) : nil
        if let header, header.version > SyncExport.version {
            // Its document says so too, and names its label, when it reads as far as that; else the header says it.
            var label: String?
            do {
                _ = try decodePacked(document: &bytes, headerVersion: header.version, parser: parser)
            } catch {
                label = error.label
            }
            throw SyncExportProblem(
                kind: .newerVersion(header.version), message: newerVersion(header.version), device: header.device, label: label)
        }
        let export = try decodePacked(document: &bytes, headerVersion: header?.version, parser: parser)
        // A header must say what the document says, and the file be as long as it says.
        if data.starts(with: SyncExportHeader.magic) {
            guard let header, header.device == export.device, header.sequence == export.sequence, header.version <= SyncExport.version
            else {
                throw SyncExportProblem(
                    kind: .damaged, message: "its header does not match its document (cut short or damaged)", device: export.device,
                    label: export.label)
            }
        }
        return export
    }

    /// `headerVersion`: the version the file's header gives, which the document's must be; from 4 the document
    /// is a JSON part and packed days (`split`), before it JSON alone (a document without a header is).
    static func newerVersion(_ version: Int64) -> String {
        "it was written by a newer version of unprompt-scan (export version \(version); this one reads \(SyncExport.version))"
    }

    static func decodePacked(document bytes: inout [UInt8], headerVersion: Int64? = nil, parser: JSONParser = JSONParser())
        throws(SyncExportProblem) -> PackedImport
    {
        let (json, days) = SyncExport.packsDays(version: headerVersion ?? 0) ? split(document: bytes) : (bytes[...], nil)
        let count = json.count
        let daysStart = days?.startIndex
        let total = bytes.count
        bytes += repeatElement(0, count: JSONParser.padding)
        let result = bytes.withUnsafeBytes { raw -> Result<PackedImport, SyncExportProblem> in
            var reader = DocumentReader(parser: parser, headerVersion: headerVersion)
            do throws(SyncExportProblem) {
                return .success(try reader.read(raw.baseAddress!, count: count, packedDays: daysStart.map { $0..<total }, in: raw))
            } catch {
                return .failure(error)
            }
        }
        var packed = try result.get()
        // Version 4's days were checked where they lie, in the document: it is kept whole, not copied from.
        if daysStart != nil { packed.packed = bytes }
        return packed
    }

    /// The import as its rows: every packed day unpacked again.
    private static func unpacked(_ packed: PackedImport) -> DeviceImport {
        var history = DeviceHistory(limits: packed.limits, measuredAt: packed.measuredAt, confirmations: packed.confirmations)
        for day in packed.days {
            do {
                let rows = try DevicePacking.unpackDay(packed.blob(day), day: day.day)
                history.buckets += rows.buckets
                history.activity += rows.activity
            } catch {
                preconditionFailure("a day packed just now unpacks")
            }
        }
        return DeviceImport(
            device: packed.device, label: packed.label, sequence: packed.sequence, exportedAt: packed.exportedAt, history: history)
    }
}

/// The strict reading of one document.
private struct DocumentReader {
    let parser: JSONParser
    var device: String?
    var label: String?

    static let keys: Set<String> = [
        "format", "version", "device", "sequence", "exportedAt", "measuredAt", "tools", "models", "windows", "days", "limits",
        "confirmations",
    ]

    let headerVersion: Int64?

    init(parser: JSONParser, headerVersion: Int64?) {
        self.parser = parser
        self.headerVersion = headerVersion
    }

    func problem(_ message: String, _ kind: SyncExportProblem.Kind = .damaged) -> SyncExportProblem {
        SyncExportProblem(kind: kind, message: message, device: device, label: label)
    }

    /// `packedDays`: where the bytes after the JSON part's newline are in `document` (version 4 on), nil when there
    /// is none. The import's days are then ranges of `document` (its `packed` is left empty for the caller to
    /// fill); before version 4, of the bytes packed from the rows.
    mutating func read(_ base: UnsafeRawPointer, count: Int, packedDays: Range<Int>?, in document: UnsafeRawBufferPointer)
        throws(SyncExportProblem) -> PackedImport
    {
        let root: JSONRef
        do {
            root = try parser.parse(base, count: count)
        } catch {
            throw problem("it is not JSON (\(error.message))")
        }
        guard case .object = parser.value(of: root) else { throw problem("it is not an Unprompt export", .notAnExport) }
        var fields: [String: JSONRef] = [:]
        for (key, value) in parser.entries(of: root) {
            guard fields[key] == nil else { throw problem("it names \(key) twice") }
            fields[key] = value
        }
        guard let format = fields["format"], string(format) == SyncExport.format else {
            throw problem("it is not an Unprompt export", .notAnExport)
        }
        // The device first, so every later refusal can name it.
        if let node = fields["device"], case .object = parser.value(of: node) {
            let entries = Dictionary(parser.entries(of: node).map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
            if let id = entries["id"].flatMap(string), SyncExport.isDeviceID(id) { device = id }
            if let name = entries["label"].flatMap(string), ChosenName.problem(name) == nil { label = name }
        }
        guard let versionNode = fields["version"], let version = integer(versionNode), version >= 1 else {
            throw problem("its version is not a number from 1")
        }
        if version > SyncExport.version {
            throw problem(SyncExport.newerVersion(version), .newerVersion(version))
        }
        if let headerVersion, headerVersion != version { throw problem("its header does not match its document (its version)") }
        if let unknown = Set(fields.keys).subtracting(Self.keys).sorted().first { throw problem("it holds an unknown field '\(unknown)'") }
        if let missing = Self.keys.subtracting(fields.keys).sorted().first { throw problem("it has no '\(missing)'") }
        guard let deviceNode = fields["device"], case .object = parser.value(of: deviceNode),
            Set(parser.entries(of: deviceNode).map(\.key)) == ["id", "label"], let device, let label
        else { throw problem("its device is not an id of 32 hex digits and a label") }
        guard let sequence = integer(fields["sequence"]!), sequence >= 1 else { throw problem("its sequence is not a number from 1") }
        guard let exportedAt = integer(fields["exportedAt"]!) else { throw problem("its exportedAt is not a number") }
        let measuredAt: Int64?
        switch parser.value(of: fields["measuredAt"]!) {
        case .null: measuredAt = nil
        case .int(let value): measuredAt = value
        default: throw problem("its measuredAt is neither a number nor null")
        }
        let tools = try strings(fields["tools"]!, "tools")
        let models = try strings(fields["models"]!, "models")
        let windows = try strings(fields["windows"]!, "windows")
        let days: [PackedImport.Day]
        let tokens: Int64
        var packed: [UInt8] = []
        if SyncExport.packsDays(version: version) {
            // (A header of another version than the document's was refused above.)
            guard let packedDays else { throw problem("its days are packed, and it has no header saying so (export version \(version))") }
            (days, tokens) = try self.packedDays(
                fields["days"]!, packedDays, in: document, tools: tools, models: models, packing: SyncExport.packing(version: version))
        } else {
            (days, tokens) = try self.days(
                fields["days"]!, tools: tools, models: models, bucketFields: SyncExport.bucketFields(version: version), into: &packed)
        }
        let limits = try limits(fields["limits"]!, tools: tools, windows: windows)
        let reader = SyncConfirmationReader(parser: parser, problem: { [device, label] message in
            SyncExportProblem(kind: .damaged, message: message, device: device, label: label)
        })
        let confirmations = try reader.read(fields["confirmations"]!)
        if version == 1, !confirmations.isEmpty { throw problem("its confirmations are not an empty list (export version 1)") }
        return PackedImport(
            device: device, label: label, sequence: sequence, exportedAt: exportedAt, measuredAt: measuredAt, packed: packed, days: days,
            limits: limits, confirmations: confirmations, tokens: tokens)
    }

    private func string(_ ref: JSONRef) -> String? {
        if case .string(let bytes) = parser.value(of: ref) { return String(decoding: bytes, as: UTF8.self) }
        return nil
    }

    private func integer(_ ref: JSONRef) -> Int64? {
        if case .int(let value) = parser.value(of: ref) { return value }
        return nil
    }

    private func strings(_ ref: JSONRef, _ what: String) throws(SyncExportProblem) -> [String] {
        guard case .array = parser.value(of: ref) else { throw problem("its \(what) are not a list of names") }
        var result: [String] = []
        for element in parser.elements(of: ref) {
            guard let text = string(element), !text.isEmpty, text.utf8.count <= 256, !result.contains(text) else {
                throw problem("its \(what) are not a list of distinct names of 1 to 256 bytes")
            }
            result.append(text)
        }
        return result
    }

    /// The days, each packed as it is read into `packed`, and their tokens.
    private func days(_ ref: JSONRef, tools: [String], models: [String], bucketFields: [BucketField], into packed: inout [UInt8])
        throws(SyncExportProblem) -> (days: [PackedImport.Day], tokens: Int64)
    {
        guard case .array = parser.value(of: ref) else { throw problem("its days are not a list") }
        // The packer numbers distinct strings: a tool and a model of the same name are one string.
        var names: [String] = []
        var ids: [String: Int] = [:]
        func id(_ text: String) -> Int {
            if let known = ids[text] { return known }
            ids[text] = names.count
            names.append(text)
            return names.count - 1
        }
        let toolIDs = tools.map(id)
        let modelIDs = models.map(id)
        var packer = DevicePacking.DayPacker(names: names)
        var days: [PackedImport.Day] = []
        var tokens: Int64 = 0
        var previousDay: Int64?
        let perDay = LocalCalendar.quartersPerDay
        let width = 3 + bucketFields.count
        let events = 3 + bucketFields.firstIndex(of: .events)!
        let estimated = 3 + bucketFields.firstIndex(of: .estimatedEvents)!
        let keyColumns = SyncExport.keyColumns(bucketFields)
        // One row's values and the row before it (swapped, never copied), and every field of the row by raw
        // value: buffers of their own, written in place for each of a year's rows.
        var v = UnsafeMutableBufferPointer<Int64>.allocate(capacity: width)
        var previous = UnsafeMutableBufferPointer<Int64>.allocate(capacity: width)
        let values = UnsafeMutableBufferPointer<Int64>.allocate(capacity: BucketField.allCases.count)
        for buffer in [v, previous, values] { buffer.initialize(repeating: 0) }
        defer {
            v.deallocate()
            previous.deallocate()
            values.deallocate()
        }
        for entry in parser.elements(of: ref) {
            guard case .object = parser.value(of: entry) else { throw problem("a day is not an object") }
            let fields = parser.entries(of: entry)
            guard fields.count == 3, Set(fields.map(\.key)) == ["day", "buckets", "activity"] else {
                throw problem("a day does not hold exactly day, buckets and activity")
            }
            let node = Dictionary(fields.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
            guard let day = integer(node["day"]!), abs(day) < 10_000_000 else { throw problem("a day's number is not a day") }
            guard previousDay.map({ $0 < day }) ?? true else { throw problem("its days are not in order, each once") }
            previousDay = day
            var bad = 0
            guard let rows = parser.readTable(node["buckets"]!, width: width, badRow: &bad) else {
                throw problem("bucket \(bad + 1) of \(CivilDate.dateString(ofDay: day)) is not a list of \(width) numbers")
            }
            packer.start(day: day)
            for row in 0..<rows {
                for column in 0..<width {
                    guard let value = parser.tableInteger(row * width + column) else {
                        throw problem("bucket \(row + 1) of \(CivilDate.dateString(ofDay: day)) holds something other than whole numbers")
                    }
                    v[column] = value
                }
                // A value the row before held in the same field was admitted already.
                var admitted = (0..<perDay).contains(v[0]) && (0..<Int64(tools.count)).contains(v[1])
                    && (0..<Int64(models.count)).contains(v[2]) && v[estimated] <= v[events]
                for (offset, field) in bucketFields.enumerated() where admitted && (row == 0 || v[3 + offset] != previous[3 + offset]) {
                    admitted = field.admits(v[3 + offset])
                }
                guard admitted else { throw problem("bucket \(row + 1) of \(CivilDate.dateString(ofDay: day)) holds a value out of its range") }
                if row > 0, !SyncExport.keyPrecedes(previous, v, keyColumns: keyColumns) {
                    throw problem("the buckets of \(CivilDate.dateString(ofDay: day)) are not in order, each key once")
                }
                for (offset, field) in bucketFields.enumerated() { values[field.rawValue] = v[3 + offset] }
                packer.bucket(offset: v[0], tool: toolIDs[Int(v[1])], model: modelIDs[Int(v[2])], values: UnsafeBufferPointer(values))
                swap(&v, &previous)
            }
            guard let quarters = parser.readTable(node["activity"]!, width: 3, badRow: &bad) else {
                throw problem("activity \(bad + 1) of \(CivilDate.dateString(ofDay: day)) is not a list of 3 numbers")
            }
            var previousQuarter: Int64 = -1
            for row in 0..<quarters {
                guard let offset = parser.tableInteger(row * 3), let first = parser.tableInteger(row * 3 + 1),
                    let last = parser.tableInteger(row * 3 + 2), offset > previousQuarter, offset < perDay, first >= 0,
                    first <= last, last < Bucket.quarterMilliseconds
                else { throw problem("activity \(row + 1) of \(CivilDate.dateString(ofDay: day)) is out of its range or order") }
                previousQuarter = offset
                packer.activity(offset: offset, first: first, last: last)
            }
            tokens = tokens.saturatingAdd(packer.tokens)
            if let day = packer.finish(into: &packed) { days.append(day) }
        }
        return (days, tokens)
    }

    /// Version 4's days: rows of 2 (the day, the length of its packed bytes), in order, each day once, whose
    /// bytes follow one another in `range` of `document` to its end; every day checked whole
    /// (`DevicePacking.DayChecker`) where it lies.
    private func packedDays(
        _ ref: JSONRef, _ range: Range<Int>, in document: UnsafeRawBufferPointer, tools: [String], models: [String], packing: UInt64
    ) throws(SyncExportProblem) -> (days: [PackedImport.Day], tokens: Int64) {
        var bad = 0
        guard let rows = parser.readTable(ref, width: 2, badRow: &bad) else { throw problem("day \(bad + 1) is not a list of 2 numbers") }
        var checker = DevicePacking.DayChecker(tools: tools, models: models, packing: packing)
        var days: [PackedImport.Day] = []
        days.reserveCapacity(rows)
        var tokens: Int64 = 0
        var previousDay: Int64?
        var position = range.lowerBound
        for row in 0..<rows {
            guard let day = parser.tableInteger(2 * row), abs(day) < 10_000_000, let length = parser.tableInteger(2 * row + 1),
                length > 0, length <= Int64(range.upperBound - position)
            else { throw problem("day \(row + 1) is not a day and the length of its bytes within the file") }
            guard previousDay.map({ $0 < day }) ?? true else { throw problem("its days are not in order, each once") }
            previousDay = day
            let bytes = position..<position + Int(length)
            do throws(DevicePacking.DayProblem) {
                let checked = try checker.check(UnsafeRawBufferPointer(rebasing: document[bytes]), day: day)
                days.append(PackedImport.Day(day: day, firstQuarter: checked.firstQuarter, lastActivity: checked.lastActivity, bytes: bytes))
                tokens = tokens.saturatingAdd(checked.tokens)
            } catch {
                throw problem("its packed day does not read: \(error.message)")
            }
            position = bytes.upperBound
        }
        guard position == range.upperBound else { throw problem("it holds bytes after its last packed day") }
        return (days, tokens)
    }

    private func limits(_ ref: JSONRef, tools: [String], windows: [String]) throws(SyncExportProblem) -> [LimitSample] {
        var bad = 0
        guard let rows = parser.readTable(ref, width: 6, badRow: &bad) else {
            throw problem("limit sample \(bad + 1) is not a list of 6 values")
        }
        var samples: [LimitSample] = []
        var previous: (Int64, Int64, Int64)?
        for row in 0..<rows {
            let base = row * 6
            guard let tool = parser.tableInteger(base), let window = parser.tableInteger(base + 1),
                let time = parser.tableInteger(base + 2), (0..<Int64(tools.count)).contains(tool),
                (0..<Int64(windows.count)).contains(window)
            else { throw problem("limit sample \(row + 1) does not name a tool, a window and a time") }
            if let previous, !(previous < (tool, window, time)) { throw problem("the limit samples are not in order, each once") }
            previous = (tool, window, time)
            let used: Double?
            switch parser.tableValue(base + 3) {
            case .null: used = nil
            case .int(let value): used = Double(value)
            case .double(let value) where value.isFinite: used = value
            default: throw problem("limit sample \(row + 1)'s used percent is neither a number nor null")
            }
            var optional: [Int64?] = []
            for column in 4...5 {
                switch parser.tableValue(base + column) {
                case .null: optional.append(nil)
                case .int(let value): optional.append(value)
                default: throw problem("limit sample \(row + 1) holds a value that is neither a whole number nor null")
                }
            }
            samples.append(
                LimitSample(
                    tool: tools[Int(tool)], time: time, window: windows[Int(window)], usedPercent: used, windowMinutes: optional[0],
                    resetsAt: optional[1]))
        }
        return samples
    }
}
