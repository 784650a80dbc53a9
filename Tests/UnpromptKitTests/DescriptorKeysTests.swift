import Foundation
import Testing
@testable import UnpromptKit
import UnpromptTestSupport

/// The key tables are the language: the loader reads every key a mapping holds, and asks for every key a table
/// declares, so no key can be allowed (or documented) without being read.
struct DescriptorKeysTests {
    /// Loads every shipped descriptor with a log of the mappings read.
    static func shippedLogs() throws -> [(file: String, log: KeyReadLog)] {
        try listing(Repository.readers).filter { $0.hasSuffix(".yaml") }.map { name in
            let path = Repository.readers + "/" + name
            let log = KeyReadLog()
            _ = try DescriptorLoader.load(
                text: try String(contentsOfFile: path, encoding: .utf8), file: path, expectedID: String(name.dropLast(5)),
                directories: [Repository.readers], log: log)
            return (name, log)
        }
    }

    @Test func everyKeyAMappingHoldsIsRead() throws {
        for (file, log) in try Self.shippedLogs() {
            for reader in log.readers {
                let unread = Set(reader.present).subtracting(reader.asked)
                #expect(unread.isEmpty, "\(file): \(reader.section.id) holds \(unread.sorted()), which the loader never read")
            }
        }
    }

    @Test func everyKeyOfEveryTableIsAskedFor() throws {
        var asked: [String: Set<String>] = [:]
        for (_, log) in try Self.shippedLogs() {
            for reader in log.readers { asked[reader.section.id, default: []].formUnion(reader.asked) }
        }
        for section in DescriptorKeys.all {
            let never = Set(section.names).subtracting(asked[section.id] ?? [])
            #expect(never.isEmpty, "\(section.id): the loader never asks for \(never.sorted()) in any shipped descriptor")
        }
    }

    @Test func keysAreDeclaredOncePerSectionAndSectionsOnce() {
        let ids = DescriptorKeys.all.map(\.id)
        #expect(Set(ids).count == ids.count, "\(ids)")
        for section in DescriptorKeys.all {
            #expect(Set(section.names).count == section.names.count, "\(section.id)")
            for key in section.keys {
                #expect(!key.help.isEmpty && !key.help.contains("\n"), "\(section.id).\(key.name): one line of help")
            }
        }
    }

    @Test func aMisspelledKeyIsMetWithTheNearestOneAndItsHelp() {
        #expect(DescriptorKeys.record.nearest(to: "identiy")?.name == "identity")
        #expect(DescriptorKeys.record.nearest(to: "tokenz")?.name == "tokens")
        #expect(DescriptorKeys.record.nearest(to: "sources") == nil)
    }
}
