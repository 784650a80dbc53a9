/// Where `Deduplicator` keeps the identities and aliases already counted: the storage half of the keep rules,
/// with no rule of its own. `MemoryIdentityLedger` keeps them for one read, `CompactIdentityLedger` for a dry run
/// of a whole history; the store's `SQLiteIdentityLedger` keeps them across scans (a commit group's through an
/// `IdentityBatch`). Every implementation runs the same contract tests
/// (`IdentityLedgerContractTests`).
protocol IdentityLedger {
    associatedtype Failure: Error

    /// Records `identity` as taken by a `first` record, when nothing holds it yet; false when something does.
    mutating func claim(_ identity: Identity) throws(Failure) -> Bool
    /// What holds `identity`, if anything.
    func entry(_ identity: Identity) throws(Failure) -> LedgerEntry?
    /// Keeps `contribution` for `identity`, replacing what was kept.
    mutating func keep(_ contribution: Contribution, for identity: Identity) throws(Failure)
    /// The registration of `alias`, if any.
    func alias(_ alias: Identity) throws(Failure) -> AliasRegistration?
    /// Registers `alias` for the record named `owner`, unless it is registered already (the first one stays).
    mutating func register(_ alias: Identity, owner: Identity?) throws(Failure)
}

/// What a ledger holds for one identity.
enum LedgerEntry: Equatable {
    /// Taken by a `first` record: nothing to replace.
    case claimed
    /// Kept by a `last` or `largest` record, with what it contributed.
    case kept(Contribution)
}

/// Who registered an alias: the identity of the record (nil for a record without one).
struct AliasRegistration: Equatable {
    let owner: Identity?
}
