import Foundation
import Testing
@testable import UnpromptKit

/// The keep rules' contract, run against every `IdentityLedger` (swift-log's "a test every implementation
/// runs"): the rules are `Deduplicator`'s, the ledger only keeps what they decided, so each ledger must give
/// the same admissions for the same records.
enum LedgerKind: String, CaseIterable, CustomTestStringConvertible {
    case memory
    case compact
    case sqlite
    /// The store's ledger through an `IdentityBatch` made for each record: read up front, written back after.
    case batch
    /// The same over a new store that knows it holds only the keys written through its `StoredKeyFilter`.
    case filteredBatch

    var testDescription: String { rawValue }

    /// A deduplicator over a fresh, empty ledger of this kind.
    func fresh() throws -> Admitter {
        switch self {
        case .memory:
            var deduplicator = Deduplicator(MemoryIdentityLedger())
            return Admitter { deduplicator.admit($0) }
        case .compact:
            var deduplicator = Deduplicator(CompactIdentityLedger())
            return Admitter { deduplicator.admit($0) }
        case .sqlite:
            var deduplicator = Deduplicator(
                try SQLiteIdentityLedger(database: try Database(path: try Self.freshStorePath(), options: [.readWrite])))
            return Admitter { try deduplicator.admit($0) }
        case .batch, .filteredBatch:
            var stored = try SQLiteIdentityLedger(
                database: try Database(path: try Self.freshStorePath(), options: [.readWrite]),
                storedKeys: self == .filteredBatch ? StoredKeyFilter() : nil)
            return Admitter { event in
                var deduplicator = Deduplicator(try IdentityBatch(for: [event], from: stored))
                let admission = deduplicator.admit(event)
                try deduplicator.ledger.write(to: &stored)
                return admission
            }
        }
    }

    private static func freshStorePath() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-\(UUID().uuidString)").path + "/u.sqlite"
        _ = try UsageStore(path: path)
        return path
    }
}

/// One deduplicator, whatever its ledger.
struct Admitter {
    let admit: (TokenEvent) throws -> Admission
}

let idA = Identity(high: 1, low: 2)
let idB = Identity(high: 3, low: 4)

func event(
    _ input: Int64, identity: Identity?, keep: KeepRule, model: String = "m", time: Int64 = 0, output: Int64 = 0
) -> TokenEvent {
    TokenEvent(
        tool: "t", time: time, model: model, counts: TokenCounts(input: input, output: output), identity: identity,
        keep: keep)
}

func replaced(_ event: TokenEvent) -> Admission { .replaced(Contribution(event)) }

@Test(arguments: LedgerKind.allCases)
func firstKeepsTheFirstCopy(_ kind: LedgerKind) throws {
    let d = try kind.fresh()
    #expect(try d.admit(event(5, identity: idA, keep: .first)) == .counted)
    #expect(try d.admit(event(9, identity: idA, keep: .first)) == .duplicate)
    #expect(try d.admit(event(1, identity: idA, keep: .first)) == .duplicate)
    #expect(try d.admit(event(9, identity: idB, keep: .first)) == .counted, "another identity is independent")
}

@Test(arguments: LedgerKind.allCases)
func lastReplacesWithEveryLaterCopy(_ kind: LedgerKind) throws {
    let d = try kind.fresh()
    let first = event(5, identity: idA, keep: .last)
    let second = event(9, identity: idA, keep: .last, time: Bucket.quarterMilliseconds * 3)
    let third = event(3, identity: idA, keep: .last, model: "n")
    #expect(try d.admit(first) == .counted)
    #expect(try d.admit(second) == replaced(first))
    #expect(try d.admit(third) == replaced(second), "a smaller later copy still replaces")
    #expect(try d.admit(third) == replaced(third), "an identical copy replaces itself")
}

