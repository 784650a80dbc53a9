/// The identities and aliases one commit group asks about, read from the store up front and written back at the
/// end, both in the store's key order: the B-tree's pages are then visited in order, once per group, instead of
/// once per record in the random order of the hashes, and the group's transaction dirties each page it changes
/// once. Between the two, the keep rules run in memory (`Deduplicator`) exactly as they would against the store,
/// record by record in the group's order, so the outcome is the same.
///
/// It is sized for groups of thousands of records: the keys asked about are placed in tables in key order (`Holdings`;
/// the keys are hashes, so no hashing is needed to find them), with a value only where something holds the key.
struct IdentityBatch: IdentityLedger {
    typealias Failure = Never

    private var identities: Holdings<LedgerEntry>
    private var aliases: Holdings<AliasRegistration>

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
        identities = try Holdings(identityKeys) { identity throws(StoreError) in try store.entry(identity) }
        aliases = try Holdings(aliasKeys) { alias throws(StoreError) in try store.alias(alias) }
    }

    /// Writes what the group changed, in key order.
    func write(to store: inout SQLiteIdentityLedger) throws(StoreError) {
        try identities.forEachChanged { identity, entry throws(StoreError) in
            switch entry {
            case .claimed: _ = try store.claim(identity)
            case .kept(let contribution): try store.keep(contribution, for: identity)
            }
        }
        try aliases.forEachChanged { alias, registration throws(StoreError) in
            try store.register(alias, owner: registration.owner)
        }
    }

    mutating func claim(_ identity: Identity) -> Bool {
        guard identities[identity] == nil else { return false }
        identities[identity] = .claimed
        return true
    }

    func entry(_ identity: Identity) -> LedgerEntry? { identities[identity] }

    mutating func keep(_ contribution: Contribution, for identity: Identity) {
        identities[identity] = .kept(contribution)
    }

    func alias(_ alias: Identity) -> AliasRegistration? { aliases[alias] }

    mutating func register(_ alias: Identity, owner: Identity?) {
        guard aliases[alias] == nil else { return }
        aliases[alias] = AliasRegistration(owner: owner)
    }
}

/// The keys a batch asks about, placed in a table in the store's key order (a key's index is its place in that
/// order), and what is held for each: read from the store, then changed by the group.
private struct Holdings<Value> {
    /// Payload: the index of the key's value in `values`, or `nothing`.
    private var keys = IdentityTable()
    private var values: [Value] = []
    private var changed: [Bool] = []

    private static var nothing: UInt32 { .max }

    init(_ asked: [Identity], stored: (Identity) throws(StoreError) -> Value?) throws(StoreError) {
        for key in Self.distinctInStoreOrder(asked) {
            guard let value = try stored(key) else {
                keys.insert(key, payload: Self.nothing)
                continue
            }
            keys.insert(key, payload: UInt32(values.count))
            values.append(value)
            changed.append(false)
        }
    }

    /// What is held for `key`; set, it is held and marked changed. Asking about a key the batch was not made for
    /// is a programming error.
    subscript(key: Identity) -> Value? {
        get {
            let slot = keys.payload(at: index(of: key))
            return slot == Self.nothing ? nil : values[Int(slot)]
        }
        set {
            guard let newValue else { preconditionFailure("a batch's keys are held or changed, never let go") }
            let index = index(of: key)
            let slot = keys.payload(at: index)
            guard slot != Self.nothing else {
                keys.setPayload(UInt32(values.count), at: index)
                values.append(newValue)
                changed.append(true)
                return
            }
            values[Int(slot)] = newValue
            changed[Int(slot)] = true
        }
    }

    /// Each changed key with its value, in key order.
    func forEachChanged(_ body: (Identity, Value) throws(StoreError) -> Void) throws(StoreError) {
        for index in 0..<keys.count {
            let slot = keys.payload(at: index)
            guard slot != Self.nothing, changed[Int(slot)] else { continue }
            try body(keys.key(at: index), values[Int(slot)])
        }
    }

    private func index(of key: Identity) -> Int {
        guard let index = keys.index(of: key) else { preconditionFailure("an identity or alias the batch was not made for") }
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
