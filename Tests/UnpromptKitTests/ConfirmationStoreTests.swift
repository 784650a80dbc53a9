import Foundation
import XCTest
import UnpromptTestSupport
@testable import UnpromptKit

/// The store's confirmation tables: numbers only, one answer per day, the work hours as rows and back, and
/// schema 5's step over a schema 4 store.
final class ConfirmationStoreTests: XCTestCase {
    var dir = ""

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("confirmations-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: dir)
    }

    func answer(_ day: Int64, _ answers: [String], hours: String, at: Int64, uses: Int = 3) throws -> UnpromptKit.Confirmation {
        let context = try UnpromptKit.Confirmation.Context.parse(answers).get()
        return UnpromptKit.Confirmation(
            day: day, quarters: (day * 96 - 22)..<((day + 1) * 96 - 22), confirmedAt: at, context: context,
            hours: try context.hours ?? WorkHours.parse(hours).get(),
            numbers: UnpromptKit.Confirmation.Numbers(uses: uses, workUses: 1, tokens: 12_345, workTokens: 678))
    }

    func testAnAnswerIsKeptAsNumbersAndReadBackWhole() throws {
        let store = try UsageStore(path: dir + "/u.sqlite")
        let answers = [
            try answer(20_500, ["no-work", "worked 22:00-01:30", "elsewhere"], hours: "Mon-Fri 09:00-12:30 13:30-18:00; Sat 10:00-14:00", at: 7),
            try answer(20_501, ["hours-changed Mon, Wed 08:00-12:00; Sun-Thu 22:00-06:00"], hours: "none", at: 8),
            try answer(20_502, [], hours: "none", at: 9, uses: 0),
        ]
        for answer in answers { try store.save(answer) }
        XCTAssertEqual(try store.confirmations(), answers)
        // Every column is a number: no text is kept.
        let database = try Database(path: dir + "/u.sqlite", options: [.readOnly])
        for table in ["confirmations", "confirmation_hours"] {
            let columns = try database.prepare("SELECT name FROM pragma_table_info('\(table)')").rows().compactMap { $0.text(0) }
            XCTAssertGreaterThan(columns.count, 4)
            for column in columns {
                let other = try database.prepare("SELECT count(*) FROM \(table) WHERE typeof(\(column)) NOT IN ('integer', 'null')")
                XCTAssertEqual(try other.rows().first?.int(0), 0, "\(table).\(column)")
            }
        }
    }

    func testADayHoldsOneAnswerALaterOneReplacesItAndUndoRemovesIt() throws {
        let store = try UsageStore(path: dir + "/u.sqlite")
        try store.save(try answer(20_500, ["no-work"], hours: "Mon-Fri 09:00-18:00; Sat 10:00-14:00", at: 1))
        let later = try answer(20_500, ["worked 20:00-21:00"], hours: "Mon-Fri 10:00-19:00", at: 2)
        try store.save(later)
        XCTAssertEqual(try store.confirmations(), [later])
        let database = try Database(path: dir + "/u.sqlite", options: [.readOnly])
        XCTAssertEqual(try database.prepare("SELECT count(*) FROM confirmation_hours").rows().first?.int(0), 1, "the old hours' rows went with it")
        XCTAssertTrue(try store.removeConfirmation(day: 20_500, at: 3))
        XCTAssertFalse(try store.removeConfirmation(day: 20_500, at: 3))
        XCTAssertEqual(try store.confirmations(), [])
        XCTAssertEqual(try database.prepare("SELECT count(*) FROM confirmation_hours").rows().first?.int(0), 0)
    }

    /// Schema 5 adds the two tables and moves nothing: a schema 4 store keeps its buckets and checkpoints.
    func testASchemaFourStoreGainsTheTablesAndKeepsEverything() throws {
        let path = dir + "/u.sqlite"
        // The tables as schema 4 created them (a later schema's store with its version set back is not one).
        try Database(path: path, options: [.readWrite, .create]).execute(PriceDimensionReadingTests.schemaFour + """
            INSERT INTO buckets VALUES (0, 't', 'm', 0, 0, 5, 0, 0, 0, 0, 0, 1, 0, 0);
            INSERT INTO checkpoints VALUES ('a', 1, 2, 10, 3, 10, 0, '', 't', X'');
            PRAGMA user_version = 4;
            """)
        XCTAssertThrowsError(try UsageStore(path: path, readOnly: true)) { error in
            XCTAssertTrue("\(error)".contains("older version (schema 4)"), "\(error)")
        }
        let upgraded = try UsageStore(path: path)
        XCTAssertEqual(try upgraded.confirmations(), [])
        XCTAssertEqual(try upgraded.buckets(fromQuarter: 0, toQuarter: 1).map(\.counts.input), [5])
        XCTAssertEqual(try upgraded.checkpoint(for: "a")?.offset, 10, "nothing is read again")
        try upgraded.save(try answer(20_500, [], hours: "none", at: 1))
        XCTAssertEqual(try UsageStore(path: path, readOnly: true).confirmations().map(\.day), [20_500])
    }

    /// Schema 8 stamps every answer already kept as this device's, at its own time: an older word from another
    /// device does not replace it, a later one does, and an undo is kept as a word.
    func testASchemaSevenStoreStampsItsAnswersAsThisDevices() throws {
        let path = dir + "/u.sqlite"
        let store = try UsageStore(path: path)
        let kept = try answer(20_500, ["no-work"], hours: "Mon-Fri 09:00-18:00", at: 50)
        try store.save(kept)
        try Database(path: path, options: [.readWrite]).execute(
            LegacyStore.beforeSchemaNine + "DROP TABLE confirmation_stamps; PRAGMA user_version = 7;")
        let upgraded = try UsageStore(path: path)
        let own = ConfirmationEntry.origin(ofDevice: try upgraded.deviceID())
        XCTAssertEqual(try upgraded.confirmationEntries(), [ConfirmationEntry(answer: kept, origin: own)])

        let older = try answer(20_500, ["elsewhere"], hours: "none", at: 49)
        XCTAssertEqual(try upgraded.merge(confirmations: [ConfirmationEntry(answer: older, origin: 1)]), 0)
        XCTAssertEqual(try upgraded.confirmations(), [kept])
        let later = try answer(20_500, ["elsewhere"], hours: "none", at: 51)
        XCTAssertEqual(try upgraded.merge(confirmations: [ConfirmationEntry(answer: later, origin: 1)]), 1)
        XCTAssertEqual(try upgraded.confirmations(), [later])
        XCTAssertEqual(try upgraded.merge(confirmations: [ConfirmationEntry(answer: later, origin: 1)]), 0, "the same word again")

        XCTAssertTrue(try upgraded.removeConfirmation(day: 20_500, at: 10), "undone by this device, its clock behind")
        XCTAssertEqual(try upgraded.confirmationEntries(), [ConfirmationEntry(undoneDay: 20_500, at: 52, origin: own)], "stamped after the answer")
        XCTAssertEqual(try upgraded.merge(confirmations: [ConfirmationEntry(answer: later, origin: 1)]), 0, "the undo stays")
        XCTAssertEqual(try upgraded.confirmations(), [])
    }
}
