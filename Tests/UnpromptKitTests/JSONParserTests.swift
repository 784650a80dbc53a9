import Testing
import UnpromptKit

/// A copy of a `JSONValue` that outlives the parse and compares with `==`.
private enum Plain: Equatable {
    case null, bool(Bool), int(Int64), uint(UInt64), double(Double), string(String), array, object
}

private func plain(_ value: JSONValue?) -> Plain? {
    switch value {
    case nil: nil
    case .null: .null
    case .bool(let b): .bool(b)
    case .int(let i): .int(i)
    case .uint(let u): .uint(u)
    case .double(let d): .double(d)
    case .string(let bytes): .string(String(decoding: bytes, as: UTF8.self))
    case .array: .array
    case .object: .object
    }
}

private func path(_ components: JSONPointer.Component...) -> JSONPointer { JSONPointer(components) }

/// Calls `body` with `bytes` followed by `JSONParser.padding` bytes of `padding`, as `parse(_:count:)` requires.
private func withPadded<R>(_ bytes: [UInt8], padding: UInt8 = UInt8(ascii: " "),
                           _ body: (UnsafeRawPointer, Int) throws -> R) rethrows -> R {
    try (bytes + repeatElement(padding, count: JSONParser.padding)).withUnsafeBytes { try body($0.baseAddress!, bytes.count) }
}

/// Parses `text` in place and returns `plain` of the value at `pointer`.
private func lookup(_ text: String, _ pointer: JSONPointer) throws -> Plain? {
    let parser = JSONParser()
    return try withPadded(Array(text.utf8)) { base, count in
        plain(parser.value(at: pointer, in: try parser.parse(base, count: count)))
    }
}

/// `parser.parse(copying:)` of the UTF-8 of `text`.
private func parse(_ parser: JSONParser, copying text: String) throws -> JSONRef {
    try Array(text.utf8).withUnsafeBytes { try parser.parse(copying: $0) }
}

private func minified(_ parser: JSONParser, _ ref: JSONRef) -> String {
    parser.withMinifiedJSON(of: ref) { String(decoding: $0, as: UTF8.self) }
}

@Suite struct JSONParserTests {
    @Test func nestedKeys() throws {
        let doc = #"{"a":{"b":{"c":42,"d":"x"}},"e":true}"#
        #expect(try lookup(doc, path(.key("a"), .key("b"), .key("c"))) == .int(42))
        #expect(try lookup(doc, path(.key("a"), .key("b"), .key("d"))) == .string("x"))
        #expect(try lookup(doc, path(.key("e"))) == .bool(true))
        #expect(try lookup(doc, path(.key("a"), .key("b"))) == .object)
        #expect(try lookup(doc, path()) == .object)
        #expect(try lookup(doc, path(.key("a"), .key("zz"))) == nil)
    }

    @Test func arrayIndexes() throws {
        let doc = #"{"a":[10,{"x":"y"},[7,8]],"10":"key"}"#
        #expect(try lookup(doc, path(.key("a"), .index(0))) == .int(10))
        #expect(try lookup(doc, path(.key("a"), .index(1), .key("x"))) == .string("y"))
        #expect(try lookup(doc, path(.key("a"), .index(2), .index(1))) == .int(8))
        #expect(try lookup(doc, path(.key("a"), .index(3))) == nil)
        #expect(try lookup(doc, path(.key("a"), .key("x"))) == nil)
        // RFC 6901: an index applied to an object is a key.
        #expect(try lookup(doc, path(.index(10))) == .string("key"))
    }

    @Test func keysWithSlashAndTilde() throws {
        let doc = #"{"a/b":1,"c~d":2,"~1":3,"~0/":4,"a":{"b":5}}"#
        #expect(try lookup(doc, path(.key("a/b"))) == .int(1))
        #expect(try lookup(doc, path(.key("c~d"))) == .int(2))
        #expect(try lookup(doc, path(.key("~1"))) == .int(3))
        #expect(try lookup(doc, path(.key("~0/"))) == .int(4))
        #expect(try lookup(doc, path(.key("a"), .key("b"))) == .int(5))
        #expect(JSONPointer([.key("a/b"), .index(3)]) == JSONPointer([.key("a/b"), .index(3)]))
        #expect(JSONPointer([.key("a/b")]) != JSONPointer([.key("a"), .key("b")]))
    }

    @Test func integers() throws {
        let doc = #"[18446744073709551615, 9223372036854775808, 9223372036854775807, -9223372036854775808, 0, -1]"#
        #expect(try lookup(doc, path(.index(0))) == .uint(UInt64.max))
        #expect(try lookup(doc, path(.index(1))) == .uint(UInt64(Int64.max) + 1))
        #expect(try lookup(doc, path(.index(2))) == .int(Int64.max))
        #expect(try lookup(doc, path(.index(3))) == .int(Int64.min))
        #expect(try lookup(doc, path(.index(4))) == .int(0))
        #expect(try lookup(doc, path(.index(5))) == .int(-1))
    }

