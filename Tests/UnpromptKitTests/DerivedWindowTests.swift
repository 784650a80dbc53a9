import Testing
import UnpromptKit

/// `derived_window`: a tool's plan-limit window derived from use, declared in its descriptor.
struct DerivedWindowTests {
    /// Lines 17-19 hold `derived_window`, after a limit rule with the window `hit`.
    static func descriptor(_ derived: String) -> String {
        """
        schema: 1
        id: demo
        name: Demo
        inputs:
          - format: jsonl
            sources: [{ root: /tmp/demo, glob: "*.jsonl" }]
            records:
              - name: usage
                time: ts
                tokens: { input: in }
                counting: { input_includes_cache: false, output_includes_reasoning: true }
            limits:
              - time: ts
                windows:
                  - name: hit
                    used_percent: { const: "100" }
        \(derived)
        """
    }

    func error(_ derived: String) -> String? {
        do {
            _ = try DescriptorLoader.load(text: Self.descriptor(derived), file: "demo.yaml")
            return nil
        } catch {
            return error.description
        }
    }

    @Test func aWindowIsReadWithItsLengthAndTheWindowThatEndsIt() throws {
        let descriptor = try DescriptorLoader.load(
            text: Self.descriptor("derived_window:\n  minutes: 300\n  ended_by: hit"), file: "demo.yaml")
        #expect(descriptor.derivedWindow == DerivedWindow(minutes: 300, endedBy: "hit"))
        #expect(try DescriptorLoader.load(text: Self.descriptor(""), file: "demo.yaml").derivedWindow == nil)
        #expect(
            try DescriptorLoader.load(text: Self.descriptor("derived_window: { minutes: 60 }"), file: "demo.yaml").derivedWindow
                == DerivedWindow(minutes: 60, endedBy: nil))
    }

    @Test func mistakesArePlaced() {
        #expect(
            error("derived_window:\n  minutes: 300\n  ended_by: hits")
                == "demo.yaml:19:13: ended_by 'hits' is no window of this descriptor's limits; its windows: hit (ended_by: a sample of this window (a limit-reached record) ends the window it was logged in at its `resets_at`)")
        #expect(error("derived_window:\n  minutes: 0") == "demo.yaml:18:12: minutes must be a whole number from 1 to 44640 (minutes: the window's length)")
        #expect(error("derived_window:\n  ended_by: hit") == "demo.yaml:18:3: derived_window is missing the required key 'minutes' (minutes: the window's length)")
        #expect(
            error("derived_window:\n  minutes: 5\n  length: 5")
                == "demo.yaml:19:3: unknown key 'length' in derived_window; expected one of: minutes, ended_by")
    }

    @Test func claudeCodesWindowIsFiveHoursEndedByItsLimitReachedRecords() throws {
        let catalog = ReaderCatalog(directories: [QueryCorpus.corpus + "/../../../readers"])
        let windows = catalog.descriptors.compactMap { d in d.derivedWindow.map { (d.id, $0) } }
        #expect(windows.map(\.0) == ["claude-code"])
        #expect(windows.first?.1 == DerivedWindow(minutes: 300, endedBy: "limit_reached"))
    }
}
