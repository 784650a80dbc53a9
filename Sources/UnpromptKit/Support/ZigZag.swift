/// Signed integers as the unsigned ones variable-length formats write them (protobuf's `sint`, the store's packed
/// days): 0, -1, 1, -2 … as 0, 1, 2, 3 …, so a small value of either sign takes few bytes.
enum ZigZag {
    @inline(__always) static func encode(_ value: Int64) -> UInt64 { UInt64(bitPattern: (value << 1) ^ (value >> 63)) }

    @inline(__always) static func decode(_ written: UInt64) -> Int64 { Int64(bitPattern: (written >> 1) ^ (0 &- (written & 1))) }
}
