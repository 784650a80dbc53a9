/// Decides, record by record, what each identity contributes, so every usage record counts once.
///
/// With `first`, later copies are dropped. With `last`, each later copy replaces the kept one. With
/// `largest`, a later copy replaces the kept one only when its total is strictly larger (streaming
/// snapshots grow; resumed copies are equal). A replacement is reported as the old contribution to take
/// away and the new one to add, so totals never hold two copies at once. A record that must be checked by
/// its alias is a duplicate when an earlier counted record with another identity registered that alias.
public struct Deduplicator {
    public enum Outcome: Equatable {
        case counted
        case duplicate
        case replaced(TokenEvent)
    }

    private var kept: [Identity: TokenEvent] = [:]
    private var seen: Set<Identity> = []
    /// Alias → the identity of the record that registered it.
    private var aliases: [Identity: Identity?] = [:]

    public init() {}

    public mutating func admit(_ event: TokenEvent) -> Outcome {
        // Caught by its alias only when another record (another identity) registered it: copies of the same
        // identity still go through `keep` (a sidechain's own streaming snapshots grow).
        if event.checkAlias, let alias = event.alias, let owner = aliases[alias], owner != event.identity {
            return .duplicate
        }
        let outcome = admitByIdentity(event)
        if outcome != .duplicate, let alias = event.alias, aliases[alias] == nil { aliases[alias] = event.identity }
        return outcome
    }

    private mutating func admitByIdentity(_ event: TokenEvent) -> Outcome {
        guard let identity = event.identity else { return .counted }
        // `first` needs only the identity; the others keep the event, to take it away on replacement.
        // Either kind of entry blocks a copy of the other kind, so rules sharing a space count once.
        if event.keep == .first {
            guard kept[identity] == nil else { return .duplicate }
            return seen.insert(identity).inserted ? .counted : .duplicate
        }
        if seen.contains(identity) { return .duplicate }
        guard let previous = kept[identity] else {
            kept[identity] = event
            return .counted
        }
        let replaces = event.keep == .last || event.counts.total > previous.counts.total
        guard replaces else { return .duplicate }
        kept[identity] = event
        return .replaced(previous)
    }
}
