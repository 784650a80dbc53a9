internal import CSimdJSON
import Foundation

/// A JSON pointer (RFC 6901) compiled once from path components, so lookups in the hot loop allocate nothing.
///
/// A `.index(n)` component selects the n-th element of an array; applied to an object it
/// selects the key `"n"`, as RFC 6901 specifies.
public struct JSONPointer: Sendable, Hashable {
    public enum Component: Sendable, Hashable {
        case key(String)
        /// Must not be negative.
        case index(Int)
    }

    public let components: [Component]
    /// The encoded pointer text, e.g. `/a~1b/0` for `[.key("a/b"), .index(0)]`.
    private let encoded: [UInt8]

    /// Encodes the components, escaping `~` as `~0` and `/` as `~1` inside keys.
    public init(_ components: [Component]) {
        precondition(components.allSatisfy { if case .index(let i) = $0 { i >= 0 } else { true } },
                     "JSONPointer index must not be negative")
        self.components = components
        var encoded: [UInt8] = []
        for component in components {
            encoded.append(UInt8(ascii: "/"))
            switch component {
            case .key(let key):
                for byte in key.utf8 {
                    switch byte {
                    case UInt8(ascii: "~"): encoded += "~0".utf8
                    case UInt8(ascii: "/"): encoded += "~1".utf8
                    default: encoded.append(byte)
                    }
                }
            case .index(let index):
                encoded += String(index).utf8
            }
        }
        self.encoded = encoded
    }

    fileprivate func withEncoded<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        encoded.withUnsafeBufferPointer(body)
    }
}

/// A node of the most recent parse of one `JSONParser`, to be used only with that parser and only
/// until it parses again; using it afterwards is a programming error and traps.
public struct JSONRef: Sendable, Hashable {
    fileprivate let generation: UInt32
    fileprivate let handle: UInt32
}

/// A JSON value. `string` bytes are unescaped UTF-8 owned by the parser, valid until its next parse.
public enum JSONValue {
    case null
    case bool(Bool)
    /// Integers that fit `Int64`.
    case int(Int64)
    /// Integers above `Int64.max`. (A document with an integer outside both types fails to parse.)
    case uint(UInt64)
    /// Numbers written with a fraction or exponent, even `1.0`.
    case double(Double)
    case string(UnsafeRawBufferPointer)
    case array(JSONRef)
    case object(JSONRef)
}

/// Why a document failed to parse.
public struct JSONParseError: Error, Sendable, CustomStringConvertible {
    public let message: String
    /// The bytes are not valid UTF-8 (and may be well-formed JSON otherwise).
    public let invalidUTF8: Bool
    public var description: String { message }
}

/// A reusable simdjson DOM parser. It keeps its buffers between documents, so parsing many
/// documents with one parser allocates only when a document is larger than any before.
///
/// Not thread-safe: keep one per thread (or task), and use its `JSONRef`s and string bytes
/// only until its next parse. Out-of-memory inside simdjson traps.
public final class JSONParser {
    /// Readable bytes that `parse(_:count:)` needs after the input.
    public static var padding: Int { ujson_padding() }

    private let raw: OpaquePointer
    // The state below is read for every value of every record. A parser is used by one thread, and none of its
    // methods calls back into it while it changes this state, so the exclusivity of each access is checked at
    // compile time only: the run-time check cost more than the reading itself.
    /// Incremented by each parse, so refs from older documents are detected.
    @exclusivity(unchecked) private var generation: UInt32 = 0
    /// Values found by the last `extract`, one per path of its set.
    @exclusivity(unchecked) private var extracted: [ujson_value] = []
    /// Bytes of invalid UTF-8 replaced in the current document (`parseLog`).
    @exclusivity(unchecked) private var replacedBytes = 0
    /// A string value of the current document holding a replaced byte has been read (`parseLog`) since the parse
    /// or the last `forgetReadReplacedText`.
    @exclusivity(unchecked) public private(set) var readReplacedText = false

    /// Starts noting afresh which values were read: before each record of a document is read.
    public func forgetReadReplacedText() { readReplacedText = false }
    /// Values of the last `readTable`, row by row.
    private var tableValues: [ujson_value] = []

