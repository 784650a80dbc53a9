internal import CByteScan

/// A prefilter string, ready for the SIMD search: the bytes, and the two rarest of them to probe for.
///
/// Probing the rarest bytes matters in JSON, where quotes, colons and common letters are everywhere:
/// a probe on `"` alone would stop at every key.
struct Needle: Sendable {
    let bytes: [UInt8]
    let probe1: Int
    let probe2: Int

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        let ranked = bytes.indices.sorted { (Needle.commonness(bytes[$0]), $0) < (Needle.commonness(bytes[$1]), $1) }
        let pair = ranked.count >= 2 ? [ranked[0], ranked[1]].sorted() : [0, 0]
        probe1 = pair[0]
        probe2 = pair[1]
    }

    /// A rough frequency rank of a byte in JSON logs: higher is more common.
    static func commonness(_ byte: UInt8) -> Int {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: " "), UInt8(ascii: ":"), UInt8(ascii: ","), UInt8(ascii: "{"),
            UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "\\"):
            return 255
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return 200
        case UInt8(ascii: "a")...UInt8(ascii: "z"):
            let order = Array("etaoinsrhdlcumpfgwybvkxjqz".utf8)
            return 190 - (order.firstIndex(of: byte) ?? 25) * 6
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return 60
        case UInt8(ascii: "_"): return 150  // snake_case keys are everywhere in JSON logs
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "/"): return 80
        default: return 20
        }
    }
}

/// Several needles searched in one pass over the buffer.
struct NeedleSet: Sendable {
    /// The needles' bytes one after another, and each needle as the search takes it (its place in them): built
    /// once, so a search allocates nothing.
    private let text: [UInt8]
    private let described: [ubs_needle]

    init(_ needles: [Needle]) {
        precondition(needles.count <= 8, "at most 8 prefilter strings")
        var text: [UInt8] = []
        described = needles.map { needle in
            defer { text += needle.bytes }
            return ubs_needle(offset: text.count, length: needle.bytes.count, probe1: needle.probe1, probe2: needle.probe2)
        }
        self.text = text
    }

    var isEmpty: Bool { described.isEmpty }

    /// The offset of the first occurrence of any needle in `base[0..<count]`, or nil.
    func firstOffset(in base: UnsafeRawPointer, count: Int) -> Int? {
        let offset = text.withUnsafeBufferPointer { text in
            described.withUnsafeBufferPointer { ubs_find_any(base, count, text.baseAddress, $0.baseAddress, $0.count) }
        }
        return offset < count ? offset : nil
    }
}
