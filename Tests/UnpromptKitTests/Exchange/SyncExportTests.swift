import Foundation
import Testing
import UnpromptTestSupport
@testable import UnpromptKit

/// The export format (`SyncExport`): what it carries comes back exactly, and every kind of damage is refused.
struct SyncExportTests {
    let id = "3f2a" + String(repeating: "0", count: 27) + "1"

    /// A history with every dimension of the bucket key: two tools, three models, a prompt above 200k, a logged
    /// cost, an estimated record, fast mode in the US with web searches beside the same model at standard
    /// speed, a batch record with 12-hour cache writes, activity across midnight, and limit samples with and without each value.
    func history() throws -> DeviceHistory {
        let device = try TestDevice()
        let m = Moments.monday
        try device.add(
            [
                Moments.event("claude-code", "claude-sonnet-4-5", at: m, input: 3, output: 120, cacheRead: 210_000, id: 1),
                Moments.event("claude-code", "claude-sonnet-4-5", at: m + 2 * Moments.minute, input: 5, output: 7, id: 2),
                Moments.event("claude-code", "claude-opus-4-5", at: m + 20 * Moments.minute, input: 9, output: 11, id: 3, cost: 0.123456789),
                TokenEvent(
                    tool: "continue", time: m + 14 * 60 * Moments.minute - 1, model: "gpt-4o", counts: TokenCounts(input: 40, output: 4),
                    identity: Identity(high: 4, low: 4), estimated: true),
                Moments.event("codex", "gpt-5", at: m + 14 * 60 * Moments.minute + 1, input: 1000, output: 10, id: 5),
                TokenEvent(
                    tool: "claude-code", time: m + 3 * Moments.minute, model: "claude-sonnet-4-5", counts: TokenCounts(input: 6, output: 8),
                    identity: Identity(high: 6, low: 6), dimensions: PriceDimensions(speed: .fast, tier: .standard, region: .us),
                    serverTools: ServerToolCounts(webSearch: 2, webFetch: 1)),
                TokenEvent(
                    tool: "codex", time: m + 14 * 60 * Moments.minute + 2, model: "gpt-5",
                    counts: TokenCounts(input: 30, cacheWrite12h: 20, output: 3),
                    identity: Identity(high: 7, low: 7), dimensions: PriceDimensions(tier: .batch)),
            ],
            limits: [
                LimitSample(tool: "codex", time: m, window: "primary", usedPercent: 12.5, windowMinutes: 300, resetsAt: m + 3_600_000),
                LimitSample(tool: "codex", time: m + 1, window: "secondary", usedPercent: 1.0 / 3, windowMinutes: nil, resetsAt: nil),
            ], measuredAt: m + 15 * 60 * Moments.minute)
        // Answers to `confirm`: one with every kind of context, one as proposed, one undone.
        let day = m / 86_400_000
        var context = try Confirmation.Context.parse(["no-work", "worked 22:00-01:30", "hours-changed Mon-Fri 09:00-12:30 13:30-18:00; Sat 10:00-14:00", "elsewhere"]).get()
        try device.store.save(
            Confirmation(
                day: day, quarters: day * 96 - 4..<day * 96 + 92, confirmedAt: m + 1, context: context, hours: context.hours!,
                numbers: Confirmation.Numbers(uses: 3, workUses: 1, tokens: 1_232, workTokens: 17)))
        context = .none
        for other in [day - 1, day - 2] {
            try device.store.save(
                Confirmation(
                    day: other, quarters: other * 96..<other * 96 + 96, confirmedAt: m + 2, context: context, hours: .none,
                    numbers: Confirmation.Numbers()))
        }
        #expect(try device.store.removeConfirmation(day: day - 2, at: m + 3))
        let history = try device.queries(now: m + 15 * 60 * Moments.minute).exportHistory()
        #expect(history.buckets.count == 7 && history.activity.count == 4 && history.limits.count == 2)
        #expect(history.confirmations.map(\.day) == [day - 2, day - 1, day] && history.confirmations[0].answer == nil)
        return history
    }

    func export(_ history: DeviceHistory, sequence: Int64 = 7) -> DeviceImport {
        DeviceImport(device: id, label: "laptop", sequence: sequence, exportedAt: Moments.monday + 1, history: history)
    }

