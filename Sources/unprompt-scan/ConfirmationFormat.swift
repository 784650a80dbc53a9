import Foundation
import UnpromptKit

/// How confirmations are written in every view: a day's proposal, its answer and context, the streak, the
/// marks of `calendar`, and their JSON. Words describe; none judges.
enum ConfirmationFormat {
    static let weekdayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

    /// `Monday 30 November`, with the year when it is not today's.
    static func dayName(_ day: Int64, today: Int64) -> String {
        let date = CivilDate.civil(ofDay: day)
        let name = "\(weekdayNames[WorkHours.weekday(ofDay: day)]) \(date.day) \(CalendarGrid.monthNames[Int(date.month) - 1])"
        return date.year == CivilDate.civil(ofDay: today).year ? name : "\(name) \(date.year)"
    }

    /// `5 uses personal, 3 at work; 1.2M tokens, $4.10 at API rates`, or `no use today` / `no use that day`.
    static func numbers(_ reading: DayReading, _ cell: ReadingCell, isToday: Bool) -> String {
        guard reading.tokens > 0 || reading.uses > 0 else { return isToday ? "no use today" : "no use that day" }
        let personal = reading.personalUses
        var text = "\(personal) use\(personal == 1 ? "" : "s") personal, \(reading.workUses) at work; "
        text += "\(LocalFormat.compact(reading.tokens)) tokens"
        let cost = cell.cost
        if cost.hasCost {
            text += ", \(ReadingsFormat.text(cost).replacingOccurrences(of: " + unpriced", with: "")) at API rates"
            if cost.uncostedEvents > 0 { text += " (some unpriced)" }
        } else if cost.uncostedEvents > 0 {
            text += ", unpriced"
        }
        return text
    }

    /// The question `confirm` asks.
    static func question(_ proposal: DayProposal, today: Int64) -> String {
        let numbers = numbers(proposal.reading, proposal.readings, isToday: proposal.isToday)
        return dayName(proposal.day, today: today) + ": " + numbers + (proposal.isEmpty ? ": is that right?" : ". Is that right?")
    }

    /// `no-work, worked 20:00-23:00, hours-changed Mon-Fri 10:00-19:00, elsewhere`.
    static func context(_ context: Confirmation.Context) -> String { context.answers.joined(separator: ", ") }

    /// What a confirmed day says of itself: `confirmed`, `confirmed with no-work`, then `incomplete` for
    /// `elsewhere`, and what arrived since (`2 uses since`).
    static func status(_ reading: DayReading) -> String? {
        guard let confirmation = reading.confirmation else { return nil }
        var text = "confirmed"
        if !confirmation.context.isEmpty { text += " with " + context(confirmation.context) }
        if confirmation.incomplete { text += " (incomplete: AI also used elsewhere)" }
        let since = self.since(reading)
        return since.isEmpty ? text : text + "; " + since + " since"
    }

    /// `2 uses and 1.2k tokens`, `−1 use`: the change since the day was confirmed; empty when none.
    static func since(_ reading: DayReading) -> String {
        var parts: [String] = []
        if reading.usesSince != 0 {
            parts.append(signed(Int64(reading.usesSince), compact: false) + (abs(reading.usesSince) == 1 ? " use" : " uses"))
        }
        if reading.tokensSince != 0 { parts.append(signed(reading.tokensSince, compact: true) + " tokens") }
        return parts.joined(separator: " and ")
    }

    private static func signed(_ value: Int64, compact: Bool) -> String {
        let magnitude = compact ? LocalFormat.compact(abs(value)) : String(abs(value))
        return (value < 0 ? "−" : "") + magnitude
    }

    /// `6 days confirmed in a row`; nil for none.
    static func streak(_ streak: Streak) -> String? {
        guard streak.days > 0 else { return nil }
        return "\(streak.days) day\(streak.days == 1 ? "" : "s") confirmed in a row"
    }

    /// The lines `today` and a plain scan end with: today's answer and the streak, then (on a terminal only)
    /// the proposal waiting. Empty, or starting with a line break.
    static func todayLines(_ today: TodayReport, _ queries: UsageQueries, terminal: Bool) -> String {
        var lines: [String] = []
        let confirmed = status(today.reading).map { "today: " + $0 }
        let streak = self.streak(today.confirmations.streak)
        if confirmed != nil || streak != nil { lines.append("  " + [confirmed, streak].compactMap { $0 }.joined(separator: " · ")) }
        if terminal, let day = today.confirmations.proposal {
            lines.append("\(dayName(day, today: today.day)) is waiting to be confirmed: unprompt-scan confirm")
        }
        return lines.map { "\n" + $0 }.joined()
    }

    /// A day's mark in `calendar`, at most two characters: `c` for confirmed as proposed, else the letters of
    /// its kinds of context (the first and `+` past two); empty when it is not confirmed.
    static func mark(_ confirmation: Confirmation?) -> String {
        guard let confirmation else { return "" }
        let letters = confirmation.kinds.map(letter)
        if letters.isEmpty { return "c" }
        return letters.count <= 2 ? letters.joined() : letters[0] + "+"
    }

    static func letter(_ kind: Confirmation.Kind) -> String {
        switch kind {
        case .noWork: "n"
        case .worked: "w"
        case .hoursChanged: "h"
        case .elsewhere: "e"
        }
    }

    /// The marks' legend, under a calendar that shows any.
    static let legend = "marks: c confirmed · n no-work · w worked · h hours changed · e also used elsewhere (incomplete) · + more"

    /// `"confirmed"` and `"context"` (the kinds) of a day.
    static func json(_ confirmation: Confirmation?) -> [(String, JSON)] {
        [
            ("confirmed", .bool(confirmation != nil)),
            ("context", .array((confirmation?.kinds ?? []).map { .string($0.rawValue) })),
        ]
    }
}
