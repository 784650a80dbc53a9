import Foundation
import XCTest
@testable import UnpromptKit

final class SourceDiscoveryTests: XCTestCase {
    var dir = ""

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("discovery-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        // Discovery reports canonical paths; the temporary directory may sit behind a link (macOS's /tmp).
        let resolved = try XCTUnwrap(realpath(dir, nil))
        dir = String(cString: resolved)
        free(resolved)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: dir)
    }

    func touch(_ relative: String) {
        let path = dir + "/" + relative
        try? FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("{}\n".utf8)))
    }

    /// A descriptor `id` whose one input's sources are the given `{ root, glob, ... }` flow mappings.
    func descriptor(_ sources: [String], id: String = "t") throws -> Descriptor {
        let text = """
            schema: 1
            id: \(id)
            name: T
            inputs:
              - format: jsonl
                sources:
            \(sources.map { "      - " + $0 }.joined(separator: "\n"))
                records:
                  - { name: r, time: ts, tokens: { input: in }, counting: { input_includes_cache: false, output_includes_reasoning: true } }
            """
        return try DescriptorLoader.load(text: text, file: id + ".yaml")
    }

    /// The input of `descriptor(sources)`.
    func input(_ sources: [String]) throws -> Input { try descriptor(sources).inputs[0] }

    func found(_ input: Input, environment: [String: String] = [:], rootOverride: String? = nil) -> [String] {
        let (sources, problems, _) = SourceDiscovery(environment: environment, home: dir + "/home", rootOverride: rootOverride)
            .sources(for: input.sources)
        XCTAssertEqual(problems, [])
        return sources.map { String($0.path.dropFirst(dir.count + 1)) }
    }

    /// A root spelled through a link, with a trailing slash, or with `..` names the same files by the same
    /// paths, so their source keys (hashes of the path) do not change with the spelling.
    /// Names and paths sort by their UTF-8 bytes, as `lexicographicallyPrecedes` on them does: a prefix first,
    /// `Z` before `a`, `z` before `é`, an escaped byte that is not UTF-8 (`SystemPath`) after every text.
    func testPathsSortByTheirBytes() {
        let notUTF8 = [UInt8(0xFF)].withUnsafeBytes { SystemPath.string($0) }
        let names = ["a", "", "ab", "Z", "é", "z", "a/b", "a-b", notUTF8, "a" + notUTF8, String(repeating: "x", count: 40) + "1"]
        for a in names {
            for b in names {
                XCTAssertEqual(DirectoryWalk.bytesPrecede(a, b), a.utf8.lexicographicallyPrecedes(b.utf8), "\(a) \(b)")
            }
        }
        XCTAssertEqual(names.sorted(by: DirectoryWalk.bytesPrecede), ["", "Z", "a", "a-b", "a/b", "ab", "a" + notUTF8, String(repeating: "x", count: 40) + "1", "z", "é", notUTF8])
    }

    func testRootsAreResolvedToOneCanonicalPath() throws {
        touch("home/.claude/projects/p/a.jsonl")
        try FileManager.default.createSymbolicLink(atPath: dir + "/link", withDestinationPath: dir + "/home")
        let i = try input([#"{ root: "~/.claude", glob: "projects/**/*.jsonl" }"#])
        let canonical = SourceDiscovery(environment: [:], home: dir + "/home").sources(for: i.sources).sources.map(\.path)
        for spelling in [dir + "/link/.claude", dir + "/home/.claude/", dir + "/home/../home/.claude"] {
            let found = SourceDiscovery(environment: [:], home: dir + "/home", rootOverride: spelling).sources(for: i.sources)
            XCTAssertEqual(found.sources.map(\.path), canonical, spelling)
        }
        XCTAssertEqual(canonical.count, 1)
    }

    func testWildcardDirectorySegmentsAreWalked() throws {
        touch("home/.codex/sessions/2025/x.jsonl")
        touch("home/.codex/sessions/2026/y.jsonl")
        touch("home/.codex/sessions/2026/deeper/z.jsonl")
        let i = try input([#"{ root: "~/.codex", glob: "sessions/*/*.jsonl" }"#])
        XCTAssertEqual(found(i), ["home/.codex/sessions/2025/x.jsonl", "home/.codex/sessions/2026/y.jsonl"])
    }

    func testRecursiveGlobFindsFilesAtEveryDepthSorted() throws {
        touch("home/.claude/projects/b.jsonl")
        touch("home/.claude/projects/p/a.jsonl")
        touch("home/.claude/projects/p/q/r/c.jsonl")
        touch("home/.claude/projects/p/notes.txt")
        touch("home/.claude/other/x.jsonl")
        let i = try input([#"{ root: "~/.claude", glob: "projects/**/*.jsonl" }"#])
        XCTAssertEqual(found(i), [
            "home/.claude/projects/b.jsonl",
            "home/.claude/projects/p/a.jsonl",
            "home/.claude/projects/p/q/r/c.jsonl",
        ])
    }

    func testSizesAndInodes() throws {
        touch("home/x/a.jsonl")
        let i = try input([#"{ root: "~/x", glob: "*.jsonl" }"#])
        let (sources, _, _) = SourceDiscovery(environment: [:], home: dir + "/home").sources(for: i.sources)
        XCTAssertEqual(sources.count, 1)
        XCTAssertEqual(sources.first?.size, 3)
        var info = stat()
        XCTAssertEqual(stat(dir + "/home/x/a.jsonl", &info), 0)
        XCTAssertEqual(sources.first?.inode, UInt64(info.st_ino))
    }

    func testCommaListOfRootsFromTheEnvironment() throws {
        touch("c1/projects/a.jsonl")
        touch("c2/projects/b.jsonl")
        let i = try input([#"{ root: "${CLAUDE_CONFIG_DIR}", glob: "projects/**/*.jsonl" }"#])
        XCTAssertEqual(found(i, environment: ["CLAUDE_CONFIG_DIR": "\(dir)/c2, \(dir)/c1"]), [
            "c1/projects/a.jsonl", "c2/projects/b.jsonl",
        ])
        XCTAssertEqual(found(i), [], "unset variable: no roots")
    }

    func testAFileReachedTwiceIsListedOnce() throws {
        touch("home/.codex/sessions/a.jsonl")
        let i = try input([
            #"{ root: "${CODEX_HOME:-~/.codex}", glob: "sessions/**/*.jsonl" }"#,
            #"{ root: "~/.codex", glob: "sessions/*.jsonl" }"#,
        ])
        XCTAssertEqual(found(i), ["home/.codex/sessions/a.jsonl"])
    }

    func testSymlinksToFilesAreFollowedAndDeduplicated() throws {
        touch("root/logs/real.jsonl")
        touch("elsewhere/outside.jsonl")
        try FileManager.default.createSymbolicLink(
            atPath: dir + "/root/logs/link.jsonl", withDestinationPath: dir + "/root/logs/real.jsonl")
        try FileManager.default.createSymbolicLink(
            atPath: dir + "/root/logs/out.jsonl", withDestinationPath: dir + "/elsewhere/outside.jsonl")
        try FileManager.default.createSymbolicLink(
            atPath: dir + "/root/logs/dirlink", withDestinationPath: dir + "/elsewhere")
        try FileManager.default.createSymbolicLink(
            atPath: dir + "/root/logs/dangling.jsonl", withDestinationPath: dir + "/nowhere.jsonl")
        let i = try input([#"{ root: "\#(dir)/root", glob: "logs/**/*.jsonl" }"#])
        // link.jsonl and real.jsonl are one file: the first path in directory order is kept, so only the
        // count and the other entry are fixed. Directory links are not followed; dangling links are skipped.
        let paths = found(i)
        XCTAssertEqual(paths.count, 2)
        XCTAssertTrue(paths.contains("root/logs/out.jsonl"))
        XCTAssertTrue(paths.contains("root/logs/real.jsonl") || paths.contains("root/logs/link.jsonl"))
        XCTAssertFalse(paths.contains { $0.contains("dirlink") })
    }

    func testExclude() throws {
        touch("r/s/a.jsonl")
        touch("r/s/tmp-b.jsonl")
        touch("r/s/sub/tmp-c.jsonl")
        let i = try input([#"{ root: "\#(dir)/r", glob: "s/**/*.jsonl", exclude: ["s/**/tmp-*.jsonl"] }"#])
        XCTAssertEqual(found(i), ["r/s/a.jsonl"])
    }

    func testExcludedDirectoriesAreNotEntered() throws {
        touch("h/Library/deep/x.md")
        touch("h/code/node_modules/p/x.md")
        touch("h/code/app/x.md")
        touch("h/x.md")
        let i = try input([#"{ root: "\#(dir)/h", glob: "**/x.md", exclude: [Library, "**/node_modules"] }"#])
        XCTAssertEqual(found(i), ["h/code/app/x.md", "h/x.md"])
        // Not even listed: an excluded directory that cannot be opened is no problem (root may open it anyway).
        XCTAssertEqual(chmod(dir + "/h/Library", 0), 0)
        defer { chmod(dir + "/h/Library", 0o755) }
        XCTAssertEqual(found(i), ["h/code/app/x.md", "h/x.md"])
    }

    func testMaxDepthLimitsDirectoryLevels() throws {
        touch("m/a.jsonl")
        touch("m/d1/b.jsonl")
        touch("m/d1/d2/c.jsonl")
        touch("m/d1/d2/d3/d.jsonl")
        let i = try input([#"{ root: "\#(dir)/m", glob: "**/*.jsonl", max_depth: 2 }"#])
        XCTAssertEqual(found(i), ["m/a.jsonl", "m/d1/b.jsonl", "m/d1/d2/c.jsonl"])
    }

    func testRootOverrideReplacesEveryRoot() throws {
        touch("override/projects/a.jsonl")
        let i = try input([
            #"{ root: "${CLAUDE_CONFIG_DIR}", glob: "projects/**/*.jsonl" }"#,
            #"{ root: "~/.claude", glob: "projects/**/*.jsonl" }"#,
        ])
        XCTAssertEqual(found(i, rootOverride: dir + "/override/"), ["override/projects/a.jsonl"])
    }

    func write(_ relative: String, _ text: String) {
        let path = dir + "/" + relative
        try? FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
    }

    static let listSource =
        #"{ root: "~/.local/share/crush", list: { file: projects.json, paths: 'projects[].data_dir' }, glob: crush.db }"#

    /// A source list names directories anywhere (absolute, or relative to the list file); the glob applies
    /// below each, never below the root itself; names that lead nowhere find nothing, silently.
    func testSourceListNamesTheDirectoriesToSearch() throws {
        touch("work/a/.crush/crush.db")
        touch("work/b/.crush/crush.db")
        touch("work/b/.crush/other.db")
        touch("work/unlisted/.crush/crush.db")
        touch("home/.local/share/crush/crush.db")
        touch("home/.local/share/crush/rel/.crush/crush.db")
        write(
            "home/.local/share/crush/projects.json",
            """
            {"projects": [
              {"path": "x", "data_dir": "\(dir)/work/b/.crush", "last_accessed": "2026-01-01T00:00:00Z"},
              {"path": "y", "data_dir": "\(dir)/work/a/.crush/"},
              {"path": "z", "data_dir": "\(dir)/work/deleted/.crush"},
              {"path": "w", "data_dir": "rel/.crush"},
              {"path": "v", "data_dir": null},
              {"path": "u"},
              {"path": "t", "data_dir": ""}
            ]}
            """)
        let i = try input([Self.listSource])
        XCTAssertEqual(found(i), [
            "home/.local/share/crush/rel/.crush/crush.db", "work/a/.crush/crush.db", "work/b/.crush/crush.db",
        ])
    }

    func testSourceListNamesOneFileOnceAndFollowsRootOverride() throws {
        touch("case/p/.crush/crush.db")
        write("case/projects.json", #"{"projects": [{"data_dir": "p/.crush"}, {"data_dir": "p/../p/.crush"}]}"#)
        let i = try input([Self.listSource])
        XCTAssertEqual(found(i, rootOverride: dir + "/case"), ["case/p/.crush/crush.db"])
        XCTAssertEqual(found(i), [], "no list file: nothing, and no problem")
    }

    func testSourceListWithNestedArraysAndATopLevelArray() throws {
        touch("d1/s.db")
        touch("d2/s.db")
        touch("d3/s.db")
        write("l/nested.json", #"{"groups": [{"dirs": ["\#(dir)/d1", "\#(dir)/d2"]}, {"dirs": []}, {"dirs": "not an array"}]}"#)
        write("l/top.json", #"["\#(dir)/d3"]"#)
        let nested = try input([#"{ root: "\#(dir)/l", list: { file: nested.json, paths: 'groups[].dirs[]' }, glob: s.db }"#])
        XCTAssertEqual(found(nested), ["d1/s.db", "d2/s.db"])
        let top = try input([#"{ root: "\#(dir)/l", list: { file: top.json, paths: '[]' }, glob: s.db }"#])
        XCTAssertEqual(found(top), ["d3/s.db"])
    }

    /// A list that is not JSON, names a directory with something other than a string, or cannot be read is
    /// reported, without its path or content, and names nothing.
    func testBadSourceListsAreReportedWithoutPaths() throws {
        touch("d/crush.db")
        let i = try input([
            #"{ root: "\#(dir)/CANARY-l", list: { file: projects.json, paths: 'projects[].data_dir' }, glob: crush.db }"#
        ])
        func problems() -> [String] {
            let (sources, problems, _) = SourceDiscovery(environment: [:], home: dir).sources(for: i.sources)
            XCTAssertEqual(sources.count, 0)
            return problems.map(\.reason)
        }
        write("CANARY-l/projects.json", #"{"projects": [{"data_dir": "\#(dir)/d"}"#)
        XCTAssertEqual(problems().count, 1)
        XCTAssertTrue(problems()[0].hasPrefix("a source list is not valid JSON"), problems()[0])
        write("CANARY-l/projects.json", #"{"projects": [{"data_dir": "\#(dir)/d"}, {"data_dir": 7}]}"#)
        XCTAssertEqual(problems(), ["a source list names a directory with a value that is not a string"])
        try FileManager.default.removeItem(atPath: dir + "/CANARY-l/projects.json")
        try FileManager.default.createDirectory(atPath: dir + "/CANARY-l/projects.json", withIntermediateDirectories: true)
        XCTAssertEqual(problems().count, 1)
        XCTAssertTrue(problems()[0].hasPrefix("cannot read a source list: "), problems()[0])
        XCTAssertFalse(problems().joined().contains("CANARY"))
    }

    func testMissingRootIsNotAProblem() throws {
        let i = try input([#"{ root: "/nonexistent/root", glob: "projects/**/*.jsonl" }"#])
        XCTAssertEqual(found(i), [])
    }

    /// A descriptor may find something when the start of one of its walks (its root and the glob's fixed prefix),
    /// or one of its list files, exists or cannot be looked at: only where every start is missing do its walks
    /// find nothing and report nothing, so it need not be decoded.
    func testADescriptorMayFindSomethingOnlyWhereAStartExists() throws {
        let tool = try descriptor([
            #"{ root: "${T_HOME:-\#(dir)/t}", glob: "projects/*/*.jsonl" }"#,
            #"{ root: "\#(dir)/l", list: { file: list.json, paths: 'dirs[]' }, glob: "*.jsonl" }"#,
        ])
        XCTAssertEqual(tool.starts, [SourceStart(root: "${T_HOME:-\(dir)/t}", below: ["projects"]), SourceStart(root: "\(dir)/l", below: ["list.json"])])
        func mayFind(_ environment: [String: String] = [:], rootOverride: String? = nil) -> Bool {
            SourceDiscovery(environment: environment, home: dir, rootOverride: rootOverride).mayFind(tool)
        }
        XCTAssertFalse(mayFind())
        try FileManager.default.createDirectory(atPath: dir + "/t", withIntermediateDirectories: true)
        touch("l/other.json")
        XCTAssertFalse(mayFind(), "roots without the walks' starts")
        XCTAssertTrue(mayFind(rootOverride: dir + "/elsewhere"))
        touch("t/projects")
        XCTAssertTrue(mayFind(), "a start that is no directory: looked at by the walk")
        XCTAssertFalse(mayFind(["T_HOME": dir + "/u"]))
        touch("u/projects/p/a.jsonl")
        XCTAssertTrue(mayFind(["T_HOME": dir + "/u"]))
        touch("l/list.json")
        XCTAssertTrue(mayFind(["T_HOME": dir + "/v"]))
    }

    /// A scan decodes no descriptor that can find nothing here, and of one whose files have nothing new only its
    /// layout: its rules are decoded for a file that changed.
    func testAScanDecodesADescriptorOnlyForAFileThatChanged() throws {
        let decoded = Locked<[String]>([])
        func lazy(_ id: String, root: String) throws -> Descriptor {
            let whole = try descriptor([#"{ root: "\#(root)", glob: "*.jsonl" }"#], id: id)
            return Descriptor(
                id: id, name: id, identitySpace: id, derivedWindow: nil, file: id + ".yaml", starts: whole.starts,
                body: DescriptorBody(
                    layOut: { whole.layout },
                    decode: {
                        decoded.withLock { $0.append(id) }
                        return DescriptorBody.Decoded(inputs: whole.inputs, statusLine: nil)
                    }))
        }
        let store = try UsageStore(path: dir + "/usage.sqlite")
        touch("here/a.jsonl")
        let scanner = Scanner(store: store, discovery: SourceDiscovery(environment: [:], home: dir))
        XCTAssertEqual(try scanner.scan([try lazy("absent", root: dir + "/nowhere"), try lazy("present", root: dir + "/here")]).read, 1)
        XCTAssertEqual(decoded.withLock { $0 }, ["present"])
        let again = try scanner.scan([try lazy("absent", root: dir + "/nowhere"), try lazy("present", root: dir + "/here")])
        XCTAssertEqual([again.sources, again.unchanged], [1, 1])
        XCTAssertEqual(decoded.withLock { $0 }, ["present"], "nothing new: the rules are not decoded")
    }
}