    @Test func anExportReadsBackExactly() throws {
        let history = try history()
        let read = try SyncExport.read(file: SyncExport.file(export(history)))
        #expect(read.device == id && read.label == "laptop" && read.sequence == 7 && read.exportedAt == Moments.monday + 1)
        #expect(read.history == history)
        #expect(read.history.limits[1].usedPercent == 1.0 / 3, "a Double goes through JSON unchanged")
    }

    /// Versions 1 (before confirmations travelled) and 2 (before the price dimensions) are still read: the same
    /// history, version 1 without answers. (Their rows of 14: `aVersionOneExportIsStillRead`.)
    @Test func versionsOneAndTwoStillRead() throws {
        var history = try history()
        history.buckets = []
        let text = String(decoding: SyncExport.document(export(history), version: 3), as: UTF8.self)
        let current = "\"version\":3,"
        var v2 = Array(text.replacingOccurrences(of: current, with: "\"version\":2,").utf8)
        #expect(try SyncExport.decode(document: &v2).history == history)
        let cut = try #require(text.range(of: "\"confirmations\":"))
        let v1 = text[..<cut.upperBound].replacingOccurrences(of: current, with: "\"version\":1,") + "[]}"
        #expect(v1.contains("\"version\":1,"))
        var bytes = Array(v1.utf8)
        let read = try SyncExport.decode(document: &bytes)
        var expected = history
        expected.confirmations = []
        #expect(read.history == expected && read.sequence == 7)
    }

    /// The JSON part of a version 5 document (its days packed after it) and a version 3 document both match it.
    @Test func theDocumentMatchesItsSchema() throws {
        let written = SyncExport.document(export(try history()))
        let parts = SyncExport.split(document: written)
        #expect(parts.days.map { !$0.isEmpty } == true, "version 5 packs its days after the JSON part")
        for json in [Array(parts.json), SyncExport.document(export(try history()), version: 3)] {
            let validation = try SchemaCheck.run(schema: Repository.root + "/docs/sync.schema.json", document: Data(json))
            #expect(validation.status == 0, "\(validation.output)")
        }
        var document = Array(parts.json)
        // The checker is not lenient: a field the schema does not name fails it.
        document.removeLast()
        document += Array(",\"hostname\":\"box\"}".utf8)
        #expect(try SchemaCheck.run(schema: Repository.root + "/docs/sync.schema.json", document: Data(document)).status == 1)
    }

    @Test func theSameHistoryHasTheSameDigestAndAnyChangeAnother() throws {
        let history = try history()
        let digest = SyncExport.digest(label: "laptop", history: history)
        #expect(SyncExport.digest(label: "laptop", history: history) == digest)
        #expect(SyncExport.digest(label: "desktop", history: history) != digest)
        var later = history
        later.measuredAt = (later.measuredAt ?? 0) + 1
        #expect(SyncExport.digest(label: "laptop", history: later) != digest)
    }

    func problem(_ data: Data) -> SyncExportProblem? {
        do {
            _ = try SyncExport.read(file: data)
            return nil
        } catch {
            return error
        }
    }

    func problem(document text: String) -> SyncExportProblem? { problem(Zstd.compress(Array(text.utf8))) }

    @Test func aCutOrDamagedFileIsRefused() throws {
        let file = SyncExport.file(export(try history()))
        let cut = problem(file.prefix(file.count / 2))
        #expect(cut?.kind == .damaged && cut?.message.contains("cut short or damaged") == true, "\(String(describing: cut))")
        var flipped = file
        flipped[flipped.count / 2] ^= 0x40
        #expect(problem(flipped)?.kind == .damaged, "the frame's checksum catches a changed byte")
        #expect(problem(Data("{\"format\":\"unprompt-sync\"}".utf8))?.kind == .damaged, "not zstd")
        #expect(problem(Data())?.kind == .damaged)
    }

    /// The header names the device and the sequence in a skippable frame before the document, and must match it.
    @Test func theHeaderSaysWhatTheDocumentSays() throws {
        let file = SyncExport.file(export(try history()))
        let header = try #require(SyncExportHeader.read(prefix: Array(file.prefix(300)), fileBytes: file.count))
        #expect(header.device == id && header.sequence == 7 && header.version == SyncExport.version)
        #expect(SyncExportHeader.read(prefix: Array(file.prefix(300)), fileBytes: file.count - 1) == nil, "a cut file's header is not used")
        let text = String(decoding: file.prefix(header.frame().count), as: UTF8.self)
        let lying = Data(text.replacingOccurrences(of: "\"sequence\":7", with: "\"sequence\":8").utf8) + file.dropFirst(header.frame().count)
        #expect(problem(lying)?.message.contains("header does not match") == true)
    }

