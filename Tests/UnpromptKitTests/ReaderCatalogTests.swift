import Foundation
import XCTest

@testable import UnpromptKit

/// The catalog loads its files on several threads; what it holds, and the errors it reports, stay in the order the
/// directories and their files are listed in.
final class ReaderCatalogTests: XCTestCase {
    func descriptor(_ id: String) -> String {
        DescriptorLoaderTests.minimal.replacingOccurrences(of: "id: demo", with: "id: \(id)")
    }

    func testDescriptorsAndErrorsKeepTheListedOrder() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("unprompt-catalog-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let first = root + "/first", missing = root + "/missing", last = root + "/last"
        for directory in [first, last] { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
        // Enough files that both threads take some, written out of name order.
        var expected: [String] = []
        for index in (0..<12).reversed() {
            let id = "tool-\(String(format: "%02d", index))"
            try descriptor(id).write(toFile: first + "/\(id).yaml", atomically: true, encoding: .utf8)
        }
        expected += (0..<12).map { "tool-\(String(format: "%02d", $0))" }
        try "schema: 1\nid: [".write(toFile: first + "/broken.yaml", atomically: true, encoding: .utf8)
        try "not a descriptor".write(toFile: first + "/notes.txt", atomically: true, encoding: .utf8)
        try descriptor("tool-03").write(toFile: last + "/tool-03.yaml", atomically: true, encoding: .utf8)
        try descriptor("zed").write(toFile: last + "/zed.yaml", atomically: true, encoding: .utf8)

        let catalog = ReaderCatalog(directories: [first, missing, last])
        XCTAssertEqual(catalog.descriptors.map(\.id), expected + ["zed"])
        XCTAssertEqual(catalog.errors.map(\.file), [first + "/broken.yaml", missing, last + "/tool-03.yaml"])
        XCTAssertEqual(catalog.errors.last?.message, "id 'tool-03' is already declared in \(first)/tool-03.yaml")
        XCTAssertEqual(catalog.errors[1].message, "cannot list the readers directory")
    }
}
