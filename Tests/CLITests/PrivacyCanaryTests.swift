import Foundation
import Testing
import UnpromptTestSupport

/// Fixtures plant the marker `CANARY` in paths, working directories, branch names, prompts and tool output.
/// None of its bytes may reach any output, in text or JSON.
struct PrivacyCanaryTests {
    static let marker = "CANARY"

    /// Every fixture case folder, with the readers it belongs to.
    static var cases: [(tool: String, directory: String)] {
        var result: [(String, String)] = []
        for tool in try! FileManager.default.contentsOfDirectory(atPath: Repository.fixtures).sorted()
        where !tool.hasPrefix(".") {
            let toolDirectory = Repository.fixtures + "/" + tool
            for name in try! FileManager.default.contentsOfDirectory(atPath: toolDirectory).sorted() where !name.hasPrefix(".") {
                result.append((tool, toolDirectory + "/" + name))
            }
        }
        return result
    }

    @Test func fixturesReallyCarryCanaries() throws {
        for (tool, directory) in Self.cases {
            let files = FileManager.default.enumerator(atPath: directory)!.allObjects as! [String]
            let inPaths = files.contains { $0.contains(Self.marker) }
            let inContent = try files.contains { file in
                var isDirectory: ObjCBool = false
                FileManager.default.fileExists(atPath: directory + "/" + file, isDirectory: &isDirectory)
                guard !isDirectory.boolValue, file != "expected.json", file != "README.md" else { return false }
                // As bytes: a case may hold bytes that are not UTF-8 on purpose.
                return try Data(contentsOf: URL(fileURLWithPath: directory + "/" + file)).range(of: Data(Self.marker.utf8)) != nil
            }
            #expect(inContent, "\(tool) case \(directory) plants no canary in its logs")
            _ = inPaths
        }
        let pathCanaries = Self.cases.filter { (_, directory) in
            (FileManager.default.enumerator(atPath: directory)!.allObjects as! [String]).contains { $0.contains(Self.marker) }
        }
        #expect(!pathCanaries.isEmpty, "no fixture plants a canary in a path")
    }

    @Test func noCanaryReachesDryRunOutput() throws {
        #expect(!Self.cases.isEmpty)
        for (tool, directory) in Self.cases {
            for format in [[], ["--json"]] {
                let output = try Binary.run(["--dry-run", "--reader", tool, "--root", try FixtureDatabases.prepared(directory)] + format)
                #expect(!output.stdout.contains(Self.marker), "\(tool) \(directory) \(format): canary in stdout")
                #expect(!output.stderr.contains(Self.marker), "\(tool) \(directory) \(format): canary in stderr")
            }
        }
    }

    @Test func noCanaryReachesOutputWhenPathsAreGivenExplicitly() throws {
        for (tool, directory) in Self.cases {
            // Every log file of the case, whatever its format (databases built from their SQL first).
            let root = try FixtureDatabases.prepared(directory)
            let files = (FileManager.default.enumerator(atPath: root)!.allObjects as! [String])
                .filter { !["expected.json", "README.md", "TZ"].contains(($0 as NSString).lastPathComponent) }
                .map { root + "/" + $0 }
                .filter { path in
                    var isDirectory: ObjCBool = false
                    return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
                }
            guard !files.isEmpty else { continue }
            let output = try Binary.run(["--dry-run", "--reader", tool, "--json"] + files)
            #expect(!(output.stdout + output.stderr).contains(Self.marker), "\(tool) \(directory): canary in output")
        }
    }
}
