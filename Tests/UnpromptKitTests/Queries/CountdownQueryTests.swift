import Foundation
import Testing
import UnpromptKit

/// Countdowns to the resets (`LimitsReport.countdowns`, `closeToReset`) and today read at later moments
/// (`LiveToday`), on the corpus (`QueryCorpus`): at 11:30, Claude's derived window ends at 13:00 (the reset its
/// limit-reached record logged), Codex's primary resets at 12:30 and its secondary on 03-14 at 00:00.
struct CountdownQueryTests {
    let corpus: QueryCorpus

    init() throws { corpus = try QueryCorpus() }

    static let hour: Int64 = 3_600_000
    /// 2026-03-10 at `hours` UTC (may be past 24).
    func at(_ hours: Int64, _ minutes: Int64 = 0) -> Int64 { QueryCorpus.today * 86_400_000 + hours * Self.hour + minutes * QueryCorpus.minute }

    func names(_ countdowns: [LimitCountdown]) -> [String] {
        countdowns.map { countdown in
            switch countdown.window {
            case .derived(let window): "\(countdown.tool) derived \(window.minutes)"
            case .reading(let reading): "\(countdown.tool) \(reading.status.sample.window)"
            }
        }
    }

    @Test func everyWindowCountsDownAndOnlyThoseWithinADayAreCloseToAReset() throws {
        let limits = try corpus.queries().limits()
        let now = QueryCorpus.now
        let countdowns = limits.countdowns(at: now)
        // The limit-reached record is the derived window's end, so it is not counted down twice.
        #expect(names(countdowns) == ["claude-code derived 300", "codex five_hour", "codex weekly"])
        #expect(countdowns.map { $0.resetsIn(at: now) } == [90 * QueryCorpus.minute, 60 * QueryCorpus.minute, 3 * 24 * Self.hour + 12 * Self.hour + 30 * QueryCorpus.minute])
        #expect(names(limits.closeToReset(at: now)) == ["claude-code derived 300", "codex five_hour"])
        // A second later, every countdown is a second shorter: the same report, read at another moment.
        #expect(zip(limits.countdowns(at: now + 1000), countdowns).allSatisfy { $0.resetsIn(at: now + 1000) == $1.resetsIn(at: now) - 1000 })
        // Past 12:30 the primary's reset has passed; past 13:00 the derived window has ended.
        #expect(names(limits.countdowns(at: at(12, 31))) == ["claude-code derived 300", "codex weekly"])
        #expect(names(limits.countdowns(at: at(13))) == ["codex weekly"])
        #expect(limits.nextChange(after: now) == at(12, 30))
        #expect(limits.nextChange(after: at(12, 30)) == at(13))
    }

    @Test func aWeeklyWindowIsCloseToItsResetOnItsLastDay() throws {
        // 2026-03-13 at 01:00: the secondary resets in 23 hours; the primary reading has long been stale.
        let later = try corpus.queries().at(at(72 + 1)).limits()
        #expect(names(later.closeToReset(at: at(73))) == ["codex weekly"])
        #expect(names(later.countdowns(at: at(73))) == ["codex weekly"])
        #expect(try corpus.queries().at(at(47)).limits().closeToReset(at: at(47)).isEmpty, "25 hours before")
    }

    @Test func todayReadAtALaterMomentIsTodayQueriedThen() throws {
        let queries = try corpus.queries()
        let live = try queries.liveToday()
        #expect(live.until == at(12, 30), "the primary's reset comes before midnight")
        #expect(live.holds(at: at(12, 29)) && !live.holds(at: at(12, 30)))
        for seconds: Int64 in [0, 1, 59, 61, 120, 179, 181, 600] {
            let moment = QueryCorpus.now + seconds * 1000
            #expect(live.today.liveEstimate(at: moment) == (try queries.at(moment).today()).estimate, "\(seconds) s")
        }
        // Nothing ahead but midnight: it holds until then.
        let evening = try queries.at(at(23)).liveToday()
        #expect(evening.until == at(24))
    }
}
