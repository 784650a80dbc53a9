import Foundation

/// How the store keeps another device's history: one blob per UTC day of its buckets and activity, and one per
/// limit window of its samples, in variable-length integers. Importing a device then writes a few hundred rows
/// a year instead of one per bucket, and a view unpacks only the days it shows.
///
/// A day: version 3, the day's strings (tools and models), its buckets (quarter within the day, tool, model, then
/// the fields that are not 0, `PackedRow`; version 2, of exports of version 4, held every `BucketField` signed;
/// version 1, of a store before schema 9, `BucketField.beforeDimensions`) and its activity (quarter within the day,
/// first and last record as milliseconds into the quarter). Signed values are zigzag encoded. The store keeps a day
/// in the version it came in, so every version is read. A series: version 1, then per sample its time (the first
/// absolute, then the difference to the one before), which optional values it holds, and them (the used percent as
/// the bits of its Double).
enum DevicePacking {
    static let seriesVersion: UInt64 = 1
    /// The version days are packed in.
    static let dayVersion: UInt64 = 3
    /// The version before: every field written (export version 4).
    static let everyFieldVersion: UInt64 = 2

    /// `imported`, packed (in `version`: see `DayPacker`): its days, its tokens. Its buckets come in the store's
    /// order (an export's reader gives them so) and are sorted only when they do not.
    static func pack(_ imported: DeviceImport, version: UInt64 = dayVersion) -> PackedImport {
        let perDay = LocalCalendar.quartersPerDay
        var buckets = imported.history.buckets
        if zip(buckets, buckets.dropFirst()).contains(where: { DeviceMerge.precedes($1, $0) }) { buckets.sort(by: DeviceMerge.precedes) }
        var activity = imported.history.activity
        if zip(activity, activity.dropFirst()).contains(where: { $1.quarter < $0.quarter }) { activity.sort { $0.quarter < $1.quarter } }
        let (names, ids) = strings(of: buckets)
        var packer = DayPacker(names: names, version: version)
        var days: [PackedImport.Day] = []
        var packed: [UInt8] = []
        var tokens: Int64 = 0
        var b = 0
        var a = 0
        while b < buckets.count || a < activity.count {
            let day = min(
                b < buckets.count ? CivilDate.floorDivide(buckets[b].quarter, perDay) : Int64.max,
                a < activity.count ? CivilDate.floorDivide(activity[a].quarter, perDay) : Int64.max)
            let end = (day + 1) * perDay
            let firstBucket = b
            while b < buckets.count, buckets[b].quarter < end { b += 1 }
            let firstActive = a
            while a < activity.count, activity[a].quarter < end { a += 1 }
            fill(&packer, day: day, buckets: buckets[firstBucket..<b], activity: activity[firstActive..<a], ids: ids)
            tokens = tokens.saturatingAdd(packer.tokens)
            if let day = packer.finish(into: &packed) { days.append(day) }
        }
        return PackedImport(
            device: imported.device, label: imported.label, sequence: imported.sequence, exportedAt: imported.exportedAt,
            measuredAt: imported.history.measuredAt, packed: packed, days: days, limits: imported.history.limits,
            confirmations: imported.history.confirmations, tokens: tokens)
    }

    /// The store's rows of `sync_limits` of `samples`: one series per tool and window.
    static func series(_ samples: [LimitSample]) -> [PackedImport.Series] {
        var series: [String: [LimitSample]] = [:]
        for sample in samples { series[sample.tool + "\u{1F}" + sample.window, default: []].append(sample) }
        return series.keys.sorted().map { key in
            let samples = series[key]!.sorted { $0.time < $1.time }
            return PackedImport.Series(tool: samples[0].tool, window: samples[0].window, blob: packSeries(samples))
        }
    }

    /// One day's blob of `buckets` and `activity` (in the store's order).
    static func packDay(_ day: Int64, buckets: [BucketRow], activity: [ActivityQuarter]) -> Data {
        let (names, ids) = strings(of: buckets)
        var packer = DayPacker(names: names)
        fill(&packer, day: day, buckets: buckets[...], activity: activity[...], ids: ids)
        return Data(packer.blob())
    }

    /// The distinct strings of `buckets` (tools and models), numbered in order of appearance.
    private static func strings(of buckets: [BucketRow]) -> (names: [String], ids: [String: Int]) {
        var names: [String] = []
        var ids: [String: Int] = [:]
        for row in buckets {
            for text in [row.tool, row.model] where ids[text] == nil {
                ids[text] = names.count
                names.append(text)
            }
        }
        return (names, ids)
    }

