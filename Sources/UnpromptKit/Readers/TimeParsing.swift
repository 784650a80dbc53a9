import Foundation

/// Turns a record's time value into milliseconds since 1970 (UTC), in the format the descriptor declares.
enum TimeParsing {
    /// 2100-01-01T00:00:00Z: a time from then on is no time (`bad-time`), like a count above its ceiling. Such a
    /// date is damage, not usage, and a view that runs to the last day with usage would build a reading for every
    /// day until it (up to 9999-12-31: minutes and gigabytes).
    static let ceiling: Int64 = 4_102_444_800_000

    static func milliseconds(_ value: FieldValue, format: TimeFormat, timeZone: TimeZone) -> Int64? {
        guard let time = parsed(value, format: format, timeZone: timeZone), time < ceiling else { return nil }
        return time
    }

    private static func parsed(_ value: FieldValue, format: TimeFormat, timeZone: TimeZone) -> Int64? {
        switch format {
        case .epochSeconds:
            guard let seconds = value.double, seconds.isFinite, seconds >= 0, seconds < 1e11 else { return nil }
            return Int64((seconds * 1000).rounded())
        case .epochMilliseconds:
            guard let ms = value.double, ms.isFinite, ms >= 0, ms < 1e14 else { return nil }
            return Int64(ms.rounded())
        case .iso8601:
            if case .bytes(let bytes) = value { return iso8601(bytes) }
            var text = value.text
            return text.withUTF8 { iso8601(UnsafeRawBufferPointer($0)) }
        case .local:
            guard let wall = wallClock(value.text) else { return nil }
            return fromWallClock(wall, in: timeZone)
        }
    }

    /// `YYYY-MM-DDTHH:MM[:SS[.fff…]]` followed by `Z` or `±HH:MM`; a space may stand for `T`.
    static func iso8601(_ text: String) -> Int64? {
        var copy = text
        return copy.withUTF8 { iso8601(UnsafeRawBufferPointer($0)) }
    }

    static func iso8601(_ b: UnsafeRawBufferPointer) -> Int64? {
        guard b.count >= 16, b[4] == 45, b[7] == 45, b[10] == 84 || b[10] == 32 || b[10] == 116, b[13] == 58,
            let year = digits(b, 0, 4), let month = digits(b, 5, 2), let day = digits(b, 8, 2),
            let hour = digits(b, 11, 2), let minute = digits(b, 14, 2)
        else { return nil }
        var i = 16
        var second: Int64 = 0
        var millis: Int64 = 0
        if i < b.count, b[i] == 58 {
            guard let s = digits(b, i + 1, 2) else { return nil }
            second = s
            i += 3
            if i < b.count, b[i] == 46 || b[i] == 44 {
                i += 1
                var scale: Int64 = 100
                let start = i
                while i < b.count, b[i] >= 48, b[i] <= 57 {
                    millis += Int64(b[i] - 48) * scale
                    scale /= 10
                    i += 1
                }
                if i == start { return nil }
            }
        }
        var offsetSeconds: Int64 = 0
        if i < b.count {
            switch b[i] {
            case 90, 122: i += 1
            case 43, 45:
                let sign: Int64 = b[i] == 43 ? 1 : -1
                guard let oh = digits(b, i + 1, 2) else { return nil }
                var j = i + 3
                if j < b.count, b[j] == 58 { j += 1 }
                guard let om = digits(b, j, 2) else { return nil }
                offsetSeconds = sign * (oh * 3600 + om * 60)
                i = j + 2
            default: return nil
            }
        } else {
            return nil  // a time without a zone is not an instant; descriptors say `as: local` for those
        }
        guard i == b.count, let date = CivilDate.day(year: year, month: month, day: day), hour < 24, minute < 60,
            second < 61
        else { return nil }
        let seconds = date * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return seconds * 1000 + millis
    }

    struct WallClock {
        let year, month, day, hour, minute, second: Int64
    }

    /// `YYYY-MM-DD HH:MM:SS`, as Aider writes its session headers.
    static func wallClock(_ text: String) -> WallClock? {
        let b = Array(text.utf8)
        guard b.count == 19, b[4] == 45, b[7] == 45, b[10] == 32 || b[10] == 84, b[13] == 58, b[16] == 58,
            let year = digits(b, 0, 4), let month = digits(b, 5, 2), let day = digits(b, 8, 2),
            let hour = digits(b, 11, 2), let minute = digits(b, 14, 2), let second = digits(b, 17, 2),
            CivilDate.day(year: year, month: month, day: day) != nil, hour < 24, minute < 60, second < 61
        else { return nil }
        return WallClock(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }

    /// The instant a wall-clock time names in a zone, the same every time:
    /// - a time that happens twice (clocks fall back) is its first occurrence;
    /// - a time that never happens (clocks spring forward) is read with the offset in force before the
    ///   change, i.e. moved forward by the gap, as a clock that was not changed would show it.
    static func fromWallClock(_ wall: WallClock, in zone: TimeZone) -> Int64 {
        // `wallClock` only makes existing dates.
        let naive = CivilDate.day(year: wall.year, month: wall.month, day: wall.day)! * 86_400 + wall.hour * 3600 + wall.minute * 60
            + wall.second
        func offset(at seconds: Int64) -> Int64 {
            Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds))))
        }
        // Zones change offset at most a few times a year, so the offsets a day either side bracket any change.
        let before = offset(at: naive - 86_400)
        let after = offset(at: naive + 86_400)
        let valid = Set([naive - before, naive - after]).filter { naive - offset(at: $0) == $0 }
        return (valid.min() ?? naive - before) * 1000
    }

    private static func digits(_ b: [UInt8], _ start: Int, _ count: Int) -> Int64? {
        b.withUnsafeBytes { digits($0, start, count) }
    }

    @inline(__always)
    private static func digits(_ b: UnsafeRawBufferPointer, _ start: Int, _ count: Int) -> Int64? {
        guard start + count <= b.count else { return nil }
        var value: Int64 = 0
        for i in start..<(start + count) {
            let c = b[i]
            guard c >= 48, c <= 57 else { return nil }
            value = value * 10 + Int64(c - 48)
        }
        return value
    }

}
