import Foundation
import Testing
@testable import UnpromptKit

/// A descriptor or settings file that cannot be used says which of four mistakes it is, at its start.
struct DescriptorFileReadingTests {
    let directory: String

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("descriptor-files-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory + "/folder.yaml", withIntermediateDirectories: true)
        try Data([0x69, 0x64, 0x3A, 0x20, 0xFF, 0x0A]).write(to: URL(fileURLWithPath: directory + "/latin.yaml"))
    }

    func message(_ load: (String) throws(DescriptorError) -> Void, _ name: String) -> String? {
        do {
            try load(directory + "/" + name)
            return nil
        } catch {
            return error.mark.line == 1 && error.mark.column == 1 && error.file == directory + "/" + name ? error.message : "\(error)"
        }
    }

    @Test(arguments: [("missing.yaml", "no such file"), ("folder.yaml", "a directory, not a file"), ("latin.yaml", "the file is not UTF-8 text")])
    func eachMistakeIsSaidAsItself(name: String, said: String) throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(message({ path throws(DescriptorError) in _ = try DescriptorLoader.load(path: path) }, name) == said)
    }

    @Test func settingsSayTheSameExceptThatNoFileIsNoSettings() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(message({ path throws(DescriptorError) in _ = try UserConfig.load(path: path) }, "missing.yaml") == nil)
        #expect(message({ path throws(DescriptorError) in _ = try UserConfig.load(path: path) }, "folder.yaml") == "a directory, not a file")
        #expect(message({ path throws(DescriptorError) in _ = try UserConfig.load(path: path) }, "latin.yaml") == "the file is not UTF-8 text")
    }
}
