/// The identities and aliases a store holds, as a Bloom filter, for a scan that started on a store holding none:
/// every key the store holds was then written by this scan, through this filter, so a key the filter has never
/// seen is not stored and needs no lookup. A cold scan into a new store asks the store almost nothing this way;
/// a key the filter may have seen (one it was given, or a false positive) is looked up as always, so the
/// filter can only save lookups, never change an answer.
///
/// Fixed at 1 MiB and 4 probes (taken from the key's own bits: identities are hashes): about 1 in 800 false
/// positives at the 440,000 keys of a 3 GB history, 1 in 15 at ten times that, which only costs lookups.
struct StoredKeyFilter {
    private static let wordCount = 1 << 17
    private var words = [UInt64](repeating: 0, count: wordCount)

    /// Notes that `key` may now be stored.
    mutating func insert(_ key: Identity) {
        for probe in 0..<4 {
            let bit = Self.bit(probe, of: key)
            words[bit >> 6] |= 1 << UInt64(bit & 63)
        }
    }

    /// False only when `key` was never inserted.
    func mayContain(_ key: Identity) -> Bool {
        for probe in 0..<4 {
            let bit = Self.bit(probe, of: key)
            if words[bit >> 6] & (1 << UInt64(bit & 63)) == 0 { return false }
        }
        return true
    }

    /// The bit of probe 0 to 3: a 23-bit field of the key's halves each.
    private static func bit(_ probe: Int, of key: Identity) -> Int {
        let half = probe < 2 ? key.high : key.low
        return Int(truncatingIfNeeded: (half >> UInt64(32 * (probe & 1))) & UInt64(wordCount * 64 - 1))
    }
}
