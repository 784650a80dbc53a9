import Foundation
import Testing

@testable import UnpromptKit

/// Each behaviour runs against both backends (as Telegraf's tail tests do for inotify and polling). On
/// macOS both cases use polling, the only backend there.
struct ChangeWatcherTests {
    enum Backend: String, CaseIterable, CustomTestStringConvertible {
        case inotify, polling
        var testDescription: String { rawValue }
    }

    /// Generous bound for a change to be reported; a pass is quicker by far (see `wait`).
    static let deadline = 2.0
    static let pollInterval = 0.1

    let directory: String

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("watcher-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    func watcher(_ backend: Backend, targets: [WatchTarget]? = nil) -> ChangeWatcher {
        let watcher = ChangeWatcher(
            targets: targets ?? [WatchTarget(directory: directory)], pollInterval: Self.pollInterval,
            polling: backend == .polling)
        #if os(Linux)
            #expect(watcher.backend == (backend == .inotify ? .inotify : .polling))
        #endif
        return watcher
    }

    func write(_ relative: String, _ text: String = "{}\n", append: Bool = false) throws {
        let path = directory + "/" + relative
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        if append, let handle = FileHandle(forWritingAtPath: path) {
            handle.seekToEndOfFile()
            handle.write(Data(text.utf8))
            try handle.close()
        } else {
            try text.write(toFile: path, atomically: false, encoding: .utf8)
        }
    }

    /// Consumes the changes already reported, so the next `wait` can only see what follows.
    func drain(_ watcher: ChangeWatcher) {
        var rounds = 0
        while watcher.wait(timeout: 0.3), rounds < 20 { rounds += 1 }
    }

    @Test(arguments: Backend.allCases) func anAppendIsAChange(_ backend: Backend) throws {
        try write("session.jsonl")
        let watcher = watcher(backend)
        try write("session.jsonl", "{\"more\":1}\n", append: true)
        #expect(watcher.wait(timeout: Self.deadline))
    }

    @Test(arguments: Backend.allCases) func aNewFileIsAChange(_ backend: Backend) throws {
        let watcher = watcher(backend)
        try write("new.jsonl")
        #expect(watcher.wait(timeout: Self.deadline))
    }

    @Test(arguments: Backend.allCases) func aRenameIsAChange(_ backend: Backend) throws {
        try write("draft.tmp")
        let watcher = watcher(backend)
        try FileManager.default.moveItem(atPath: directory + "/draft.tmp", toPath: directory + "/final.jsonl")
        #expect(watcher.wait(timeout: Self.deadline))
    }

    @Test(arguments: Backend.allCases) func aDirectoryCreatedLaterIsWatched(_ backend: Backend) throws {
        let watcher = watcher(backend)
        try FileManager.default.createDirectory(atPath: directory + "/later/deeper", withIntermediateDirectories: true)
        drain(watcher)
        try write("later/deeper/session.jsonl")
        #expect(watcher.wait(timeout: Self.deadline), "a file in a directory made after the start")
        drain(watcher)
        try write("later/deeper/session.jsonl", "{\"more\":1}\n", append: true)
        #expect(watcher.wait(timeout: Self.deadline), "an append there")
    }

    @Test(arguments: Backend.allCases) func nothingChangedTimesOut(_ backend: Backend) throws {
        try write("quiet/session.jsonl")
        let watcher = watcher(backend)
        #expect(!watcher.wait(timeout: 0.3))
    }

    @Test(arguments: Backend.allCases) func aMissingDirectoryIsAwaited(_ backend: Backend) throws {
        let target = directory + "/home/.tool/projects"
        let watcher = watcher(backend, targets: [WatchTarget(directory: target)])
        try write("home/.tool/projects/a/session.jsonl")
        #expect(watcher.wait(timeout: Self.deadline), "the directory appeared with a file")
        drain(watcher)
        try write("home/.tool/projects/a/session.jsonl", "{\"more\":1}\n", append: true)
        #expect(watcher.wait(timeout: Self.deadline), "an append in it")
    }

    @Test(arguments: Backend.allCases) func aDeletedAndRecreatedRootIsWatchedAgain(_ backend: Backend) throws {
        let root = directory + "/root"
        try write("root/old.jsonl")
        let watcher = watcher(backend, targets: [WatchTarget(directory: root)])
        try FileManager.default.removeItem(atPath: root)
        #expect(watcher.wait(timeout: Self.deadline), "the files went away")
        drain(watcher)
        try write("root/new.jsonl")
        #expect(watcher.wait(timeout: Self.deadline), "the root came back with a file")
        drain(watcher)
        try write("root/new.jsonl", "{\"more\":1}\n", append: true)
        #expect(watcher.wait(timeout: Self.deadline), "an append in the new root")
    }

