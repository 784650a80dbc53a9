/// The identities and aliases one commit group asks about, read from the store up front and written back at the
/// end, both in the store's key order: the B-tree's pages are then visited in order, once per group, instead of
/// once per record in the random order of the hashes, and the group's transaction dirties each page it changes
/// once. Between the two, the keep rules run in memory (`Deduplicator`) exactly as they would against the store,
/// record by record in the group's order, so the outcome is the same.
///
/// It is sized for groups of thousands of records: the keys asked about are placed in tables in key order (a key's
/// index is its place in that order, and the keys are hashes, so no hashing is needed to find them), with an entry
/// only where something holds the key.
struct IdentityBatch: IdentityLedger {
    typealias Failure = Never

    /// Each identity asked about; payload: the index of what holds it in `held`, or `nothing`.
    private var identities = IdentityTable()
    private var held: [LedgerEntry] = []
    private var heldChanged: [Bool] = []
    /// Each alias asked about; payload: the index of its registration in `registrations`, or `nothing`.
    private var aliases = IdentityTable()
    private var registrations: [AliasRegistration] = []
    private var registrationsChanged: [Bool] = []

    private static let nothing = UInt32.max

    /// Reads what `store` holds for every identity and alias of `events`.
    init(for events: some Sequence<TokenEvent>, from store: SQLiteIdentityLedger) throws(StoreError) {
        var identityKeys: [Identity] = []
        var aliasKeys: [Identity] = []
        for event in events {
            if let identity = event.identity { identityKeys.append(identity) }
            // The keep rules look up the hash a record had before keys were canonical (`Deduplicator.carryOver`).
            if let legacy = event.legacyIdentity { identityKeys.append(legacy) }
            if let alias = event.alias { aliasKeys.append(alias) }
        }
        for identity in Self.distinctInStoreOrder(identityKeys) {
            guard let entry = try store.entry(identity) else {
                identities.insert(identity, payload: Self.nothing)
                continue
            }
            identities.insert(identity, payload: UInt32(held.count))
            held.append(entry)
            heldChanged.append(false)
        }
        for alias in Self.distinctInStoreOrder(aliasKeys) {
            guard let registration = try store.alias(alias) else {
                aliases.insert(alias, payload: Self.nothing)
                continue
            }
            aliases.insert(alias, payload: UInt32(registrations.count))
            registrations.append(registration)
            registrationsChanged.append(false)
        }
    }

    /// Writes what the group changed, in key order (the tables' order).
    func write(to store: inout SQLiteIdentityLedger) throws(StoreError) {
        for index in 0..<identities.count {
            let slot = identities.payload(at: index)
            guard slot != Self.nothing, heldChanged[Int(slot)] else { continue }
            switch held[Int(slot)] {
            case .claimed: _ = try store.claim(identities.key(at: index))
            case .kept(let contribution): try store.keep(contribution, for: identities.key(at: index))
            }
        }
        for index in 0..<aliases.count {
            let slot = aliases.payload(at: index)
            guard slot != Self.nothing, registrationsChanged[Int(slot)] else { continue }
            try store.register(aliases.key(at: index), owner: registrations[Int(slot)].owner)
        }
    }

    mutating func claim(_ identity: Identity) -> Bool {
        let index = Self.index(identity, in: identities)
        guard identities.payload(at: index) == Self.nothing else { return false }
        hold(.claimed, at: index)
        return true
    }

    func entry(_ identity: Identity) -> LedgerEntry? {
        let slot = identities.payload(at: Self.index(identity, in: identities))
        return slot == Self.nothing ? nil : held[Int(slot)]
    }

    mutating func keep(_ contribution: Contribution, for identity: Identity) {
        let index = Self.index(identity, in: identities)
        let slot = identities.payload(at: index)
        guard slot != Self.nothing else { return hold(.kept(contribution), at: index) }
        held[Int(slot)] = .kept(contribution)
        heldChanged[Int(slot)] = true
    }

    func alias(_ alias: Identity) -> AliasRegistration? {
        let slot = aliases.payload(at: Self.index(alias, in: aliases))
        return slot == Self.nothing ? nil : registrations[Int(slot)]
    }

    mutating func register(_ alias: Identity, owner: Identity?) {
        let index = Self.index(alias, in: aliases)
        guard aliases.payload(at: index) == Self.nothing else { return }
        aliases.setPayload(UInt32(registrations.count), at: index)
        registrations.append(AliasRegistration(owner: owner))
        registrationsChanged.append(true)
    }

    private mutating func hold(_ entry: LedgerEntry, at index: Int) {
        identities.setPayload(UInt32(held.count), at: index)
        held.append(entry)
        heldChanged.append(true)
    }

    /// Asking about an identity or alias the batch was not made for is a programming error.
    private static func index(_ key: Identity, in table: IdentityTable) -> Int {
        guard let index = table.index(of: key) else { preconditionFailure("an identity or alias the batch was not made for") }
        return index
    }

    /// `keys` sorted in the store's order, each once.
    private static func distinctInStoreOrder(_ keys: [Identity]) -> [Identity] {
        var keys = keys
        keys.sort(by: Identity.storeOrder)
        var kept = 0
        for index in keys.indices where kept == 0 || keys[kept - 1] != keys[index] {
            keys[kept] = keys[index]
            kept += 1
        }
        keys.removeLast(keys.count - kept)
        return keys
    }
}

extension Identity {
    /// The order of the store's keys: `high`, then `low`, each compared as the signed integer SQLite holds.
    static func storeOrder(_ a: Identity, _ b: Identity) -> Bool {
        let (ah, bh) = (Int64(bitPattern: a.high), Int64(bitPattern: b.high))
        return ah != bh ? ah < bh : Int64(bitPattern: a.low) < Int64(bitPattern: b.low)
    }
}
