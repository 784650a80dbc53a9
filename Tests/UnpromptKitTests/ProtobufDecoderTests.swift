import Foundation
import XCTest
@testable import UnpromptKit

/// `messages` and `query.protobuf`: declared fields of a BLOB become JSON fields, by protobuf's own rules; every
/// other field is stepped over unread, and bytes that are not the declared encoding refuse the row.
final class ProtobufDecoderTests: XCTestCase {
    static let messages = """
        messages:
          Usage:
            input: { field: 2, type: uint64 }
            output: { field: 3, type: uint64 }
            id: { field: 11, type: string }
            signed: { field: 6, type: int64 }
            zigzag: { field: 7, type: sint64 }
            ratio: { field: 8, type: double }
            at: { field: 9, type: timestamp }
            tags: { field: 10, type: uint32, repeated: true }
            part: { field: 12, type: Part }
          Part:
            a: { field: 1, type: uint64 }
            b: { field: 2, type: uint64 }
          Node:
            child: { field: 1, type: Node }
        """

    func descriptor(sql: String = "SELECT n, data FROM t ORDER BY n", protobuf: String = "protobuf: { data: Usage }") throws -> Descriptor {
        try DescriptorLoader.load(
            text: """
                schema: 1
                id: t
                name: T
                \(Self.messages)
                inputs:
                  - format: sqlite
                    sources: [{ root: /nonexistent, glob: "*.db" }]
                    query: { sql: "\(sql)", \(protobuf) }
                    records:
                      - name: r
                        time: { path: data.at, as: epoch_ms }
                        identity: { key: data.id, keep: first }
                        tokens: { input: data.input, output: data.output }
                        counting: { input_includes_cache: false, output_includes_reasoning: true }
                """, file: "t.yaml")
    }

    func decode(_ hex: String, as root: String = "Usage") throws -> String {
        let d = try descriptor()
        guard case .sqlite(let queries) = d.inputs[0].formatRules, let columns = queries[0].protobuf else {
            XCTFail("no protobuf columns")
            return ""
        }
        return String(decoding: try ProtobufDecoder(messages: columns.messages).json(Self.bytes(hex), as: root), as: UTF8.self)
    }

