/// Protobuf bytes to JSON text, through the messages a descriptor declares (`ProtobufMessage`).
///
/// Only declared fields are decoded; any other field is stepped over by its wire type, so undeclared text never
/// becomes a value. Protobuf's own rules hold: a singular scalar given twice keeps the last, a singular message
/// given twice is the merge of both (decoding their bytes as one), a repeated scalar may be packed or not.
/// Anything else that does not fit (a declared field of another wire type, a group, a varint over 10 bytes, a
/// length past the end, text that is not UTF-8, nesting deeper than 64) refuses the whole value.
struct ProtobufDecoder {
    let messages: [String: ProtobufMessage]

    struct Failure: Error {}

    static let maxDepth = 64

    /// `bytes` as message `root`, written as a JSON object.
    func json(_ bytes: [UInt8], as root: String) throws(Failure) -> [UInt8] {
        var out = JSONText()
        try write(bytes[...], message: root, depth: 0, into: &out)
        return out.bytes
    }

    private enum Value {
        case number(String)
        case text(String)
        /// A singular message's bytes, every occurrence joined, decoded once all are seen.
        case message(String, [UInt8])
        case list([Value])
    }

    private func write(_ bytes: ArraySlice<UInt8>, message name: String, depth: Int, into out: inout JSONText) throws(Failure) {
        guard depth < Self.maxDepth, let message = messages[name] else { throw Failure() }
        var values: [String: Value] = [:]
        var reader = WireReader(bytes: bytes)
        while !reader.atEnd {
            let tag = try reader.varint()
            let wire = tag & 7
            guard let field = message.field(number: tag >> 3) else {
                try reader.skip(wire: wire)
                continue
            }
            let read = try occurrence(of: field, wire: wire, from: &reader)
            if field.repeated {
                guard case .list(let items) = values[field.name] ?? .list([]) else { throw Failure() }
                values[field.name] = .list(items + read)
            } else if case .message(let type, let more) = read[0], case .message(_, let earlier)? = values[field.name] {
                values[field.name] = .message(type, earlier + more)
            } else {
                values[field.name] = read[0]
            }
        }
        out.open()
        for field in message.fields {
            guard let value = values[field.name] else { continue }
            out.key(field.name)
            try emit(value, depth: depth, into: &out)
        }
        out.close()
    }

    private func emit(_ value: Value, depth: Int, into out: inout JSONText) throws(Failure) {
        switch value {
        case .number(let text): out.raw(text)
        case .text(let text): out.append(string: text)
        case .message(let type, let bytes):
            var inner = JSONText()
            try write(bytes[...], message: type, depth: depth + 1, into: &inner)
            out.raw(inner.bytes)
        case .list(let items):
            out.raw("[")
            for (index, item) in items.enumerated() {
                if index > 0 { out.raw(",") }
                try emit(item, depth: depth, into: &out)
            }
            out.raw("]")
        }
    }

    /// The values of one occurrence of `field`: one, or several for a packed repeated scalar.
    private func occurrence(of field: ProtobufField, wire: UInt64, from reader: inout WireReader) throws(Failure) -> [Value] {
        switch field.type {
        case .scalar(let scalar):
            if field.repeated, wire == 2, scalar.wireType != 2 {
                var packed = WireReader(bytes: try reader.lengthDelimited())
                var items: [Value] = []
                while !packed.atEnd { items.append(.number(try Self.scalar(scalar, from: &packed))) }
                return items
            }
            guard wire == scalar.wireType else { throw Failure() }
            return [.number(try Self.scalar(scalar, from: &reader))]
        case .string:
            guard wire == 2, let text = String(validating: try reader.lengthDelimited(), as: UTF8.self) else { throw Failure() }
            return [.text(text)]
        case .timestamp:
            guard wire == 2 else { throw Failure() }
            return [.number(try Self.milliseconds(try reader.lengthDelimited()))]
        case .message(let type):
            guard wire == 2 else { throw Failure() }
            return [.message(type, Array(try reader.lengthDelimited()))]
        }
    }