    @Test func doubles() throws {
        let doc = #"[1.5, -2e-3, 1.0, 1e308, 0.1, 1.8446744073709552e19]"#
        #expect(try lookup(doc, path(.index(0))) == .double(1.5))
        #expect(try lookup(doc, path(.index(1))) == .double(-0.002))
        #expect(try lookup(doc, path(.index(2))) == .double(1.0))
        #expect(try lookup(doc, path(.index(3))) == .double(1e308))
        #expect(try lookup(doc, path(.index(4))) == .double(0.1))
        #expect(try lookup(doc, path(.index(5))) == .double(18446744073709551616.0))
        // simdjson 3 rejects integers beyond UInt64 instead of rounding them to a double.
        #expect(throws: JSONParseError.self) { try lookup("[18446744073709551616]", path()) }
    }

    @Test func nullVersusAbsent() throws {
        let doc = #"{"n":null,"s":"v"}"#
        #expect(try lookup(doc, path(.key("n"))) == .null)
        #expect(try lookup(doc, path(.key("missing"))) == nil)
        #expect(try lookup(doc, path(.key("n"), .key("deeper"))) == nil)
        #expect(try lookup(doc, path(.key("s"), .index(0))) == nil)
    }

    @Test func stringEscapes() throws {
        let doc = #"{"s":"caf\u00e9\n\"q\"\\ \ud83d\ude00 \t/"}"#
        #expect(try lookup(doc, path(.key("s"))) == .string("café\n\"q\"\\ 😀 \t/"))
    }

