extension LocalCalendar {
    /// The day a week starts on: Monday (ISO 8601) or Sunday.
    public enum WeekStart: String, Sendable, CaseIterable {
        case monday = "mon"
        case sunday = "sun"

        /// The weekday it is, 0 = Monday … 6 = Sunday (`WorkHours.weekday`).
        public var weekday: Int { self == .monday ? 0 : 6 }

        /// The seven weekdays from this one, 0 = Monday … 6 = Sunday.
        public var weekdays: [Int] { (0..<7).map { (weekday + $0) % 7 } }
    }

    /// What a view groups local days into. A period is keyed by a number: a day by its day number, a week by
    /// the day number of its first day, a month by `year × 12 + month − 1`.
    ///
    /// Weeks are made of local days, and local days of quarter-hour buckets (`LocalCalendar`), so a week
    /// across a clock change simply holds a 23- or 25-hour day: no bucket is split or counted twice.
    public enum Period: Sendable, Equatable {
        case day
        case week(WeekStart)
        case month

        /// The key of the period that holds a local day.
        public func key(ofDay day: Int64) -> Int64 {
            switch self {
            case .day: day
            case .week(let start): day - Int64((WorkHours.weekday(ofDay: day) - start.weekday + 7) % 7)
            case .month: CivilDate.month(ofDay: day)
            }
        }

        /// The first local day of the period keyed `key`.
        public func firstDay(ofKey key: Int64) -> Int64 {
            switch self {
            case .day, .week: key
            case .month: CivilDate.firstDay(ofMonth: key)
            }
        }

        /// The last local day of the period keyed `key`.
        public func lastDay(ofKey key: Int64) -> Int64 {
            switch self {
            case .day: key
            case .week: key + 6
            case .month: CivilDate.lastDay(ofMonth: key)
            }
        }

        /// The key of the period `count` periods after (before, when negative) the one keyed `key`.
        public func key(_ key: Int64, advancedBy count: Int64) -> Int64 {
            switch self {
            case .day, .month: key + count
            case .week: key + 7 * count
            }
        }
    }
}
