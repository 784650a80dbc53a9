import UnpromptTestSupport
import XCTest

@testable import UnpromptKit

/// Paths are bytes (`SystemPath`): every byte string, UTF-8 or not, gives a path that gives back exactly its
/// bytes, and a UTF-8 path is its own text.
final class SystemPathTests: XCTestCase {
    func spelled(_ bytes: [UInt8]) -> String { bytes.withUnsafeBytes { SystemPath.string($0) } }

    func testNonUTF8NamesRoundTripByteForByte() {
        let cases: [[UInt8]] = [
            Array("plain/a.jsonl".utf8), Array("café/é".utf8), [0x62, 0xFF, 0x2E], [0x63, 0x61, 0x66, 0xE9],
            // A real U+10FF80 (F4 8F BE 80) is escaped too, so it cannot be mistaken for an escaped byte.
            [0xF4, 0x8F, 0xBE, 0x80], [0xF4, 0x8F, 0xBE], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0x80], [],
        ]
        for bytes in cases { XCTAssertEqual(SystemPath.bytes(spelled(bytes)), bytes, "\(bytes)") }
        XCTAssertEqual(spelled(Array("café/x".utf8)), "café/x", "a UTF-8 name is its own text")
        XCTAssertNotEqual(spelled([0xF4, 0x8F, 0xBE, 0x80]), spelled([0xBE, 0x80]))
        var random = SeededRandom(seed: 18)
        for _ in 0..<2000 {
            let bytes = (0..<random.below(12)).map { _ in UInt8(truncatingIfNeeded: random.next() | 1) }
            XCTAssertEqual(SystemPath.bytes(spelled(bytes)), bytes, "\(bytes)")
        }
    }

    func testNonUTF8NamesAreWalkedMatchedAndOpened() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("unprompt-bytes-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let folder = root + "/" + spelled([0x63, 0x61, 0x66, 0xE9])
        XCTAssertEqual(SystemPath.withCString(folder) { mkdir($0, 0o755) }, 0)
        let file = folder + "/" + spelled([0x62, 0xFF]) + ".jsonl"
        let fd = SystemPath.withCString(file) { open($0, O_WRONLY | O_CREAT, 0o644) }
        XCTAssertGreaterThanOrEqual(fd, 0)
        close(fd)
        var found: [String] = []
        var examined: [Int64] = []
        DirectoryWalk.walk(
            root, relative: [], descend: { _ in true },
            file: { file in
                found.append(file.path)
                // Examined by its name in its open folder: the name's own bytes reach the system.
                if let info = file.status() { examined.append(Int64(info.st_size)) }
            })
        XCTAssertEqual(found, [file])
        XCTAssertEqual(examined, [0])
        XCTAssertTrue(try Glob.parse("*/*.jsonl").get().matches(["caf\u{10FFE9}", "b\u{10FFFF}.jsonl"]))
        let opened = SystemPath.openForReading(file)
        XCTAssertGreaterThanOrEqual(opened, 0)
        close(opened)
    }
}