@Test(arguments: LedgerKind.allCases)
func largestReplacesOnlyWhenStrictlyLarger(_ kind: LedgerKind) throws {
    let d = try kind.fresh()
    let small = event(5, identity: idA, keep: .largest)
    let equal = event(2, identity: idA, keep: .largest, output: 3)
    let big = event(9, identity: idA, keep: .largest)
    let smaller = event(7, identity: idA, keep: .largest)
    #expect(try d.admit(small) == .counted)
    #expect(try d.admit(equal) == .duplicate, "an equal total is a resumed copy, not a bigger snapshot")
    #expect(try d.admit(big) == replaced(small))
    #expect(try d.admit(smaller) == .duplicate)
    #expect(try d.admit(event(10, identity: idA, keep: .largest)) == replaced(big))
}

/// `largest` compares totals: input, cache and output, with reasoning inside output (so not added again).
@Test(arguments: LedgerKind.allCases)
func largestComparesTotals(_ kind: LedgerKind) throws {
    let d = try kind.fresh()
    let a = event(10, identity: idA, keep: .largest)
    #expect(try d.admit(a) == .counted)
    let moreCache = TokenEvent(
        tool: "t", time: 0, model: "m", counts: TokenCounts(input: 1, cacheRead: 20), identity: idA, keep: .largest)
    #expect(try d.admit(moreCache) == replaced(a), "a smaller input with more cache is larger")
    let moreReasoning = TokenEvent(
        tool: "t", time: 0, model: "m", counts: TokenCounts(input: 21, reasoning: 50), identity: idA, keep: .largest)
    #expect(try d.admit(moreReasoning) == .duplicate, "reasoning is inside output: 21 is not larger than 21")
}

/// What a replaced record gives back is exactly what it added: its bucket (quarter, model, context band,
/// whether a cost was logged) and every sum in it.
@Test(arguments: LedgerKind.allCases)
func aReplacementGivesBackTheWholeContribution(_ kind: LedgerKind) throws {
    let d = try kind.fresh()
    let kept = TokenEvent(
        tool: "t", time: 7 * Bucket.quarterMilliseconds + 5, model: "m-1",
        counts: TokenCounts(input: 150_000, cacheRead: 2, cacheWrite5m: 3, cacheWrite1h: 4, output: 5, reasoning: 1),
        loggedCost: 0.25, identity: idA, keep: .largest, estimated: true)
    #expect(try d.admit(kept) == .counted)
    let admission = try d.admit(event(300_000, identity: idA, keep: .largest))
    #expect(admission == replaced(kept))
    guard case .replaced(let previous) = admission else { return }
    #expect(previous.key == BucketKey(quarter: 7, tool: "t", model: "m-1", contextAbove: 128_000, costLogged: true))
    #expect(previous.delta.loggedCostNanos == 250_000_000)
    #expect(previous.delta.estimatedEvents == 1)
}

