import Foundation

/// The clock every view reads: the system's, unless `UNPROMPT_NOW` sets it (an ISO-8601 instant such as
/// `2026-01-05T12:00:00Z`, or milliseconds since 1970), so tests can pin "now" and every estimate is a pure
/// function of the store and this clock.
enum Clock {
    static let variable = "UNPROMPT_NOW"

    /// Milliseconds since 1970.
    static func now(_ environment: [String: String]) throws(UsageError) -> Int64 {
        guard let text = environment[variable], !text.isEmpty else {
            return Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
        }
        if let milliseconds = Int64(text) { return milliseconds }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) ?? ISO8601DateFormatter().date(from: text) {
            return Int64((date.timeIntervalSince1970 * 1000).rounded())
        }
        throw UsageError("\(variable): expected an ISO-8601 instant (2026-01-05T12:00:00Z) or milliseconds since 1970, got '\(text)'")
    }
}
