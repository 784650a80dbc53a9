import Foundation
import XCTest
import UnpromptTestSupport
@testable import UnpromptKit

/// An identity key holding an object is hashed from its values, not its bytes; and a store that holds such
/// identities hashed the old way (the bytes of the minified object) still counts every record once.
final class CanonicalIdentityTests: XCTestCase {
    func canonical(_ json: String) throws -> String {
        let parser = JSONParser()
        var bytes = Array(json.utf8)
        let root = try bytes.withUnsafeBytes { try parser.parse(copying: $0) }
        bytes = []
        CanonicalJSON.write(root, parser, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    func testKeysAreSortedNumbersNormalizedAndStringsEscapedOneWay() throws {
        XCTAssertEqual(try canonical(#"{ "b": 1, "a": [1.0, "\u0041", 1e3, 1.5, -0.0], "c": {"y": null, "x": true} }"#),
                       #"{"a":[1,"A",1000,1.5,0],"b":1,"c":{"x":true,"y":null}}"#)
        // The first of a repeated key counts, as for every path; escapes are only where JSON needs them.
        XCTAssertEqual(try canonical(#"{"k": 1, "k": 2, "s": "q\"\\\/\n\u0001é"}"#), #"{"k":1,"s":"q\"\\/\n\u0001é"}"#)
        XCTAssertEqual(try canonical("[18446744073709551615, 9007199254740993.0]"), "[18446744073709551615,9007199254740992.0]")
        // A key before the keys it starts, the empty key first; the first of three copies kept; integers at both ends.
        XCTAssertEqual(
            try canonical(#"{"ab": 1, "a": 2, "": 3, "a": 4, "n": [-9223372036854775808, 0, -7], "a": 5}"#),
            #"{"":3,"a":2,"ab":1,"n":[-9223372036854775808,0,-7]}"#)
    }

    /// The JSON shim writes the canonical text of whatever holds no number with a fraction; this file writes it too
    /// (for those numbers): both must write the same text. The shim writes the minified text beside it, as its
    /// minifier does.
    func testTheShimWritesWhatSwiftWrites() throws {
        let documents = [
            #"{"input_tokens":10,"cached_input_tokens":4,"output_tokens":3,"reasoning_output_tokens":1,"total_tokens":13}"#,
            #"{"a": {"b": [true, null, "x y"], "c": -3}, "d": "z"}"#,
            #"{"b": {"d": "e", "c": 2.0}, "a": 1}"#,
            #"{"b": 1, "a": 2, "b": 1.5e1}"#,
            #"{ "b": 1, "a": [1.0, "\u0041", 1e3, -0.0, 18446744073709551615], "c": {"y": null, "x": true, "x": false} }"#,
            #"{"ab": 1, "a": 2, "": 3, "a": 4, "n": [-9223372036854775808, 0, -7], "a": 5, "é": "q\"\\\/\n\u0001\u001f\u007fé"}"#,
            #"[[], {}, [{"z": [{"b": 2, "a": 1}], "y": {}}], "\b\f\r\t", false]"#,
        ]
        for json in documents {
            let parser = JSONParser()
            let root = try Array(json.utf8).withUnsafeBytes { try parser.parse(copying: $0) }
            var swift: [UInt8] = []
            CanonicalJSON.write(root, parser, into: &swift)
            let minified = parser.withMinifiedJSON(of: root) { String(decoding: $0, as: UTF8.self) }
            let shim = try XCTUnwrap(parser.withCanonicalJSON(of: root) { (Array($0), Array($1)) }, json)
            XCTAssertEqual(String(decoding: shim.0, as: UTF8.self), String(decoding: swift, as: UTF8.self), json)
            XCTAssertEqual(String(decoding: shim.1, as: UTF8.self), minified, json)
        }
        // A number with a fraction is left to Swift.
        let parser = JSONParser()
        let root = try Array(#"{"a": [1, 1.5]}"#.utf8).withUnsafeBytes { try parser.parse(copying: $0) }
        XCTAssertNil(parser.withCanonicalJSON(of: root) { _, _ in true })
    }

    /// Two hashes fed side by side (an identity key's canonical text and its bytes as written) are the hashes fed
    /// one after the other, whatever the two lengths.
    func testHashesFedSideBySideAreTheHashesFedApart() {
        let pairs = [("", "x"), ("abc", "abc"), (#"{"a":1}"#, #"{"b":22,"a":1}"#), (String(repeating: "q", count: 300), "r")]
        for (first, second) in pairs {
            var sideBySide = (IdentityHasher(), IdentityHasher())
            sideBySide.0.combine("codex")
            sideBySide.1.combine("codex")
            Array(first.utf8).withUnsafeBytes { a in
                Array(second.utf8).withUnsafeBytes { b in sideBySide.0.combine(a, alongside: &sideBySide.1, b) }
            }
            var apart = (IdentityHasher(), IdentityHasher())
            apart.0.combine("codex")
            apart.1.combine("codex")
            apart.0.combine(first)
            apart.1.combine(second)
            XCTAssertEqual(sideBySide.0.finalize(), apart.0.finalize(), first)
            XCTAssertEqual(sideBySide.1.finalize(), apart.1.finalize(), second)
        }
    }

    // MARK: a store from before canonical identities

    var dir = ""

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("canonical-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir + "/home/sessions", withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// Codex's running totals, in the order Codex writes their keys, or in another.
    static func totals(_ t: [Int64], reordered: Bool = false) -> String {
        let pairs = zip(["input_tokens", "cached_input_tokens", "output_tokens", "reasoning_output_tokens"], t)
            .map { #""\#($0)":\#($1)"# }
        return "{" + (reordered ? pairs.reversed() : pairs).joined(separator: ",") + "}"
    }

    static func line(_ time: String, _ t: [Int64], reordered: Bool = false) -> String {
        #"{"timestamp":"2026-02-10T\#(time)Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":\#(totals(t, reordered: reordered))}}}"#
            + "\n"
    }

    static let calls: [[Int64]] = [[1000, 600, 50, 10], [2200, 1500, 90, 30], [3000, 2100, 130, 50]]

    func write(_ name: String, _ lines: [String]) throws {
        try lines.joined().write(toFile: dir + "/home/sessions/" + name, atomically: true, encoding: .utf8)
    }

    func scan(_ store: UsageStore) throws -> ScanReport {
        try Scanner(
            store: store, discovery: SourceDiscovery(environment: [:], home: "/nonexistent", rootOverride: dir + "/home"),
            workers: 1
        ).scan([try DescriptorLoader.load(path: Repository.readers + "/codex.yaml")])
    }

    func hash(_ keyText: String) -> Identity {
        var hasher = IdentityHasher()
        hasher.combine("codex")
        hasher.combine(keyText)
        return hasher.finalize()
    }

    func totalInput(_ store: UsageStore) throws -> Int64 {
        try store.buckets(fromQuarter: 0, toQuarter: Int64.max).reduce(0) { $0 + $1.counts.input }
    }

    /// The parent session is scanned, then its identities are turned into the ones an older version stored (the
    /// hash of the object's minified bytes, as Codex wrote them): that store is what the older version left. A
    /// fork replaying the parent, the parent read again from its start, and a copy in another key order read
    /// after them each count only what is new.
    func testAStoreWithIdentitiesHashedFromBytesCountsEachRecordOnce() throws {
        let store = try UsageStore(path: dir + "/usage.sqlite")
        let parent = Self.calls.enumerated().map { Self.line("09:0\($0):00.000", $1) }
        try write("rollout-a.jsonl", parent)
        XCTAssertEqual(try scan(store).counted, 3)
        // Uncached input of the three calls: 3000 − 2100.
        XCTAssertEqual(try totalInput(store), 900)
        let database = try Database(path: store.path, options: [.readWrite])
        for call in Self.calls {
            let new = hash(#"{"cached_input_tokens":\#(call[1]),"input_tokens":\#(call[0]),"output_tokens":\#(call[2]),"reasoning_output_tokens":\#(call[3])}"#)
            let old = hash(Self.totals(call))
            try database.prepare("UPDATE identities SET high = ?1, low = ?2 WHERE high = ?3 AND low = ?4").run([
                .integer(Int64(bitPattern: old.high)), .integer(Int64(bitPattern: old.low)),
                .integer(Int64(bitPattern: new.high)), .integer(Int64(bitPattern: new.low)),
            ])
            XCTAssertEqual(database.changes, 1, "the canonical identity of \(call) is not the one this test computes")
        }

        // A fork replays the parent's totals (Codex's key order), then makes a call of its own (+400 uncached input).
        try write("rollout-b.jsonl", parent + [Self.line("10:00:00.000", [4000, 2700, 170, 60])])
        XCTAssertEqual(try scan(store).counted, 1)
        XCTAssertEqual(try totalInput(store), 1300)

        // The parent rewritten whole (read again from its start), and an archived copy in another key order.
        try write("rollout-a.jsonl", [#"{"timestamp":"2026-02-10T09:00:00.000Z","type":"session_meta","payload":{}}"# + "\n"] + parent)
        try write("rollout-c.jsonl", Self.calls.enumerated().map { Self.line("11:0\($0):00.000", $1, reordered: true) })
        let last = try scan(store)
        XCTAssertEqual(last.counted, 0)
        XCTAssertEqual(last.duplicates, 6)
        XCTAssertEqual(try totalInput(store), 1300)
    }

    /// What an old hash keeps moves to the new one: a larger copy of a `largest` record replaces exactly what was
    /// counted, a smaller one is a duplicate, and so is any later copy that knows only the new hash.
    func testWhatAnOldHashKeepsIsCarriedOverToTheNewOne() {
        let old = Identity(high: 1, low: 1)
        let new = Identity(high: 2, low: 2)
        func event(_ input: Int64, legacy: Identity?) -> TokenEvent {
            TokenEvent(
                tool: "t", time: 0, model: "m", counts: TokenCounts(input: input), identity: new, legacyIdentity: legacy,
                keep: .largest)
        }
        var ledger = MemoryIdentityLedger()
        let counted = Contribution(TokenEvent(tool: "t", time: 0, model: "m", counts: TokenCounts(input: 5), identity: old))
        ledger.keep(counted, for: old)
        var deduplicator = Deduplicator(ledger)
        XCTAssertEqual(deduplicator.admit(event(4, legacy: old)), .duplicate)
        XCTAssertEqual(deduplicator.admit(event(9, legacy: old)), .replaced(counted))
        XCTAssertEqual(deduplicator.admit(event(7, legacy: nil)), .duplicate)
    }
}
