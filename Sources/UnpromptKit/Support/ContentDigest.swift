/// A 128-bit digest of byte strings, read eight bytes at a time: it tells whether files are still the ones a cache
/// was made from (`CacheDirectory`), fast enough to run over the price table at every start. Not an identity's hash
/// (`IdentityHasher`, which stored identities depend on), and not cryptographic: it guards against change, not
/// against an adversary. Each part is length-prefixed, so `["ab", "c"]` and `["a", "bc"]` differ.
package struct ContentDigest {
    private var a: UInt64 = 0x9E37_79B9_7F4A_7C15
    private var b: UInt64 = 0xC2B2_AE3D_27D4_EB4F

    package init() {}

    package mutating func combine(_ bytes: UnsafeRawBufferPointer) {
        mix(UInt64(bytes.count))
        var offset = 0
        while offset + 8 <= bytes.count {
            mix(bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        var tail: UInt64 = 0
        for (index, byte) in bytes[offset...].enumerated() { tail |= UInt64(byte) << UInt64(8 * index) }
        mix(tail)
    }

    package mutating func combine(_ text: String) {
        var text = text
        text.withUTF8 { combine(UnsafeRawBufferPointer($0)) }
    }

    /// Both lanes, avalanched, in hexadecimal.
    package func finalize() -> String {
        String(Self.avalanche(a), radix: 16) + "-" + String(Self.avalanche(b ^ a), radix: 16)
    }

    private mutating func mix(_ word: UInt64) {
        a = (a ^ word) &* 0x0000_0100_0000_01B3
        a ^= a >> 29
        b = (b ^ ((word << 17) | (word >> 47))) &* 0xFF51_AFD7_ED55_8CCD
        b ^= b >> 32
    }

    private static func avalanche(_ x: UInt64) -> UInt64 {
        var z = x
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