    static func bytes(_ hex: String) -> [UInt8] {
        let digits = Array(hex.filter { !$0.isWhitespace })
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16)! }
    }

    /// Every kind of field, written by hand from the wire format's rules.
    func testDeclaredFieldsBecomeJSONInDeclaredOrder() throws {
        let hex = """
            10 ac02
            18 05
            5a 02 7231
            22 06 43414e415259
            30 ffffffffffffffffff01
            38 05
            41 000000000000f83f
            4a 0b 08 80f2d6ca06 10 80e59a77
            52 04 01 02 ac02
            50 07
            62 02 0801
            62 02 1002
            18 09
            """
        // input 300 (a two-byte varint); output 5 then 9: the last wins; id "r1"; field 4 (the text "CANARY") is
        // not declared and never read; signed -1 (ten bytes); zigzag 5 is -3; ratio 1.5; at 1767225600 s +
        // 250,000,000 ns is 1767225600250 ms; tags packed [1, 2, 300] then one more 7; part {a: 1} and {b: 2}
        // merge.
        XCTAssertEqual(
            try decode(hex),
            #"{"input":300,"output":9,"id":"r1","signed":-1,"zigzag":-3,"ratio":1.5,"at":1767225600250,"tags":[1,2,300,7],"part":{"a":1,"b":2}}"#)
    }

    func testBytesThatAreNotTheDeclaredEncodingAreRefused() throws {
        for (hex, why) in [
            ("12 00", "a declared varint field written length-delimited"),
            ("0b", "a group (wire type 3)"),
            ("0e", "a reserved wire type (6)"),
            ("10 ffffffffffffffffff02", "a varint past 64 bits"),
            ("10 ffffffffffffffffffff01", "a varint of 11 bytes"),
            ("5a 05 61", "a length past the end"),
            ("5a 01 ff", "a string that is not UTF-8"),
            ("10", "a tag with no value"),
            ("22 09 00", "an undeclared field whose length runs past the end"),
        ] {
            XCTAssertThrowsError(try decode(hex), why)
        }
        XCTAssertEqual(try decode(""), "{}", "an empty message is a message")
    }

    func testNestingIsBounded() throws {
        func nested(_ depth: Int) -> String {
            var bytes: [UInt8] = []
            for _ in 0..<depth { bytes = [0x0a] + Self.varintBytes(bytes.count) + bytes }
            return bytes.map { String(format: "%02x", $0) }.joined()
        }
        XCTAssertNoThrow(try decode(nested(63), as: "Node"))
        XCTAssertThrowsError(try decode(nested(64), as: "Node"))
    }

    static func varintBytes(_ value: Int) -> [UInt8] {
        var n = UInt64(value)
        var out: [UInt8] = []
        repeat {
            let low = UInt8(n & 0x7f)
            n >>= 7
            out.append(n == 0 ? low : low | 0x80)
        } while n != 0
        return out
    }

    /// Through the reader: rows decode and count; a row that does not decode, or is not a BLOB, is skipped and
    /// counted as bad-protobuf; a NULL column is absent.
    func testRowsAreReadThroughTheirMessages() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("protobuf-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/t.db"
        let database = try Database(path: path, options: [.readWrite, .create])
        try database.execute("CREATE TABLE t (n INTEGER, data BLOB)")
        // input 100, output 7, id "a", at 1767225600 s.
        let good = "10 64 18 07 5a 01 61 4a 06 08 80f2d6ca06"
        for (n, value) in [
            (1, "X'\(good.filter { !$0.isWhitespace })'"), (2, "X'10'"), (3, "'text'"), (4, "NULL"),
            (5, "X'\(good.filter { !$0.isWhitespace })'"),
        ] {
            try database.execute("INSERT INTO t VALUES (\(n), \(value))")
        }
        let d = try descriptor()
        let r = try SourceReaders.make(CompiledInput(d.inputs[0], descriptor: d), timeZone: TimeZone(identifier: "UTC")!)
            .read(path: path, sourceKey: "k", from: 0, state: SourceState())
        XCTAssertEqual(r.events.map(\.counts.input), [100, 100], "one read gives both copies; identities count them once")
        XCTAssertEqual(r.events.map(\.counts.output), [7, 7])
        XCTAssertEqual(r.events.first?.time, 1_767_225_600_000)
        XCTAssertEqual(r.skipped["bad-protobuf"], 2)
        XCTAssertEqual(
            r.problems,
            [ReadProblem(line: 2, reason: "bad-protobuf"), ReadProblem(line: 3, reason: "bad-protobuf"), ReadProblem(line: 4, reason: "bad-time")],
            "a NULL column is absent, so that row has no time")
    }

    func testMistakesInMessagesNameTheirPlace() throws {
        func error(_ messages: String, protobuf: String = "protobuf: { data: Usage }") -> String {
            do {
                _ = try DescriptorLoader.load(
                    text: """
                        schema: 1
                        id: t
                        name: T
                        messages:
                        \(messages)
                        inputs:
                          - format: sqlite
                            sources: [{ root: /nonexistent, glob: "*.db" }]
                            query: { sql: "SELECT data FROM t", \(protobuf) }
                            records:
                              - name: r
                                time: t
                                tokens: { input: data.input }
                                counting: { input_includes_cache: false, output_includes_reasoning: true }
                        """, file: "t.yaml")
                return "loaded"
            } catch {
                return error.description
            }
        }
        XCTAssertEqual(
            error("  Usage:\n    input: { field: 2, type: Count }"),
            "t.yaml:6:30: type 'Count' is neither a declared message nor one of: uint64, int64, uint32, int32, bool, enum, sint32, sint64, fixed64, sfixed64, double, fixed32, sfixed32, float, string, timestamp")
        XCTAssertEqual(
            error("  Usage:\n    input: { field: 2, type: uint64 }\n    output: { field: 2, type: uint64 }"),
            "t.yaml:7:13: field 2 is already Usage.input")
        XCTAssertEqual(
            error("  Usage:\n    input: { field: 0, type: uint64 }"),
            "t.yaml:6:21: field must be a whole number from 1 to 536870911 (field: the field's number on the wire)")
        XCTAssertEqual(
            error("  Usage:\n    input: { field: 2, type: uint64 }", protobuf: "protobuf: { data: Usge }"),
            "t.yaml:10:59: 'Usge' is not a message of this descriptor's messages (Usage)")
        XCTAssertEqual(
            error("  Usage:\n    input: { feld: 2, type: uint64 }"),
            "t.yaml:6:14: unknown key 'feld' in Usage.input; expected one of: field, type, repeated (did you mean 'field': the field's number on the wire?)")
    }
}
