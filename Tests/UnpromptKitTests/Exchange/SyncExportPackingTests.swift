import Foundation
import Testing
import UnpromptTestSupport
@testable import UnpromptKit

/// An export's reader packs each day straight from the document (`SyncExport.readPacked`), and a sync reads
/// its files in parallel: both must give the store exactly the rows that packing the history's `BucketRow`s
/// gives (`DevicePacking.pack`), byte for byte.
struct SyncExportPackingTests {
    let id = "5e1f" + String(repeating: "0", count: 27) + "2"

    /// A seeded history over `days` days: random keys of every dimension, a tool and a model of the same name
    /// (`gpt-5`), days with buckets and no activity, and the reverse, negative logged costs, large counts.
    func history(seed: UInt64, days: Int64 = 40) -> DeviceHistory {
        var random = SeededRandom(seed: seed)
        let tools = ["claude-code", "codex", "gpt-5"]
        let models = ["gpt-5", "claude-opus-4-5", "m", "ünïcode-model"]
        let firstDay: Int64 = 20_400
        var keys: Set<BucketKey> = []
        var buckets: [BucketRow] = []
        var activity: [ActivityQuarter] = []
        for day in firstDay..<firstDay + days {
            let shape = Int.random(in: 0..<4, using: &random)
            if shape != 1 {
                for _ in 0..<Int.random(in: 1...30, using: &random) {
                    let key = BucketKey(
                        quarter: day * LocalCalendar.quartersPerDay + Int64.random(in: 0..<96, using: &random),
                        tool: tools.randomElement(using: &random)!, model: models.randomElement(using: &random)!,
                        contextAbove: [ContextBand.unknown, 0, 200_000].randomElement(using: &random)!,
                        costLogged: Bool.random(using: &random),
                        dimensions: PriceDimensions(
                            speed: [nil, .standard, .fast].randomElement(using: &random)!,
                            tier: [nil, .standard, .batch, .flex].randomElement(using: &random)!,
                            region: [nil, .global, .us].randomElement(using: &random)!))
                    guard keys.insert(key).inserted else { continue }
                    let events = Int64.random(in: 1...5000, using: &random)
                    buckets.append(
                        BucketRow(
                            quarter: key.quarter, tool: key.tool, model: key.model,
                            counts: TokenCounts(
                                input: Int64.random(in: 0...1 << 40, using: &random), cacheRead: Int64.random(in: 0...9, using: &random),
                                cacheWrite5m: Int64.random(in: 0...300, using: &random), cacheWrite1h: 7, cacheWrite12h: 0,
                                output: Int64.random(in: 0...1 << 20, using: &random), reasoning: 3),
                            events: events, contextAbove: key.contextAbove, costLogged: key.costLogged, loggedCostNanos: Int64.random(in: -1000...1 << 50, using: &random),
                            estimatedEvents: Int64.random(in: 0...events, using: &random), dimensions: key.dimensions,
                            serverTools: ServerToolCounts(webSearch: Int64.random(in: 0...3, using: &random), webFetch: 1)))
                }
            }
            if shape != 2 {
                var quarter = day * LocalCalendar.quartersPerDay
                for _ in 0..<Int.random(in: 1...8, using: &random) {
                    quarter += Int64.random(in: 1...10, using: &random)
                    guard quarter < (day + 1) * LocalCalendar.quartersPerDay else { break }
                    let start = quarter * Bucket.quarterMilliseconds
                    let first = Int64.random(in: 0..<Bucket.quarterMilliseconds, using: &random)
                    activity.append(
                        ActivityQuarter(
                            quarter: quarter, first: start + first,
                            last: start + Int64.random(in: first..<Bucket.quarterMilliseconds, using: &random)))
                }
            }
        }
        return DeviceHistory(buckets: buckets.shuffled(using: &random), activity: activity, measuredAt: 1_767_607_200_000)
    }

    func export(_ history: DeviceHistory, device: String? = nil, sequence: Int64 = 3) -> DeviceImport {
        DeviceImport(device: device ?? id, label: "desk", sequence: sequence, exportedAt: 1_767_607_200_001, history: history)
    }

