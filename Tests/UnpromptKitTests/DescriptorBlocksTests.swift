import Foundation
import Testing
@testable import UnpromptKit

/// Named blocks (`blocks`, `use`): a part written once reads as if written where it is used, in the same
/// descriptor or another, and every mistake in or about a block is placed where it is written.
struct DescriptorBlocksTests {
    /// Two records sharing their counting and identity through a block. Lines: 3 `blocks`, 5 `counting`,
    /// 6 `identity`, 12 the first record's `use`, 16 the second's.
    static let shared = """
        schema: 1
        id: demo
        blocks:
          usage:
            counting: { input_includes_cache: false, output_includes_reasoning: true }
            identity: { key: [id], keep: first }
        name: Demo
        inputs:
          - format: jsonl
            sources: [{ root: /tmp/demo, glob: "*.jsonl" }]
            records:
              - { name: one, match: { type: a }, time: ts, tokens: { input: in }, use: usage }
              - name: two
                match: { type: b }
                time: ts
                use: [usage]
                tokens: { output: out }
        """

    func load(_ text: String, file: String = "demo.yaml", directories: [String] = []) throws(DescriptorError) -> Descriptor {
        try DescriptorLoader.load(text: text, file: file, directories: directories)
    }

    func error(_ text: String, file: String = "demo.yaml", directories: [String] = []) -> String {
        do throws(DescriptorError) {
            _ = try load(text, file: file, directories: directories)
            return "loaded"
        } catch {
            return error.description
        }
    }

    @Test func aBlockReadsAsIfWrittenWhereItIsUsed() throws {
        let records = try load(Self.shared).inputs[0].records
        #expect(records.map(\.name) == ["one", "two"])
        for record in records {
            #expect(record.identity?.keep == .first)
            #expect(record.identity?.key.count == 1)
            guard case .always(false) = record.counting.inputIncludesCache else { Issue.record("\(record.name)"); continue }
        }
        #expect(records[0].tokens.input != nil && records[1].tokens.output != nil)
    }

    @Test func aMistakeInABlockPointsIntoTheBlock() {
        let broken = Self.shared.replacingOccurrences(of: "keep: first", with: "keep: firts")
        #expect(error(broken) == "demo.yaml:6:34: identity.keep must be one of: first, last, largest; found 'firts' (keep: which copy counts)")
    }

    @Test func aKeyGivenByABlockAndByTheMappingIsAnError() {
        let twice = Self.shared.replacingOccurrences(of: "tokens: { output: out }", with: "identity: { key: [x], keep: last }")
        #expect(error(twice).hasPrefix("demo.yaml:13:9: 'identity' is given twice in a record, at 6:5 and at 17:9 (through use)"), "\(error(twice))")
    }

    @Test func unknownBlocksBadNamesAndCyclesAreErrors() {
        #expect(error(Self.shared.replacingOccurrences(of: "use: [usage]", with: "use: [usag]"))
            == "demo.yaml:16:15: no block named 'usag' in this descriptor; its blocks: usage")
        #expect(error(Self.shared.replacingOccurrences(of: "use: [usage]", with: "use: [Usage]")).contains(
            "16:15: 'Usage' is not a block name"))
        let cycle = Self.shared.replacingOccurrences(
            of: "    identity: { key: [id], keep: first }", with: "    identity: { key: [id], keep: first }\n    use: usage")
        #expect(error(cycle).contains("block 'usage' uses itself"), "\(error(cycle))")
    }

    @Test func blocksOfAnotherDescriptorAreTakenFromItsFileAndPlacedThere() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("blocks-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Self.shared.write(toFile: directory + "/demo.yaml", atomically: true, encoding: .utf8)
        let user = """
            schema: 1
            id: other
            name: Other
            inputs:
              - format: jsonl
                sources: [{ root: /tmp/other, glob: "*.jsonl" }]
                records:
                  - { name: three, time: ts, tokens: { input: in }, use: demo.usage }
            """
        let loaded = try load(user, file: "other.yaml", directories: [directory])
        #expect(loaded.inputs[0].records[0].identity?.keep == .first)
        // A mistake in the other descriptor's block is placed in that file.
        try Self.shared.replacingOccurrences(of: "keep: first", with: "keep: firts")
            .write(toFile: directory + "/demo.yaml", atomically: true, encoding: .utf8)
        #expect(error(user, file: "other.yaml", directories: [directory]).hasPrefix("\(directory)/demo.yaml:6:34: identity.keep"))
        #expect(error(user.replacingOccurrences(of: "demo.usage", with: "nobody.usage"), file: "other.yaml", directories: [directory])
            .hasPrefix("other.yaml:8:62: no descriptor 'nobody.yaml' to take blocks from"))
    }

    /// The shipped descriptors that read Claude Code's transcripts use its blocks rather than copies of them.
    @Test func claudeCodesCopiesUseItsBlocks() throws {
        let readers = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("readers").path
        let original = try DescriptorLoader.load(path: readers + "/claude-code.yaml")
        for id in ["claude-cowork", "openclaude", "cherry-studio"] {
            let text = try String(contentsOfFile: readers + "/\(id).yaml", encoding: .utf8)
            #expect(text.contains("use: claude-code."), "\(id)")
            let descriptor = try DescriptorLoader.load(path: readers + "/\(id).yaml")
            #expect(descriptor.inputs[0].records.map(\.name) == original.inputs[0].records.map(\.name), "\(id)")
            #expect(descriptor.inputs[0].prefilter == original.inputs[0].prefilter, "\(id)")
            #expect(descriptor.inputs[0].limits.count == original.inputs[0].limits.count, "\(id)")
        }
    }
}
