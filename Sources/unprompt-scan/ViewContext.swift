import Foundation
import UnpromptKit

/// What every view of the store starts from: the store, brought up to date by a scan unless `--no-scan`
/// (then opened read-only, and nil when there is none yet), the time zone, the work hours, the clock, and the
/// price table and water method that cost and water are read with.
struct ViewContext {
    let store: UsageStore?
    let readings: Readings
    let zone: ZoneOption
    let calendar: LocalCalendar
    let workHours: WorkHours
    /// Milliseconds since 1970 (`Clock`).
    let now: Int64
    /// The scan's exit status: 1 when some sources could not be read.
    let status: ExitCode

    enum Opened {
        case ready(ViewContext)
        case failed(ExitCode)
    }

    /// Usage errors (a bad zone, flag or clock) are thrown before anything is opened or scanned.
    static func open(_ arguments: Arguments, catalog: ReaderCatalog, environment: [String: String]) throws(UsageError) -> Opened {
        let zone = try ZoneOption.resolve(try arguments.single("--tz"), environment: environment)
        let now = try Clock.now(environment)
        let path = try StoreLocation.path(arguments, environment)
        guard let settings = try SettingsLocation.load(arguments, environment) else { return .failed(.settings) }
        guard let readings = try Readings.open(arguments, environment) else { return .failed(.invalidData) }
        var status = ExitCode.success
        let store: UsageStore?
        do {
            if arguments.has("--no-scan") {
                store = FileManager.default.fileExists(atPath: path) ? try UsageStore(path: path, readOnly: true) : nil
            } else {
                let opened = try UsageStore(path: path)
                status = try ScanStep.run(store: opened, catalog: catalog, environment: environment, now: now)
                store = opened
            }
        } catch {
            printError("unprompt-scan: store: \(error.message)")
            return .failed(.store)
        }
        return .ready(
            ViewContext(
                store: store, readings: readings, zone: zone, calendar: LocalCalendar(timeZone: zone.timeZone), workHours: settings.workHours,
                now: now, status: status))
    }

    /// The body of a view: opens the context (scanning unless `--no-scan`), renders it, prints the result, and
    /// exits with the scan's status; a store that cannot be read is reported with exit status 4.
    static func show(
        _ arguments: Arguments, catalog: ReaderCatalog, environment: [String: String],
        render: (ViewContext) throws(StoreError) -> String
    ) throws(UsageError) -> ExitCode {
        let context: ViewContext
        switch try open(arguments, catalog: catalog, environment: environment) {
        case .ready(let ready): context = ready
        case .failed(let code): return code
        }
        let output: String
        do {
            output = try render(context)
        } catch {
            printError("unprompt-scan: store: \(error.message)")
            return .store
        }
        print(output)
        return context.status
    }

    /// The local day of `now`.
    var today: Int64 { calendar.day(ofMilliseconds: now) }

    /// `DayReadings` of `fromDay...throughDay` from the store (all zero without one).
    func days(from fromDay: Int64, through throughDay: Int64) throws(StoreError) -> [DayReading] {
        guard let store else {
            return DayReadings.compute(
                rows: [], activity: [], lastActivityBefore: nil, historyStart: nil, calendar: calendar, workHours: workHours,
                fromDay: fromDay, throughDay: throughDay)
        }
        let buckets = DayReadings.bucketBounds(fromDay: fromDay, throughDay: throughDay)
        let active = DayReadings.activityBounds(fromDay: fromDay, throughDay: throughDay)
        return DayReadings.compute(
            rows: try store.buckets(fromQuarter: buckets.lowerBound, toQuarter: buckets.upperBound),
            activity: try store.activity(fromQuarter: active.lowerBound, toQuarter: active.upperBound),
            lastActivityBefore: try store.lastActivity(beforeQuarter: active.lowerBound),
            historyStart: try store.firstUsageQuarter(), calendar: calendar, workHours: workHours,
            fromDay: fromDay, throughDay: throughDay)
    }
}
