import Foundation

/// One folder `Fixtures/<tool>/<case>/`: the root that replaces every source's root (`--root`), and the
/// `expected.json` it must give.
public struct FixtureCase: Sendable, CustomStringConvertible {
    public let tool: String
    public let name: String
    public let directory: String

    public var description: String { "\(tool)/\(name)" }

    /// Files of the case folder that describe it rather than play the tool's files.
    public static let caseFiles: Set<String> = ["README.md", "expected.json", "TZ", "KNOWN-ISSUES"]

    /// The zone the case is read in (`TZ`): UTC, unless the case names one in a file `TZ`, for logs that
    /// write local times without a zone. Never the machine's own zone, so a case reads the same everywhere.
    public func timeZone() throws -> String {
        let file = directory + "/TZ"
        guard FileManager.default.fileExists(atPath: file) else { return "UTC" }
        return try String(contentsOfFile: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A gap the case is known to show in one way of running it (`split`, `store`, `dry-run`), with its reason:
    /// the lines `MODE: reason` of a file `KNOWN-ISSUES`. The suite still runs that mode, expects it to fail
    /// and fails when it no longer does, so the file goes away with the fix.
    public func knownIssue(_ mode: String) throws -> String? {
        let file = directory + "/KNOWN-ISSUES"
        guard FileManager.default.fileExists(atPath: file) else { return nil }
        for line in try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == mode {
                return parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    /// The figures `expected.json` names, by key.
    public func expected() throws -> [String: JSONTree] {
        guard case .object(let expected) = try JSONTree(contentsOf: directory + "/expected.json") else {
            throw FixtureFailure(description: "\(self): expected.json must hold an object")
        }
        return expected
    }

    /// The files that play the tool's, relative to the case folder, sorted.
    public func inputFiles() -> [String] {
        let names = (FileManager.default.enumerator(atPath: directory)?.allObjects as? [String]) ?? []
        return names.filter { name in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: directory + "/" + name, isDirectory: &isDirectory)
                && !isDirectory.boolValue && !FixtureCase.caseFiles.contains(name)
        }.sorted()
    }

    /// Every case, found by walking the folders: adding a case never edits Swift.
    public static var all: [FixtureCase] {
        var cases: [FixtureCase] = []
        for tool in listing(Repository.fixtures) {
            let toolDirectory = Repository.fixtures + "/" + tool
            for name in listing(toolDirectory)
            where FileManager.default.fileExists(atPath: toolDirectory + "/" + name + "/expected.json") {
                cases.append(FixtureCase(tool: tool, name: name, directory: toolDirectory + "/" + name))
            }
        }
        return cases
    }

    /// Where a report's figures differ from `expected`, one line per key, for the keys of `keys` that
    /// `expected` names (all of them when nil). A count of 12-hour cache writes that is 0 may go unsaid: the
    /// class came after most cases were worked out, and only a case that has such writes needs to say so.
    public static func differences(_ got: [String: JSONTree], expected: [String: JSONTree], keys: [String]? = nil) -> [String] {
        expected.keys.sorted().filter { keys?.contains($0) ?? true }.compactMap { key in
            let want = expected[key]!
            return got[key].map(withoutZero12h) == withoutZero12h(want)
                ? nil : "\(key):\n  expected \(want)\n  actual   \(got[key].map(\.description) ?? "absent")"
        }
    }

    private static func withoutZero12h(_ tree: JSONTree) -> JSONTree {
        switch tree {
        case .object(let members):
            .object(members.filter { $0.key != "cacheWrite12h" || $0.value != .number(0) }.mapValues(withoutZero12h))
        case .array(let items): .array(items.map(withoutZero12h))
        default: tree
        }
    }
}

/// A directory's entries, sorted, hidden ones left out. A folder that cannot be listed stops the suite:
/// an empty list would make the checks pass vacuously.
public func listing(_ directory: String) -> [String] {
    do {
        return try FileManager.default.contentsOfDirectory(atPath: directory).filter { !$0.hasPrefix(".") }.sorted()
    } catch {
        fatalError("cannot list \(directory): \(error)")
    }
}

public struct FixtureFailure: Error, CustomStringConvertible {
    public let description: String
}