    @Test func parsesOnlyCountBytesOfALargerBuffer() throws {
        let parser = JSONParser()
        let buffer = Array(#"{"a":1}{"a":2}"#.utf8) + Array("\n[1,2".utf8) + Array("]\n".utf8)
        try withPadded(buffer, padding: UInt8(ascii: "]")) { base, _ throws in
            #expect(plain(parser.value(at: path(.key("a")), in: try parser.parse(base, count: 7))) == .int(1))
            #expect(plain(parser.value(at: path(.key("a")), in: try parser.parse(base + 7, count: 7))) == .int(2))
            // "[1,2" is only completed by the byte after `count`, which must not be read as input.
            #expect(throws: JSONParseError.self) { try parser.parse(base + 15, count: 4) }
            #expect(parser.elements(of: try parser.parse(base + 15, count: 5)).count == 2)
        }
        // The padding contents never matter.
        for fill in [0, UInt8(ascii: "\""), UInt8(ascii: "}"), 0xff] {
            try withPadded(Array(#"{"k":"v"}"#.utf8), padding: fill) { base, count in
                let root = try parser.parse(base, count: count)
                #expect(plain(parser.value(at: path(.key("k")), in: root)) == .string("v"))
            }
        }
    }

    @Test func malformedJSONThrowsWithMessage() throws {
        let parser = JSONParser()
        for text in [#"{"a":}"#, #"{"a":1"#, "[1,2", #"{"a" 1}"#, "tru", #""unterminated"#, "", "   ", "1 2"] {
            let error = #expect(throws: JSONParseError.self, "\(text)") {
                try withPadded(Array(text.utf8)) { try parser.parse($0, count: $1) }
            }
            #expect(error?.message.isEmpty == false)
            #expect(error?.description == error?.message)
        }
        #expect(throws: JSONParseError.self) { try withPadded([0x22, 0xff, 0x22]) { try parser.parse($0, count: $1) } }
        // The parser still works after failures.
        #expect(try parser.value(of: withPadded(Array("7".utf8)) { try parser.parse($0, count: $1) }).isInt(7))
    }

    @Test func reuseAcrossManyDocuments() throws {
        let parser = JSONParser()
        for i in 0..<20_000 {
            let text = i % 3 == 0
                ? #"{"i":\#(i),"tags":["a","b"],"pad":"\#(String(repeating: "x", count: i % 700))"}"#
                : #"[\#(i),{"i":\#(i)}]"#
            let expected = try withPadded(Array(text.utf8)) { base, count -> Plain? in
                let root = try parser.parse(base, count: count)
                return plain(parser.value(at: i % 3 == 0 ? path(.key("i")) : path(.index(1), .key("i")), in: root))
            }
            #expect(expected == .int(Int64(i)))
            if i % 1000 == 1 { #expect(throws: JSONParseError.self) { try parser.parse(copying: UnsafeRawBufferPointer(start: nil, count: 0)) } }
        }
    }

    @Test func largeDocument() throws {
        let parser = JSONParser()
        let big = String(repeating: "abcdefghij", count: 500_000)
        let text = #"{"before":1,"big":"\#(big)","after":[true,false]}"#
        try withPadded(Array(text.utf8)) { base, count in
            let root = try parser.parse(base, count: count)
            guard case .string(let bytes)? = parser.value(at: path(.key("big")), in: root) else {
                Issue.record("big is not a string"); return
            }
            #expect(bytes.count == 5_000_000)
            #expect(bytes.elementsEqual(big.utf8))
            #expect(plain(parser.value(at: path(.key("after"), .index(1)), in: root)) == .bool(false))
        }
        // A small document after a large one.
        #expect(try parser.value(of: parse(parser, copying: "[]")).isArray)
    }

    @Test func arrayAndObjectIteration() throws {
        let parser = JSONParser()
        let numbers = (0..<1000).map(String.init).joined(separator: ",")
        let text = #"{"z":[\#(numbers)],"a":{"y":1,"b":"two","x/~":null},"m":[{"id":1},{"id":2},{"id":3}],"e":[],"o":{}}"#
        try withPadded(Array(text.utf8)) { base, count in
            let root = try parser.parse(base, count: count)
            let entries = parser.entries(of: root)
            #expect(entries.map(\.key) == ["z", "a", "m", "e", "o"])

            let elements = parser.elements(of: entries[0].value)
            #expect(elements.count == 1000)
            #expect(elements.map { plain(parser.value(of: $0)) } == (0..<1000).map { .int(Int64($0)) })

            let inner = parser.entries(of: entries[1].value)
            #expect(inner.map(\.key) == ["y", "b", "x/~"])
            #expect(inner.map { plain(parser.value(of: $0.value)) } == [.int(1), .string("two"), .null])

            let ids = parser.elements(of: entries[2].value).map { plain(parser.value(at: path(.key("id")), in: $0)) }
            #expect(ids == [.int(1), .int(2), .int(3)])

            #expect(parser.elements(of: entries[3].value).isEmpty)
            #expect(parser.entries(of: entries[4].value).isEmpty)
            #expect(parser.elements(of: root).isEmpty)
            #expect(parser.entries(of: entries[0].value).isEmpty)
            #expect(parser.elements(of: inner[0].value).isEmpty)
            // value(of:) hands a container back under the same ref.
            guard case .array(let same) = parser.value(of: entries[0].value) else { Issue.record("not an array"); return }
            #expect(same == entries[0].value)
        }
    }

    @Test func minifiedJSON() throws {
        let parser = JSONParser()
        let text = #" { "a" : [ 1 , 2.5 , true , null ] ,"b" : { "c" : "d\u00e9\n" } , "u" : 18446744073709551615 } "#
        try withPadded(Array(text.utf8)) { base, count in
            let root = try parser.parse(base, count: count)
            #expect(minified(parser, root) == #"{"a":[1,2.5,true,null],"b":{"c":"dé\n"},"u":18446744073709551615}"#)
            guard case .object(let b)? = parser.value(at: path(.key("b")), in: root) else { Issue.record("no b"); return }
            #expect(minified(parser, b) == #"{"c":"dé\n"}"#)
            #expect(minified(parser, parser.elements(of: parser.entries(of: root)[0].value)[1]) == "2.5")
        }
    }

    @Test func parseCopying() throws {
        let parser = JSONParser()
        let bytes = Array(#"{"inner":"{\"x\":[5,{\"y\":\"z\"}]}","n":3}"#.utf8)  // no padding
        let root = try bytes.withUnsafeBytes { try parser.parse(copying: $0) }
        #expect(plain(parser.value(at: path(.key("n")), in: root)) == .int(3))
        guard case .string(let inner)? = parser.value(at: path(.key("inner")), in: root) else {
            Issue.record("inner is not a string"); return
        }
        // The string lives in the parser's own memory, which the new parse reuses.
        let innerRoot = try parser.parse(copying: inner)
        #expect(plain(parser.value(at: path(.key("x"), .index(1), .key("y")), in: innerRoot)) == .string("z"))
        #expect(throws: JSONParseError.self) { try parse(parser, copying: "[") }
    }

    @Test func staleRefTraps() async {
        await #expect(processExitsWith: .failure) {
            let parser = JSONParser()
            let old = try parse(parser, copying: "[1]")
            _ = try parse(parser, copying: "[2]")
            _ = parser.value(of: old)
        }
    }

    @Test(arguments: [0, 1, 63, 64, 65, 1 << 20])
    func byteCount(size: Int) {
        // Newlines at the ends and at a spread of positions, counted from offset 0 and 1 (unaligned).
        var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: size + 1)
        for i in stride(from: 0, to: bytes.count, by: 7) where i % 3 != 1 { bytes[i] = UInt8(ascii: "\n") }
        bytes[bytes.count - 1] = UInt8(ascii: "\n")
        bytes.withUnsafeBytes { all in
            for offset in [0, 1] where offset <= size {
                let slice = UnsafeRawBufferPointer(rebasing: all[offset..<(offset + size)])
                #expect(ByteCount.count(UInt8(ascii: "\n"), in: slice) == slice.filter { $0 == UInt8(ascii: "\n") }.count)
                #expect(ByteCount.count(UInt8(ascii: "x"), in: slice) == slice.filter { $0 == UInt8(ascii: "x") }.count)
            }
            #expect(ByteCount.count(0xff, in: all) == 0)
        }
        #expect(ByteCount.count(0, in: UnsafeRawBufferPointer(start: nil, count: 0)) == 0)
    }
}

extension JSONValue {
    fileprivate func isInt(_ expected: Int64) -> Bool { if case .int(expected) = self { true } else { false } }
    fileprivate var isArray: Bool { if case .array = self { true } else { false } }
}
