import Foundation
import UnpromptTestSupport
import XCTest

@testable import UnpromptKit

/// Uses (episodes): runs of activity with gaps of at most two hours, kept in the store as per-quarter
/// activity, the same whatever order sources are read in.
final class EpisodesTests: XCTestCase {
    let hour: Int64 = 3_600_000
    let minute: Int64 = 60_000

    /// The definition, written out independently: sort every time, a new episode at each gap over 2 h.
    func referenceStarts(_ times: [Int64]) -> [Int64] {
        var starts: [Int64] = []
        var previous: Int64?
        for time in times.sorted() {
            if previous == nil || time - previous! > 2 * hour { starts.append(time) }
            previous = time
        }
        return starts
    }

    func starts(_ times: [Int64]) -> [Int64] {
        Episodes.starts(Episodes.activity(of: times), lastBefore: nil).map(\.first)
    }

    func testAGapOfExactlyTwoHoursContinuesAndOneMillisecondMoreStartsANewUse() {
        let t0: Int64 = 1_767_225_600_000  // 2026-01-01T00:00Z
        XCTAssertEqual(starts([t0, t0 + 2 * hour]), [t0])
        XCTAssertEqual(starts([t0, t0 + 2 * hour + 1]), [t0, t0 + 2 * hour + 1])
        // Consecutive gaps count, not the distance from the start: 6 hours of steady use is one episode.
        XCTAssertEqual(starts(Array(stride(from: t0, through: t0 + 6 * hour, by: Int64.Stride(90 * minute)))), [t0])
        XCTAssertEqual(starts([]), [])
    }

    func testActivityBeforeTheRangeDecidesWhetherItsFirstQuarterContinuesAUse() {
        let t0: Int64 = 1_767_225_600_000
        let activity = Episodes.activity(of: [t0 + 3 * hour, t0 + 4 * hour])
        XCTAssertEqual(Episodes.starts(activity, lastBefore: t0 + hour - 1).map(\.first), [t0 + 3 * hour], "2 h and 1 ms: new")
        XCTAssertEqual(Episodes.starts(activity, lastBefore: t0 + hour).count, 0, "exactly 2 h: continued")
        XCTAssertEqual(Episodes.starts(activity, lastBefore: nil).map(\.first), [t0 + 3 * hour])
    }

    func testActivityKeepsTheFirstAndLastTimeOfEachQuarter() {
        let q: Int64 = 1000
        let base = q * Bucket.quarterMilliseconds
        XCTAssertEqual(
            Episodes.activity(of: [base + 500, base + 10, base + 899_999, base + 900_000, base + 10]),
            [
                ActivityQuarter(quarter: q, first: base + 10, last: base + 899_999),
                ActivityQuarter(quarter: q + 1, first: base + 900_000, last: base + 900_000),
            ])
    }

    // MARK: in the store, in any order

    var dir = ""

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("episodes-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: dir)
    }

    func checkpoint(_ offset: Int64) throws -> Checkpoint {
        try Checkpoint(
            device: 1, inode: 2, size: offset, modifiedNanoseconds: 3, offset: offset, headLength: 0, headHash: "",
            tailHash: "t", state: SourceState())
    }

    /// Sources of events over three days, in bursts with gaps around two hours; some records are copied into
    /// other sources (as resumed sessions do), sometimes re-stamped (as forks do).
    func randomSources(_ random: inout SeededRandom) -> [[TokenEvent]] {
        let t0: Int64 = 1_767_225_600_000
        var time = t0
        var events: [TokenEvent] = []
        for id in 0..<300 {
            // Mostly minutes apart; sometimes just under, at or just over two hours; sometimes a night.
            switch random.below(10) {
            case 0: time += 2 * hour - Int64(random.below(3)) * minute
            case 1: time += 2 * hour + Int64(random.below(3))
            case 2: time += 9 * hour
            default: time += Int64(random.below(40)) * minute + Int64(random.below(60_000))
            }
            events.append(
                TokenEvent(
                    tool: random.below(2) == 0 ? "claude-code" : "codex", time: time, model: "m",
                    counts: TokenCounts(input: Int64(1 + random.below(100))), identity: Identity(high: UInt64(id), low: 1)))
        }
        var sources = [[TokenEvent]](repeating: [], count: 6)
        for event in events {
            sources[random.below(6)].append(event)
            if random.below(5) == 0 {
                let copyTime = random.below(2) == 0 ? event.time : event.time + Int64(random.below(Int(hour)))
                sources[random.below(6)].append(
                    TokenEvent(tool: event.tool, time: copyTime, model: event.model, counts: event.counts, identity: event.identity))
            }
        }
        return sources
    }

