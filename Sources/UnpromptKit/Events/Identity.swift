/// An opaque 128-bit hash that names one usage record across files, rewrites and rescans.
///
/// It is built from the identity space (normally the tool id) and the values of the descriptor's key
/// fields, so the key's text never leaves the reader.
public struct Identity: Sendable, Hashable, CustomStringConvertible {
    public let high: UInt64
    public let low: UInt64

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// `high:low` in lowercase hexadecimal, without leading zeros: written into one buffer, since every source of
    /// every scan is named by one (`SourceKey`).
    public var description: String {
        String(unsafeUninitializedCapacity: 33) { buffer in
            let split = Self.hex(high, into: buffer, at: 0)
            buffer[split] = UInt8(ascii: ":")
            return split + 1 + Self.hex(low, into: buffer, at: split + 1)
        }
    }

    /// The identity whose `description` is exactly `text` (its UTF-8), or nil: lowercase digits, no leading zero,
    /// one colon, so that equal identities are equal texts, as a lookup by either needs.
    init?(description text: UnsafeRawBufferPointer) {
        guard let colon = text.firstIndex(of: UInt8(ascii: ":")),
            let high = Self.hex(UnsafeRawBufferPointer(rebasing: text[..<colon])),
            let low = Self.hex(UnsafeRawBufferPointer(rebasing: text[(colon + 1)...]))
        else { return nil }
        self.init(high: high, low: low)
    }

    /// The value of 1 to 16 hexadecimal digits as `hex(_:into:at:)` writes them, or nil.
    private static func hex(_ digits: UnsafeRawBufferPointer) -> UInt64? {
        guard (1...16).contains(digits.count), digits.count == 1 || digits[0] != UInt8(ascii: "0") else { return nil }
        var value: UInt64 = 0
        for digit in digits {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = value << 4 | UInt64(digit - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = value << 4 | UInt64(digit - UInt8(ascii: "a") + 10)
            default: return nil
            }
        }
        return value
    }

    /// Writes `value`'s hexadecimal digits at `start`; how many.
    private static func hex(_ value: UInt64, into buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int) -> Int {
        let digits = max(1, (64 - value.leadingZeroBitCount + 3) / 4)
        for index in 0..<digits {
            let nibble = UInt8(truncatingIfNeeded: value >> UInt64(4 * (digits - 1 - index))) & 0xF
            buffer[start + index] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
        }
        return digits
    }
}

/// Builds an `Identity` from a sequence of byte strings. Each part is length-prefixed, so
/// `["ab", "c"]` and `["a", "bc"]` differ.
///
/// Two independent 64-bit lanes (FNV-1a and a multiply-xorshift mix) give 128 bits: not cryptographic,
/// which identities need not be, but collision-free in practice for the billions of records a person makes.
public struct IdentityHasher: Sendable {
    private var a: UInt64 = 0xcbf2_9ce4_8422_2325
    private var b: UInt64 = 0x9e37_79b9_7f4a_7c15

    public init() {}

    public mutating func combine(_ bytes: UnsafeRawBufferPointer) {
        combineLength(bytes.count)
        for byte in bytes { mix(byte) }
    }

    /// Feeds `bytes` to this hash and `otherBytes` to `other` in one loop, byte beside byte, as two calls of
    /// `combine` would: each hash is a chain of multiplies, one byte after the other, and two chains side by side take
    /// little more time than one (an identity key is hashed in its canonical text and as older versions hashed it).
    public mutating func combine(
        _ bytes: UnsafeRawBufferPointer, alongside other: inout IdentityHasher, _ otherBytes: UnsafeRawBufferPointer
    ) {
        var length = UInt64(bytes.count)
        var otherLength = UInt64(otherBytes.count)
        for _ in 0..<8 {
            mix(UInt8(truncatingIfNeeded: length))
            other.mix(UInt8(truncatingIfNeeded: otherLength))
            length >>= 8
            otherLength >>= 8
        }
        let common = min(bytes.count, otherBytes.count)
        for index in 0..<common {
            mix(bytes[index])
            other.mix(otherBytes[index])
        }
        for byte in bytes[common...] { mix(byte) }
        for byte in otherBytes[common...] { other.mix(byte) }
    }

    public mutating func combine(_ string: String) {
        var copy = string
        copy.withUTF8 { combine(UnsafeRawBufferPointer($0)) }
    }

    public mutating func combine(_ value: Int64) {
        withUnsafeBytes(of: value.littleEndian) { combine($0) }
    }

    public func finalize() -> Identity {
        Identity(high: avalanche(a), low: avalanche(b ^ a))
    }

    private mutating func combineLength(_ n: Int) {
        var length = UInt64(n)
        for _ in 0..<8 {
            mix(UInt8(truncatingIfNeeded: length))
            length >>= 8
        }
    }

    @inline(__always)
    private mutating func mix(_ byte: UInt8) {
        a = (a ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        b = (b ^ UInt64(byte)) &* 0xff51_afd7_ed55_8ccd
        b ^= b >> 29
    }

    private func avalanche(_ x: UInt64) -> UInt64 {
        var z = x
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