    private static func fill(
        _ packer: inout DayPacker, day: Int64, buckets: ArraySlice<BucketRow>, activity: ArraySlice<ActivityQuarter>, ids: [String: Int]
    ) {
        let firstQuarter = day * LocalCalendar.quartersPerDay
        packer.start(day: day)
        var values = [Int64](repeating: 0, count: BucketField.allCases.count)
        for row in buckets {
            for field in BucketField.allCases { values[field.rawValue] = row[field] }
            values.withUnsafeBufferPointer { values in
                packer.bucket(offset: row.quarter - firstQuarter, tool: ids[row.tool]!, model: ids[row.model]!, values: values)
            }
        }
        for quarter in activity {
            let start = quarter.quarter * Bucket.quarterMilliseconds
            packer.activity(offset: quarter.quarter - firstQuarter, first: quarter.first - start, last: quarter.last - start)
        }
    }

    /// Packs one UTC day's blob from its rows as they come, in the store's order, without a `BucketRow` between:
    /// `pack` writes through it, and so does an export's reader straight from the document. The day's strings are
    /// given as indices into `names` (distinct strings), numbered in the blob in the order they first appear.
    struct DayPacker {
        private let names: [String]
        private let version: UInt64
        /// Per name: its number among the day's strings, or -1.
        private var local: [Int32]
        private var order: [Int] = []
        private var rows = Writer()
        private var quarters = Writer()
        private var rowCount = 0
        private var quarterCount = 0
        private var day: Int64 = 0
        private var firstQuarter: Int64?
        private var lastActivity: Int64?
        /// The tokens of the day's rows so far.
        private(set) var tokens: Int64 = 0

        /// `version`: `dayVersion`, or `everyFieldVersion` for an export of version 4 (tests of reading one).
        init(names: [String], version: UInt64 = dayVersion) {
            precondition(version == dayVersion || version == everyFieldVersion, "packing version \(version) is not written")
            self.names = names
            self.version = version
            local = [Int32](repeating: -1, count: names.count)
        }

        mutating func start(day: Int64) {
            for id in order { local[id] = -1 }
            order.removeAll(keepingCapacity: true)
            rows.bytes.removeAll(keepingCapacity: true)
            quarters.bytes.removeAll(keepingCapacity: true)
            rowCount = 0
            quarterCount = 0
            self.day = day
            firstQuarter = nil
            lastActivity = nil
            tokens = 0
        }

        /// A bucket `offset` quarter-hours into the day; `values` holds every `BucketField`, by raw value.
        mutating func bucket(offset: Int64, tool: Int, model: Int, values: UnsafeBufferPointer<Int64>) {
            if firstQuarter == nil { firstQuarter = day * LocalCalendar.quartersPerDay + offset }
            if version == everyFieldVersion {
                rows.row(UInt64(offset), number(tool), number(model), signed: values)
            } else {
                rows.unsigned(UInt64(offset))
                rows.unsigned(number(tool))
                rows.unsigned(number(model))
                PackedRow.write(values, into: &rows)
            }
            rowCount += 1
            for field in BucketField.tokens { tokens = tokens.saturatingAdd(values[field.rawValue]) }
        }

        /// An active quarter-hour `offset` into the day, its first and last record in milliseconds into it.
        mutating func activity(offset: Int64, first: Int64, last: Int64) {
            quarters.unsigned(UInt64(offset))
            quarters.signed(first)
            quarters.signed(last)
            quarterCount += 1
            let end = (day * LocalCalendar.quartersPerDay + offset) * Bucket.quarterMilliseconds + last
            lastActivity = max(lastActivity ?? end, end)
        }

        private mutating func number(_ id: Int) -> UInt64 {
            if local[id] < 0 {
                local[id] = Int32(order.count)
                order.append(id)
            }
            return UInt64(local[id])
        }

        /// The day's blob.
        func blob() -> [UInt8] {
            var head = Writer()
            head.unsigned(version)
            head.unsigned(UInt64(order.count))
            for id in order { head.string(names[id]) }
            head.unsigned(UInt64(rowCount))
            var bytes = head.bytes
            bytes.reserveCapacity(bytes.count + rows.bytes.count + quarters.bytes.count + 10)
            bytes += rows.bytes
            var count = Writer()
            count.unsigned(UInt64(quarterCount))
            bytes += count.bytes
            bytes += quarters.bytes
            return bytes
        }

