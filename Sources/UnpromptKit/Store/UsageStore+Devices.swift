import Foundation

/// Whose usage a view shows: every device (this one and each one imported from the sync folder), this one
/// only, or one device by its id.
public enum DeviceSelection: Sendable, Equatable {
    case all
    case this
    case device(String)
}

/// One device's own usage, as it exports it and as another device imports it: its buckets, its activity (for
/// uses), its limit samples and when its store was last brought up to date; and the person's answers to
/// `confirm` as this device holds them (its own and those merged from other devices: one person's answers).
public struct DeviceHistory: Sendable, Equatable {
    public var buckets: [BucketRow]
    public var activity: [ActivityQuarter]
    public var limits: [LimitSample]
    /// Milliseconds since 1970, by the device's own clock; nil before its first complete scan.
    public var measuredAt: Int64?
    /// Every day's latest answer or undo, by day.
    public var confirmations: [ConfirmationEntry]

    public init(
        buckets: [BucketRow] = [], activity: [ActivityQuarter] = [], limits: [LimitSample] = [], measuredAt: Int64? = nil,
        confirmations: [ConfirmationEntry] = []
    ) {
        self.buckets = buckets
        self.activity = activity
        self.limits = limits
        self.measuredAt = measuredAt
        self.confirmations = confirmations
    }
}

/// Another device's export, imported whole.
public struct DeviceImport: Sendable {
    /// 32 lower-case hex digits (`UsageStore.deviceID()` on that device).
    public let device: String
    public let label: String
    /// The export's own sequence number: a larger one is newer.
    public let sequence: Int64
    /// When the device wrote it, by its own clock.
    public let exportedAt: Int64
    public let history: DeviceHistory

    public init(device: String, label: String, sequence: Int64, exportedAt: Int64, history: DeviceHistory) {
        self.device = device
        self.label = label
        self.sequence = sequence
        self.exportedAt = exportedAt
        self.history = history
    }
}

/// A device the store holds an import of.
public struct ImportedDevice: Sendable, Equatable {
    public let device: String
    public let label: String
    public let sequence: Int64
    public let exportedAt: Int64
    public let measuredAt: Int64?
    /// When this device imported it, by this device's clock.
    public let importedAt: Int64
    /// All the import's tokens.
    public let tokens: Int64
}

/// This device's last export: its sequence number, when it was written, and a digest of what it held (an
/// export holding the same is not written again).
public struct ExportRecord: Sendable, Equatable {
    public let sequence: Int64
    public let exportedAt: Int64
    public let digest: String

    public init(sequence: Int64, exportedAt: Int64, digest: String) {
        self.sequence = sequence
        self.exportedAt = exportedAt
        self.digest = digest
    }
}

/// When one device's store was last brought up to date, for the live estimate (each device is extrapolated
/// from its own measurement).
public struct DeviceMeasurement: Sendable, Equatable {
    public let device: String
    public let measuredAt: Int64?
}

/// Devices: this store's own random id (made once, with the schema), its exports, and the other devices'
/// imports, kept apart from its own buckets (tables `sync_devices`, `sync_blocks`, `sync_limits`; see
/// docs/STORE.md). An import replaces the device's previous import whole, in one transaction, so a device's
/// history counts once however often it is imported; the own buckets are never touched by an import, and the
/// views sum the devices chosen (`DeviceSelection`) with `DeviceMerge`.
extension UsageStore {
    /// The schema step that adds devices and friends: the tables, and this store's device id and friend id.
    static func createDeviceTables(_ database: Database) throws(StoreError) {
        try database.execute(
            """
            CREATE TABLE sync_devices (
                device TEXT PRIMARY KEY, label TEXT NOT NULL, sequence INTEGER NOT NULL, exported_at INTEGER NOT NULL,
                measured_at INTEGER, imported_at INTEGER NOT NULL, tokens INTEGER NOT NULL
            ) WITHOUT ROWID;
            CREATE TABLE sync_days (
                device TEXT NOT NULL, day INTEGER NOT NULL, first_quarter INTEGER, last_activity INTEGER,
                chunk BLOB NOT NULL,
                PRIMARY KEY (device, day)
            ) WITHOUT ROWID;
            CREATE TABLE sync_limits (
                device TEXT NOT NULL, tool TEXT NOT NULL, window TEXT NOT NULL, series BLOB NOT NULL,
                PRIMARY KEY (device, tool, window)
            ) WITHOUT ROWID;
            """)
        try createFriendTable(database)
        let insert = try database.prepare("INSERT OR IGNORE INTO settings VALUES (?1, ?2)")
        try insert.run([.text("device_id"), .text(randomHex(bytes: 16))])
        try insert.run([.text("friend_id"), .text(randomHex(bytes: 8))])
    }

