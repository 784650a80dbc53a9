import Foundation
import Testing
import UnpromptTestSupport

@testable import UnpromptKit

/// The catalog's cache: the same files, byte for byte, and the same program give the descriptors without checking
/// them again, each decoded when used, exactly as a whole load decodes it; anything else is loaded and checked whole.
struct ReaderCatalogCacheTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("unprompt-catalog-cache-\(UUID().uuidString)").path
    var readers: String { root + "/readers" }
    var cachePath: String { root + "/cache/unprompt/readers.cache" }
    func cache(program: String = "build-1") -> ReaderCatalogCache { ReaderCatalogCache(CacheFile(path: cachePath, program: program)) }

    init() throws {
        try FileManager.default.createDirectory(atPath: readers, withIntermediateDirectories: true)
        for name in ["claude-code", "codex", "aider", "openclaude", "crush"] {
            try FileManager.default.copyItem(atPath: Repository.readers + "/\(name).yaml", toPath: readers + "/\(name).yaml")
        }
    }

    /// The cache as written, with one field's text replaced: what a load that takes its outlines from it shows.
    func tamper(_ field: String, with replacement: String) throws {
        var text = try String(contentsOfFile: cachePath, encoding: .utf8)
        let old = "\(field.utf8.count):\(field)\n", new = "\(replacement.utf8.count):\(replacement)\n"
        #expect(text.contains(old))
        text = text.replacingOccurrences(of: old, with: new)
        try text.write(toFile: cachePath, atomically: true, encoding: .utf8)
    }

    @Test func theSameFilesAndProgramAreTakenFromTheCache() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let first = ReaderCatalog(directories: [readers], cache: cache())
        #expect(first.errors.isEmpty)
        #expect(try !String(contentsOfFile: cachePath, encoding: .utf8).contains(readers), "no path is kept")
        try tamper("Codex CLI", with: "Codex, as remembered")
        #expect(ReaderCatalog(directories: [readers], cache: cache()).descriptors.map(\.name).contains("Codex, as remembered"))
        // Another build of the program checks the files again, and so does a change of one byte of one file.
        #expect(!ReaderCatalog(directories: [readers], cache: cache(program: "build-2")).descriptors.map(\.name).contains("Codex, as remembered"))
        try tamper("Codex CLI", with: "Codex, as remembered")
        let text = try String(contentsOfFile: readers + "/aider.yaml", encoding: .utf8)
        try (text + "\n").write(toFile: readers + "/aider.yaml", atomically: true, encoding: .utf8)
        #expect(ReaderCatalog(directories: [readers], cache: cache()).descriptors.map(\.name).contains("Codex CLI"))
    }

    @Test func aDescriptorTakenFromTheCacheDecodesAsAWholeLoadDoes() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let whole = ReaderCatalog(directories: [readers], cache: cache())
        let cached = ReaderCatalog(directories: [readers], cache: cache())
        #expect(cached.descriptors.count == 5 && whole.descriptors.count == 5)
        for (a, b) in zip(whole.descriptors, cached.descriptors) {
            #expect(a.id == b.id && a.name == b.name && a.identitySpace == b.identitySpace && a.file == b.file)
            #expect(a.derivedWindow == b.derivedWindow && a.starts == b.starts)
            // The layout, as the cache keeps it, before the rules are decoded.
            #expect(a.layout.map(\.format) == b.layout.map(\.format))
            for (x, y) in zip(a.layout.flatMap(\.sources), b.layout.flatMap(\.sources)) {
                #expect(x.root == y.root && x.glob.text == y.glob.text && x.exclude.map(\.text) == y.exclude.map(\.text))
                #expect(x.maxDepth == y.maxDepth && x.mark == y.mark && x.glob.literalPrefix == y.glob.literalPrefix)
                #expect(x.list?.file == y.list?.file && x.list?.paths.text == y.list?.paths.text)
            }
            #expect(a.layout.flatMap(\.sources).count == b.layout.flatMap(\.sources).count)
            #expect(a.inputs.map(\.format) == b.inputs.map(\.format))
            #expect(a.inputs.map { $0.sources.map(\.glob.text) } == b.inputs.map { $0.sources.map(\.glob.text) })
            #expect(a.inputs.map { $0.records.map(\.name) } == b.inputs.map { $0.records.map(\.name) })
            #expect(a.inputs.map { $0.sources.map(\.mark) } == b.inputs.map { $0.sources.map(\.mark) })
            #expect((a.statusLine == nil) == (b.statusLine == nil))
        }
        // claude-code's derived window, and a source list's file (crush), are kept as they are.
        #expect(cached.descriptors.first { $0.id == "claude-code" }?.derivedWindow?.minutes == 300)
        #expect(cached.descriptors.first { $0.id == "crush" }?.starts.contains { $0.below == ["projects.json"] } == true)
    }

    /// A source written in another descriptor's block keeps its mark there; the cache names that file by its place in
    /// the listing, not by its path.
    @Test func aMarkInAnotherDescriptorsBlockIsKeptWithoutItsPath() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let other = """
            schema: 1
            id: other
            name: Other
            blocks:
              where:
                sources: [{ root: "~/.other", glob: "*.jsonl" }]
            inputs:
              - format: jsonl
                use: where
                records:
                  - { name: r, time: ts, tokens: { input: in }, counting: { input_includes_cache: false, output_includes_reasoning: true } }
            """
        try other.write(toFile: readers + "/other.yaml", atomically: true, encoding: .utf8)
        try other.replacingOccurrences(of: "id: other", with: "id: user").replacingOccurrences(of: "use: where", with: "use: other.where")
            .write(toFile: readers + "/user.yaml", atomically: true, encoding: .utf8)
        let whole = ReaderCatalog(directories: [readers], cache: cache())
        let mark = whole.descriptors.first { $0.id == "user" }?.layout.first?.sources.first?.mark
        #expect(mark?.file == readers + "/other.yaml" && mark?.line == 6)
        #expect(try !String(contentsOfFile: cachePath, encoding: .utf8).contains(readers))
        let cached = ReaderCatalog(directories: [readers], cache: cache())
        #expect(cached.descriptors.first { $0.id == "user" }?.layout.first?.sources.first?.mark == mark)
    }

    /// A descriptor made invalid after the catalog was remembered stops the load with its error, as it would
    /// without a cache; nothing invalid is remembered.
    @Test func anInvalidDescriptorIsReportedAfterAValidLoad() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(ReaderCatalog(directories: [readers], cache: cache()).errors.isEmpty)
        let before = try Data(contentsOf: URL(fileURLWithPath: cachePath))
        try "schema: 1\nid: Bad_Id\n".write(toFile: readers + "/bad.yaml", atomically: true, encoding: .utf8)
        for _ in 0..<2 {
            let catalog = ReaderCatalog(directories: [readers], cache: cache())
            #expect(catalog.errors.count == 1)
            #expect(catalog.errors.first?.description.hasPrefix("\(readers)/bad.yaml:2:5: id must be lowercase letters") == true)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: cachePath)) == before)
    }

    /// A cache that is not one (cut short, or another file) is no error: the files are loaded and checked whole.
    @Test func aDamagedCacheIsALoadWithoutIt() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let whole = ReaderCatalog(directories: [readers], cache: cache())
        let bytes = try Data(contentsOf: URL(fileURLWithPath: cachePath))
        for damaged in [bytes.prefix(bytes.count / 2), Data("not a cache".utf8), Data()] {
            try damaged.write(to: URL(fileURLWithPath: cachePath))
            let catalog = ReaderCatalog(directories: [readers], cache: cache())
            #expect(catalog.errors.isEmpty && catalog.descriptors.map(\.id) == whole.descriptors.map(\.id))
            #expect(try Data(contentsOf: URL(fileURLWithPath: cachePath)) == bytes, "written again whole")
        }
    }

    /// The cache's folder is made when missing, but never the home it would be in.
    @Test func aMissingHomeIsNotMade() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let nowhere = root + "/no-home/.cache/unprompt/readers.cache"
        let catalog = ReaderCatalog(directories: [readers], cache: ReaderCatalogCache(CacheFile(path: nowhere, program: "build-1")))
        #expect(catalog.errors.isEmpty && catalog.descriptors.count == 5)
        #expect(!FileManager.default.fileExists(atPath: root + "/no-home"))
    }
}