    @Test func aNewerVersionIsRefusedNamingTheDevice() throws {
        let text = String(decoding: SyncExport.document(export(try history()), version: 3), as: UTF8.self)
            .replacingOccurrences(of: "\"version\":3,", with: "\"version\":\(SyncExport.version + 1),")
        let refused = problem(document: text)
        #expect(refused?.kind == .newerVersion(SyncExport.version + 1))
        #expect(refused?.label == "laptop" && refused?.device == id)
        #expect(refused?.message.contains("newer version") == true)
    }

    @Test func aDocumentOutsideTheSchemaIsRefused() throws {
        let good = String(decoding: SyncExport.document(export(try history()), version: 3), as: UTF8.self)
        let cases: [(String, String)] = [
            (good.replacingOccurrences(of: "\"format\":\"unprompt-sync\"", with: "\"format\":\"other\""), "not an Unprompt export"),
            (good.replacingOccurrences(of: "\"limits\":[", with: "\"host\":\"box\",\"limits\":["), "unknown field 'host'"),
            (good.replacingOccurrences(of: "\"sequence\":7", with: "\"sequence\":0"), "sequence"),
            (good.replacingOccurrences(of: "\"label\":\"laptop\"", with: "\"label\":\" laptop\""), "device"),
            (good.replacingOccurrences(of: "\"windows\":[\"primary\",\"secondary\"]", with: "\"windows\":[\"primary\",\"primary\"]"), "windows"),
            (good.replacingOccurrences(of: "\"confirmations\":[", with: "\"confirmations\":[{},"), "confirmation 1"),
            (good.replacingOccurrences(of: "\"undone\":true", with: "\"undone\":true,\"note\":\"x\""), "confirmation 1 holds neither"),
            (good.replacingOccurrences(of: "\"kinds\":15", with: "\"kinds\":16"), "kinds"),
            (good.replacingOccurrences(of: "\"kinds\":15", with: "\"kinds\":13"), "worked range without"),
            (good.replacingOccurrences(of: "\"worked\":[1320,90]", with: "\"worked\":[1320,95]"), "worked range"),
            (good.replacingOccurrences(of: "[31,540,750]", with: "[128,540,750]"), "hours"),
            (good.replacingOccurrences(of: "[3,1,1232,17]", with: "[3,4,1232,17]"), "numbers"),
            (String(good.dropLast()), "not JSON"),
        ]
        for (text, expected) in cases {
            let refused = problem(document: text)
            #expect(refused?.message.contains(expected) == true, "\(expected): \(String(describing: refused))")
        }
        // Version 1 held no answers (its rows, of 14, are left out here: `aVersionOneExportIsStillRead`).
        var unbucketed = try history()
        unbucketed.buckets = []
        let v1 = String(decoding: SyncExport.document(export(unbucketed), version: 3), as: UTF8.self)
            .replacingOccurrences(of: "\"version\":3,", with: "\"version\":1,")
        #expect(problem(document: v1)?.message.contains("empty list (export version 1)") == true)
        // Rows: the first bucket row's quarter-hour made 96 (out of the day), a row made too short, rows swapped.
        let rows = try #require(good.range(of: "\"buckets\":[[")).upperBound
        let quarterEnd = try #require(good[rows...].firstIndex(of: ","))
        let outOfDay = good.replacingCharacters(in: rows..<quarterEnd, with: "96")
        #expect(problem(document: outOfDay)?.message.contains("out of its range") == true)
        let rowEnd = try #require(good[rows...].firstIndex(of: "]"))
        let lastComma = try #require(good[rows..<rowEnd].lastIndex(of: ","))
        #expect(problem(document: good.replacingCharacters(in: lastComma..<rowEnd, with: ""))?.message.contains("list of 20 numbers") == true)
        let secondRowStart = good.index(after: rowEnd)
        let secondRowEnd = try #require(good[good.index(after: secondRowStart)...].firstIndex(of: "]"))
        let first = good[good.index(before: rows)...rowEnd]
        let second = good[good.index(after: secondRowStart)...secondRowEnd]
        let swapped = good.replacingCharacters(in: good.index(before: rows)...secondRowEnd, with: second + "," + first)
        #expect(problem(document: swapped)?.message.contains("not in order") == true)
    }

