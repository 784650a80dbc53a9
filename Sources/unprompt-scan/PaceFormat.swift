import Foundation
import UnpromptKit

/// A limit window's pace (`LimitPace`) as `limits`, the snapshot and the page write it: what was measured, and
/// when the window would be used up at that pace, before or after its reset. Never advice.
enum PaceFormat {
    /// `pace since 07:30: 4.8% an hour, 50% of the window's time passed; at this pace used up at 04:20, after
    /// the reset`.
    static func text(_ pace: LimitPace, at: (Int64) -> String) -> String {
        var line = "pace since \(at(pace.windowStart)): \(percent(pace.percentPerHour)) an hour, "
            + "\(ReadingsFormat.bottle(pace.elapsedShare)) of the window's time passed; "
        if let usedUp = pace.usedUpAt {
            line += "at this pace used up at \(at(usedUp)), \(pace.usedUpBeforeReset ? "before" : "after") the reset"
        } else {
            line += "at this pace never used up"
        }
        return line
    }

    /// `pace since 09:00: 54 tokens an hour`, for a window derived from use (it has no percentage).
    static func text(tokensPerHour: Double?, since start: Int64, at: (Int64) -> String) -> String? {
        tokensPerHour.map { "pace since \(at(start)): \(CountsFormat.grouped(Int($0.rounded(.down)))) tokens an hour" }
    }

    /// Percentage points: one decimal from 1 on, three significant digits below.
    static func percent(_ value: Double) -> String {
        (value >= 1 ? String(format: "%.1f", value) : ReadingsFormat.number(value)) + "%"
    }

    /// `{"windowStart", "elapsedShare", "percentPerHour", "usedUpAt", "usedUpBeforeReset"}` or null; instants
    /// written by `instant`.
    static func json(_ pace: LimitPace?, instant: (Int64) -> JSON) -> JSON {
        guard let pace else { return .null }
        return .object([
            ("windowStart", instant(pace.windowStart)),
            ("elapsedShare", .number(ReadingsFormat.rounded(pace.elapsedShare))),
            ("percentPerHour", .number(ReadingsFormat.rounded(pace.percentPerHour))),
            ("usedUpAt", pace.usedUpAt.map(instant) ?? .null),
            ("usedUpBeforeReset", .bool(pace.usedUpBeforeReset)),
        ])
    }

    static func json(_ tokensPerHour: Double?) -> JSON { tokensPerHour.map { .number(ReadingsFormat.rounded($0)) } ?? .null }
}
