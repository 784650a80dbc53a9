import Foundation
import Testing
import UnpromptTestSupport

/// The checkout carries everything its build, tests and docs need: every reader has its format note and cites it,
/// and no file reaches for a folder beside the checkout.
struct StandAloneTests {
    static let root = Repository.root
    /// Built, generated or personal: not part of the checkout.
    static let outside: Set<String> = [".build", ".git", ".peer", ".swiftpm", "bench-data", "dist", "__pycache__"]

    static var readerIDs: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: root + "/readers")) ?? [])
            .filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(5)) }.sorted()
    }

    @Test func everyReaderHasItsFormatNoteAndCitesIt() throws {
        #expect(Self.readerIDs.count >= 20)
        let index = try String(contentsOfFile: Self.root + "/docs/formats/README.md", encoding: .utf8)
        for id in Self.readerIDs {
            #expect(
                FileManager.default.fileExists(atPath: Self.root + "/docs/formats/\(id).md"), "no docs/formats/\(id).md")
            let descriptor = try String(contentsOfFile: Self.root + "/readers/\(id).yaml", encoding: .utf8)
            let header = descriptor.split(separator: "\n").prefix { $0.hasPrefix("#") }.joined(separator: "\n")
            #expect(header.contains("docs/formats/\(id).md"), "readers/\(id).yaml: its header does not cite its note")
            #expect(index.contains("](\(id).md)"), "docs/formats/README.md does not list \(id).md")
        }
    }

    @Test func noFileReachesOutsideTheCheckout() throws {
        // Spelled in two pieces so that this file does not match itself.
        let needle = Data(("shared" + "/").utf8)
        var offenders: [String] = []
        let files = FileManager.default.enumerator(atPath: Self.root)!
        while let path = files.nextObject() as? String {
            let name = (path as NSString).lastPathComponent
            if Self.outside.contains(name) {
                files.skipDescendants()
                continue
            }
            let full = Self.root + "/" + path
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue,
                let data = FileManager.default.contents(atPath: full)
            else { continue }
            if data.range(of: needle) != nil { offenders.append(path) }
        }
        #expect(offenders.isEmpty, "files naming a folder outside the checkout: \(offenders.sorted())")
    }
}
