import Foundation
import Testing
import UnpromptTestSupport

/// The mistakes a descriptor author makes, each caught by a dry run's warning that names the rule, through the
/// binary: a misspelled token path, a wrong glob, milliseconds read as seconds and the reverse, a shape no rule
/// matches.
struct DryRunWarningTests {
    let directory: String

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("dry-warn-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory + "/readers", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: directory + "/home/logs", withIntermediateDirectories: true)
    }

    /// A one-rule descriptor `probe` (the rule at 9:9, its time at 10:15), and its log.
    func warnings(tokens: String = "{ input: usage.in, output: usage.out }", time: String = "{ path: ts, as: epoch_ms }",
                  glob: String = "logs/*.jsonl", lines: [String]) throws -> [(code: String, message: String)] {
        let descriptor = """
            schema: 1
            id: probe
            name: Probe
            inputs:
              - format: jsonl
                sources:
                  - { root: "~/.probe", glob: "\(glob)" }
                records:
                  - name: turn
                    time: \(time)
                    match: { kind: turn }
                    tokens: \(tokens)
                    counting: { input_includes_cache: false, output_includes_reasoning: true }

            """
        try descriptor.write(toFile: directory + "/readers/probe.yaml", atomically: false, encoding: .utf8)
        try (lines.joined(separator: "\n") + "\n").write(toFile: directory + "/home/logs/a.jsonl", atomically: false, encoding: .utf8)
        let output = try Binary.run(
            ["--dry-run", "--readers-dir", directory + "/readers", "--root", directory + "/home", "--json"],
            environment: ["TZ": "UTC", "UNPROMPT_NOW": "2026-06-01T00:00:00Z"])
        #expect(output.status == 0, "\(output.stderr)")
        guard case .array(let readers)? = try JSONTree(parsing: output.stdout)["readers"],
            case .array(let warnings)? = readers.first?["warnings"]
        else {
            Issue.record("no warnings array: \(output.stdout)")
            return []
        }
        return warnings.compactMap { warning in
            guard case .string(let code)? = warning["code"], case .string(let message)? = warning["message"] else { return nil }
            return (code, message)
        }
    }

    static let turn = #"{"kind":"turn","ts":1767225600000,"usage":{"in":10,"out":2,"secret":"CANARY-dry-warn-7f3a"}}"#

    @Test func aMisspelledTokenPathNamesThePathsTriedAndTheKeysThere() throws {
        let found = try warnings(tokens: "{ input: usage.inn, output: usage.outt }", lines: [Self.turn, Self.turn])
        let noUsage = try #require(found.first { $0.code == "no-usage" }, "\(found)")
        #expect(noUsage.message.hasPrefix("readers/probe.yaml:9:9: record rule 'turn': 2 records skipped as no-usage"), "\(noUsage.message)")
        #expect(noUsage.message.contains("token paths tried: usage.inn, usage.outt"), "\(noUsage.message)")
        #expect(noUsage.message.contains("keys at usage in the first: in, out, secret"), "\(noUsage.message)")
        #expect(!found.contains { $0.message.contains("CANARY") }, "key names only, never a value")
    }

    /// One field misspelled beside a correct one: the record still counts (its output as 0), so only the key
    /// spelled almost like it, in the same object, can point at the mistake.
    @Test func aFieldMisspelledBesideCorrectOnesNamesTheKeySpelledAlmostLikeIt() throws {
        let found = try warnings(tokens: "{ input: usage.in, output: usage.otu }", lines: [Self.turn, Self.turn])
        #expect(found.map(\.code) == ["near-miss"], "\(found)")
        #expect(
            found.first?.message
                == "readers/probe.yaml:9:9: record rule 'turn': token path 'usage.otu' is absent from the first record counted, whose object holds 'out' (counted as 0; a misspelling?)",
            "\(found)")
        // Spelled right, or absent with nothing like it there (a field that only some records carry): no warning.
        #expect(try warnings(lines: [Self.turn]).isEmpty)
        #expect(try warnings(tokens: "{ input: usage.in, output: usage.out, reasoning: usage.reasoning }", lines: [Self.turn]).isEmpty)
    }

    @Test func aPathMisspelledHigherUpListsTheRecordsTopLevel() throws {
        let found = try warnings(tokens: "{ input: usge.in }", lines: [Self.turn])
        let noUsage = try #require(found.first { $0.code == "no-usage" }, "\(found)")
        #expect(noUsage.message.contains("keys at the record's top level in the first: kind, ts, usage"), "\(noUsage.message)")
    }

    @Test func aWrongGlobNamesTheRootAsWrittenAndTheGlob() throws {
        let found = try warnings(glob: "log/*.jsonl", lines: [Self.turn])
        #expect(found.map(\.code) == ["no-sources"], "\(found)")
        #expect(
            found.first?.message
                == "readers/probe.yaml:7:9: no sources: root '~/.probe' (replaced by --root, exists, but the glob's fixed part 'log' does not exist below it), glob 'log/*.jsonl'",
            "\(found)")
    }

    @Test func millisecondsReadAsSecondsNameTheUnitThatFits() throws {
        let found = try warnings(time: "{ path: ts, as: epoch_s }", lines: [Self.turn])
        #expect(
            found.map(\.message) == [
                "readers/probe.yaml:10:15: record rule 'turn': 1 record skipped as bad-time: their time is a number that is no time as epoch_s; as epoch_ms it fits"
            ], "\(found)")
        #expect(found.first?.code == "implausible-time")
    }

    @Test func secondsReadAsMillisecondsNameTheUnitThatFits() throws {
        let found = try warnings(lines: [#"{"kind":"turn","ts":1767225600,"usage":{"in":1,"out":1}}"#])
        #expect(
            found.map(\.message) == [
                "readers/probe.yaml:10:15: record rule 'turn': times read as epoch_ms fall before 2020 (the earliest: 1970-01-21); as epoch_s they fit"
            ], "\(found)")
    }

    @Test func timesAheadOfTheClockAreImplausible() throws {
        // 2027-01-01, seven months after UNPROMPT_NOW; no epoch unit makes it fit.
        let found = try warnings(lines: [#"{"kind":"turn","ts":1798761600000,"usage":{"in":1,"out":1}}"#])
        #expect(
            found.map(\.message) == [
                "readers/probe.yaml:10:15: record rule 'turn': times read as epoch_ms fall more than a day ahead of the clock (the latest: 2027-01-01)"
            ], "\(found)")
    }

    @Test func recordsNoRuleMatchesAreCounted() throws {
        let other = #"{"kind":"summary","ts":1767225600000}"#
        let found = try warnings(lines: [Self.turn, other, other])
        #expect(
            found.map(\.message) == ["readers/probe.yaml:9:9: 2 lines matched no record rule (the first: source 1, line 2)"],
            "\(found)")
        #expect(found.first?.code == "unmatched")
    }

    @Test func aDescriptorThatReadsWellHasNoWarning() throws {
        #expect(try warnings(lines: [Self.turn]).isEmpty)
    }
}