    /// The file of `original` as export `version` writes it: the current one, or version 3's JSON rows (with
    /// its header).
    func file(_ original: DeviceImport, version: Int64) -> Data {
        guard version < SyncExport.version else { return SyncExport.file(original) }
        let frame = Zstd.compress(SyncExport.document(original, version: version))
        let header = SyncExportHeader(version: version, device: original.device, sequence: original.sequence, frameBytes: frame.count)
        return Data(header.frame()) + frame
    }

    @Test(arguments: [1, 2, 3, 16] as [UInt64], [3, 4] as [Int64])
    func readingPacksEveryDayAsPackingTheRowsDoes(seed: UInt64, version: Int64) throws {
        let original = export(history(seed: seed))
        let expected = DevicePacking.pack(original)
        let read = try SyncExport.readPacked(file: file(original, version: version))
        #expect(expected.days.count > 30 && expected.tokens > 0)
        #expect(read.days.map(\.day) == expected.days.map(\.day))
        #expect(read.days.map(\.firstQuarter) == expected.days.map(\.firstQuarter))
        #expect(read.days.map(\.lastActivity) == expected.days.map(\.lastActivity))
        for (got, want) in zip(read.days, expected.days) { #expect(read.blob(got) == expected.blob(want), "day \(want.day)") }
        #expect(read.tokens == expected.tokens)
        #expect(read.tokens == original.history.buckets.reduce(0) { $0 + $1.counts.total })
        // And the rows come back from the packed days exactly, in the store's order.
        let back = try SyncExport.read(file: file(original, version: version))
        #expect(back.history.buckets == original.history.buckets.sorted(by: DeviceMerge.precedes))
        #expect(back.history.activity == original.history.activity)
    }

    /// Ten devices read in parallel by one sync (each worker reusing its parser from one file to the next, across
    /// a file it refuses) give the store the rows that importing each one alone does.
    @Test func aParallelSyncStoresWhatImportingEachExportAloneStores() throws {
        let folder = try TemporaryFolder()
        let exports = (0..<10).map { index in
            export(history(seed: 100 + UInt64(index), days: 12), device: String(format: "%032x", 0xabc0 + index), sequence: 2 + Int64(index))
        }
        for one in exports {
            try Data(SyncExport.file(one)).write(to: URL(fileURLWithPath: folder.path + "/" + SyncFolder.fileName(device: one.device)))
        }
        for damaged in ["{\"format\":\"unprompt-sync\",\"days\":[[1,2", "not json"].enumerated() {
            try Zstd.compress(Array(damaged.element.utf8)).write(
                to: URL(fileURLWithPath: folder.path + "/unprompt-" + String(format: "%032x", 0xabc4 + damaged.offset) + " 2.export"))
        }
        let parallel = try TestDevice()
        let report = try parallel.sync(folder.path, now: Moments.monday, label: "here")
        #expect(report.imported.count == 10 && report.refused.count == 2)
        let serial = try TestDevice()
        for one in exports { try serial.store.replaceImport(one, importedAt: Moments.monday) }
        let rows = try storedRows(parallel.store)
        #expect(rows.count >= 20, "each device's block or two of its 12 days, and its row")
        #expect(rows == (try storedRows(serial.store)))
        #expect(report.imported.map(\.tokens) == exports.map { $0.history.buckets.reduce(0) { $0 + $1.counts.total } })
    }

    /// The same history exported as version 3 (JSON rows) and as version 4 (days packed) gives two stores the
    /// same rows, byte for byte, and the same views.
    @Test func versionThreeAndFourOfOneHistoryGiveTheSameStoreAndViews() throws {
        var history = history(seed: 7, days: 60)
        history.limits = [
            LimitSample(tool: "codex", time: 1_767_600_000_000, window: "primary", usedPercent: 12.5, windowMinutes: 300, resetsAt: nil),
            LimitSample(tool: "codex", time: 1_767_600_060_000, window: "primary", usedPercent: nil, windowMinutes: nil, resetsAt: 9),
        ]
        let original = export(history)
        var stores: [TestDevice] = []
        for version in [3, 4] as [Int64] {
            let folder = try TemporaryFolder()
            try file(original, version: version).write(to: URL(fileURLWithPath: folder.path + "/" + SyncFolder.fileName(device: id)))
            let device = try TestDevice()
            let report = try device.sync(folder.path, now: Moments.monday, label: "here")
            #expect(report.imported.count == 1 && report.refused.isEmpty, "version \(version): \(report.refused)")
            stores.append(device)
        }
        let (three, four) = (stores[0], stores[1])
        let rows = try storedRows(three.store)
        #expect(rows.count == 3 + 1, "the 60 days in three blocks of 32, and the device's row")
        #expect(try storedRows(four.store) == rows)
        for selection in [DeviceSelection.all, .device(id)] {
            let views = try [three, four].map { device throws -> [String] in
                let store = device.store
                let queries = device.queries(now: Moments.monday, devices: selection)
                return [
                    "\(try store.buckets(fromQuarter: Int64.min, toQuarter: Int64.max, devices: selection))",
                    "\(try store.activity(fromQuarter: Int64.min, toQuarter: Int64.max, devices: selection))",
                    "\(try store.firstUsageQuarter(devices: selection) as Any)",
                    "\(try store.lastActivity(beforeQuarter: 20_430 * 96, devices: selection) as Any)",
                    "\(try store.latestLimits(devices: selection))",
                    "\(try queries.days(from: 20_400, through: 20_460))",
                    "\(try queries.month(2025 * 12 + 10))",
                ]
            }
            #expect(views[0] == views[1])
            #expect(views[0][0].count > 1000, "the views hold the imported rows")
        }
    }

    /// Every imported day and device the store holds, as text.
    func storedRows(_ store: UsageStore) throws -> [String] {
        try store.locked { database throws(StoreError) in
            let days = try database.prepare(
                "SELECT device, block, first_quarter, last_activity, hex(days), hex(chunk) FROM sync_blocks ORDER BY device, block"
            ).rows().map { row in
                "\(row.text(0) ?? "") \(row.int(1) ?? 0) \(row.int(2).map(String.init) ?? "-") \(row.int(3).map(String.init) ?? "-") \(row.text(4) ?? "") \(row.text(5) ?? "")"
            }
            let devices = try database.prepare("SELECT device, sequence, tokens FROM sync_devices ORDER BY device").rows().map { row in
                "\(row.text(0) ?? "") \(row.int(1) ?? 0) \(row.int(2) ?? 0)"
            }
            return days + devices
        }
    }
}

/// A version 4 export's packed days come from another device: each is checked whole before anything is used.
/// The days here are packed by hand (variable-length integers, zigzag for signed values), not by the packer.
struct PackedDayCheckTests {
    let id = "7a1f" + String(repeating: "0", count: 27) + "4"
    static let day: Int64 = 20_458

