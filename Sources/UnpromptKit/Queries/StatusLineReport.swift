import Foundation

/// What a status line shows (`statusline`, drawn by a tool many times a minute): today's tokens across every
/// tool, as `today` and the snapshot estimate them (`live(dayTokens:)`), their cost at API list prices, and
/// the latest readings of the windows the tool hands to its status line, each where it stands at `now`.
public struct StatusLineReport: Sendable {
    public let day: Int64
    /// When a scan last brought the store up to date; nil if never (or only after `now`).
    public let measuredAt: Int64?
    public let estimate: LiveEstimate.Reading
    /// Today's cost and water, of the same buckets as the tokens.
    public let readings: ReadingCell
    /// The status line's windows with a reading logged by `now`, in the descriptor's order.
    public let limits: [LimitsReport.Reading]
}

extension UsageQueries {
    /// Opens what a status line needs and nothing more: the store read-only as it is (none when there is none
    /// yet; no scan), no settings (it shows no work split), and only the price rows that today's models resolve
    /// to.
    public static func openStatusLine(_ request: ViewRequest) throws(ViewOpeningError) -> UsageQueries {
        let store: UsageStore?
        var models: Set<String> = []
        do {
            store = FileManager.default.fileExists(atPath: request.storePath)
                ? try UsageStore(path: request.storePath, readOnly: true) : nil
            if let store {
                let day = request.zone.calendar.day(ofMilliseconds: request.now)
                let bounds = LocalCalendar.quarterBounds(fromDay: day, throughDay: day)
                models = Set(try store.buckets(fromQuarter: bounds.lowerBound, toQuarter: bounds.upperBound).map(\.model))
            }
        } catch {
            throw .store(error)
        }
        let readings: Readings
        do {
            readings = try Readings.load(mode: request.costMode, location: request.readings, models: models)
        } catch {
            throw .readings(error)
        }
        return UsageQueries(
            store: store, readings: readings, zone: request.zone, workHours: .none, now: request.now, descriptors: [])
    }

    /// Today and the latest readings of `tool`'s `windows`.
    public func statusLine(tool: String, windows: [String]) throws(StoreError) -> StatusLineReport {
        let day = currentDay
        let rows = store == nil ? [] : calendar.partition(try buckets(fromDay: day, throughDay: day), by: .day, fromDay: day, throughDay: day)[day] ?? []
        let live = try self.live(dayTokens: rows.reduce(0) { $0 + $1.counts.total })
        let latest = try store?.latestLimits(loggedBy: now).filter { $0.tool == tool } ?? []
        let limits = windows.compactMap { window in latest.first { $0.window == window }.map(reading) }
        return StatusLineReport(
            day: day, measuredAt: live.measuredAt, estimate: live.estimate, readings: ReadingCell(rows, readings), limits: limits)
    }
}