    @Test(arguments: Backend.allCases) func onlyFilesTheGlobNamesMatter(_ backend: Backend) throws {
        let descriptor = try DescriptorLoader.load(
            text: """
                schema: 1
                id: t
                name: T
                inputs:
                  - format: jsonl
                    sources: [{ root: "${TOOL_HOME}", glob: "projects/**/*.jsonl" }]
                    records:
                      - { name: r, time: ts, tokens: { input: in }, counting: { input_includes_cache: false, output_includes_reasoning: true } }
                """, file: "t.yaml")
        let targets = WatchTarget.targets(for: [descriptor], environment: ["TOOL_HOME": directory], home: "/nonexistent")
        #expect(targets.map(\.directory) == [directory + "/projects"])
        try write("projects/p/notes.txt")
        let watcher = watcher(backend, targets: targets)
        try write("projects/p/notes.txt", "more\n", append: true)
        try write("outside.jsonl")
        #expect(!watcher.wait(timeout: 0.3), "neither a non-matching file nor one outside the walk is a change")
        try write("projects/p/session.jsonl")
        #expect(watcher.wait(timeout: Self.deadline))
    }

    @Test(arguments: Backend.allCases) func aWriteToADatabasesWriteAheadLogIsAChange(_ backend: Backend) throws {
        let descriptor = try DescriptorLoader.load(
            text: """
                schema: 1
                id: t
                name: T
                inputs:
                  - format: sqlite
                    sources: [{ root: "${TOOL_HOME}", glob: "data/*.db" }]
                    query: { sql: "SELECT * FROM t" }
                    records:
                      - { name: r, time: ts, tokens: { input: in }, counting: { input_includes_cache: false, output_includes_reasoning: true } }
                """, file: "t.yaml")
        let targets = WatchTarget.targets(for: [descriptor], environment: ["TOOL_HOME": directory], home: "/nonexistent")
        try write("data/tool.db")
        try write("data/tool.db-wal")
        try write("data/other-wal")
        let watcher = watcher(backend, targets: targets)
        try write("data/other-wal", "more\n", append: true)
        #expect(!watcher.wait(timeout: 0.3), "a -wal file of no source is not a change")
        try write("data/tool.db-wal", "page\n", append: true)
        #expect(watcher.wait(timeout: Self.deadline))
    }

    @Test(arguments: Backend.allCases) func stopEndsAWaitAndEveryLaterOne(_ backend: Backend) throws {
        let watcher = watcher(backend)
        let clock = ContinuousClock()
        let start = clock.now
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { watcher.stop() }
        #expect(!watcher.wait(timeout: 30))
        #expect(watcher.isStopped)
        try write("after-stop.jsonl")
        #expect(!watcher.wait(timeout: 30))
        // Both waits ended on the stop, long before their timeouts.
        #expect(start.duration(to: clock.now) < .seconds(20))
    }

    @Test func aByteOnTheStopDescriptorStops() {
        let watcher = watcher(.polling)
        #expect(!watcher.isStopped)
        var byte: UInt8 = 1
        #expect(Foundation.write(watcher.stopDescriptor, &byte, 1) == 1)
        #expect(watcher.isStopped)
        #expect(!watcher.wait(timeout: 30))
    }

    #if os(Linux)
        @Test func theWatchLimitAtStartMeansPolling() throws {
            for name in ["a", "b", "c"] { try write("\(name)/session.jsonl") }
            let watcher = ChangeWatcher(
                targets: [WatchTarget(directory: directory)], pollInterval: Self.pollInterval, polling: false, watchLimit: 2)
            #expect(watcher.backend == .polling)
            try write("c/session.jsonl", "{\"more\":1}\n", append: true)
            #expect(watcher.wait(timeout: Self.deadline))
        }

        @Test func theWatchLimitReachedLaterSwitchesToPolling() throws {
            let watcher = ChangeWatcher(
                targets: [WatchTarget(directory: directory)], pollInterval: Self.pollInterval, polling: false, watchLimit: 2)
            #expect(watcher.backend == .inotify)
            for name in ["a", "b", "c"] { try FileManager.default.createDirectory(atPath: directory + "/" + name, withIntermediateDirectories: true) }
            #expect(watcher.wait(timeout: Self.deadline), "the switch itself is reported, so the caller rescans")
            #expect(watcher.backend == .polling)
            drain(watcher)
            try write("c/session.jsonl")
            #expect(watcher.wait(timeout: Self.deadline), "polling sees a file the watches could not cover")
        }

        @Test func watchesFollowTheTreeNotTheFiles() throws {
            for name in ["a", "b/c"] { try write("\(name)/session.jsonl") }
            let watcher = ChangeWatcher(
                targets: [WatchTarget(directory: directory)], pollInterval: Self.pollInterval, polling: false, watchLimit: nil)
            // The root, a, b and b/c: one watch per directory.
            #expect(watcher.inotifyWatchCount == 4)
        }
    #endif
}
