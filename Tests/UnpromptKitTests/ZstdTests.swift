import Foundation
import XCTest
@testable import UnpromptKit

/// zstd frames as the zstd tool (and Zed, through the Rust zstd crate) writes them.
final class ZstdTests: XCTestCase {
    static func bytes(_ hex: String) -> Data {
        var data = Data()
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            data.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return data
    }

    /// `{"a":1}` in a frame that states its size, and in one written from a stream (no size).
    static let sized = bytes("28b52ffd24073900007b2261223a317d488bfc32")
    static let streamed = bytes("28b52ffd04583900007b2261223a317d488bfc32")
    /// "hello " and "world", two frames one after the other.
    static let twoFrames = bytes("28b52ffd045831000068656c6c6f20d23be1a928b52ffd0458290000776f726c64ef51ee66")
    /// 100 × "x".
    static let hundred = bytes("28b52ffd045845000010787801003f012c94c0a388")

    func text(_ data: Data, limit: Int = 1 << 20) throws -> String {
        String(decoding: try Zstd.decompress(data, limit: limit), as: UTF8.self)
    }

    func testFramesWithAndWithoutTheirSize() throws {
        XCTAssertEqual(try text(Self.sized), #"{"a":1}"#)
        XCTAssertEqual(try text(Self.streamed), #"{"a":1}"#)
    }

    func testConcatenatedFramesAreOneText() throws {
        XCTAssertEqual(try text(Self.twoFrames), "hello world")
    }

    func testLimit() throws {
        XCTAssertEqual(try text(Self.hundred, limit: 100), String(repeating: "x", count: 100))
        XCTAssertThrowsError(try text(Self.hundred, limit: 99)) { error in
            XCTAssertEqual((error as? Zstd.Failure)?.tooLarge, true)
        }
    }

    func testDamagedCutShortEmptyAndForeignDataFail() {
        let cases: [(String, Data)] = [
            ("cut short", Self.sized.dropLast(4)),
            ("cut after the first frame's header", Self.twoFrames.prefix(8)),
            ("damaged", { var d = Self.streamed; d[9] ^= 0xFF; return d }()),
            ("plain JSON", Data(#"{"a":1}"#.utf8)),
            ("empty", Data()),
        ]
        for (name, data) in cases {
            XCTAssertThrowsError(try text(data), name) { error in
                XCTAssertEqual((error as? Zstd.Failure)?.tooLarge, false, name)
            }
        }
    }
}