    /// A scalar as JSON number (or `true`/`false`, `null` for a float that is not finite) text.
    private static func scalar(_ scalar: ProtobufScalar, from reader: inout WireReader) throws(Failure) -> String {
        func number<F: BinaryFloatingPoint & LosslessStringConvertible>(_ value: F) -> String {
            value.isFinite ? String(value) : "null"
        }
        switch scalar {
        case .uint64: return String(try reader.varint())
        case .int64, .enum: return String(Int64(bitPattern: try reader.varint()))
        case .uint32: return String(UInt32(truncatingIfNeeded: try reader.varint()))
        case .int32: return String(Int32(truncatingIfNeeded: try reader.varint()))
        case .bool: return try reader.varint() == 0 ? "false" : "true"
        case .sint64: return String(ZigZag.decode(try reader.varint()))
        case .sint32: return String(Int32(truncatingIfNeeded: ZigZag.decode(try reader.varint())))
        case .fixed64: return String(try reader.fixed64())
        case .sfixed64: return String(Int64(bitPattern: try reader.fixed64()))
        case .double: return number(Double(bitPattern: try reader.fixed64()))
        case .fixed32: return String(try reader.fixed32())
        case .sfixed32: return String(Int32(bitPattern: try reader.fixed32()))
        case .float: return number(Float(bitPattern: try reader.fixed32()))
        }
    }

    /// A `google.protobuf.Timestamp` (1: int64 seconds, 2: int32 nanos) as whole epoch milliseconds.
    private static func milliseconds(_ bytes: ArraySlice<UInt8>) throws(Failure) -> String {
        var reader = WireReader(bytes: bytes)
        var seconds: Int64 = 0
        var nanos: Int64 = 0
        while !reader.atEnd {
            let tag = try reader.varint()
            switch (tag >> 3, tag & 7) {
            case (1, 0): seconds = Int64(bitPattern: try reader.varint())
            case (2, 0): nanos = Int64(Int32(truncatingIfNeeded: try reader.varint()))
            case (1, _), (2, _): throw Failure()
            default: try reader.skip(wire: tag & 7)
            }
        }
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000)
        guard !overflow, (0..<1_000_000_000).contains(nanos) else { throw Failure() }
        return String(scaled + nanos / 1_000_000)
    }
}

/// Reads protobuf's wire format: varints, fixed-width numbers, length-delimited bytes.
private struct WireReader {
    let bytes: ArraySlice<UInt8>
    var index: Int

    init(bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        index = bytes.startIndex
    }

    var atEnd: Bool { index >= bytes.endIndex }

    mutating func varint() throws(ProtobufDecoder.Failure) -> UInt64 {
        var result: UInt64 = 0
        for shift in stride(from: 0, to: 70, by: 7) {
            guard index < bytes.endIndex else { throw ProtobufDecoder.Failure() }
            let byte = bytes[index]
            index += 1
            // The tenth byte holds only the 64th bit.
            if shift == 63, byte > 1 { throw ProtobufDecoder.Failure() }
            result |= UInt64(byte & 0x7F) << UInt64(shift)
            if byte & 0x80 == 0 { return result }
        }
        throw ProtobufDecoder.Failure()
    }

    mutating func fixed64() throws(ProtobufDecoder.Failure) -> UInt64 {
        let part = try take(8)
        return part.reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    mutating func fixed32() throws(ProtobufDecoder.Failure) -> UInt32 {
        let part = try take(4)
        return part.reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }

    mutating func lengthDelimited() throws(ProtobufDecoder.Failure) -> ArraySlice<UInt8> {
        let length = try varint()
        guard length <= UInt64(bytes.endIndex - index) else { throw ProtobufDecoder.Failure() }
        return try take(Int(length))
    }

    /// Steps over a field nobody declared. Groups (3, 4) and the reserved wire types (6, 7) are refused.
    mutating func skip(wire: UInt64) throws(ProtobufDecoder.Failure) {
        switch wire {
        case 0: _ = try varint()
        case 1: _ = try take(8)
        case 2: _ = try lengthDelimited()
        case 5: _ = try take(4)
        default: throw ProtobufDecoder.Failure()
        }
    }

    private mutating func take(_ count: Int) throws(ProtobufDecoder.Failure) -> ArraySlice<UInt8> {
        guard count <= bytes.endIndex - index else { throw ProtobufDecoder.Failure() }
        defer { index += count }
        return bytes[index..<(index + count)]
    }
}