    func activityTable(_ path: String) throws -> [ActivityQuarter] {
        try UsageStore(path: path, readOnly: true).activity(fromQuarter: Int64.min, toQuarter: Int64.max)
    }

    /// Whatever order sources are committed in, and however their events are ordered, the store holds the
    /// same activity, and its episodes are exactly the reference's over every time read.
    func testEpisodesAreTheSameWhateverOrderSourcesAreReadIn() throws {
        var random = SeededRandom(seed: 0x5EED_0006)
        for round in 0..<4 {
            let sources = randomSources(&random)
            let allTimes = sources.flatMap { $0.map(\.time) }
            let expected = referenceStarts(allTimes)
            XCTAssertGreaterThan(expected.count, 10, "the corpus has many episodes")
            var tables: [[ActivityQuarter]] = []
            for order in 0..<5 {
                let path = dir + "/r\(round)-o\(order).sqlite"
                let store = try UsageStore(path: path)
                var shuffled = Array(sources.enumerated())
                shuffled.shuffle(using: &random)
                for (index, events) in shuffled {
                    _ = try store.commit(
                        sourceKey: "s\(index)", expected: nil, events: events.shuffled(using: &random), limits: [],
                        checkpoint: try checkpoint(1))
                }
                let table = try activityTable(path)
                XCTAssertEqual(Episodes.starts(table, lastBefore: nil).map(\.first), expected, "round \(round), order \(order)")
                tables.append(table)
            }
            XCTAssertTrue(tables.allSatisfy { $0 == tables[0] }, "round \(round): one activity table for every order")
        }
    }

    /// Reading a source again (a rescan after truncation, a duplicate file) changes no activity.
    func testReadingRecordsAgainChangesNothing() throws {
        var random = SeededRandom(seed: 7)
        let sources = randomSources(&random)
        let store = try UsageStore(path: dir + "/u.sqlite")
        for (index, events) in sources.enumerated() {
            _ = try store.commit(sourceKey: "s\(index)", expected: nil, events: events, limits: [], checkpoint: try checkpoint(1))
        }
        let before = try activityTable(dir + "/u.sqlite")
        for (index, events) in sources.enumerated().reversed() {
            let outcome = try store.commit(
                sourceKey: "again\(index)", expected: nil, events: events.reversed(), limits: [], checkpoint: try checkpoint(1))
            XCTAssertEqual(outcome.counted, 0)
        }
        XCTAssertEqual(try activityTable(dir + "/u.sqlite"), before)
    }

    func testTheLatestActivityBeforeAQuarterIsFound() throws {
        let store = try UsageStore(path: dir + "/u.sqlite")
        let q = Bucket.quarterMilliseconds
        _ = try store.commit(
            sourceKey: "a", expected: nil,
            events: [100 * q + 5, 100 * q + 7, 103 * q + 1].enumerated().map { index, time in
                TokenEvent(tool: "t", time: time, model: "m", counts: TokenCounts(input: 1), identity: Identity(high: UInt64(index), low: 0))
            }, limits: [], checkpoint: try checkpoint(1))
        XCTAssertEqual(try store.lastActivity(beforeQuarter: 103), 100 * q + 7)
        XCTAssertEqual(try store.lastActivity(beforeQuarter: 104), 103 * q + 1)
        XCTAssertNil(try store.lastActivity(beforeQuarter: 100))
    }
}
