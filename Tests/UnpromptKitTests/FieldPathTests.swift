import XCTest
@testable import UnpromptKit

final class FieldPathTests: XCTestCase {
    func parsed(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> FieldPath? {
        switch FieldPath.parse(text) {
        case .success(let path): return path
        case .failure(let error):
            XCTFail("'\(text)' should parse, got \(error)", file: file, line: line)
            return nil
        }
    }

    func failure(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> FieldPathError? {
        switch FieldPath.parse(text) {
        case .success(let path):
            XCTFail("'\(text)' should not parse, got \(path.components)", file: file, line: line)
            return nil
        case .failure(let error): return error
        }
    }

    func testDottedKeys() {
        let path = parsed("message.usage.input_tokens")
        XCTAssertEqual(path?.components, [.key("message"), .key("usage"), .key("input_tokens")])
        XCTAssertEqual(path?.fromRoot, false)
        XCTAssertEqual(path?.text, "message.usage.input_tokens")
        XCTAssertEqual(path?.description, "message.usage.input_tokens")
    }

    func testSingleKey() {
        XCTAssertEqual(parsed("timestamp")?.components, [.key("timestamp")])
    }

    func testArrayIndex() {
        XCTAssertEqual(parsed("messages[0].id")?.components, [.key("messages"), .index(0), .key("id")])
        XCTAssertEqual(parsed("a[12]")?.components, [.key("a"), .index(12)])
        XCTAssertEqual(parsed("a[1][2]")?.components, [.key("a"), .index(1), .index(2)])
    }

    func testLeadingIndex() {
        XCTAssertEqual(parsed("[3].x")?.components, [.index(3), .key("x")])
    }

    func testQuotedKeyHoldsDotsAndOpenBrackets() {
        XCTAssertEqual(parsed("uiEvent[\"event.name\"]")?.components, [.key("uiEvent"), .key("event.name")])
        XCTAssertEqual(parsed("a[\"x[y\"].b")?.components, [.key("a"), .key("x[y"), .key("b")])
        XCTAssertEqual(parsed("[\"a.b\"]")?.components, [.key("a.b")])
    }

    func testQuotedNumberIsAKeyNotAnIndex() {
        XCTAssertEqual(parsed("a[\"0\"]")?.components, [.key("a"), .key("0")])
    }

    func testFromRoot() {
        let path = parsed("^timestamp")
        XCTAssertEqual(path?.fromRoot, true)
        XCTAssertEqual(path?.components, [.key("timestamp")])
        XCTAssertEqual(path?.text, "^timestamp")
        XCTAssertEqual(parsed("^a[1].b")?.components, [.key("a"), .index(1), .key("b")])
    }

    func testDoubleDotPointsAtTheSecondDot() {
        XCTAssertEqual(failure("a..b"), FieldPathError(offset: 2, message: "empty key in path"))
    }

    func testUnclosedBracket() {
        XCTAssertEqual(failure("a["), FieldPathError(offset: 1, message: "unclosed '['"))
        XCTAssertEqual(failure("abc.d[0"), FieldPathError(offset: 5, message: "unclosed '['"))
    }

    func testBadIndexPointsInsideTheBrackets() {
        let expected = "expected an array index or a quoted key inside [ ]"
        XCTAssertEqual(failure("a[x]"), FieldPathError(offset: 2, message: expected))
        XCTAssertEqual(failure("a[-1]"), FieldPathError(offset: 2, message: expected))
        XCTAssertEqual(failure("a[]"), FieldPathError(offset: 2, message: expected))
        XCTAssertEqual(failure("a[\"]"), FieldPathError(offset: 1, message: "unclosed '['"), "a quoted key ends only at \"]")
    }

    func testEmptyQuotedKey() {
        XCTAssertEqual(failure("a[\"\"]"), FieldPathError(offset: 1, message: "empty quoted key"))
    }

    func testTrailingDot() {
        XCTAssertEqual(failure("a."), FieldPathError(offset: 1, message: "path ends with '.'"))
        XCTAssertEqual(failure("a[0]."), FieldPathError(offset: 4, message: "path ends with '.'"))
    }

    func testLeadingDot() {
        XCTAssertEqual(failure(".a"), FieldPathError(offset: 0, message: "empty key in path"))
    }

    func testKeyDirectlyAfterBracket() {
        XCTAssertEqual(failure("a[0]b"), FieldPathError(offset: 4, message: "expected '.' or '[' after ']'"))
    }

    func testStrayCharactersInKey() {
        XCTAssertEqual(failure("a]"), FieldPathError(offset: 1, message: "unexpected character in key 'a]'"))
        XCTAssertEqual(failure("x.a\"b"), FieldPathError(offset: 3, message: "unexpected character in key 'a\"b'"))
        XCTAssertEqual(failure("a b"), FieldPathError(offset: 1, message: "unexpected character in key 'a b'"))
    }

    func testQuotedKeyMayHoldAClosingBracket() {
        XCTAssertEqual(parsed(#"a["x]"].b"#)?.components, [.key("a"), .key("x]"), .key("b")])
        XCTAssertEqual(failure(#"a["x"#)?.message, "unclosed '['")
    }

    func testEmptyPaths() {
        XCTAssertEqual(failure(""), FieldPathError(offset: 0, message: "empty path"))
        XCTAssertEqual(failure("^"), FieldPathError(offset: 0, message: "empty path"))
    }

    func testEqualPathsAreEqualAndHash() {
        XCTAssertEqual(parsed("a.b"), parsed("a.b"))
        XCTAssertNotEqual(parsed("a.b"), parsed("^a.b"))
        XCTAssertEqual(Set([parsed("a.b")!, parsed("a.b")!, parsed("a[0]")!]).count, 2)
    }
}