    public init() {
        guard let raw = ujson_parser_new() else { fatalError("JSONParser: out of memory") }
        self.raw = raw
    }

    deinit { ujson_parser_free(raw) }

    /// Parses exactly `count` bytes at `base` in place (no copy). `JSONParser.padding` more bytes
    /// after them must be readable; they are not modified and do not affect the result, so they
    /// may belong to the next line. Returns the root.
    public func parse(_ base: UnsafeRawPointer, count: Int) throws(JSONParseError) -> JSONRef {
        try parse(base, count: count, copy: false)
    }

    /// Copies `bytes` into a reused, padded internal buffer, then parses them: for small documents,
    /// and JSON found inside a string field (`bytes` may be a `.string` of this parser's current
    /// document). Returns the root.
    public func parse(copying bytes: UnsafeRawBufferPointer) throws(JSONParseError) -> JSONRef {
        try parse(bytes.baseAddress, count: bytes.count, copy: true)
    }

    /// Parses a log's line or document in place, as `parse(_:count:)` does; one that fails only for bytes that are
    /// not UTF-8 (inside a prompt, say) is parsed again from a copy with each such byte replaced by DEL. A value
    /// read from it that holds a replaced byte sets `readReplacedText`, so that a reader can refuse a record that
    /// depends on such text, while one that reads only good fields is read as if the bad bytes were not there.
    public func parseLog(_ base: UnsafeRawPointer, count: Int) throws(JSONParseError) -> JSONRef {
        do {
            return try parse(base, count: count)
        } catch where error.invalidUTF8 {
            generation &+= 1
            var replaced = 0
            let code = ujson_parse_replacing_invalid_utf8(raw, base.assumingMemoryBound(to: CChar.self), count, &replaced)
            try check(parse: code)
            replacedBytes = replaced
            return JSONRef(generation: generation, handle: 0)
        }
    }

    private func parse(_ base: UnsafeRawPointer?, count: Int, copy: Bool) throws(JSONParseError) -> JSONRef {
        precondition(count >= 0, "JSONParser: negative byte count")
        generation &+= 1
        try check(parse: ujson_parse(raw, base?.assumingMemoryBound(to: CChar.self), count, copy))
        return JSONRef(generation: generation, handle: 0)
    }

    /// Starts a new document's bookkeeping, and throws when it did not parse.
    private func check(parse code: Int32) throws(JSONParseError) {
        replacedBytes = 0
        readReplacedText = false
        guard code == 0 else {
            throw JSONParseError(message: String(cString: ujson_error_message(code)), invalidUTF8: code == ujson_utf8_error())
        }
    }

    /// The value at `pointer` under `ref`, or nil when the path is absent (JSON `null` is `.null`).
    public func value(at pointer: JSONPointer, in ref: JSONRef) -> JSONValue? {
        var out = ujson_value()
        pointer.withEncoded { text in
            text.withMemoryRebound(to: CChar.self) { check(ujson_at(raw, handle(ref), $0.baseAddress, $0.count, &out)) }
        }
        return convert(out)
    }

    /// Looks up every path of `set` under `ref` in one walk; `extractedValue(_:)` then reads them.
    public func extract(_ set: JSONPathSet, in ref: JSONRef) {
        if extracted.count < set.count { extracted = Array(repeating: ujson_value(), count: set.count) }
        extracted.withUnsafeMutableBufferPointer { out in check(ujson_extract(raw, handle(ref), set.raw, out.baseAddress)) }
    }

    /// The value of path `slot` of the last `extract` (nil when absent). Valid until the next parse.
    public func extractedValue(_ slot: Int) -> JSONValue? {
        convert(extracted[slot])
    }

    /// The value of `ref` itself; an array or object keeps the same ref.
    public func value(of ref: JSONRef) -> JSONValue {
        var out = ujson_value()
        check(ujson_at(raw, handle(ref), nil, 0, &out))
        return convert(out)!
    }

    /// The elements of an array in order, or `[]` if `ref` is not an array.
    public func elements(of ref: JSONRef) -> [JSONRef] {
        var first: UInt32 = 0, count = 0
        check(ujson_array_elements(raw, handle(ref), &first, &count))
        return (0..<UInt32(count)).map { JSONRef(generation: generation, handle: first + $0) }
    }

