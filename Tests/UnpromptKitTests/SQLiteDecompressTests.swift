import Foundation
import XCTest
@testable import UnpromptKit

/// `query.decompress`: BLOBs of a named column are zstd frames, decompressed into a text field before the
/// row's rules apply; a row whose BLOB does not decompress to text is skipped and counted, never read empty.
final class SQLiteDecompressTests: XCTestCase {
    var dir = ""

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("sqlite-zstd-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: dir)
    }

    func descriptor(sql: String, decompress: String = "decompress: { data: zstd }") throws -> Descriptor {
        try DescriptorLoader.load(
            text: """
                schema: 1
                id: t
                name: T
                inputs:
                  - format: sqlite
                    sources: [{ root: /nonexistent, glob: "*.db" }]
                    query: { sql: "\(sql)", \(decompress) }
                    records:
                      - name: r
                        decode: data
                        time: { path: t, as: epoch_s }
                        tokens: { input: data.in }
                        counting: { input_includes_cache: false, output_includes_reasoning: true }
                """, file: "t.yaml")
    }

    func read(_ d: Descriptor, _ rows: [(Int, String)]) throws -> SourceReadResult {
        let path = dir + "/t.db"
        let database = try Database(path: path, options: [.readWrite, .create])
        try database.execute("CREATE TABLE t (n INTEGER, t INTEGER, kind TEXT, data BLOB)")
        for (n, value) in rows { try database.execute("INSERT INTO t VALUES (\(n), 1000, 'x', \(value))") }
        return try SourceReaders.make(CompiledInput(d.inputs[0], descriptor: d), timeZone: TimeZone(identifier: "UTC")!)
            .read(path: path, sourceKey: "k", from: 0, state: SourceState())
    }

    /// `{"in": 5}` as a zstd frame, written from a stream (no size in the header).
    static let five = "X'28b52ffd04584900007b22696e223a20357dda8626e3'"

    func testCompressedTextAndPlainRowsTogether() throws {
        let d = try descriptor(sql: "SELECT n, t, CASE kind WHEN 'x' THEN data END AS data FROM t ORDER BY n")
        let r = try read(d, [
            (1, Self.five),
            (2, "CAST('{\"in\": 7}' AS TEXT)"),  // text is taken as it is
            (3, "NULL"),
            (4, "X'\(ZstdTests.hundred.map { String(format: "%02x", $0) }.joined())'"),  // text, but not JSON
        ])
        XCTAssertEqual(r.events.map(\.counts.input), [5, 7])
        XCTAssertEqual(r.skipped, ["no-usage": 1, "malformed-embedded-json": 1], "NULL has no usage; text that is not JSON is malformed")
        XCTAssertEqual(r.problems, [ReadProblem(line: 4, reason: "malformed-embedded-json")])
    }

    func testRowsThatDoNotDecompressToTextAreSkippedAndCounted() throws {
        let d = try descriptor(sql: "SELECT n, t, data FROM t ORDER BY n")
        let r = try read(d, [
            (1, "X'7b22696e223a20357d'"),  // {"in": 5} stored uncompressed as a BLOB: not zstd
            (2, String(Self.five.dropLast(5)) + "'"),  // cut short
            (3, "X'28b52ffd0458110000fffe1f8e10e3'"),  // decompresses to bytes that are not UTF-8
            (4, Self.five),
        ])
        XCTAssertEqual(r.events.map(\.counts.input), [5])
        XCTAssertEqual(r.skipped, ["bad-compressed-data": 3])
        XCTAssertEqual(r.problems.map(\.line), [1, 2, 3])
        XCTAssertEqual(r.lines, 4)
    }

    func testWithoutDecompressAZstdBlobIsNoText() throws {
        let d = try descriptor(sql: "SELECT n, t, data FROM t", decompress: "requires: t")
        let r = try read(d, [(1, Self.five)])
        XCTAssertEqual(r.skipped, ["no-usage": 1])
    }

    func testLoaderChecksDecompress() {
        for (text, message) in [
            ("decompress: { data: gzip }", "decompress.data must be one of: zstd; found 'gzip'"),
            ("decompress: zstd", "decompress must map column names to a compression"),
        ] {
            XCTAssertThrowsError(try descriptor(sql: "SELECT 1", decompress: text)) { error in
                XCTAssertTrue("\(error)".contains(message), "\(error)")
            }
        }
    }
}
