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

    @Test(arguments: [1, 2, 3, 16] as [UInt64], [3, 4, 5] as [Int64])
    func readingPacksEveryDayAsPackingTheRowsDoes(seed: UInt64, version: Int64) throws {
        let original = export(history(seed: seed))
        // Version 4's days come packed every field (packing version 2), and are kept so; version 3's rows are packed
        // as the store packs them now.
        let expected = DevicePacking.pack(original, version: SyncExport.packing(version: version))
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

    /// The same history exported as version 3 (JSON rows), 4 (days packed, every field) and 5 (days packed, the
    /// fields present) gives three stores the same views; 3 and 5 the same rows, byte for byte (4's days are kept
    /// as they came).
    @Test func versionsThreeFourAndFiveOfOneHistoryGiveTheSameViews() throws {
        var history = history(seed: 7, days: 60)
        history.limits = [
            LimitSample(tool: "codex", time: 1_767_600_000_000, window: "primary", usedPercent: 12.5, windowMinutes: 300, resetsAt: nil),
            LimitSample(tool: "codex", time: 1_767_600_060_000, window: "primary", usedPercent: nil, windowMinutes: nil, resetsAt: 9),
        ]
        let original = export(history)
        var stores: [TestDevice] = []
        for version in [3, 4, 5] as [Int64] {
            let folder = try TemporaryFolder()
            try file(original, version: version).write(to: URL(fileURLWithPath: folder.path + "/" + SyncFolder.fileName(device: id)))
            let device = try TestDevice()
            let report = try device.sync(folder.path, now: Moments.monday, label: "here")
            #expect(report.imported.count == 1 && report.refused.isEmpty, "version \(version): \(report.refused)")
            stores.append(device)
        }
        let (three, four, five) = (stores[0], stores[1], stores[2])
        let rows = try storedRows(three.store)
        #expect(rows.count == 3 + 1, "the 60 days in three blocks of 32, and the device's row")
        #expect(try storedRows(five.store) == rows)
        #expect(try storedRows(four.store) != rows, "version 4's days packed every field")
        for selection in [DeviceSelection.all, .device(id)] {
            let views = try [three, four, five].map { device throws -> [String] in
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
            #expect(views[0] == views[1] && views[0] == views[2])
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

/// A version 4 or 5 export's packed days come from another device: each is checked whole before anything is used.
/// The days here are packed by hand (variable-length integers, zigzag for signed values), not by the packer: export
/// version 4 packs every field of a row (packing version 2), version 5 the fields present (packing version 3).
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

    /// Packing version 3's order of the fields (their indices in a row's 17 fields: context band, logged cost,
    /// speed, tier, region, the seven counts, events, logged cost in nano-USD, estimated events, web searches and
    /// fetches), and those written signed: the context band and the logged cost.
    static let presentOrder = [12, 5, 6, 10, 0, 7, 8, 11, 1, 13, 9, 14, 15, 16, 2, 3, 4]
    static let signedFields: Set = [0, 13]

    /// A row: quarter-hour, the day's name numbers of its tool and model, then its 17 fields: each signed
    /// (packing 2), or which are not 0 and those (packing 3; `present` says otherwise when given).
    func row(_ quarter: UInt64, _ tool: UInt64, _ model: UInt64, _ fields: [Int64], packing: UInt64, present: UInt64? = nil) -> [UInt8] {
        let key = varint(quarter) + varint(tool) + varint(model)
        guard packing == 3 else { return key + fields.flatMap(zigzag) }
        var bits: UInt64 = 0
        for (bit, field) in Self.presentOrder.enumerated() where fields[field] != 0 { bits |= 1 << UInt64(bit) }
        let bitsGiven = present ?? bits
        let values = Self.presentOrder.enumerated().filter { bitsGiven & 1 << UInt64($0.offset) != 0 }.flatMap { _, field in
            Self.signedFields.contains(field) ? zigzag(fields[field]) : varint(UInt64(bitPattern: fields[field]))
        }
        return key + varint(bitsGiven) + values
    }

    /// Two buckets of 04:00 (codex, gpt-5) and the activity of that quarter-hour.
    static let first: [Int64] = [0, 0, 0, 0, 0, 10, 20, 30, 40, 0, 50, 0, 2, 0, 0, 0, 0]
    static let second: [Int64] = [200_000, 1, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 7, 1, 0, 0]

    /// The packing version of export `version`'s days.
    static func packing(_ version: Int64) -> UInt64 { version == 4 ? 2 : 3 }

    func day(
        packing: UInt64, version: UInt64? = nil, names: [String] = ["codex", "gpt-5"], rows: [[UInt8]]? = nil,
        activity: [(UInt64, Int64, Int64)] = [(16, 0, 5)], rowCount: UInt64? = nil
    ) -> [UInt8] {
        let rows = rows ?? [row(16, 0, 1, Self.first, packing: packing), row(16, 0, 1, Self.second, packing: packing)]
        var bytes = varint(version ?? packing) + varint(UInt64(names.count))
        for name in names { bytes += varint(UInt64(name.utf8.count)) + Array(name.utf8) }
        bytes += varint(rowCount ?? UInt64(rows.count)) + rows.flatMap { $0 }
        bytes += varint(UInt64(activity.count))
        for (quarter, first, last) in activity { bytes += varint(quarter) + zigzag(first) + zigzag(last) }
        return bytes
    }

    /// A file of export `version` of `days` (each a day's number and its bytes), or with `lengths` said instead of
    /// theirs and `after` appended to the frame.
    func file(_ days: [(Int64, [UInt8])], lengths: [Int]? = nil, after: [UInt8] = [], version: Int64, sequence: Int64 = 3) -> Data {
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

    @Test(arguments: [4, 5] as [Int64])
    func aDayPackedByHandReads(version: Int64) throws {
        let packing = Self.packing(version)
        let read = try SyncExport.read(file: file([(Self.day, day(packing: packing))], version: version))
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
        let packed = try SyncExport.readPacked(file: file([(Self.day, day(packing: packing))], version: version))
        #expect(packed.tokens == 152 && packed.days.first?.firstQuarter == quarter && packed.days.first?.lastActivity == start + 5)
    }

    /// Version 3's rows are shorter: these two take 42 bytes packed as version 2 writes them (a byte at least for each
    /// of the 17 fields), 24 so (the first row's presence in one byte, the second's in two).
    @Test func packingThreeWritesTheFieldsPresentAlone() {
        let two = [row(16, 0, 1, Self.first, packing: 2), row(16, 0, 1, Self.second, packing: 2)].map(\.count)
        let three = [row(16, 0, 1, Self.first, packing: 3), row(16, 0, 1, Self.second, packing: 3)].map(\.count)
        #expect(two == [20, 22] && three == [10, 14])
        // And the packer writes exactly the bytes packed by hand above.
        var values = Self.first
        var writer = DevicePacking.Writer()
        values.withUnsafeBufferPointer { PackedRow.write($0, into: &writer) }
        #expect(writer.bytes == Array(row(16, 0, 1, Self.first, packing: 3).dropFirst(3)))
        values = Self.second
        writer = DevicePacking.Writer()
        values.withUnsafeBufferPointer { PackedRow.write($0, into: &writer) }
        #expect(writer.bytes == Array(row(16, 0, 1, Self.second, packing: 3).dropFirst(3)))
    }

    /// Each damage is refused as damaged, naming the device's label, and says what it found.
    @Test(arguments: [4, 5] as [Int64])
    func everyDamageToAPackedDayIsRefused(version: Int64) throws {
        let packing = Self.packing(version)
        func row(_ quarter: UInt64, _ tool: UInt64, _ model: UInt64, _ fields: [Int64]) -> [UInt8] {
            self.row(quarter, tool, model, fields, packing: packing)
        }
        func day(
            version: UInt64? = nil, names: [String] = ["codex", "gpt-5"], rows: [[UInt8]]? = nil,
            activity: [(UInt64, Int64, Int64)] = [(16, 0, 5)], rowCount: UInt64? = nil
        ) -> [UInt8] {
            self.day(packing: packing, version: version, names: names, rows: rows, activity: activity, rowCount: rowCount)
        }
        func file(_ days: [(Int64, [UInt8])], lengths: [Int]? = nil, after: [UInt8] = [], version fileVersion: Int64? = nil) -> Data {
            self.file(days, lengths: lengths, after: after, version: fileVersion ?? version)
        }
        let good = day()
        var tenthByte = Self.first
        tenthByte[5] = 1
        var overlong = row(16, 0, 1, tenthByte)
        // input as ten bytes whose last holds more than the 64th bit (packing 2: the sixth field; 3: after events).
        let inputAt = packing == 2 ? 3 + 5 : 3 + 1 + 1
        overlong.replaceSubrange(inputAt...inputAt, with: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02])
        func with(_ index: Int, _ value: Int64, in fields: [Int64] = Self.first) -> [Int64] {
            var fields = fields
            fields[index] = value
            return fields
        }
        // Without its header a packed document is not read as one.
        let whole = file([(Self.day, good)])
        var cases: [(Data, String)] = [
            (file([(Self.day, day(version: 1))]), "the packing version"),
            (file([(Self.day, day(version: packing == 2 ? 3 : 2))]), "the packing version"),
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
        if packing == 3 {
            // A field said present and written 0, a field that does not exist, a count above Int64.max.
            var present = self.row(16, 0, 1, Self.first, packing: 3, present: 0b11111 | 1 << 7)
            present.insert(0, at: present.count - 1)
            cases += [
                (file([(Self.day, day(rows: [present]))]), "values"),
                (file([(Self.day, day(rows: [self.row(16, 0, 1, Self.first, packing: 3), self.row(16, 0, 1, Self.second, packing: 3, present: 1 << 17)]))]), "bucket 2"),
                (file([(Self.day, day(rows: [row(16, 0, 1, with(5, Int64.min))]))]), "values"),
            ]
        }
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

    /// A damaged packed file from a device already imported is refused at a sync, naming its label, and its
    /// previous import stays whole; a file of the next export version is refused as newer.
    @Test func aDamagedPackedExportLeavesThePreviousImport() throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/" + SyncFolder.fileName(device: id)
        let version = SyncExport.version
        try file([(Self.day, day(packing: 3))], version: version).write(to: URL(fileURLWithPath: path))
        let device = try TestDevice()
        #expect(try device.sync(folder.path, now: Moments.monday, label: "here").imported.map(\.tokens) == [152])
        let before = try device.store.importedDevices()
        let swapped = file(
            [(Self.day, day(packing: 3, rows: [row(16, 0, 1, Self.second, packing: 3), row(16, 0, 1, Self.first, packing: 3)]))],
            version: version, sequence: 4)
        let newer = file([(Self.day, day(packing: 3))], version: version + 1, sequence: 5)
        for (data, kind) in [(swapped, SyncExportProblem.Kind.damaged), (newer, .newerVersion(version + 1))] {
            try data.write(to: URL(fileURLWithPath: path))
            let report = try device.sync(folder.path, now: Moments.monday, label: "here")
            #expect(report.refused.map(\.problem.kind) == [kind] && report.refused.first?.label == "desk", "\(report.refused)")
            #expect(try report.imported.isEmpty && device.store.importedDevices() == before)
        }
    }
}