    /// The entries of an object in document order, or `[]` if `ref` is not an object.
    public func entries(of ref: JSONRef) -> [(key: String, value: JSONRef)] {
        var first: UInt32 = 0, count = 0
        var keys: UnsafePointer<ujson_string>?
        check(ujson_object_entries(raw, handle(ref), &first, &count, &keys))
        return (0..<count).map { i in
            (key: String(decoding: bytes(keys![i]), as: UTF8.self),
             value: JSONRef(generation: generation, handle: first + UInt32(i)))
        }
    }

    /// The entries of an object in document order with their keys as bytes, valid until the parser parses
    /// another document, or `[]` if `ref` is not an object: keys compared or copied without a `String` each.
    func entriesByBytes(of ref: JSONRef) -> [(key: UnsafeRawBufferPointer, value: JSONRef)] {
        var first: UInt32 = 0, count = 0
        var keys: UnsafePointer<ujson_string>?
        check(ujson_object_entries(raw, handle(ref), &first, &count, &keys))
        return (0..<count).map { i in (key: bytes(keys![i]), value: JSONRef(generation: generation, handle: first + UInt32(i))) }
    }

    /// Reads `ref` as a table: an array whose elements are all arrays of exactly `width` values, for large
    /// arrays of numbers read in one call. Returns the number of rows, or nil when `ref` is not such a table
    /// (`badRow` is then the index of the first element that is not a row of `width`, or 0). The values are
    /// read with `tableInteger` and `tableValue` until the next `readTable` or parse.
    public func readTable(_ ref: JSONRef, width: Int, badRow: inout Int) -> Int? {
        precondition(width > 0, "JSONParser: a table row holds at least one value")
        var rows = 0
        var code = tableValues.withUnsafeMutableBufferPointer { out in
            ujson_table(raw, handle(ref), width, out.baseAddress, out.count, &rows)
        }
        if code == UJSON_TABLE_CAPACITY {
            tableValues = Array(repeating: ujson_value(), count: rows * width)
            code = tableValues.withUnsafeMutableBufferPointer { out in
                ujson_table(raw, handle(ref), width, out.baseAddress, out.count, &rows)
            }
        }
        if code == UJSON_NOT_A_TABLE {
            badRow = rows
            return nil
        }
        check(code)
        return rows
    }

    /// Value `index` (`row × width + column`) of the last `readTable`, when it is an integer that fits `Int64`.
    public func tableInteger(_ index: Int) -> Int64? {
        let value = tableValues[index]
        return value.kind == UJSON_INT64 ? value.int64 : nil
    }

    /// Value `index` of the last `readTable`.
    public func tableValue(_ index: Int) -> JSONValue {
        convert(tableValues[index])!
    }

    /// Calls `body` with the minified JSON text of `ref` (e.g. to hash a value). The bytes are
    /// only valid during `body`.
    public func withMinifiedJSON<R>(of ref: JSONRef, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        var out = ujson_string()
        check(ujson_minify(raw, handle(ref), &out))
        return body(bytes(out))
    }

    /// Calls `body` with the canonical JSON text of `ref` (`CanonicalJSON`) and its minified text (`withMinifiedJSON`),
    /// valid only during `body`; nil, without calling it, when `ref` holds a number with a fraction, whose shortest
    /// text is Swift's to write.
    func withCanonicalJSON<R>(
        of ref: JSONRef, _ body: (_ canonical: UnsafeRawBufferPointer, _ minified: UnsafeRawBufferPointer) -> R
    ) -> R? {
        var canonical = ujson_string()
        var minified = ujson_string()
        let code = ujson_canonical(raw, handle(ref), &canonical, &minified)
        if code == UJSON_NOT_CANONICAL { return nil }
        check(code)
        return body(bytes(canonical), bytes(minified))
    }

    private func handle(_ ref: JSONRef) -> UInt32 {
        precondition(ref.generation == generation, "JSONRef used after its parser parsed another document")
        return ref.handle
    }

    /// Traps on a shim error: out of memory, or a handle out of range (a ref from another parser).
    private func check(_ code: Int32) {
        if code != 0 { fatalError("JSONParser: \(String(cString: ujson_error_message(code)))") }
    }