    /// An export of version 1 (before the price dimensions) is still imported: its rows of 14 are read with
    /// every dimension not recorded and no server-tool calls; a row of 20 in it is refused.
    @Test func aVersionOneExportIsStillRead() throws {
        let document = """
            {"format":"unprompt-sync","version":1,"device":{"id":"\(id)","label":"laptop"},"sequence":3,"exportedAt":5,
            "measuredAt":null,"tools":["claude-code"],"models":["claude-sonnet-4-5"],"windows":[],
            "days":[{"day":20458,"buckets":[[4,0,0,0,0,10,20,30,40,50,0,2,0,0],[4,0,0,200000,1,1,0,0,0,1,0,1,7,1]],
            "activity":[[4,0,5]]}],"limits":[],"confirmations":[]}
            """
        var bytes = Array(document.utf8)
        let read = try SyncExport.decode(document: &bytes)
        let quarter = 20458 * LocalCalendar.quartersPerDay + 4
        #expect(read.history.buckets == [
            BucketRow(
                quarter: quarter, tool: "claude-code", model: "claude-sonnet-4-5",
                counts: TokenCounts(input: 10, cacheRead: 20, cacheWrite5m: 30, cacheWrite1h: 40, output: 50), events: 2),
            BucketRow(
                quarter: quarter, tool: "claude-code", model: "claude-sonnet-4-5", counts: TokenCounts(input: 1, output: 1), events: 1,
                contextAbove: 200_000, costLogged: true, loggedCostNanos: 7, estimatedEvents: 1),
        ])
        let wide = document.replacingOccurrences(of: "[4,0,0,0,0,10,20,30,40,50,0,2,0,0]", with: "[4,0,0,0,0,0,0,0,10,20,30,40,0,50,0,2,0,0,0,0]")
        #expect(problem(document: wide)?.message.contains("list of 14 numbers") == true)
        // A row whose tier is not a tier is refused.
        let history = try history()
        let good = String(decoding: SyncExport.document(export(history), version: 3), as: UTF8.self)
        let fast = try #require(history.buckets.first { $0.dimensions.speed == .fast })
        let offset = fast.quarter - CivilDate.floorDivide(fast.quarter, LocalCalendar.quartersPerDay) * LocalCalendar.quartersPerDay
        // Its row: the quarter-hour, the tool and model indices, no context band or logged cost, then speed fast, tier standard, region us.
        let bad = try #require(good.range(of: #"\[\#(offset),\d+,\d+,0,0,2,1,2,"#, options: .regularExpression))
        let tier = good.index(bad.upperBound, offsetBy: -4)
        #expect(problem(document: good.replacingCharacters(in: tier...tier, with: "9"))?.message.contains("out of its range") == true)
    }

    @Test func theSyncEnginesFilesAreRecognized() {
        let id = self.id
        let cases: [(String, SyncFolder.Kind?)] = [
            ("unprompt-\(id).export", .export),
            ("unprompt-\(id).sync-conflict-20260105-120000-ABCDEFG.export", .copy),
            ("unprompt-\(id) (laptop's conflicted copy 2026-01-05).export", .copy),
            ("unprompt-\(id) 2.export", .copy),
            (".syncthing.unprompt-\(id).export.tmp", .partial),
            (".unprompt-\(id).export.icloud", .partial),
            (".unprompt-\(id).export.4242.tmp", .partial),
            ("unprompt-\(id).export.part", .partial),
            ("unprompt-\(id).export~", .partial),
            ("unprompt-share-0011223344556677.txt", nil),
            ("notes.txt", nil),
            ("unprompt-3f2a.export", nil),
        ]
        for (name, kind) in cases {
            #expect(SyncFolder.classify(name)?.kind == kind, "\(name)")
        }
        #expect(SyncFolder.classify("unprompt-\(id) 2.export")?.device == id)
    }
}

/// Runs `scripts/check-json-schema.py`.
enum SchemaCheck {
    static func run(schema: String, document: Data) throws -> (status: Int32, output: String) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("doc-\(UUID().uuidString).json").path
        try document.write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Repository.root + "/scripts/check-json-schema.py", schema, file]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