/// A replaced record gives back its own quarter-hour, wherever it falls in its day (the compact ledger keeps
/// day-long keys and the quarter beside them), before 1970 too, among records of the same day and model.
@Test(arguments: LedgerKind.allCases)
func aReplacementGivesBackItsOwnQuarterHour(_ kind: LedgerKind) throws {
    let d = try kind.fresh()
    let day = LocalCalendar.quartersPerDay
    let quarters: [Int64] = [0, 1, day - 1, day, day + 37, 20_000 * day + 95, -1, -day, -day - 1]
    let kept = quarters.enumerated().map { index, quarter in
        event(
            1, identity: Identity(high: 7, low: UInt64(index)), keep: .largest, time: quarter * Bucket.quarterMilliseconds + 3)
    }
    for record in kept { #expect(try d.admit(record) == .counted) }
    for (index, record) in kept.enumerated() {
        let admission = try d.admit(event(2, identity: Identity(high: 7, low: UInt64(index)), keep: .largest))
        #expect(admission == replaced(record))
        guard case .replaced(let previous) = admission else { continue }
        #expect(previous.key.quarter == quarters[index])
    }
}

@Test(arguments: LedgerKind.allCases)
func rulesWithDifferentKeepRulesInOneSpaceCountOnce(_ kind: LedgerKind) throws {
    let d = try kind.fresh()
    #expect(try d.admit(event(5, identity: idA, keep: .first)) == .counted)
    #expect(try d.admit(event(9, identity: idA, keep: .largest)) == .duplicate)
    #expect(try d.admit(event(4, identity: idB, keep: .last)) == .counted)
    #expect(try d.admit(event(7, identity: idB, keep: .first)) == .duplicate)
}

/// A record checked by its alias is a duplicate when another identity registered that alias, but copies
/// of its own identity still go through `keep`.
@Test(arguments: LedgerKind.allCases)
func aliasCatchesCopiesUnderANewKeyButNotGrowingSnapshots(_ kind: LedgerKind) throws {
    let alias = Identity(high: 9, low: 9)
    func aliased(_ input: Int64, _ identity: Identity?, check: Bool, keep: KeepRule = .largest) -> TokenEvent {
        TokenEvent(
            tool: "t", time: 0, model: "m", counts: TokenCounts(input: input), identity: identity, keep: keep,
            alias: alias, checkAlias: check)
    }
    let d = try kind.fresh()
    #expect(try d.admit(aliased(5, idA, check: false)) == .counted, "the parent registers the alias")
    #expect(try d.admit(aliased(5, idB, check: true)) == .duplicate, "a sidechain replay under a new key")
    #expect(try d.admit(aliased(5, idB, check: false)) == .counted, "not checked: its own identity decides")
    let e = try kind.fresh()
    let first = aliased(3, idB, check: true)
    #expect(try e.admit(first) == .counted)
    #expect(try e.admit(aliased(8, idB, check: true)) == replaced(first), "its own larger snapshot replaces")
    let f = try kind.fresh()
    #expect(try f.admit(aliased(5, idA, check: true, keep: .first)) == .counted)
    #expect(try f.admit(aliased(6, idA, check: true, keep: .first)) == .duplicate, "its own identity, kept first")
    #expect(try f.admit(aliased(6, nil, check: true)) == .duplicate, "a record with no identity is another record")
}

/// The first record to register an alias owns it: a later one does not take it over.
@Test(arguments: LedgerKind.allCases)
func theFirstRegistrationOfAnAliasStays(_ kind: LedgerKind) throws {
    let alias = Identity(high: 9, low: 9)
    func aliased(_ identity: Identity, check: Bool) -> TokenEvent {
        TokenEvent(
            tool: "t", time: 0, model: "m", counts: TokenCounts(input: 1), identity: identity, keep: .first, alias: alias,
            checkAlias: check)
    }
    let d = try kind.fresh()
    #expect(try d.admit(aliased(idA, check: false)) == .counted)
    #expect(try d.admit(aliased(idB, check: false)) == .counted, "unchecked: registers nothing new")
    #expect(try d.admit(aliased(Identity(high: 5, low: 5), check: true)) == .duplicate)
    #expect(try d.admit(aliased(idA, check: true)) == .duplicate, "idA's own copy: a duplicate by its identity")
}

/// Records of one alias group never catch one another by the alias; a record of another group that
/// registered it first does (Copilot's per-request rows and its session totals stand for the same usage).
@Test(arguments: LedgerKind.allCases)
func anAliasGroupCatchesOnlyAnotherGroup(_ kind: LedgerKind) throws {
    let alias = Identity(high: 9, low: 9)
    let rows = Identity(high: 70, low: 1)
    let totals = Identity(high: 70, low: 2)
    func grouped(_ identity: Identity, _ group: Identity) -> TokenEvent {
        TokenEvent(
            tool: "t", time: 0, model: "m", counts: TokenCounts(input: 1), identity: identity, keep: .first, alias: alias,
            checkAlias: true, aliasOwner: group)
    }
    let d = try kind.fresh()
    #expect(try d.admit(grouped(idA, totals)) == .counted, "the first session total registers for its group")
    #expect(try d.admit(grouped(idB, totals)) == .counted, "a second total of the same group is not caught")
    #expect(try d.admit(grouped(Identity(high: 5, low: 5), rows)) == .duplicate, "a row, once totals came first")
    let e = try kind.fresh()
    #expect(try e.admit(grouped(idA, rows)) == .counted)
    #expect(try e.admit(grouped(idB, rows)) == .counted, "rows of one session")
    #expect(try e.admit(grouped(Identity(high: 5, low: 5), totals)) == .duplicate, "a total, once rows came first")
}

@Test(arguments: LedgerKind.allCases)
func aNilIdentityIsAlwaysCounted(_ kind: LedgerKind) throws {
    let d = try kind.fresh()
    for keep in KeepRule.allCases {
        for _ in 0..<3 { #expect(try d.admit(event(5, identity: nil, keep: keep)) == .counted) }
    }
}

/// Totals through the deduplicator hold one copy per identity.
@Test(arguments: LedgerKind.allCases)
func totalsHoldOneCopyPerIdentity(_ kind: LedgerKind) throws {
    let d = try kind.fresh()
    var totals = UsageTotals()
    let events = [
        event(5, identity: idA, keep: .largest, model: "a", time: 0),
        event(8, identity: idA, keep: .largest, model: "a", time: 0),
        event(1, identity: nil, keep: .largest, model: "b", time: 86_400_000),
        event(6, identity: idA, keep: .largest, model: "a", time: 0),
    ]
    for e in events {
        switch try d.admit(e) {
        case .counted: totals.add(e)
        case .duplicate: break
        case .replaced(let previous):
            totals.remove(previous)
            totals.add(e)
        }
    }
    #expect(totals.total == TokenCounts(input: 9))
    #expect(totals.events == 2)
    #expect(totals.byModel == ["a": TokenCounts(input: 8), "b": TokenCounts(input: 1)])
    #expect(totals.byDay == [0: TokenCounts(input: 8), 1: TokenCounts(input: 1)])
}

/// Many identities, all alike in their low bits (where a hash table would place them), each keeps its own entry:
/// a later copy of each finds what that identity contributed, a count beyond 32 bits and a logged cost included.
@Test(arguments: LedgerKind.allCases)
func manyIdentitiesEachKeepTheirOwnContribution(_ kind: LedgerKind) throws {
    let d = try kind.fresh()
    func record(_ index: Int, input: Int64) -> TokenEvent {
        TokenEvent(
            tool: "t", time: Int64(index) * Bucket.quarterMilliseconds, model: "m\(index % 3)",
            counts: TokenCounts(input: input, output: Int64(index)), loggedCost: index % 5 == 0 ? 0.5 : nil,
            identity: Identity(high: UInt64(index), low: UInt64(index % 4) << 40),
            keep: index % 2 == 0 ? .largest : .first)
    }
    let count = 1_500
    let inputs = (0..<count).map { $0 == 8 ? Int64(5_000_000_000) : Int64($0 + 1) }
    for index in 0..<count { #expect(try d.admit(record(index, input: inputs[index])) == .counted) }
    for index in 0..<count {
        let admission = try d.admit(record(index, input: inputs[index] + 1))
        #expect(admission == (index % 2 == 0 ? replaced(record(index, input: inputs[index])) : .duplicate), "\(index)")
    }
}

/// A record the ledger holds under the hash it had before keys were canonical (`legacyIdentity`) is the same
/// record under its new hash: a copy carrying both counts nothing, and so do later copies with the new hash only.
@Test(arguments: LedgerKind.allCases)
func aRecordHeldUnderItsOldHashIsKnownByItsNewOne(_ kind: LedgerKind) throws {
    let d = try kind.fresh()
    let old = Identity(high: 7, low: 8)
    #expect(try d.admit(event(5, identity: old, keep: .first)) == .counted)
    let copy = TokenEvent(
        tool: "t", time: 0, model: "m", counts: TokenCounts(input: 5), identity: idA, legacyIdentity: old, keep: .first)
    #expect(try d.admit(copy) == .duplicate)
    #expect(try d.admit(event(5, identity: idA, keep: .first)) == .duplicate)
    let fresh = TokenEvent(
        tool: "t", time: 0, model: "m", counts: TokenCounts(input: 5), identity: idB, legacyIdentity: Identity(high: 9, low: 9),
        keep: .first)
    #expect(try d.admit(fresh) == .counted, "an old hash nothing holds changes nothing")
}
