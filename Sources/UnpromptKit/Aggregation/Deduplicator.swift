/// Decides, record by record, what each identity contributes, so every usage record counts once.
///
/// With `first`, later copies are dropped. With `last`, each later copy replaces the kept one. With
/// `largest`, a later copy replaces the kept one only when its total is strictly larger (streaming
/// snapshots grow; resumed copies are equal). A replacement is reported as the old contribution to take
/// away and the new one to add, so totals never hold two copies at once.
public struct Deduplicator {
    public enum Outcome: Equatable {
        case counted
        case duplicate
        case replaced(TokenEvent)
    }

    private var kept: [Identity: TokenEvent] = [:]
    private var seen: Set<Identity> = []

    public init() {}

    public mutating func admit(_ event: TokenEvent) -> Outcome {
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
