import Foundation

/// How the store keeps another device's history: one blob per UTC day of its buckets and activity, and one per
/// limit window of its samples, in variable-length integers. Importing a device then writes a few hundred rows
/// a year instead of one per bucket, and a view unpacks only the days it shows.
///
/// A day: version 2, the day's strings (tools and models), its buckets (quarter within the day, tool, model,
/// then every `BucketField`; version 1, of a store before schema 9, held `BucketField.beforeDimensions`) and its
/// activity (quarter within the day, first and last record as milliseconds into the quarter). Signed values are
/// zigzag encoded. A series: version 1, then per sample its time (the first absolute, then the difference to the one
/// before), which optional values it holds, and them (the used percent as the bits of its Double).
enum DevicePacking {
    static let seriesVersion: UInt64 = 1
    static let dayVersion: UInt64 = 2

    /// `imported`'s rows of `sync_days` and `sync_limits`, and its tokens. Its buckets come in the store's order
    /// (an export's reader gives them so) and are sorted only when they do not.
    static func pack(_ imported: DeviceImport) -> PackedImport {
        let perDay = LocalCalendar.quartersPerDay
        var buckets = imported.history.buckets
        if zip(buckets, buckets.dropFirst()).contains(where: { DeviceMerge.precedes($1, $0) }) { buckets.sort(by: DeviceMerge.precedes) }
        var activity = imported.history.activity
        if zip(activity, activity.dropFirst()).contains(where: { $1.quarter < $0.quarter }) { activity.sort { $0.quarter < $1.quarter } }
        var days: [PackedImport.Day] = []
        var tokens: Int64 = 0
        var b = 0
        var a = 0
        while b < buckets.count || a < activity.count {
            let day = min(
                b < buckets.count ? CivilDate.floorDivide(buckets[b].quarter, perDay) : Int64.max,
                a < activity.count ? CivilDate.floorDivide(activity[a].quarter, perDay) : Int64.max)
            let end = (day + 1) * perDay
            let firstBucket = b
            while b < buckets.count, buckets[b].quarter < end {
                tokens = tokens.saturatingAdd(buckets[b].counts.total)
                b += 1
            }
            let firstActive = a
            while a < activity.count, activity[a].quarter < end { a += 1 }
            let rows = Array(buckets[firstBucket..<b])
            let quarters = Array(activity[firstActive..<a])
            days.append(
                PackedImport.Day(
                    day: day, firstQuarter: rows.first?.quarter, lastActivity: quarters.map(\.last).max(),
                    blob: packDay(day, buckets: rows, activity: quarters)))
        }
        var series: [String: [LimitSample]] = [:]
        for sample in imported.history.limits { series[sample.tool + "\u{1F}" + sample.window, default: []].append(sample) }
        let packedSeries = series.keys.sorted().map { key in
            let samples = series[key]!.sorted { $0.time < $1.time }
            return PackedImport.Series(tool: samples[0].tool, window: samples[0].window, blob: packSeries(samples))
        }
        return PackedImport(days: days, series: packedSeries, tokens: tokens)
    }

    static func packDay(_ day: Int64, buckets: [BucketRow], activity: [ActivityQuarter]) -> Data {
        var writer = Writer()
        writer.unsigned(dayVersion)
        var strings: [String: UInt64] = [:]
        var order: [String] = []
        for row in buckets {
            for text in [row.tool, row.model] where strings[text] == nil {
                strings[text] = UInt64(order.count)
                order.append(text)
            }
        }
        writer.unsigned(UInt64(order.count))
        for text in order { writer.string(text) }
        let firstQuarter = day * LocalCalendar.quartersPerDay
        writer.unsigned(UInt64(buckets.count))
        for row in buckets {
            writer.unsigned(UInt64(row.quarter - firstQuarter))
            writer.unsigned(strings[row.tool]!)
            writer.unsigned(strings[row.model]!)
            for field in BucketField.allCases { writer.signed(row[field]) }
        }
        writer.unsigned(UInt64(activity.count))
        for quarter in activity {
            let start = quarter.quarter * Bucket.quarterMilliseconds
            writer.unsigned(UInt64(quarter.quarter - firstQuarter))
            writer.signed(quarter.first - start)
            writer.signed(quarter.last - start)
        }
        return Data(writer.bytes)
    }

    /// The day's buckets and activity, as packed; a blob that does not unpack is a damaged store.
    static func unpackDay(_ data: Data, day: Int64) throws(StoreError) -> (buckets: [BucketRow], activity: [ActivityQuarter]) {
        let unpacked: (buckets: [BucketRow], activity: [ActivityQuarter])? = data.withUnsafeBytes { raw in
            var reader = Reader(bytes: raw)
            let fields: [BucketField]
            switch reader.unsigned() {
            case 1: fields = BucketField.beforeDimensions
            case dayVersion: fields = BucketField.allCases
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
                for index in fields.indices {
                    guard let value = reader.signed() else { return nil }
                    values[index] = value
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

    private static var damaged: StoreError {
        StoreError(message: "an imported device's history in the store is damaged; run `unprompt-scan sync` to import it again", busy: false)
    }

    private struct Writer {
        var bytes: [UInt8] = []

        mutating func unsigned(_ value: UInt64) {
            var value = value
            while value >= 0x80 {
                bytes.append(UInt8(value & 0x7F) | 0x80)
                value >>= 7
            }
            bytes.append(UInt8(value))
        }

        mutating func signed(_ value: Int64) { unsigned(UInt64(bitPattern: (value << 1) ^ (value >> 63))) }

        mutating func string(_ text: String) {
            unsigned(UInt64(text.utf8.count))
            bytes += text.utf8
        }
    }

    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var position = 0

        var atEnd: Bool { position == bytes.count }

        mutating func unsigned() -> UInt64? {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while position < bytes.count, shift < 64 {
                let byte = bytes[position]
                position += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return value }
                shift += 7
            }
            return nil
        }

        mutating func signed() -> Int64? {
            unsigned().map { Int64(bitPattern: ($0 >> 1) ^ (0 &- ($0 & 1))) }
        }

        /// A count no larger than the bytes left (each item takes at least one).
        mutating func count() -> Int? {
            guard let value = unsigned(), value <= UInt64(bytes.count - position) else { return nil }
            return Int(value)
        }

        mutating func string() -> String? {
            guard let length = count() else { return nil }
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[position..<position + length]), as: UTF8.self)
            position += length
            return text
        }
    }
}

/// One device's import as the store's rows: packed, ready to write.
struct PackedImport: Sendable {
    struct Day: Sendable {
        let day: Int64
        let firstQuarter: Int64?
        let lastActivity: Int64?
        let blob: Data
    }

    struct Series: Sendable {
        let tool: String
        let window: String
        let blob: Data
    }

    let days: [Day]
    let series: [Series]
    /// All the import's tokens.
    let tokens: Int64
}
