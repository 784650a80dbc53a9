/// The numbers every front end shows, computed once, here: each query reads the store's buckets, activity
/// and limit samples and returns plain `Sendable` values for a front end to render.
///
/// A query is a pure function of the store, the zone, the work hours, the readings and the clock (`now`):
/// two front ends with the same inputs show the same numbers. Without a store (`--no-scan` before any scan)
/// every query answers as for an empty one. It counts the devices chosen (`devices`): by default this one and
/// every device imported from the sync folder, summed.
public struct UsageQueries: Sendable {
    public let store: UsageStore?
    public let readings: Readings
    public let zone: ViewZone
    public let calendar: LocalCalendar
    /// Work hours through time and the confirmed days (`WorkSchedule`).
    public let schedule: WorkSchedule
    /// The clock: milliseconds since 1970 (`at(_:)` gives the same queries at another moment).
    public private(set) var now: Int64
    /// The windows derived from use, by tool (from the descriptors' `derived_window`).
    public let derivedWindows: [String: DerivedWindow]
    public let devices: DeviceSelection

    /// `workHours`: the settings file's; `confirmations`: the store's.
    public init(
        store: UsageStore?, readings: Readings, zone: ViewZone, workHours: WorkHours, now: Int64, descriptors: [Descriptor],
        confirmations: [Confirmation] = [], devices: DeviceSelection = .all
    ) {
        var windows: [String: DerivedWindow] = [:]
        for descriptor in descriptors { windows[descriptor.id] = descriptor.derivedWindow }
        self.init(
            store: store, readings: readings, zone: zone, workHours: workHours, now: now, derivedWindows: windows,
            confirmations: confirmations, devices: devices)
    }

    init(
        store: UsageStore?, readings: Readings, zone: ViewZone, workHours: WorkHours, now: Int64,
        derivedWindows: [String: DerivedWindow], confirmations: [Confirmation], devices: DeviceSelection
    ) {
        self.store = store
        self.readings = readings
        self.zone = zone
        calendar = zone.calendar
        schedule = WorkSchedule(base: workHours, confirmations: confirmations)
        self.now = now
        self.derivedWindows = derivedWindows
        self.devices = devices
    }

    /// The same queries at another moment.
    public func at(_ now: Int64) -> UsageQueries {
        var copy = self
        copy.now = now
        return copy
    }

    /// The local day of `now`.
    public var currentDay: Int64 { calendar.day(ofMilliseconds: now) }

    /// The work hours in force today (the settings file's until an `hours-changed` answer changes them).
    public var workHours: WorkHours { schedule.hours(onDay: currentDay) }

    /// The first instant of a local day, in milliseconds since 1970.
    public func start(ofDay day: Int64) -> Int64 { calendar.firstQuarter(ofDay: day) * Bucket.quarterMilliseconds }

    /// Every day of `fromDay...throughDay`, days without usage included: tokens, uses, the work part of each,
    /// the day's band and its confirmation; the split by `schedule` (this one's by default).
    public func days(from fromDay: Int64, through throughDay: Int64, schedule: WorkSchedule? = nil) throws(StoreError)
        -> [DayReading]
    {
        let schedule = schedule ?? self.schedule
        guard let store else {
            return DayReadings.compute(
                rows: [], activity: [], lastActivityBefore: nil, historyStart: nil, calendar: calendar, schedule: schedule,
                fromDay: fromDay, throughDay: throughDay)
        }
        let buckets = DayReadings.bucketBounds(fromDay: fromDay, throughDay: throughDay)
        let active = DayReadings.activityBounds(fromDay: fromDay, throughDay: throughDay)
        return DayReadings.compute(
            rows: try store.buckets(fromQuarter: buckets.lowerBound, toQuarter: buckets.upperBound, devices: devices),
            activity: try store.activity(fromQuarter: active.lowerBound, toQuarter: active.upperBound, devices: devices),
            lastActivityBefore: try store.lastActivity(beforeQuarter: active.lowerBound, devices: devices),
            historyStart: try store.firstUsageQuarter(devices: devices), calendar: calendar, schedule: schedule,
            fromDay: fromDay, throughDay: throughDay)
    }

    /// The buckets whose quarters may fall in `fromDay...throughDay` in any zone (either end open when nil), of
    /// `tools` (every tool when empty); still to be filtered by local day.
    func buckets(fromDay: Int64?, throughDay: Int64?, tools: [String] = []) throws(StoreError) -> [BucketRow] {
        guard let store else { return [] }
        let bounds = LocalCalendar.quarterBounds(fromDay: fromDay, throughDay: throughDay)
        return try store.buckets(fromQuarter: bounds.lowerBound, toQuarter: bounds.upperBound, tools: tools, devices: devices)
    }
}
