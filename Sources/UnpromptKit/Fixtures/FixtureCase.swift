import Foundation

/// One folder `Fixtures/<tool>/<case>/`: the files that stand for the tool's (put below a root that replaces
/// every source's root, as `--root` does, so each source's glob still applies below it), and the
/// `expected.json` they must give.
public struct FixtureCase: Sendable, CustomStringConvertible {
    public let tool: String
    public let name: String
    public let directory: String

    public init(tool: String, name: String, directory: String) {
        self.tool = tool
        self.name = name
        self.directory = directory
    }

    public var description: String { "\(tool)/\(name)" }

    /// Files of the case folder that describe it rather than play the tool's files.
    public static let caseFiles: Set<String> = ["README.md", "expected.json", "TZ", "KNOWN-ISSUES"]
    /// The folder of a case's steps (`steps/1-NAME/`, `steps/2-NAME/`, …), each played in turn.
    public static let stepsFolder = "steps"

    /// The case's steps, in the order of the number each folder's name starts with: each a case of its own
    /// (its files and its `expected.json`) whose zone, known issues and tool are the case's. None for a case
    /// read in one go.
    public func steps() -> [FixtureCase] {
        let folder = directory + "/" + Self.stepsFolder
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { !$0.hasPrefix(".") }
        func number(_ name: String) -> Int { Int(name.prefix { $0.isNumber }) ?? Int.max }
        return names.sorted { (number($0), $0) < (number($1), $1) }.map { name in
            FixtureCase(tool: tool, name: self.name + "/" + Self.stepsFolder + "/" + name, directory: folder + "/" + name)
        }
    }

    /// The zone the case is read in (`TZ`): UTC, unless the case names one in a file `TZ`, for logs that
    /// write local times without a zone. Never the machine's own zone, so a case reads the same everywhere.
    public func timeZone() throws(FixtureFailure) -> TimeZone {
        let file = directory + "/TZ"
        guard FileManager.default.fileExists(atPath: file) else { return TimeZone(identifier: "UTC")! }
        let name = try text(file).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let zone = TimeZone(identifier: name) else { throw FixtureFailure(description: "\(self): TZ names no zone '\(name)'") }
        return zone
    }

    /// A gap the case is known to show in one way of running it (`FixtureMode`), with its reason: the lines
    /// `MODE: reason` of a file `KNOWN-ISSUES`. The runner still runs that mode, expects it to fail and fails
    /// when it no longer does, so the file goes away with the fix.
    public func knownIssue(_ mode: FixtureMode) throws(FixtureFailure) -> String? {
        let file = directory + "/KNOWN-ISSUES"
        guard FileManager.default.fileExists(atPath: file) else { return nil }
        for line in try text(file).split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == mode.rawValue {
                return parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    /// The figures `expected.json` names, by key.
    public func expected() throws(FixtureFailure) -> [String: FixtureJSON] {
        let tree: FixtureJSON
        do {
            tree = try FixtureJSON(contentsOf: directory + "/expected.json")
        } catch {
            throw FixtureFailure(description: "\(self): expected.json is not JSON: \(error.localizedDescription)")
        }
        guard case .object(let expected) = tree, !expected.isEmpty else {
            throw FixtureFailure(description: "\(self): expected.json must hold an object naming the figures to check")
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
                && !name.hasPrefix(FixtureCase.stepsFolder + "/")
        }.sorted()
    }

    private func text(_ file: String) throws(FixtureFailure) -> String {
        do {
            return try String(contentsOfFile: file, encoding: .utf8)
        } catch {
            throw FixtureFailure(description: "\(self): cannot read \((file as NSString).lastPathComponent)")
        }
    }

    /// The cases under `fixtures` (folders `TOOL/CASE/` holding an `expected.json` or `steps/`), of `tools` only when
    /// given, sorted: adding a case never edits Swift. A folder that cannot be listed is an error, never no
    /// cases, so a run cannot pass by reading nothing.
    public static func cases(in fixtures: String, tools: [String]? = nil) throws(FixtureFailure) -> [FixtureCase] {
        var cases: [FixtureCase] = []
        for tool in try entries(fixtures) where tools?.contains(tool) ?? true {
            let toolDirectory = fixtures + "/" + tool
            for name in try entries(toolDirectory)
            where FileManager.default.fileExists(atPath: toolDirectory + "/" + name + "/expected.json")
                || FileManager.default.fileExists(atPath: toolDirectory + "/" + name + "/" + stepsFolder)
            {
                cases.append(FixtureCase(tool: tool, name: name, directory: toolDirectory + "/" + name))
            }
        }
        return cases
    }

    /// A directory's entries, sorted, hidden ones left out.
    public static func entries(_ directory: String) throws(FixtureFailure) -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: directory).filter { !$0.hasPrefix(".") }.sorted()
        } catch {
            throw FixtureFailure(description: "cannot list \(directory)")
        }
    }

    /// Where figures differ from `expected`, one entry per key `expected` names, in key order. A count of
    /// 12-hour cache writes that is 0 may go unsaid: the class came after most cases were worked out, and only
    /// a case that has such writes needs to say so.
    public static func differences(_ got: [String: FixtureJSON], expected: [String: FixtureJSON]) -> [String] {
        expected.keys.sorted().compactMap { key in
            let want = expected[key]!
            return got[key].map(withoutZero12h) == withoutZero12h(want)
                ? nil : "\(key):\n  expected \(want)\n  actual   \(got[key].map(\.description) ?? "absent")"
        }
    }

    private static func withoutZero12h(_ tree: FixtureJSON) -> FixtureJSON {
        switch tree {
        case .object(let members):
            .object(members.filter { $0.key != "cacheWrite12h" || $0.value != .number(0) }.mapValues(withoutZero12h))
        case .array(let items): .array(items.map(withoutZero12h))
        default: tree
        }
    }
}

/// Why a fixture case could not be run or read.
public struct FixtureFailure: Error, Sendable, CustomStringConvertible {
    public let description: String

    public init(description: String) { self.description = description }
}
