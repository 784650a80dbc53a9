import Foundation

extension LocalCalendar.WeekStart {
    /// The first day of the week of the person's locale: the first of `LC_ALL`, `LC_TIME` and `LANG` that is
    /// set (`en_US.UTF-8`: Sunday; `de_DE.UTF-8`, `en_GB.UTF-8`: Monday), else on macOS the system's own
    /// setting. Monday when none names a locale with a region (`C`, `POSIX`, `en`, unset: the week's start is
    /// the region's), or when the locale's week starts on another day (Saturday).
    public static func preferred(environment: [String: String]) -> Self {
        for name in ["LC_ALL", "LC_TIME", "LANG"] {
            guard let value = environment[name], !value.isEmpty else { continue }
            let identifier = String(value.prefix { $0 != "." && $0 != "@" })
            guard identifier != "C", identifier != "POSIX", identifier.contains("_") else { return .monday }
            var calendar = Calendar(identifier: .gregorian)
            calendar.locale = Locale(identifier: identifier)
            return of(firstWeekday: calendar.firstWeekday)
        }
        #if os(macOS)
            return of(firstWeekday: Calendar.current.firstWeekday)
        #else
            return .monday
        #endif
    }

    /// Foundation numbers weekdays from Sunday = 1.
    private static func of(firstWeekday: Int) -> Self { firstWeekday == 1 ? .sunday : .monday }
}