    func varint(_ value: UInt64) -> [UInt8] {
        var value = value
        var bytes: [UInt8] = []
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        return bytes + [UInt8(value)]
    }

    func zigzag(_ value: Int64) -> [UInt8] { varint(UInt64(bitPattern: (value << 1) ^ (value >> 63))) }

    /// A row: quarter-hour, the day's name numbers of its tool and model, then its 17 fields.
    func row(_ quarter: UInt64, _ tool: UInt64, _ model: UInt64, _ fields: [Int64]) -> [UInt8] {
        varint(quarter) + varint(tool) + varint(model) + fields.flatMap(zigzag)
    }

    /// Two buckets of 04:00 (codex, gpt-5) and the activity of that quarter-hour.
    static let first: [Int64] = [0, 0, 0, 0, 0, 10, 20, 30, 40, 0, 50, 0, 2, 0, 0, 0, 0]
    static let second: [Int64] = [200_000, 1, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 7, 1, 0, 0]

    func day(
        version: UInt64 = 2, names: [String] = ["codex", "gpt-5"], rows: [[UInt8]]? = nil, activity: [(UInt64, Int64, Int64)] = [(16, 0, 5)],
        rowCount: UInt64? = nil
    ) -> [UInt8] {
        let rows = rows ?? [row(16, 0, 1, Self.first), row(16, 0, 1, Self.second)]
        var bytes = varint(version) + varint(UInt64(names.count))
        for name in names { bytes += varint(UInt64(name.utf8.count)) + Array(name.utf8) }
        bytes += varint(rowCount ?? UInt64(rows.count)) + rows.flatMap { $0 }
        bytes += varint(UInt64(activity.count))
        for (quarter, first, last) in activity { bytes += varint(quarter) + zigzag(first) + zigzag(last) }
        return bytes
    }

