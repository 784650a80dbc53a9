/// A bucket row's fields as packing version 3 writes them (`DevicePacking`): which fields are not 0, as the bits of
/// one integer, then those fields alone. Most of a row's 17 fields are 0 (no speed, tier or region stated, no web
/// search, no 12-hour cache write, no logged cost…), and version 2 wrote a byte for each: a year of a heavy user's
/// rows takes about a third fewer bytes, which a merge decompresses, checks and stores.
///
/// The bits follow `order`, the fields most rows hold first, so that a typical row's bits fit in one byte. A count
/// is written as it is (unsigned); the two fields that can be below 0 (the context band's "unknown", a logged cost)
/// zigzag encoded. A field present with the value 0 is not written so: each row has one packing.
enum PackedRow {
    static let order: [BucketField] = [
        .events, .input, .cacheRead, .output, .contextAbove, .cacheWrite5m, .cacheWrite1h, .reasoning, .costLogged,
        .loggedCostNanos, .cacheWrite12h, .estimatedEvents, .webSearch, .webFetch, .speed, .tier, .region,
    ]

    /// The bits a row's presence may hold: one per field.
    static let allPresent: UInt64 = (1 << UInt64(order.count)) - 1

    /// The fields written zigzag encoded.
    static func isSigned(_ field: BucketField) -> Bool { field == .contextAbove || field == .loggedCostNanos }

    /// Per bit of the presence, the field's raw value.
    static let rawValues: [Int] = order.map(\.rawValue)

    /// The bits of the fields written zigzag encoded.
    static let signedBits: UInt64 = order.enumerated().reduce(0) { bits, entry in
        isSigned(entry.element) ? bits | 1 << UInt64(entry.offset) : bits
    }

    /// The presence of `values` (every `BucketField`, by raw value), and then its fields as written.
    static func write(_ values: UnsafeBufferPointer<Int64>, into writer: inout DevicePacking.Writer) {
        var present: UInt64 = 0
        for (bit, field) in order.enumerated() where values[field.rawValue] != 0 { present |= 1 << UInt64(bit) }
        writer.unsigned(present)
        for (bit, field) in order.enumerated() where present & 1 << UInt64(bit) != 0 {
            let value = values[field.rawValue]
            if isSigned(field) { writer.signed(value) } else { writer.unsigned(UInt64(bitPattern: value)) }
        }
    }
}
