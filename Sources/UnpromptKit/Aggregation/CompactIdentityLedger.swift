/// An `IdentityLedger` in memory for a whole history: what a dry run keeps, a few hundred thousand records and
/// more. `MemoryIdentityLedger` keeps a `Contribution` (two strings and nine integers) per identity in a
/// dictionary; this keeps 20 bytes per identity and per alias in open-addressed tables, and 28 bytes per kept
/// contribution: its bucket key interned at the start of its UTC day (a few keys a day, where quarter-hours make
/// thousands) with its quarter-hour of the day beside it, its counts as 32-bit integers. A contribution that does
/// not fit that form (a count above 4 billion, a logged cost, a server-tool call, a 12-hour cache write, more than
/// one event) is kept whole beside it.
struct CompactIdentityLedger: IdentityLedger {
    typealias Failure = Never

    /// Payload: the index of the identity's contribution, or `claimedMark`.
    private var identities = IdentityTable()
    /// Payload: the index of the owner in `identities`, `noOwner`, or `ownerApart`.
    private var aliases = IdentityTable()
    /// Owners no record holds (an alias group's, `TokenEvent.aliasOwner`), by alias: few, so kept whole.
    private var ownersApart: [Identity: Identity] = [:]
    private var contributions = ChunkedArray<PackedContribution>()
    private var unpacked: [UInt32: Contribution] = [:]
    private var bucketKeys: [BucketKey] = []
    private var bucketIndexes: [BucketKey: UInt32] = [:]
    /// The bucket of the last contribution kept: the next is usually of the same day and model, found by
    /// comparing keys instead of hashing one.
    private var lastBucket: UInt32?

    private static let claimedMark = UInt32.max
    private static let noOwner = UInt32.max
    private static let ownerApart = UInt32.max - 1

    mutating func claim(_ identity: Identity) -> Bool {
        guard identities.index(of: identity) == nil else { return false }
        identities.insert(identity, payload: Self.claimedMark)
        return true
    }

    func entry(_ identity: Identity) -> LedgerEntry? {
        guard let index = identities.index(of: identity) else { return nil }
        let payload = identities.payload(at: index)
        return payload == Self.claimedMark ? .claimed : .kept(contribution(at: payload))
    }

    mutating func keep(_ contribution: Contribution, for identity: Identity) {
        if let index = identities.index(of: identity), case let slot = identities.payload(at: index), slot != Self.claimedMark {
            store(contribution, at: slot)
            return
        }
        let slot = UInt32(contributions.count)
        contributions.append(PackedContribution())
        store(contribution, at: slot)
        if let index = identities.index(of: identity) {
            identities.setPayload(slot, at: index)
        } else {
            identities.insert(identity, payload: slot)
        }
    }

    func alias(_ alias: Identity) -> AliasRegistration? {
        guard let index = aliases.index(of: alias) else { return nil }
        switch aliases.payload(at: index) {
        case Self.noOwner: return AliasRegistration(owner: nil)
        case Self.ownerApart: return AliasRegistration(owner: ownersApart[alias])
        case let owner: return AliasRegistration(owner: identities.key(at: Int(owner)))
        }
    }

    mutating func register(_ alias: Identity, owner: Identity?) {
        guard aliases.index(of: alias) == nil else { return }
        var ownerIndex = Self.noOwner
        if let owner {
            // The owner is the record just admitted (`Deduplicator`), so it is held, or an alias group.
            if let index = identities.index(of: owner) {
                ownerIndex = UInt32(index)
            } else {
                ownerIndex = Self.ownerApart
                ownersApart[alias] = owner
            }
        }
        aliases.insert(alias, payload: ownerIndex)
    }

    private mutating func store(_ contribution: Contribution, at slot: UInt32) {
        let dayStart = CivilDate.floorDivide(contribution.key.quarter, LocalCalendar.quartersPerDay) * LocalCalendar.quartersPerDay
        let dayKey = contribution.key.moved(to: dayStart)
        let bucket =
            lastBucket.flatMap { bucketKeys[Int($0)] == dayKey ? $0 : nil } ?? bucketIndexes[dayKey] ?? {
                let next = UInt32(bucketKeys.count)
                bucketKeys.append(dayKey)
                bucketIndexes[dayKey] = next
                return next
            }()
        lastBucket = bucket
        let quarterOfDay = UInt32(contribution.key.quarter - dayStart)
        if let packed = PackedContribution(contribution.delta, bucket: bucket, quarterOfDay: quarterOfDay) {
            contributions[Int(slot)] = packed
            unpacked[slot] = nil
        } else {
            contributions[Int(slot)] = PackedContribution.unpacked
            unpacked[slot] = contribution
        }
    }

    private func contribution(at slot: UInt32) -> Contribution {
        let packed = contributions[Int(slot)]
        if packed.isUnpacked, let whole = unpacked[slot] { return whole }
        let dayKey = bucketKeys[Int(packed.bucket)]
        return Contribution(key: dayKey.moved(to: dayKey.quarter + Int64(packed.quarterOfDay)), delta: packed.delta)
    }
}

