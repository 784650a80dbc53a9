/// Decides, record by record, what each identity contributes, so every usage record counts once. The rules
/// are written here once; where the identities already counted are kept is the `Ledger`'s concern (memory
/// for a dry run and for the copies within one read, the store across scans).
///
/// With `first`, later copies are dropped. With `last`, each later copy replaces the kept one. With
/// `largest`, a later copy replaces the kept one only when its total is strictly larger (streaming
/// snapshots grow; resumed copies are equal). A replacement is reported as the old contribution to take
/// away, so totals never hold two copies at once. A record that must be checked by its alias is a
/// duplicate when an earlier counted record with another identity registered that alias.
struct Deduplicator<Ledger: IdentityLedger> {
    var ledger: Ledger

    init(_ ledger: Ledger) {
        self.ledger = ledger
    }

    mutating func admit(_ event: TokenEvent) throws(Ledger.Failure) -> Admission {
        // Caught by its alias only when another record (another identity) registered it: copies of the same
        // identity still go through `keep` (a sidechain's own streaming snapshots grow). Records of one alias
        // group register it for the group, so they never catch one another.
        let owner = event.aliasOwner ?? event.identity
        if event.checkAlias, let alias = event.alias, let registered = try ledger.alias(alias), registered.owner != owner {
            return .duplicate
        }
        let admission = try admitByIdentity(event)
        if admission != .duplicate, let alias = event.alias { try ledger.register(alias, owner: owner) }
        return admission
    }

    private mutating func admitByIdentity(_ event: TokenEvent) throws(Ledger.Failure) -> Admission {
        guard let identity = event.identity else { return .counted }
        try carryOver(event.legacyIdentity, to: identity)
        // `first` needs only the identity; the others keep their contribution, to take it away on
        // replacement. Either kind of entry blocks a copy of the other kind, so rules sharing a space count once.
        if event.keep == .first { return try ledger.claim(identity) ? .counted : .duplicate }
        let contribution = Contribution(event)
        switch try ledger.entry(identity) {
        case nil:
            try ledger.keep(contribution, for: identity)
            return .counted
        case .claimed:
            return .duplicate
        case .kept(let previous):
            let replaces = event.keep == .last || event.counts.total > previous.delta.counts.total
            guard replaces else { return .duplicate }
            try ledger.keep(contribution, for: identity)
            return .replaced(previous)
        }
    }
}

extension Deduplicator {
    /// A store written before identity keys were canonical knows a record whose key holds an object by the hash
    /// of that object's bytes (`TokenEvent.legacyIdentity`). The first copy read since then carries what the
    /// old hash holds over to the new one, which every later copy finds, whatever its key order: a re-read, or
    /// a fork's replay, of a record counted before the upgrade counts nothing. (A copy in another key order of a
    /// record counted before, read before any copy in the old order, cannot be recognized: its old hash is
    /// another. Older versions counted it again too.)
    private mutating func carryOver(_ legacy: Identity?, to identity: Identity) throws(Ledger.Failure) {
        guard let legacy, let old = try ledger.entry(legacy), try ledger.entry(identity) == nil else { return }
        switch old {
        case .claimed: _ = try ledger.claim(identity)
        case .kept(let contribution): try ledger.keep(contribution, for: identity)
        }
    }
}

/// What `Deduplicator` decided for one record.
enum Admission: Equatable {
    case counted
    case duplicate
    /// The record replaces an earlier copy, whose contribution is to be taken away.
    case replaced(Contribution)
}

/// What one record adds to the bucket it is summed under, as kept for a record a later copy may replace.
public struct Contribution: Sendable, Equatable {
    public let key: BucketKey
    public let delta: BucketDelta

    public init(key: BucketKey, delta: BucketDelta) {
        self.key = key
        self.delta = delta
    }

    public init(_ event: TokenEvent) {
        self.init(key: BucketKey(event), delta: BucketDelta(event))
    }
}
