import XCTest
@testable import UnpromptKit

/// The patch operations a journal rebuilds its document with, one by one, and the patches refused.
final class JournalDocumentTests: XCTestCase {
    func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    func text(_ document: JournalDocument, limit: Int = 1 << 20) -> String? {
        document.text(limit: limit).map { String(decoding: $0, as: UTF8.self) }
    }

    func started(_ json: String) -> JournalDocument {
        let document = JournalDocument()
        document.snapshot(bytes(json))
        return document
    }

    func testASnapshotIsTheWholeDocumentAndALaterOneReplacesIt() throws {
        let document = started(#"{"a":1,"b":[1,2]}"#)
        XCTAssertEqual(text(document), #"{"a":1,"b":[1,2]}"#)
        try document.set([.key("a")], to: bytes("5"))
        document.snapshot(bytes(#"{"c":true}"#))
        XCTAssertEqual(text(document), #"{"c":true}"#)
    }

    func testSetReplacesAKeyAddsAKeyAtTheEndAndReplacesOrAppendsAnElement() throws {
        let document = started(#"{"r":[{"id":"x","n":1}],"z":0}"#)
        try document.set([.key("r"), .index(0), .key("n")], to: bytes("2"))
        try document.set([.key("r"), .index(0), .key("m")], to: bytes(#"{"deep":[1]}"#))
        try document.set([.key("r"), .index(1)], to: bytes(#"{"id":"y"}"#))
        try document.set([.key("z")], to: bytes("null"))
        XCTAssertEqual(text(document), #"{"r":[{"id":"x","n":2,"m":{"deep":[1]}},{"id":"y"}],"z":null}"#)
    }

    func testAppendAddsElementsCreatesAnAbsentOrNullArrayAndCutsAtTheIndexFirst() throws {
        let document = started(#"{"r":[1,2,3],"n":null}"#)
        try document.append([.key("r")], elements: [bytes("4")], cut: nil)
        try document.append([.key("r")], elements: [bytes("9"), bytes("10")], cut: 1)
        try document.append([.key("s")], elements: [bytes(#""a""#)], cut: nil)
        try document.append([.key("n")], elements: [bytes("7")], cut: nil)
        XCTAssertEqual(text(document), #"{"r":[1,9,10],"n":[7],"s":["a"]}"#)
        // A cut with nothing to add only shortens; a cut at the length changes nothing.
        try document.append([.key("r")], elements: [], cut: 2)
        try document.append([.key("s")], elements: [], cut: 1)
        XCTAssertEqual(text(document), #"{"r":[1,9],"n":[7],"s":["a"]}"#)
    }

    func testAppendReachesANestedArrayThroughAnElement() throws {
        let document = started(#"{"r":[{"parts":[]},{"parts":["p"]}]}"#)
        try document.append([.key("r"), .index(1), .key("parts")], elements: [bytes(#""q""#)], cut: 0)
        try document.append([.key("r"), .index(0), .key("parts")], elements: [bytes("1")], cut: nil)
        XCTAssertEqual(text(document), #"{"r":[{"parts":[1]},{"parts":["q"]}]}"#)
    }

    func testDeleteRemovesAKeyAndAnAbsentKeyIsNoError() throws {
        let document = started(#"{"a":{"vote":0,"k":1}}"#)
        try document.delete([.key("a"), .key("vote")])
        try document.delete([.key("a"), .key("missing")])
        XCTAssertEqual(text(document), #"{"a":{"k":1}}"#)
        XCTAssertTrue(document.damage.isEmpty)
    }

    func testPatchesBeforeTheFirstSnapshotAreRefused() {
        let document = JournalDocument()
        XCTAssertThrowsError(try document.set([.key("a")], to: bytes("1"))) { XCTAssertEqual($0 as? JournalDocument.Failure, .noSnapshot) }
        XCTAssertThrowsError(try document.append([.key("a")], elements: [], cut: nil)) {
            XCTAssertEqual($0 as? JournalDocument.Failure, .noSnapshot)
        }
        XCTAssertThrowsError(try document.delete([.key("a")])) { XCTAssertEqual($0 as? JournalDocument.Failure, .noSnapshot) }
        XCTAssertNil(text(document))
    }

    /// Each refused patch changes nothing, and damages the deepest place its path reached.
    func testAPathThatDoesNotResolveChangesNothingAndDamagesWhereItStopped() {
        let document = started(#"{"r":[{"id":"a"},{"id":"b","x":5}],"s":"t"}"#)
        let before = text(document)
        // A missing key in the middle of the path: the element that lacks it.
        XCTAssertThrowsError(try document.set([.key("r"), .index(0), .key("result"), .key("n")], to: bytes("1")))
        // An index past the end of the array: the array.
        XCTAssertThrowsError(try document.set([.key("r"), .index(3), .key("n")], to: bytes("1")))
        // Appending to a number, and cutting beyond an array's length.
        XCTAssertThrowsError(try document.append([.key("r"), .index(1), .key("x")], elements: [], cut: nil))
        // A key step into a string.
        XCTAssertThrowsError(try document.delete([.key("s"), .key("k")]))
        XCTAssertEqual(text(document), before)
        XCTAssertEqual(
            document.damage.paths,
            [[.key("r")], [.key("s")]])
    }

    func testSetReplacesTheDamageOfWhatItReplacesAndASnapshotClearsAll() throws {
        let document = started(#"{"r":[{"id":"a"},{"id":"b"}]}"#)
        XCTAssertThrowsError(try document.set([.key("r"), .index(1), .key("x"), .key("y")], to: bytes("1")))
        XCTAssertEqual(document.damage.paths, [[.key("r"), .index(1)]])
        try document.set([.key("r"), .index(1)], to: bytes(#"{"id":"c"}"#))
        XCTAssertTrue(document.damage.isEmpty)
        XCTAssertThrowsError(try document.append([.key("r")], elements: [], cut: 5)) {
            XCTAssertEqual($0 as? JournalDocument.Failure, .badValue)
        }
        XCTAssertEqual(document.damage.paths, [[.key("r")]])
        document.snapshot(bytes("{}"))
        XCTAssertTrue(document.damage.isEmpty)
    }

    func testAnEmptyPathIsRefusedAndDamagesTheWholeDocument() {
        let document = started(#"{"a":1}"#)
        XCTAssertThrowsError(try document.set([], to: bytes("{}"))) { XCTAssertEqual($0 as? JournalDocument.Failure, .badPath) }
        XCTAssertEqual(document.damage.paths, [[]])
        XCTAssertEqual(text(document), #"{"a":1}"#)
    }

    func testDamageTouchesARecordThatHoldsItOrLiesInsideIt() {
        let damage = JournalDamage(paths: [[.key("r"), .index(1), .key("result")]])
        let requests = JSONPointer([.key("r")])
        XCTAssertTrue(damage.touches(requests, .index(1)))
        XCTAssertFalse(damage.touches(requests, .index(0)))
        XCTAssertFalse(damage.touches(JSONPointer([.key("pending")]), .index(1)))
        XCTAssertTrue(damage.touches(JSONPointer([]), nil))
        let whole = JournalDamage(paths: [[.key("r")]])
        XCTAssertTrue(whole.touches(requests, .index(7)))
        XCTAssertTrue(whole.touches(JSONPointer([.key("r"), .index(0), .key("parts")]), .index(0)))
    }

    func testTheTextIsRefusedBeyondTheLimit() throws {
        let document = started(#"{"a":[]}"#)
        try document.append([.key("a")], elements: Array(repeating: bytes("12345"), count: 10), cut: nil)
        let whole = try XCTUnwrap(text(document))
        XCTAssertEqual(text(document, limit: whole.utf8.count), whole)
        XCTAssertNil(text(document, limit: whole.utf8.count - 1))
    }

    func testKeysAreWrittenEscaped() throws {
        let document = started("{}")
        try document.set([.key("a\"b\\c\n")], to: bytes("1"))
        XCTAssertEqual(text(document), #"{"a\"b\\c\n":1}"#)
    }

    // MARK: Removed elements

    func testElementsCutFromAWatchedArrayAreKeptAsTheyWereAndOthersAreNot() throws {
        let document = JournalDocument(keepingRemovedFrom: [[.key("r")]])
        document.snapshot(bytes(#"{"id":"s","r":[{"n":1},{"n":2}],"other":[7,8]}"#))
        try document.set([.key("r"), .index(1), .key("n")], to: bytes("3"))
        try document.append([.key("r")], elements: [bytes(#"{"n":4}"#)], cut: 1)
        try document.append([.key("other")], elements: [], cut: 0)
        XCTAssertEqual(text(document), #"{"id":"s","r":[{"n":1},{"n":4}],"other":[]}"#)
        XCTAssertEqual(
            document.removedText(limit: 1 << 20).map { String(decoding: $0, as: UTF8.self) },
            #"{"id":"s","r":[{"n":3}],"other":[]}"#)
        // A snapshot (a compaction) keeps what was cut before it.
        document.snapshot(bytes(#"{"id":"s","r":[{"n":1},{"n":4}]}"#))
        XCTAssertEqual(
            document.removedText(limit: 1 << 20).map { String(decoding: $0, as: UTF8.self) }, #"{"id":"s","r":[{"n":3}]}"#)
    }

    func testNothingRemovedGivesNoSecondDocumentAndADamagedElementIsNotKept() throws {
        let document = JournalDocument(keepingRemovedFrom: [[.key("r")]])
        document.snapshot(bytes(#"{"r":[{"n":1},{"n":2}]}"#))
        XCTAssertNil(document.removedText(limit: 1 << 20))
        XCTAssertThrowsError(try document.set([.key("r"), .index(1), .key("a"), .key("b")], to: bytes("1")))
        try document.append([.key("r")], elements: [], cut: 1)
        XCTAssertEqual(document.removedDamaged, 1)
        XCTAssertNil(document.removedText(limit: 1 << 20))
    }
}