    /// The schema step that keeps imported days in blocks (`DayBlocks`) instead of a row per day: every stored
    /// day moves, bytes unchanged, into its block.
    static func createDayBlocks(_ database: Database) throws(StoreError) {
        try database.execute(
            """
            CREATE TABLE sync_blocks (
                device TEXT NOT NULL, block INTEGER NOT NULL, first_quarter INTEGER, last_activity INTEGER,
                days BLOB NOT NULL, chunk BLOB NOT NULL,
                PRIMARY KEY (device, block)
            ) WITHOUT ROWID;
            """)
        var days: [(device: String, day: PackedImport.Day)] = []
        var packed: [UInt8] = []
        try database.prepare("SELECT device, day, first_quarter, last_activity, chunk FROM sync_days ORDER BY device, day").forEachRow {
            row in
            let chunk = row.blob(4) ?? Data()
            let start = packed.count
            packed += chunk
            days.append(
                (row.text(0) ?? "", PackedImport.Day(day: row.int(1) ?? 0, firstQuarter: row.int(2), lastActivity: row.int(3), bytes: start..<packed.count)))
        }
        let insert = try database.prepare("INSERT INTO sync_blocks VALUES (?1, ?2, ?3, ?4, ?5, ?6)")
        var start = 0
        while start < days.count {
            var end = start + 1
            while end < days.count, days[end].device == days[start].device { end += 1 }
            try writeBlocks(of: days[start..<end].map(\.day), packed: packed, device: days[start].device, insert)
            start = end
        }
        try database.execute("DROP TABLE sync_days")
    }

