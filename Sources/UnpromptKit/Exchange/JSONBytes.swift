/// Compact JSON text written straight into bytes, for documents of many numbers (an export holds a year of
/// buckets): no intermediate tree, no formatting.
struct JSONBytes {
    private static let hex = Array("0123456789abcdef".utf8)
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func byte(_ ascii: Unicode.Scalar) { bytes.append(UInt8(ascii: ascii)) }

    mutating func integer(_ value: Int64) { DecimalDigits.append(value.magnitude, negative: value < 0, to: &bytes) }

    /// `[1,2,3]`.
    mutating func integers(_ values: [Int64]) {
        byte("[")
        for (index, value) in values.enumerated() {
            if index > 0 { byte(",") }
            integer(value)
        }
        byte("]")
    }

    mutating func optional(_ value: Int64?) {
        if let value { integer(value) } else { raw("null") }
    }

    /// A finite number as Swift writes its shortest exact form (JSON reads it back to the same Double); null
    /// otherwise.
    mutating func number(_ value: Double?) {
        guard let value, value.isFinite else {
            raw("null")
            return
        }
        if value == value.rounded(), abs(value) < 1e15 {
            // Swift writes 5.0; JSON's integer form reads back as the same value.
            integer(Int64(value))
            bytes += ".0".utf8
        } else {
            bytes += "\(value)".utf8
        }
    }

    mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes += "\\\"".utf8
            case UInt8(ascii: "\\"): bytes += "\\\\".utf8
            case 0..<0x20:
                bytes += "\\u00".utf8
                bytes.append(Self.hex[Int(byte >> 4)])
                bytes.append(Self.hex[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func strings(_ texts: [String]) {
        byte("[")
        for (index, text) in texts.enumerated() {
            if index > 0 { byte(",") }
            string(text)
        }
        byte("]")
    }
}