        /// The day, its blob appended to `packed`; nil for a day that holds nothing.
        func finish(into packed: inout [UInt8]) -> PackedImport.Day? {
            guard rowCount > 0 || quarterCount > 0 else { return nil }
            let start = packed.count
            packed += blob()
            return PackedImport.Day(day: day, firstQuarter: firstQuarter, lastActivity: lastActivity, bytes: start..<packed.count)
        }
    }

    /// The day's buckets and activity, as packed; a blob that does not unpack is a damaged store.
    static func unpackDay(_ data: Data, day: Int64) throws(StoreError) -> (buckets: [BucketRow], activity: [ActivityQuarter]) {
        let unpacked: (buckets: [BucketRow], activity: [ActivityQuarter])? = data.withUnsafeBytes { raw in
            var reader = Reader(bytes: raw)
            let version = reader.unsigned()
            let fields: [BucketField]
            switch version {
            case 1: fields = BucketField.beforeDimensions
            case everyFieldVersion, dayVersion: fields = BucketField.allCases
            default: return nil
            }
            guard let stringCount = reader.count() else { return nil }
            var strings: [String] = []
            for _ in 0..<stringCount {
                guard let text = reader.string() else { return nil }
                strings.append(text)
            }
            let firstQuarter = day * LocalCalendar.quartersPerDay
            guard let rowCount = reader.count() else { return nil }
            var buckets: [BucketRow] = []
            buckets.reserveCapacity(rowCount)
            var values = [Int64](repeating: 0, count: fields.count)
            for _ in 0..<rowCount {
                guard let offset = reader.unsigned(), let tool = reader.unsigned(), let model = reader.unsigned(),
                    tool < strings.count, model < strings.count
                else { return nil }
                if version == dayVersion {
                    guard let present = reader.unsigned(), present <= PackedRow.allPresent else { return nil }
                    for index in values.indices { values[index] = 0 }
                    for (bit, raw) in PackedRow.rawValues.enumerated() where present & 1 << UInt64(bit) != 0 {
                        guard let written = reader.unsigned() else { return nil }
                        values[raw] =
                            PackedRow.signedBits & 1 << UInt64(bit) != 0
                            ? ZigZag.decode(written) : Int64(bitPattern: written)
                    }
                } else {
                    for index in fields.indices {
                        guard let value = reader.signed() else { return nil }
                        values[index] = value
                    }
                }
                buckets.append(
                    BucketRow(
                        quarter: firstQuarter + Int64(offset), tool: strings[Int(tool)], model: strings[Int(model)],
                        fields: fields, values: values))
            }
            guard let activityCount = reader.count() else { return nil }
            var activity: [ActivityQuarter] = []
            activity.reserveCapacity(activityCount)
            for _ in 0..<activityCount {
                guard let offset = reader.unsigned(), let first = reader.signed(), let last = reader.signed() else { return nil }
                let quarter = firstQuarter + Int64(offset)
                let start = quarter * Bucket.quarterMilliseconds
                activity.append(ActivityQuarter(quarter: quarter, first: start + first, last: start + last))
            }
            return reader.atEnd ? (buckets, activity) : nil
        }
        guard let unpacked else { throw damaged }
        return unpacked
    }

    /// One window's samples, in time order.
    static func packSeries(_ samples: [LimitSample]) -> Data {
        var writer = Writer()
        writer.unsigned(seriesVersion)
        writer.unsigned(UInt64(samples.count))
        var previous: Int64 = 0
        for sample in samples {
            writer.signed(sample.time - previous)
            previous = sample.time
            writer.unsigned(
                (sample.usedPercent == nil ? 0 : 1) | (sample.windowMinutes == nil ? 0 : 2) | (sample.resetsAt == nil ? 0 : 4))
            if let used = sample.usedPercent { writer.unsigned(used.bitPattern) }
            if let minutes = sample.windowMinutes { writer.signed(minutes) }
            if let resets = sample.resetsAt { writer.signed(resets) }
        }
        return Data(writer.bytes)
    }

    static func unpackSeries(_ data: Data, tool: String, window: String) throws(StoreError) -> [LimitSample] {
        let unpacked: [LimitSample]? = data.withUnsafeBytes { raw in
            var reader = Reader(bytes: raw)
            guard reader.unsigned() == seriesVersion, let count = reader.count() else { return nil }
            var samples: [LimitSample] = []
            var time: Int64 = 0
            for _ in 0..<count {
                guard let step = reader.signed(), let present = reader.unsigned() else { return nil }
                time += step
                var used: Double?
                var minutes: Int64?
                var resets: Int64?
                if present & 1 != 0 {
                    guard let bits = reader.unsigned() else { return nil }
                    used = Double(bitPattern: bits)
                }
                if present & 2 != 0 {
                    guard let value = reader.signed() else { return nil }
                    minutes = value
                }
                if present & 4 != 0 {
                    guard let value = reader.signed() else { return nil }
                    resets = value
                }
                samples.append(
                    LimitSample(tool: tool, time: time, window: window, usedPercent: used, windowMinutes: minutes, resetsAt: resets))
            }
            return reader.atEnd ? samples : nil
        }
        guard let unpacked else { throw damaged }
        return unpacked
    }