    /// A version 4 file of `days` (each a day's number and its bytes), or with `lengths` said instead of theirs and
    /// `after` appended to the frame.
    func file(_ days: [(Int64, [UInt8])], lengths: [Int]? = nil, after: [UInt8] = [], version: Int64 = 4, sequence: Int64 = 3) -> Data {
        let lengths = lengths ?? days.map(\.1.count)
        let list = zip(days, lengths).map { "[\($0.0),\($1)]" }.joined(separator: ",")
        let json = """
            {"format":"unprompt-sync","version":\(version),"device":{"id":"\(id)","label":"desk"},"sequence":\(sequence),"exportedAt":5,\
            "measuredAt":null,"tools":["codex"],"models":["gpt-5"],"windows":[],"days":[\(list)],"limits":[],"confirmations":[]}
            """
        let frame = Zstd.compress(Array(json.utf8) + [0x0A] + days.flatMap(\.1) + after)
        return Data(SyncExportHeader(version: version, device: id, sequence: sequence, frameBytes: frame.count).frame()) + frame
    }

    func refusal(_ data: Data) -> SyncExportProblem? {
        do {
            _ = try SyncExport.readPacked(file: data)
            return nil
        } catch {
            return error
        }
    }

    @Test func aDayPackedByHandReads() throws {
        let read = try SyncExport.read(file: file([(Self.day, day())]))
        let quarter = Self.day * LocalCalendar.quartersPerDay + 16
        #expect(read.history.buckets == [
            BucketRow(
                quarter: quarter, tool: "codex", model: "gpt-5",
                counts: TokenCounts(input: 10, cacheRead: 20, cacheWrite5m: 30, cacheWrite1h: 40, output: 50), events: 2),
            BucketRow(
                quarter: quarter, tool: "codex", model: "gpt-5", counts: TokenCounts(input: 1, output: 1), events: 1, contextAbove: 200_000,
                costLogged: true, loggedCostNanos: 7, estimatedEvents: 1),
        ])
        let start = quarter * Bucket.quarterMilliseconds
        #expect(read.history.activity == [ActivityQuarter(quarter: quarter, first: start, last: start + 5)])
        let packed = try SyncExport.readPacked(file: file([(Self.day, day())]))
        #expect(packed.tokens == 152 && packed.days.first?.firstQuarter == quarter && packed.days.first?.lastActivity == start + 5)
    }

    /// Each damage is refused as damaged, naming the device's label, and says what it found.
    @Test func everyDamageToAPackedDayIsRefused() throws {
        let good = day()
        var tenthByte = Self.first
        tenthByte[5] = 0
        var overlong = row(16, 0, 1, tenthByte)
        // input (the sixth field) as ten bytes whose last holds more than the 64th bit.
        let inputAt = 3 + 5
        overlong.replaceSubrange(inputAt...inputAt, with: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02])
        func with(_ index: Int, _ value: Int64, in fields: [Int64] = Self.first) -> [Int64] {
            var fields = fields
            fields[index] = value
            return fields
        }
        // Without its header a version 4 document is not read as one.
        let whole = file([(Self.day, good)])
        let cases: [(Data, String)] = [
            (file([(Self.day, day(version: 1))]), "the packing version"),
            (file([(Self.day, day(version: 3))]), "the packing version"),
            (file([(Self.day, day(names: ["codex", "gpt-5", "hostname"]))]), "neither a tool nor a model"),
            (file([(Self.day, day(names: ["codex", "codex"]))]), "the names"),
            (file([(Self.day, day(rows: [row(96, 0, 1, Self.first)]))]), "quarter, tool or model"),
            (file([(Self.day, day(rows: [row(16, 2, 1, Self.first)]))]), "quarter, tool or model"),
            (file([(Self.day, day(rows: [row(16, 1, 1, Self.first)]))]), "quarter, tool or model"),
            (file([(Self.day, day(rows: [row(16, 0, 0, Self.first)]))]), "quarter, tool or model"),
            (file([(Self.day, day(rows: [row(16, 0, 1, Self.second), row(16, 0, 1, Self.first)]))]), "the order of the buckets"),
            (file([(Self.day, day(rows: [row(16, 0, 1, Self.first), row(16, 0, 1, with(5, 3))]))]), "the order of the buckets"),
            (file([(Self.day, day(rows: [row(17, 0, 1, Self.first), row(16, 0, 1, Self.second)]))]), "the order of the buckets"),
            (file([(Self.day, day(rows: [row(16, 0, 1, with(14, 3))]))]), "values"),
            (file([(Self.day, day(rows: [row(16, 0, 1, with(6, -1))]))]), "values"),
            (file([(Self.day, day(rows: [row(16, 0, 1, with(3, 9))]))]), "values"),
            (file([(Self.day, day(rows: [row(16, 0, 1, with(1, 2))]))]), "values"),
            (file([(Self.day, day(rows: [row(16, 0, 1, with(0, -2))]))]), "values"),
            (file([(Self.day, day(rows: [overlong]))]), "bucket 1"),
            (file([(Self.day, day(rowCount: 3))]), "bucket"),
            (file([(Self.day, day(rowCount: 1 << 40))]), "the bucket count"),
            (file([(Self.day, day(activity: [(16, 0, 900_000)]))]), "activity 1"),
            (file([(Self.day, day(activity: [(16, 6, 5)]))]), "activity 1"),
            (file([(Self.day, day(activity: [(16, -1, 5)]))]), "activity 1"),
            (file([(Self.day, day(activity: [(16, 0, 5), (16, 0, 5)]))]), "activity 2"),
            (file([(Self.day, day(activity: [(96, 0, 5)]))]), "activity 1"),
            (file([(Self.day, day(names: [], rows: [], activity: []))]), "the end"),
            (file([(Self.day, good + [0])]), "the end"),
            (file([(Self.day, Array(good.dropLast()))]), "of 2026-01-05"),
            (file([(Self.day, good)], after: [0]), "bytes after its last packed day"),
            (file([(Self.day, good)], lengths: [good.count + 1]), "length of its bytes"),
            (file([(Self.day, good)], lengths: [0]), "length of its bytes"),
            (file([(Self.day, good), (Self.day, good)]), "not in order, each once"),
            (file([(Self.day + 1, good), (Self.day, good)]), "not in order, each once"),
            (file([(10_000_000, good)]), "not a day"),
            (file([(Self.day, good)], version: 3), "not JSON"),
            (Data(whole.dropFirst(8 + Int(whole[4]) + Int(whole[5]) << 8)), "not JSON"),
        ]
        for (data, expected) in cases {
            let refused = refusal(data)
            // (A document that is not JSON names no label: a sync then names the device by its previous import.)
            #expect(refused?.kind == .damaged && refused?.label == (expected == "not JSON" ? nil : "desk"), "\(expected): \(String(describing: refused))")
            #expect(refused?.message.contains(expected) == true, "\(expected): \(String(describing: refused?.message))")
        }
        // The same day, undamaged, reads: the cases above fail for their damage alone.
        #expect(refusal(file([(Self.day, good)])) == nil)
        #expect(refusal(file([(Self.day, good), (Self.day + 1, good)])) == nil)
    }

    /// A damaged version 4 file from a device already imported is refused at a sync, naming its label, and its
    /// previous import stays whole; a version 5 file is refused as newer.
    @Test func aDamagedPackedExportLeavesThePreviousImport() throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/" + SyncFolder.fileName(device: id)
        try file([(Self.day, day())]).write(to: URL(fileURLWithPath: path))
        let device = try TestDevice()
        #expect(try device.sync(folder.path, now: Moments.monday, label: "here").imported.map(\.tokens) == [152])
        let before = try device.store.importedDevices()
        let swapped = file([(Self.day, day(rows: [row(16, 0, 1, Self.second), row(16, 0, 1, Self.first)]))], sequence: 4)
        for (data, kind) in [(swapped, SyncExportProblem.Kind.damaged), (file([(Self.day, day())], version: 5, sequence: 5), .newerVersion(5))] {
            try data.write(to: URL(fileURLWithPath: path))
            let report = try device.sync(folder.path, now: Moments.monday, label: "here")
            #expect(report.refused.map(\.problem.kind) == [kind] && report.refused.first?.label == "desk", "\(report.refused)")
            #expect(try report.imported.isEmpty && device.store.importedDevices() == before)
        }
    }
}