    @inline(__always)
    private func convert(_ v: ujson_value) -> JSONValue? {
        switch v.kind {
        case UJSON_NULL: .null
        case UJSON_BOOL: .bool(v.boolean)
        case UJSON_INT64: .int(v.int64)
        case UJSON_UINT64: .uint(v.uint64)
        case UJSON_DOUBLE: .double(v.number)
        case UJSON_STRING: .string(read(v.string))
        case UJSON_ARRAY: .array(JSONRef(generation: generation, handle: v.handle))
        case UJSON_OBJECT: .object(JSONRef(generation: generation, handle: v.handle))
        default: nil
        }
    }

    private func bytes(_ s: ujson_string) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: s.data, count: s.length)
    }

    /// A string value handed out: noted when it holds a replaced byte.
    private func read(_ s: ujson_string) -> UnsafeRawBufferPointer {
        let text = bytes(s)
        if replacedBytes > 0, !readReplacedText, text.contains(UInt8(UJSON_REPLACED_BYTE)) { readReplacedText = true }
        return text
    }
}

/// JSON pointers looked up together, each shared prefix walked once: see `JSONParser.extract`. It holds a C
/// object, so each reader builds its own (from `CompiledInput.rootPointers`) and none crosses threads.
public final class JSONPathSet {
    fileprivate let raw: OpaquePointer
    public let count: Int

    /// Path `i` is read back as slot `i`.
    public init(_ pointers: [JSONPointer]) {
        count = pointers.count
        let texts = pointers.map { pointer in pointer.withEncoded { Array($0) } }
        var bases: [UnsafePointer<CChar>?] = []
        var lengths: [Int] = []
        let storage = texts.map { text -> UnsafeMutablePointer<CChar> in
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: max(text.count, 1))
            text.withUnsafeBytes { bytes in
                if let base = bytes.baseAddress { UnsafeMutableRawPointer(copy).copyMemory(from: base, byteCount: bytes.count) }
            }
            return copy
        }
        defer { storage.forEach { $0.deallocate() } }
        for (copy, text) in zip(storage, texts) {
            bases.append(UnsafePointer(copy))
            lengths.append(text.count)
        }
        guard let raw = ujson_paths_new(bases, lengths, pointers.count) else { fatalError("JSONPathSet: out of memory") }
        self.raw = raw
    }

    deinit { ujson_paths_free(raw) }
}

/// Byte counting over raw buffers.
public enum ByteCount: Sendable {
    /// The number of bytes in `buffer` equal to `byte` (e.g. newlines in a read buffer).
    public static func count(_ byte: UInt8, in buffer: UnsafeRawBufferPointer) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        return ujson_count_byte(base.assumingMemoryBound(to: CChar.self), buffer.count, CChar(bitPattern: byte))
    }
}

extension JSONParser {
    /// A node as plain Swift values, for small documents read whole (data files, not logs): objects as
    /// `[String: Any]`, arrays as `[Any]`, strings as `String`, integers as `Int64` (or `UInt64` above it),
    /// other numbers as `Double`, booleans as `Bool`, null as `NSNull`.
    public func foundationValue(of ref: JSONRef) -> Any {
        switch value(of: ref) {
        case .null: return NSNull()
        case .bool(let b): return b
        case .int(let i): return i
        case .uint(let u): return u
        case .double(let d): return d
        case .string(let bytes): return String(decoding: bytes, as: UTF8.self)
        case .array(let array): return elements(of: array).map { foundationValue(of: $0) }
        case .object(let object):
            var result: [String: Any] = [:]
            for (key, element) in entries(of: object) where result[key] == nil { result[key] = foundationValue(of: element) }
            return result
        }
    }
}

/// Not `Sendable`: It owns a C parser and its buffers: one per reader, never shared.
@available(*, unavailable)
extension JSONParser: Sendable {}

/// Not `Sendable`: It owns a C object: each reader builds its own.
@available(*, unavailable)
extension JSONPathSet: Sendable {}

/// Not `Sendable`: It points into its parser's buffers.
@available(*, unavailable)
extension JSONValue: Sendable {}
