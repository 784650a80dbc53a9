import Foundation
import Testing
import UnpromptTestSupport
@testable import UnpromptKit

/// Confirmations between devices: an answer given on one device shows on the other after a sync, the later
/// word about a day wins on both (an answer given after seeing the other's wins whatever the clocks say), an
/// undo travels and is not brought back, and a streak counts the days confirmed on any device.
struct ConfirmationSyncTests {
    let m = Moments.monday
    let minute = Moments.minute
    let hour: Int64 = 3_600_000
    var day: Int64 { m / 86_400_000 }
    let hours = try! WorkHours.parse("Mon-Fri 09:00-17:00").get()

    /// The laptop used a tool at 10:00 on Monday (work hours), the desktop at 20:00 (personal).
    func devices() throws -> (laptop: TestDevice, desktop: TestDevice) {
        let laptop = try TestDevice()
        try laptop.add([Moments.event("claude-code", "claude-sonnet-4-5", at: m, input: 100, output: 20, id: 1)], measuredAt: m + minute)
        let desktop = try TestDevice()
        try desktop.add(
            [Moments.event("codex", "gpt-5", at: m + 10 * hour, input: 1000, output: 5, id: 2)], measuredAt: m + 10 * hour + minute)
        return (laptop, desktop)
    }

    /// The device's views at `now`, with the work hours of its settings file and the answers its store holds.
    func views(_ device: TestDevice, now: Int64) throws -> UsageQueries {
        UsageQueries(
            store: device.store, readings: TestDevice.readings, zone: .utc, workHours: hours, now: now, descriptors: [],
            confirmations: try device.store.confirmations())
    }

    func sync(_ devices: [TestDevice], _ folder: TemporaryFolder, now: Int64) throws {
        for (index, device) in devices.enumerated() {
            let report = try device.sync(folder.path, now: now, label: "device-\(index)")
            #expect(report.refused.isEmpty)
        }
    }

    @Test func anAnswerOnOneDeviceShowsOnTheOtherWithTheSameSplit() throws {
        let folder = try TemporaryFolder()
        let (laptop, desktop) = try devices()
        let evening = m + 12 * hour
        try sync([laptop, desktop, laptop], folder, now: evening)
        let before = try views(desktop, now: evening).days(from: day, through: day)[0]
        #expect(before.confirmation == nil && before.workTokens == 120 && before.tokens == 1125)

        _ = try views(laptop, now: evening).confirm(day: day, context: try Confirmation.Context.parse(["no-work"]).get())
        try sync([laptop, desktop], folder, now: evening + minute)
        #expect(try desktop.store.confirmations() == laptop.store.confirmations())
        for device in [laptop, desktop] {
            let shown = try views(device, now: evening + minute).days(from: day, through: day)[0]
            #expect(shown.confirmation?.noWork == true)
            #expect(shown.workTokens == 0 && shown.tokens == 1125, "no-work: the laptop's work tokens count as personal on both")
            #expect(try views(device, now: evening + minute).streak() == Streak(days: 1, lastDay: day))
        }
        // Syncing on and on changes nothing: the same answer on both.
        try sync([desktop, laptop, desktop], folder, now: evening + 2 * minute)
        #expect(try desktop.store.confirmationEntries() == laptop.store.confirmationEntries())
    }