/// One record's contribution in 28 bytes: its interned day-long bucket (23 bits), its quarter-hour of that day
/// (7 bits), whether it is an estimate, and its six counts.
private struct PackedContribution {
    private static let estimatedFlag: UInt32 = 1 << 31
    private static let unpackedFlag: UInt32 = 1 << 30
    private static let quarterShift: UInt32 = 23
    private static let bucketMask: UInt32 = (1 << quarterShift) - 1

    private var bucketAndFlags: UInt32 = 0
    private var counts: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0, 0, 0)

    init() {}

    /// Nil when the delta does not fit: more than one event, a logged cost, a server-tool call, a 12-hour cache
    /// write (rare: kept whole rather than widen every packed record), or a count outside 32 bits.
    init?(_ delta: BucketDelta, bucket: UInt32, quarterOfDay: UInt32) {
        let c = delta.counts
        guard delta.events == 1, delta.loggedCostNanos == 0, delta.estimatedEvents == 0 || delta.estimatedEvents == 1,
            delta.serverTools.isZero, c.cacheWrite12h == 0,
            bucket <= Self.bucketMask, quarterOfDay < UInt32(LocalCalendar.quartersPerDay),
            let input = UInt32(exactly: c.input), let cacheRead = UInt32(exactly: c.cacheRead),
            let cacheWrite5m = UInt32(exactly: c.cacheWrite5m), let cacheWrite1h = UInt32(exactly: c.cacheWrite1h),
            let output = UInt32(exactly: c.output), let reasoning = UInt32(exactly: c.reasoning)
        else { return nil }
        bucketAndFlags = bucket | quarterOfDay << Self.quarterShift | (delta.estimatedEvents == 1 ? Self.estimatedFlag : 0)
        counts = (input, cacheRead, cacheWrite5m, cacheWrite1h, output, reasoning)
    }

    /// The place of a contribution kept whole (`CompactIdentityLedger.unpacked`).
    static var unpacked: PackedContribution {
        var placeholder = PackedContribution()
        placeholder.bucketAndFlags = Self.unpackedFlag
        return placeholder
    }

    var isUnpacked: Bool { bucketAndFlags & Self.unpackedFlag != 0 }
    var bucket: UInt32 { bucketAndFlags & Self.bucketMask }
    var quarterOfDay: UInt32 { (bucketAndFlags & ~(Self.estimatedFlag | Self.unpackedFlag)) >> Self.quarterShift }

    var delta: BucketDelta {
        var delta = BucketDelta()
        delta.counts = TokenCounts(
            input: Int64(counts.0), cacheRead: Int64(counts.1), cacheWrite5m: Int64(counts.2),
            cacheWrite1h: Int64(counts.3), output: Int64(counts.4), reasoning: Int64(counts.5))
        delta.events = 1
        delta.estimatedEvents = bucketAndFlags & Self.estimatedFlag != 0 ? 1 : 0
        return delta
    }
}

/// Identities with a 32-bit payload each, in insertion order (their indexes), found through an open-addressed index
/// (linear probing; identities are hashes already, so their low bits place them).
struct IdentityTable {
    private var slots = [UInt32](repeating: 0, count: 1 << 10)  // entry index + 1; 0 is empty
    private var keys = ChunkedArray<Identity>()
    private var payloads = ChunkedArray<UInt32>()

    func index(of key: Identity) -> Int? {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: key.low) & mask
        while true {
            let entry = slots[slot]
            if entry == 0 { return nil }
            if keys[Int(entry) - 1] == key { return Int(entry) - 1 }
            slot = (slot + 1) & mask
        }
    }

    /// Adds `key`, which must not be held yet, and returns its index.
    @discardableResult
    mutating func insert(_ key: Identity, payload: UInt32) -> Int {
        // At most 85% full: probes stay short, and the index costs under 5 bytes an entry.
        if (keys.count + 1) * 20 > slots.count * 17 { grow() }
        let index = keys.count
        keys.append(key)
        payloads.append(payload)
        place(index)
        return index
    }

    var count: Int { keys.count }
    func key(at index: Int) -> Identity { keys[index] }
    func payload(at index: Int) -> UInt32 { payloads[index] }
    mutating func setPayload(_ payload: UInt32, at index: Int) { payloads[index] = payload }

    private mutating func place(_ index: Int) {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: keys[index].low) & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = UInt32(index + 1)
    }

    private mutating func grow() {
        slots = [UInt32](repeating: 0, count: slots.count * 2)
        for index in 0..<keys.count { place(index) }
    }
}

/// An append-only array in chunks of fixed size, so growing it never copies (nor holds twice) what it holds.
struct ChunkedArray<Element> {
    private static var shift: Int { 13 }
    private var chunks: [[Element]] = []
    private(set) var count = 0

    subscript(index: Int) -> Element {
        get { chunks[index >> Self.shift][index & ((1 << Self.shift) - 1)] }
        set { chunks[index >> Self.shift][index & ((1 << Self.shift) - 1)] = newValue }
    }

    mutating func append(_ element: Element) {
        if count & ((1 << Self.shift) - 1) == 0 {
            chunks.append([])
            chunks[chunks.count - 1].reserveCapacity(1 << Self.shift)
        }
        chunks[chunks.count - 1].append(element)
        count += 1
    }
}