    /// The rows of `sync_blocks` of one device's `days`, whose bytes are in `packed`.
    fileprivate static func writeBlocks(of days: [PackedImport.Day], packed: [UInt8], device: String, _ insert: Statement) throws(StoreError) {
        let written = packed.withUnsafeBytes { raw -> Result<Void, StoreError> in
            do throws(StoreError) {
                for row in DayBlocks.rows(days) {
                    try insert.run(
                        [.text(device), .integer(row.block), SQLValue(row.firstQuarter), SQLValue(row.lastActivity), .blob(row.index)],
                        borrowing: UnsafeRawBufferPointer(rebasing: raw[row.range]))
                }
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try written.get()
    }

    static func randomHex(bytes: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<bytes).map { _ in
            let byte = UInt8.random(in: 0...255, using: &generator)
            return String(byte >> 4, radix: 16) + String(byte & 0xF, radix: 16)
        }.joined()
    }

    /// This store's device id: 32 lower-case hex digits, random, made once with the schema.
    public func deviceID() throws(StoreError) -> String { try setting("device_id") }

    /// The id that every share code of this store carries: 16 hex digits, random, made once with the schema.
    public func friendID() throws(StoreError) -> String { try setting("friend_id") }

    private func setting(_ key: String) throws(StoreError) -> String {
        let value = try locked { database throws(StoreError) in
            try database.prepare("SELECT value FROM settings WHERE key = ?1").rows([.text(key)]).first?.text(0)
        }
        guard let value else { throw StoreError(message: "the store holds no \(key); it is damaged", busy: false) }
        return value
    }

    public func lastExport() throws(StoreError) -> ExportRecord? {
        try locked { database throws(StoreError) in
            let rows = try database.prepare(
                "SELECT key, value FROM settings WHERE key IN ('export_sequence', 'exported_at', 'export_digest')"
            ).rows()
            var values: [String: String] = [:]
            for row in rows { values[row.text(0) ?? ""] = row.text(1) }
            guard let sequence = values["export_sequence"].flatMap({ Int64($0) }),
                let exportedAt = values["exported_at"].flatMap({ Int64($0) })
            else { return nil }
            return ExportRecord(sequence: sequence, exportedAt: exportedAt, digest: values["export_digest"] ?? "")
        }
    }

    public func recordExport(_ record: ExportRecord) throws(StoreError) {
        try locked { database throws(StoreError) in
            try database.transaction { () throws(StoreError) in
                let insert = try database.prepare("INSERT OR REPLACE INTO settings VALUES (?1, ?2)")
                try insert.run([.text("export_sequence"), .text(String(record.sequence))])
                try insert.run([.text("exported_at"), .text(String(record.exportedAt))])
                try insert.run([.text("export_digest"), .text(record.digest)])
            }
        }
    }

    /// Every device imported, by id.
    public func importedDevices() throws(StoreError) -> [ImportedDevice] {
        try locked { database throws(StoreError) in
            try database.prepare(
                "SELECT device, label, sequence, exported_at, measured_at, imported_at, tokens FROM sync_devices ORDER BY device"
            ).rows().map { row in
                ImportedDevice(
                    device: row.text(0) ?? "", label: row.text(1) ?? "", sequence: row.int(2) ?? 0, exportedAt: row.int(3) ?? 0,
                    measuredAt: row.int(4), importedAt: row.int(5) ?? 0, tokens: row.int(6) ?? 0)
            }
        }
    }

    /// Replaces everything imported of `imported.device` with `imported`, and merges its confirmations into this
    /// store's (`merge(confirmations:)`), in one transaction.
    public func replaceImport(_ imported: DeviceImport, importedAt: Int64) throws(StoreError) {
        try replaceImports([DevicePacking.pack(imported)], importedAt: importedAt)
    }

    /// `replaceImport` of every one of `imports`, packed already (an export's reader packs as it reads), in
    /// one transaction.
    func replaceImports(_ imports: [PackedImport], importedAt: Int64) throws(StoreError) {
        guard !imports.isEmpty else { return }
        try importing(importedAt: importedAt) { batch throws(StoreError) in
            for imported in imports { try batch.replace(imported) }
        }
    }

    /// Runs `body` in one transaction, in which it replaces imports one by one as they come (`ImportBatch`): a sync
    /// imports each device's export while the next ones are still being read.
    func importing(importedAt: Int64, _ body: (ImportBatch) throws(StoreError) -> Void) throws(StoreError) {
        try locked { database throws(StoreError) in
            try database.transaction { () throws(StoreError) in
                try body(try ImportBatch(database, importedAt: importedAt))
            }
        }
    }

    /// The statements of an import transaction (`importing`).
    struct ImportBatch {
        private let database: Database
        private let importedAt: Int64
        private let deleteBlocks: Statement
        private let deleteLimits: Statement
        private let block: Statement
        private let limit: Statement
        private let row: Statement

        fileprivate init(_ database: Database, importedAt: Int64) throws(StoreError) {
            self.database = database
            self.importedAt = importedAt
            deleteBlocks = try database.prepare("DELETE FROM sync_blocks WHERE device = ?1")
            deleteLimits = try database.prepare("DELETE FROM sync_limits WHERE device = ?1")
            block = try database.prepare("INSERT INTO sync_blocks VALUES (?1, ?2, ?3, ?4, ?5, ?6)")
            limit = try database.prepare("INSERT INTO sync_limits VALUES (?1, ?2, ?3, ?4)")
            row = try database.prepare("INSERT OR REPLACE INTO sync_devices VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)")
        }

        /// Replaces everything imported of `imported.device` with `imported`, and merges its confirmations.
        func replace(_ imported: PackedImport) throws(StoreError) {
            let device = SQLValue.text(imported.device)
            try deleteBlocks.run([device])
            try deleteLimits.run([device])
            try UsageStore.writeBlocks(of: imported.days, packed: imported.packed, device: imported.device, block)
            for one in DevicePacking.series(imported.limits) {
                try limit.run([device, .text(one.tool), .text(one.window), .blob(one.blob)])
            }
            try row.run([
                device, .text(imported.label), .integer(imported.sequence), .integer(imported.exportedAt),
                SQLValue(imported.measuredAt), .integer(importedAt), .integer(imported.tokens),
            ])
            _ = try UsageStore.merge(imported.confirmations, database)
        }
    }

    /// This device's own usage, to export: every bucket and active quarter-hour, and the limit samples logged
    /// at or after `limitsSince` together with the latest of each window (no view reads older ones).
    public func ownHistory(limitsSince: Int64) throws(StoreError) -> DeviceHistory {
        let buckets = try buckets(fromQuarter: Int64.min, toQuarter: Int64.max)
        let activity = try activity(fromQuarter: Int64.min, toQuarter: Int64.max)
        let limits = try locked { database throws(StoreError) in
            try database.prepare(
                """
                SELECT tool, window, time, used_percent, window_minutes, resets_at FROM limit_samples s
                WHERE time >= ?1 OR time = (SELECT max(time) FROM limit_samples t WHERE t.tool = s.tool AND t.window = s.window)
                ORDER BY tool, window, time
                """
            ).rows([.integer(limitsSince)]).map { row in
                LimitSample(
                    tool: row.text(0) ?? "", time: row.int(2) ?? 0, window: row.text(1) ?? "", usedPercent: row.double(3),
                    windowMinutes: row.int(4), resetsAt: row.int(5))
            }
        }
        return DeviceHistory(
            buckets: buckets, activity: activity, limits: limits, measuredAt: try measuredAt(), confirmations: try confirmationEntries())
    }

    // MARK: - What the views read, of the devices chosen

    /// Buckets in `[fromQuarter, toQuarter)` of `tools` (every tool when empty), of the devices chosen, summed
    /// by key (`DeviceMerge`).
    public func buckets(fromQuarter: Int64, toQuarter: Int64, tools: [String] = [], devices: DeviceSelection) throws(StoreError)
        -> [BucketRow]
    {
        let chosen = try chosenDevices(devices)
        var groups: [[BucketRow]] = []
        if chosen.own { groups.append(try buckets(fromQuarter: fromQuarter, toQuarter: toQuarter, tools: tools)) }
        let only = Set(tools)
        for days in try importedDays(chosen.imported, fromQuarter: fromQuarter, toQuarter: toQuarter) {
            groups.append(days.flatMap { day in
                day.buckets.filter { $0.quarter >= fromQuarter && $0.quarter < toQuarter && (only.isEmpty || only.contains($0.tool)) }
            })
        }
        return DeviceMerge.buckets(groups)
    }

    /// Activity of the quarter-hours in `[fromQuarter, toQuarter)` of the devices chosen, in order.
    public func activity(fromQuarter: Int64, toQuarter: Int64, devices: DeviceSelection) throws(StoreError) -> [ActivityQuarter] {
        let chosen = try chosenDevices(devices)
        var groups: [[ActivityQuarter]] = []
        if chosen.own { groups.append(try activity(fromQuarter: fromQuarter, toQuarter: toQuarter)) }
        for days in try importedDays(chosen.imported, fromQuarter: fromQuarter, toQuarter: toQuarter) {
            groups.append(days.flatMap { day in day.activity.filter { $0.quarter >= fromQuarter && $0.quarter < toQuarter } })
        }
        return DeviceMerge.activity(groups)
    }

    /// The latest activity before `quarter` on any of the devices chosen.
    public func lastActivity(beforeQuarter quarter: Int64, devices: DeviceSelection) throws(StoreError) -> Int64? {
        let chosen = try chosenDevices(devices)
        var latest = chosen.own ? try lastActivity(beforeQuarter: quarter) : nil
        guard !chosen.imported.isEmpty else { return latest }
        let day = CivilDate.floorDivide(quarter, LocalCalendar.quartersPerDay)
        let block = DayBlocks.block(ofDay: day)
        let (list, values) = Self.list(chosen.imported, from: 2)
        let earlier = try locked { database throws(StoreError) in
            try database.prepare("SELECT max(last_activity) FROM sync_blocks WHERE block < ?1 AND device IN (\(list))")
                .rows([.integer(block)] + values).first?.int(0)
        }
        if let earlier { latest = max(latest ?? earlier, earlier) }
        for blocks in try importedBlocks(chosen.imported, fromBlock: block, toBlock: block) {
            for stored in blocks {
                for entry in stored.entries where entry.day < day {
                    if let last = entry.lastActivity { latest = max(latest ?? last, last) }
                }
                for entry in stored.entries where entry.day == day {
                    for active in try stored.unpack(entry).activity where active.quarter < quarter {
                        latest = max(latest ?? active.last, active.last)
                    }
                }
            }
        }
        return latest
    }

    /// The first quarter-hour holding usage on any of the devices chosen.
    public func firstUsageQuarter(devices: DeviceSelection) throws(StoreError) -> Int64? {
        let chosen = try chosenDevices(devices)
        let own = chosen.own ? try firstUsageQuarter() : nil
        guard !chosen.imported.isEmpty else { return own }
        let (list, values) = Self.list(chosen.imported, from: 1)
        let imported = try locked { database throws(StoreError) in
            try database.prepare("SELECT min(first_quarter) FROM sync_blocks WHERE device IN (\(list))").rows(values).first?.int(0)
        }
        return [own, imported].compactMap { $0 }.min()
    }

    /// The latest sample of each tool's windows logged at or before `loggedBy`, over the devices chosen: the
    /// later sample wins (at the same moment, the larger used share, then the later reset), so every device
    /// picks the same one. Sorted by tool and window.
    public func latestLimits(loggedBy: Int64 = Int64.max, devices: DeviceSelection) throws(StoreError) -> [LimitSample] {
        let chosen = try chosenDevices(devices)
        var samples = chosen.own ? try latestLimits(loggedBy: loggedBy) : []
        for series in try importedSeries(chosen.imported) {
            if let latest = series.last(where: { $0.time <= loggedBy }) { samples.append(latest) }
        }
        var latest: [String: LimitSample] = [:]
        for sample in samples {
            let key = sample.tool + "\u{1F}" + sample.window
            if let held = latest[key], !Self.later(sample, than: held) { continue }
            latest[key] = sample
        }
        return latest.values.sorted {
            $0.tool != $1.tool
                ? $0.tool.utf8.lexicographicallyPrecedes($1.tool.utf8) : $0.window.utf8.lexicographicallyPrecedes($1.window.utf8)
        }
    }

    private static func later(_ a: LimitSample, than b: LimitSample) -> Bool {
        if a.time != b.time { return a.time > b.time }
        if a.usedPercent != b.usedPercent { return (a.usedPercent ?? -1) > (b.usedPercent ?? -1) }
        return (a.resetsAt ?? Int64.min) > (b.resetsAt ?? Int64.min)
    }

    /// A tool's samples of one window logged at or after `since` on the devices chosen, oldest first; the same
    /// sample from two devices is listed once.
    public func limitSamples(tool: String, window: String, since: Int64, devices: DeviceSelection) throws(StoreError)
        -> [LimitSample]
    {
        let chosen = try chosenDevices(devices)
        var samples = chosen.own ? try limitSamples(tool: tool, window: window, since: since) : []
        guard !chosen.imported.isEmpty else { return samples }
        for series in try importedSeries(chosen.imported) where series.first?.tool == tool && series.first?.window == window {
            samples += series.filter { $0.time >= since }
        }
        var seen: [LimitSample] = []
        for sample in samples.sorted(by: { ($0.time, $0.resetsAt ?? Int64.min) < ($1.time, $1.resetsAt ?? Int64.min) })
        where seen.last != sample {
            seen.append(sample)
        }
        return seen
    }

    /// When each device chosen was last measured (this device first).
    public func measurements(devices: DeviceSelection) throws(StoreError) -> [DeviceMeasurement] {
        let chosen = try chosenDevices(devices)
        var result = chosen.own ? [DeviceMeasurement(device: try deviceID(), measuredAt: try measuredAt())] : []
        let imported = try importedDevices()
        for id in chosen.imported {
            result.append(DeviceMeasurement(device: id, measuredAt: imported.first { $0.device == id }?.measuredAt))
        }
        return result
    }

    /// Whether the selection holds this device, and which imported devices it holds.
    private func chosenDevices(_ selection: DeviceSelection) throws(StoreError) -> (own: Bool, imported: [String]) {
        let imported = try locked { database throws(StoreError) in
            try database.prepare("SELECT device FROM sync_devices ORDER BY device").rows().compactMap { $0.text(0) }
        }
        switch selection {
        case .all: return (true, imported)
        case .this: return (true, [])
        case .device(let id):
            if imported.contains(id) { return (false, [id]) }
            return (try deviceID() == id, [])
        }
    }

    /// The days of each device (in device order, each in day order) that may hold quarters of
    /// `[fromQuarter, toQuarter)`, unpacked.
    private func importedDays(_ devices: [String], fromQuarter: Int64, toQuarter: Int64) throws(StoreError)
        -> [[(buckets: [BucketRow], activity: [ActivityQuarter])]]
    {
        guard fromQuarter < toQuarter else { return [] }
        let perDay = LocalCalendar.quartersPerDay
        let (firstDay, lastDay) = (CivilDate.floorDivide(fromQuarter, perDay), CivilDate.floorDivide(toQuarter - 1, perDay))
        let blocks = try importedBlocks(devices, fromBlock: DayBlocks.block(ofDay: firstDay), toBlock: DayBlocks.block(ofDay: lastDay))
        var result: [[(buckets: [BucketRow], activity: [ActivityQuarter])]] = []
        for device in blocks {
            var days: [(buckets: [BucketRow], activity: [ActivityQuarter])] = []
            for stored in device {
                for entry in stored.entries where entry.day >= firstDay && entry.day <= lastDay { days.append(try stored.unpack(entry)) }
            }
            result.append(days)
        }
        return result
    }

    /// One stored block of an imported device's days: its index, and its chunk to unpack a day of.
    private struct StoredBlock {
        let entries: [DayBlocks.Entry]
        let chunk: Data

        func unpack(_ entry: DayBlocks.Entry) throws(StoreError) -> (buckets: [BucketRow], activity: [ActivityQuarter]) {
            try DevicePacking.unpackDay(chunk[chunk.startIndex + entry.bytes.lowerBound..<chunk.startIndex + entry.bytes.upperBound], day: entry.day)
        }
    }

    /// The blocks `fromBlock` through `toBlock` of each device that has any (in device order, each in block order).
    private func importedBlocks(_ devices: [String], fromBlock: Int64, toBlock: Int64) throws(StoreError) -> [[StoredBlock]] {
        guard !devices.isEmpty else { return [] }
        let (list, values) = Self.list(devices, from: 3)
        let rows = try locked { database throws(StoreError) in
            try database.prepare(
                "SELECT device, block, days, chunk FROM sync_blocks WHERE block >= ?1 AND block <= ?2 AND device IN (\(list)) ORDER BY device, block"
            ).rows([.integer(fromBlock), .integer(toBlock)] + values)
        }
        var result: [[StoredBlock]] = []
        var current: String?
        for row in rows {
            let chunk = row.blob(3) ?? Data()
            let entries = try DayBlocks.entries(index: row.blob(2) ?? Data(), block: row.int(1) ?? 0, chunkBytes: chunk.count)
            if row.text(0) != current {
                current = row.text(0)
                result.append([])
            }
            result[result.count - 1].append(StoredBlock(entries: entries, chunk: chunk))
        }
        return result
    }

    /// Every limit series of the devices, each in time order.
    private func importedSeries(_ devices: [String]) throws(StoreError) -> [[LimitSample]] {
        guard !devices.isEmpty else { return [] }
        let (list, values) = Self.list(devices, from: 1)
        let rows = try locked { database throws(StoreError) in
            try database.prepare("SELECT tool, window, series FROM sync_limits WHERE device IN (\(list)) ORDER BY device, tool, window")
                .rows(values)
        }
        var result: [[LimitSample]] = []
        for row in rows {
            result.append(try DevicePacking.unpackSeries(row.blob(2) ?? Data(), tool: row.text(0) ?? "", window: row.text(1) ?? ""))
        }
        return result
    }

    /// `?3, ?4, …` for `devices`, numbered from `first`, and their values.
    private static func list(_ devices: [String], from first: Int) -> (String, [SQLValue]) {
        (devices.indices.map { "?\($0 + first)" }.joined(separator: ", "), devices.map { .text($0) })
    }
}