    /// The laptop's clock runs an hour ahead. Answers given on both before either saw the other's: the one with
    /// the later stamp (the laptop's) wins on both. An answer given on the desktop after it saw the laptop's is
    /// stamped after it, and wins on both, though the desktop's clock says it is earlier.
    @Test func theLaterWordWinsOnBothDevicesWhateverTheirClocks() throws {
        let folder = try TemporaryFolder()
        let (laptop, desktop) = try devices()
        let evening = m + 12 * hour
        let ahead = hour
        _ = try views(laptop, now: evening + ahead).confirm(day: day, context: try Confirmation.Context.parse(["elsewhere"]).get())
        _ = try views(desktop, now: evening + 5 * minute).confirm(day: day, context: .none)
        try sync([laptop, desktop, laptop], folder, now: evening + 10 * minute)
        for device in [laptop, desktop] {
            let held = try #require(try device.store.confirmations().first)
            #expect(held.incomplete && held.confirmedAt == evening + ahead, "the laptop's stamp is the later one")
        }

        let again = try views(desktop, now: evening + 20 * minute)
            .confirm(day: day, context: try Confirmation.Context.parse(["no-work", "worked 19:00-21:00"]).get())
        let kept = try #require(again.schedule.confirmations[day])
        #expect(kept.confirmedAt == evening + ahead + 1, "stamped just after the answer the desktop held")
        try sync([desktop, laptop], folder, now: evening + 21 * minute)
        for device in [laptop, desktop] {
            let shown = try views(device, now: evening + ahead + 2 * minute).days(from: day, through: day)[0]
            #expect(shown.confirmation?.context.worked == WorkHours.Range(start: 19 * 60, end: 21 * 60))
            #expect(shown.workTokens == 1005, "only the desktop's 20:00 is work, by the worked range")
            #expect(shown.workTokens + shown.personalTokens == 1125)
        }
    }

    @Test func anUndoTravelsAndIsNotBroughtBack() throws {
        let folder = try TemporaryFolder()
        let (laptop, desktop) = try devices()
        let evening = m + 12 * hour
        _ = try views(laptop, now: evening).confirm(day: day, context: .none)
        try sync([laptop, desktop], folder, now: evening)
        #expect(try desktop.store.confirmations().map(\.day) == [day])

        let (_, removed) = try views(laptop, now: evening + minute).undo(day: day)
        #expect(removed)
        // The desktop syncs first: its export still holds the answer when the laptop reads it.
        try sync([desktop, laptop, desktop, laptop], folder, now: evening + 2 * minute)
        for device in [laptop, desktop] {
            #expect(try device.store.confirmations().isEmpty, "undone on both")
            #expect(try device.store.confirmationEntries().map(\.stamp.undone) == [true])
            #expect(try views(device, now: evening + 2 * minute).streak() == Streak(days: 0, lastDay: nil))
        }
        // The desktop confirms the day again, after the undo: it is confirmed on both.
        _ = try views(desktop, now: evening + 3 * minute).confirm(day: day, context: .none)
        try sync([desktop, laptop], folder, now: evening + 4 * minute)
        #expect(try laptop.store.confirmations().map(\.day) == [day])
    }

    @Test func aStreakCountsTheDaysConfirmedOnEveryDevice() throws {
        let folder = try TemporaryFolder()
        let (laptop, desktop) = try devices()
        let evening = m + 12 * hour
        // Friday and Saturday on the laptop (days before any use), Sunday on the desktop, Monday on the laptop.
        for offset in [3, 2] as [Int64] {
            _ = try views(laptop, now: evening - offset * 24 * hour).confirm(day: day - offset, context: .none)
        }
        _ = try views(desktop, now: evening - 24 * hour).confirm(day: day - 1, context: .none)
        _ = try views(laptop, now: evening).confirm(day: day, context: .none)
        #expect(try views(laptop, now: evening).streak().days == 1, "Sunday is not on the laptop yet")
        try sync([laptop, desktop, laptop], folder, now: evening)
        for device in [laptop, desktop] {
            #expect(try views(device, now: evening).streak() == Streak(days: 4, lastDay: day))
        }
    }

    @Test func aWordSupersedesByItsStampOnly() {
        let answer = ConfirmationStamp(at: 10, origin: 5, undone: false)
        #expect(ConfirmationStamp(at: 11, origin: 9, undone: false).supersedes(answer))
        #expect(!ConfirmationStamp(at: 9, origin: 1, undone: true).supersedes(answer))
        #expect(ConfirmationStamp(at: 10, origin: 4, undone: false).supersedes(answer), "a tie: the lower origin")
        #expect(ConfirmationStamp(at: 10, origin: 5, undone: true).supersedes(answer), "a tie of both: the undo")
        #expect(!answer.supersedes(answer))
    }
}
