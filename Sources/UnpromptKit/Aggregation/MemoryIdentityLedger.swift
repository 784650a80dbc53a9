/// An `IdentityLedger` in memory, for the copies within one read before the store is asked.
/// Identities taken by `first` records are a set (most records), so only replaceable ones keep a contribution.
struct MemoryIdentityLedger: IdentityLedger {
    typealias Failure = Never

    private var claimed: Set<Identity> = []
    private var kept: [Identity: Contribution] = [:]
    private var aliases: [Identity: AliasRegistration] = [:]

    mutating func claim(_ identity: Identity) -> Bool {
        guard kept[identity] == nil else { return false }
        return claimed.insert(identity).inserted
    }

    func entry(_ identity: Identity) -> LedgerEntry? {
        if claimed.contains(identity) { return .claimed }
        return kept[identity].map(LedgerEntry.kept)
    }

    mutating func keep(_ contribution: Contribution, for identity: Identity) {
        kept[identity] = contribution
    }

    func alias(_ alias: Identity) -> AliasRegistration? {
        aliases[alias]
    }

    mutating func register(_ alias: Identity, owner: Identity?) {
        if aliases[alias] == nil { aliases[alias] = AliasRegistration(owner: owner) }
    }
}
