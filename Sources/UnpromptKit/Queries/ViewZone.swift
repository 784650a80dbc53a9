import Foundation

/// The time zone a view counts local days in, with the name it prints: an IANA name or `UTC`, never a path.
public struct ViewZone: Sendable {
    public let timeZone: TimeZone
    public let name: String

    public init(timeZone: TimeZone, name: String) {
        self.timeZone = timeZone
        self.name = name
    }

    public static let utc = ViewZone(timeZone: TimeZone(identifier: "UTC")!, name: "UTC")

    public var calendar: LocalCalendar { LocalCalendar(timeZone: timeZone) }

    /// The zone asked for (an IANA name such as `Asia/Kolkata`, or `UTC` in any case), nil when it names no
    /// zone. Without one: the `TZ` variable (also written `:Zone`, or as a path into a zoneinfo directory),
    /// else the system's zone.
    public static func resolve(_ requested: String?, environment: [String: String]) -> ViewZone? {
        if let requested {
            if requested.uppercased() == "UTC" { return .utc }
            guard !requested.isEmpty, let zone = TimeZone(identifier: requested) else { return nil }
            return ViewZone(timeZone: zone, name: zone.identifier)
        }
        if var tz = environment["TZ"], !tz.isEmpty {
            if tz.hasPrefix(":") { tz.removeFirst() }
            if let range = tz.range(of: "zoneinfo/", options: .backwards) { tz = String(tz[range.upperBound...]) }
            if tz.uppercased() == "UTC" { return .utc }
            if !tz.hasPrefix("/"), let zone = TimeZone(identifier: tz) { return ViewZone(timeZone: zone, name: zone.identifier) }
        }
        let current = TimeZone.current
        return ViewZone(timeZone: current, name: current.identifier)
    }

    /// The zone's offset from UTC at an instant (milliseconds since 1970), in minutes.
    public func offsetMinutes(at milliseconds: Int64) -> Int64 {
        Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(milliseconds) / 1000))) / 60
    }
}
