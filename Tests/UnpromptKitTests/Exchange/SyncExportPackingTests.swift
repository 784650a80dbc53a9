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

    @Test(arguments: [1, 2, 3, 16] as [UInt64])
    func readingPacksEveryDayAsPackingTheRowsDoes(seed: UInt64) throws {
        let original = export(history(seed: seed))
        let expected = DevicePacking.pack(original)
        let read = try SyncExport.readPacked(file: SyncExport.file(original))
        #expect(expected.days.count > 30 && expected.tokens > 0)
        #expect(read.days.map(\.day) == expected.days.map(\.day))
        #expect(read.days.map(\.firstQuarter) == expected.days.map(\.firstQuarter))
        #expect(read.days.map(\.lastActivity) == expected.days.map(\.lastActivity))
        for (got, want) in zip(read.days, expected.days) { #expect(got.blob == want.blob, "day \(want.day)") }
        #expect(read.tokens == expected.tokens)
        #expect(read.tokens == original.history.buckets.reduce(0) { $0 + $1.counts.total })
        // And the rows come back from the packed days exactly, in the store's order.
        let back = try SyncExport.read(file: SyncExport.file(original))
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
        #expect(rows.count > 100)
        #expect(rows == (try storedRows(serial.store)))
        #expect(report.imported.map(\.tokens) == exports.map { $0.history.buckets.reduce(0) { $0 + $1.counts.total } })
    }

    /// Every imported day and device the store holds, as text.
    func storedRows(_ store: UsageStore) throws -> [String] {
        try store.locked { database throws(StoreError) in
            let days = try database.prepare("SELECT device, day, first_quarter, last_activity, hex(chunk) FROM sync_days ORDER BY device, day")
                .rows().map { row in
                    "\(row.text(0) ?? "") \(row.int(1) ?? 0) \(row.int(2).map(String.init) ?? "-") \(row.int(3).map(String.init) ?? "-") \(row.text(4) ?? "")"
                }
            let devices = try database.prepare("SELECT device, sequence, tokens FROM sync_devices ORDER BY device").rows().map { row in
                "\(row.text(0) ?? "") \(row.int(1) ?? 0) \(row.int(2) ?? 0)"
            }
            return days + devices
        }
    }
}
