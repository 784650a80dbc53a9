/// The identities and aliases one commit group asks about, read from the store up front and written back at the
/// end, both in the store's key order: the B-tree's pages are then visited in order, once per group, instead of
/// once per record in the random order of the hashes, and the group's transaction dirties each page it changes
/// once. Between the two, the keep rules run in memory (`Deduplicator`) exactly as they would against the store,
/// record by record in the group's order, so the outcome is the same.
///
/// It is sized for groups of thousands of records: an index per key, and an entry only where something holds it.
struct IdentityBatch: IdentityLedger {
    typealias Failure = Never

    /// Each identity asked about: the index of what holds it in `held`, or -1 where nothing does.
    private var identities: [Identity: Int] = [:]
    private var held: [LedgerEntry] = []
    private var heldChanged: [Bool] = []
    /// Each alias asked about: the index of its registration in `registrations`, or -1 where it has none.
    private var aliases: [Identity: Int] = [:]
    private var registrations: [AliasRegistration] = []
    private var registrationsChanged: [Bool] = []

    /// Reads what `store` holds for every identity and alias of `events`.
    init(for events: some Sequence<TokenEvent>, from store: SQLiteIdentityLedger) throws(StoreError) {
        for event in events {
            if let identity = event.identity { identities[identity] = -1 }
            // The keep rules look up the hash a record had before keys were canonical (`Deduplicator.carryOver`).
            if let legacy = event.legacyIdentity { identities[legacy] = -1 }
            if let alias = event.alias { aliases[alias] = -1 }
        }
        for identity in identities.keys.sorted(by: Identity.storeOrder) {
            guard let entry = try store.entry(identity) else { continue }
            identities[identity] = held.count
            held.append(entry)
            heldChanged.append(false)
        }
        for alias in aliases.keys.sorted(by: Identity.storeOrder) {
            guard let registration = try store.alias(alias) else { continue }
            aliases[alias] = registrations.count
            registrations.append(registration)
            registrationsChanged.append(false)
        }
    }

    /// Writes what the group changed, in key order.
    func write(to store: inout SQLiteIdentityLedger) throws(StoreError) {
        for (identity, index) in identities.filter({ $0.value >= 0 && heldChanged[$0.value] })
            .sorted(by: { Identity.storeOrder($0.key, $1.key) })
        {
            switch held[index] {
            case .claimed: _ = try store.claim(identity)
            case .kept(let contribution): try store.keep(contribution, for: identity)
            }
        }
        for (alias, index) in aliases.filter({ $0.value >= 0 && registrationsChanged[$0.value] })
            .sorted(by: { Identity.storeOrder($0.key, $1.key) })
        {
            try store.register(alias, owner: registrations[index].owner)
        }
    }

    mutating func claim(_ identity: Identity) -> Bool {
        guard Self.index(identity, in: identities) < 0 else { return false }
        hold(.claimed, for: identity)
        return true
    }

    func entry(_ identity: Identity) -> LedgerEntry? {
        let index = Self.index(identity, in: identities)
        return index < 0 ? nil : held[index]
    }

    mutating func keep(_ contribution: Contribution, for identity: Identity) {
        let index = Self.index(identity, in: identities)
        guard index >= 0 else { return hold(.kept(contribution), for: identity) }
        held[index] = .kept(contribution)
        heldChanged[index] = true
    }

    func alias(_ alias: Identity) -> AliasRegistration? {
        let index = Self.index(alias, in: aliases)
        return index < 0 ? nil : registrations[index]
    }

    mutating func register(_ alias: Identity, owner: Identity?) {
        guard Self.index(alias, in: aliases) < 0 else { return }
        aliases[alias] = registrations.count
        registrations.append(AliasRegistration(owner: owner))
        registrationsChanged.append(true)
    }

    private mutating func hold(_ entry: LedgerEntry, for identity: Identity) {
        identities[identity] = held.count
        held.append(entry)
        heldChanged.append(true)
    }

    /// Asking about an identity or alias the batch was not made for is a programming error.
    private static func index(_ key: Identity, in table: [Identity: Int]) -> Int {
        guard let index = table[key] else { preconditionFailure("an identity or alias the batch was not made for") }
        return index
    }
}

extension Identity {
    /// The order of the store's keys: `high`, then `low`, each compared as the signed integer SQLite holds.
    static func storeOrder(_ a: Identity, _ b: Identity) -> Bool {
        let (ah, bh) = (Int64(bitPattern: a.high), Int64(bitPattern: b.high))
        return ah != bh ? ah < bh : Int64(bitPattern: a.low) < Int64(bitPattern: b.low)
    }
}