    static var damaged: StoreError {
        StoreError(message: "an imported device's history in the store is damaged; run `unprompt-scan sync` to import it again", busy: false)
    }

    struct Writer {
        var bytes: [UInt8] = []

        /// The most bytes a value takes: 7 bits a byte.
        static let maxLength = 10

        mutating func unsigned(_ value: UInt64) {
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.maxLength) { buffer in
                var position = 0
                Self.put(value, into: buffer, at: &position)
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<position]))
            }
        }

        mutating func signed(_ value: Int64) { unsigned(ZigZag.encode(value)) }

        /// Three unsigned values, then `values` signed: a bucket row, appended at once.
        mutating func row(_ a: UInt64, _ b: UInt64, _ c: UInt64, signed values: UnsafeBufferPointer<Int64>) {
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.maxLength * (3 + values.count)) { buffer in
                var position = 0
                Self.put(a, into: buffer, at: &position)
                Self.put(b, into: buffer, at: &position)
                Self.put(c, into: buffer, at: &position)
                for value in values { Self.put(ZigZag.encode(value), into: buffer, at: &position) }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<position]))
            }
        }

        /// `value` as unsigned LEB128 at `position` in `buffer`, which has room for it.
        @inline(__always) private static func put(_ value: UInt64, into buffer: UnsafeMutableBufferPointer<UInt8>, at position: inout Int) {
            var value = value
            while value >= 0x80 {
                buffer[position] = UInt8(truncatingIfNeeded: value) | 0x80
                position += 1
                value >>= 7
            }
            buffer[position] = UInt8(value)
            position += 1
        }

        mutating func string(_ text: String) {
            unsigned(UInt64(text.utf8.count))
            bytes += text.utf8
        }
    }

    struct Reader {
        let bytes: UnsafeRawBufferPointer
        var position = 0

        var atEnd: Bool { position == bytes.count }

        @inline(__always) mutating func unsigned() -> UInt64? {
            // Most values take one byte.
            if position < bytes.count, bytes[position] < 0x80 {
                position += 1
                return UInt64(bytes[position - 1])
            }
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while position < bytes.count, shift < 64 {
                let byte = bytes[position]
                position += 1
                // The tenth byte holds the 64th bit only.
                if shift == 63, byte > 1 { return nil }
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return value }
                shift += 7
            }
            return nil
        }

        @inline(__always) mutating func signed() -> Int64? {
            unsigned().map(ZigZag.decode)
        }

        /// A count no larger than the bytes left (each item takes at least one).
        mutating func count() -> Int? {
            guard let value = unsigned(), value <= UInt64(bytes.count - position) else { return nil }
            return Int(value)
        }

        mutating func name() -> [UInt8]? {
            guard let length = count() else { return nil }
            defer { position += length }
            return Array(UnsafeRawBufferPointer(rebasing: bytes[position..<position + length]))
        }

        mutating func string() -> String? {
            guard let length = count() else { return nil }
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[position..<position + length]), as: UTF8.self)
            position += length
            return text
        }
    }
}

/// One device's import as the store writes it: its days packed, ready to write.
struct PackedImport: Sendable {
    struct Day: Sendable {
        let day: Int64
        let firstQuarter: Int64?
        let lastActivity: Int64?
        /// Where its packed bytes are in `packed`.
        let bytes: Range<Int>
    }

    struct Series: Sendable {
        let tool: String
        let window: String
        let blob: Data
    }

    let device: String
    let label: String
    let sequence: Int64
    let exportedAt: Int64
    let measuredAt: Int64?
    /// Every day's packed bytes, one after another in day order (with other bytes around them when they are the
    /// export's own, checked in place and kept without a copy).
    var packed: [UInt8]
    let days: [Day]
    /// Packed as the store writes them (`DevicePacking.series`): a few per window.
    let limits: [LimitSample]
    let confirmations: [ConfirmationEntry]
    /// All the import's tokens.
    let tokens: Int64

    /// `day`'s packed bytes.
    func blob(_ day: Day) -> Data { Data(packed[day.bytes]) }
}
