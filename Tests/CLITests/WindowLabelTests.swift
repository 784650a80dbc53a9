import Testing

@testable import unprompt_scan

/// A limit window's label says its length once: after a name that does not say it, never after one that does.
struct WindowLabelTests {
    @Test(arguments: [
        ("five_hour", 300, "five_hour"), ("5h", 300, "5h"), ("seven_day", 10_080, "seven_day"), ("7d", 10_080, "7d"),
        ("1w", 10_080, "1w"), ("90_minutes", 90, "90_minutes"), ("two weeks", 20_160, "two weeks"),
        ("weekly", 10_080, "weekly, 7-day"), ("primary", 300, "primary, 5-hour"), ("secondary", 90, "secondary, 90-minute"),
        // A name that spells another length than the reading's keeps the reading's.
        ("five_hour", 240, "five_hour, 4-hour"), ("5x", 300, "5x, 5-hour"), ("h", 60, "h, 1-hour"),
    ] as [(String, Int64, String)])
    func theLengthFollowsANameThatDoesNotSayIt(name: String, minutes: Int64, label: String) {
        #expect(LocalFormat.windowLabel(name, minutes: minutes) == label)
    }

    @Test func aWindowOfUnknownLengthIsItsName() {
        #expect(LocalFormat.windowLabel("five_hour", minutes: nil) == "five_hour")
        #expect(LocalFormat.windowLabel("primary", minutes: nil) == "primary")
    }
}
