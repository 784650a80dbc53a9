import Foundation

/// How the store keeps another device's packed days (`DevicePacking`): in blocks of 32 UTC days, one row of
/// `sync_blocks` each, holding the days' packed bytes one after another (`chunk`) and a small index of them
/// (`days`: each day's number, length, first quarter-hour with a bucket and latest record).
///
/// Why blocks and not a row per day: a heavy user's day packs to 2-4 KB, which SQLite cannot keep within a
/// 4 KB page of a table keyed by (device, day) beside its neighbours, so each such row took a page of its own
/// for its overflow, half of it empty: a year of 30 devices took 44 MB for 26 MB of days, written twice (the
/// write-ahead log, then the store). A block's 50-100 KB fill their overflow pages but the last, and a view
/// still unpacks only the days it shows.
enum DayBlocks {
    static let daysPerBlock: Int64 = 32
    static let indexVersion: UInt64 = 1

    static func block(ofDay day: Int64) -> Int64 { CivilDate.floorDivide(day, daysPerBlock) }

    /// One day of a block, as its index says: its packed bytes are `bytes` of the block's chunk.
    struct Entry: Equatable {
        let day: Int64
        let firstQuarter: Int64?
        let lastActivity: Int64?
        let bytes: Range<Int>
    }

    /// One row of `sync_blocks`, ready to write: the days of `range` of an import's packed bytes.
    struct Row {
        let block: Int64
        let firstQuarter: Int64?
        let lastActivity: Int64?
        let index: Data
        let range: Range<Int>
    }

    /// The rows of `days` (in day order, their bytes one after another, as a `PackedImport` holds them).
    static func rows(_ days: [PackedImport.Day]) -> [Row] {
        var rows: [Row] = []
        var start = 0
        while start < days.count {
            let block = block(ofDay: days[start].day)
            var end = start + 1
            while end < days.count, Self.block(ofDay: days[end].day) == block { end += 1 }
            let group = days[start..<end]
            var writer = DevicePacking.Writer()
            writer.unsigned(indexVersion)
            writer.unsigned(UInt64(group.count))
            var previous = group.first!.bytes.lowerBound
            for day in group {
                precondition(day.bytes.lowerBound == previous, "an import's days lie one after another")
                previous = day.bytes.upperBound
                let dayStart = day.day * LocalCalendar.quartersPerDay
                writer.unsigned(UInt64(day.day - block * daysPerBlock))
                writer.unsigned(UInt64(day.bytes.count))
                writer.unsigned((day.firstQuarter == nil ? 0 : 1) | (day.lastActivity == nil ? 0 : 2))
                if let first = day.firstQuarter { writer.unsigned(UInt64(first - dayStart)) }
                if let last = day.lastActivity { writer.signed(last - dayStart * Bucket.quarterMilliseconds) }
            }
            rows.append(
                Row(
                    block: block, firstQuarter: group.compactMap(\.firstQuarter).min(), lastActivity: group.compactMap(\.lastActivity).max(),
                    index: Data(writer.bytes), range: group.first!.bytes.lowerBound..<group.last!.bytes.upperBound))
            start = end
        }
        return rows
    }

    /// The days of block `block` as its `index` lists them, within a chunk of `chunkBytes`; an index that does
    /// not read, or does not fit its chunk, is a damaged store.
    static func entries(index: Data, block: Int64, chunkBytes: Int) throws(StoreError) -> [Entry] {
        let entries: [Entry]? = index.withUnsafeBytes { raw in
            var reader = DevicePacking.Reader(bytes: raw)
            guard reader.unsigned() == indexVersion, let count = reader.count() else { return nil }
            var entries: [Entry] = []
            var position = 0
            for _ in 0..<count {
                guard let offset = reader.unsigned(), offset < UInt64(daysPerBlock), let length = reader.unsigned(),
                    length <= UInt64(chunkBytes - position), let present = reader.unsigned(), present < 4
                else { return nil }
                let day = block * daysPerBlock + Int64(offset)
                let dayStart = day * LocalCalendar.quartersPerDay
                var first: Int64?
                var last: Int64?
                if present & 1 != 0 {
                    guard let value = reader.unsigned(), value < UInt64(LocalCalendar.quartersPerDay) else { return nil }
                    first = dayStart + Int64(value)
                }
                if present & 2 != 0 {
                    guard let value = reader.signed() else { return nil }
                    last = dayStart * Bucket.quarterMilliseconds + value
                }
                entries.append(Entry(day: day, firstQuarter: first, lastActivity: last, bytes: position..<position + Int(length)))
                position += Int(length)
            }
            return reader.atEnd && position == chunkBytes ? entries : nil
        }
        guard let entries else { throw DevicePacking.damaged }
        return entries
    }
}
