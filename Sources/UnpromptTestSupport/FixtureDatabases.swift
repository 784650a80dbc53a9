import Foundation
import UnpromptKit

/// SQLite fixtures are committed as SQL text, so they stay reviewable, and built when a test runs.
public enum FixtureDatabases: Sendable {
    /// The directory to read a fixture case from: the case itself when it holds no `.sql` file; else a fresh
    /// copy in which every `NAME.sql` was replaced by the database `NAME` its statements build.
    public static func prepared(_ directory: String) throws -> String {
        let manager = FileManager.default
        let files = (manager.enumerator(atPath: directory)?.allObjects as? [String]) ?? []
        let scripts = files.filter { $0.hasSuffix(".sql") }
        guard !scripts.isEmpty else { return directory }
        let copy = NSTemporaryDirectory() + "unprompt-fixture-" + UUID().uuidString
        try manager.copyItem(atPath: directory, toPath: copy)
        let steps = FixtureCase(tool: "", name: "", directory: directory).steps()
        if !steps.isEmpty {
            // A case in steps is read in its last state: every step played in order at the root, each script
            // applied to the database the earlier steps built.
            for step in steps {
                for file in step.inputFiles() {
                    let source = step.directory + "/" + file
                    let target = copy + "/" + (file.hasSuffix(".sql") ? String(file.dropLast(4)) : file)
                    try manager.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                    if file.hasSuffix(".sql") {
                        try FixtureSQL.apply(try FixtureSQL.statements(source)[...], to: target, script: source)
                    } else {
                        if manager.fileExists(atPath: target) { try manager.removeItem(atPath: target) }
                        try manager.copyItem(atPath: source, toPath: target)
                    }
                }
            }
            try manager.removeItem(atPath: copy + "/" + FixtureCase.stepsFolder)
            return copy
        }
        for script in scripts {
            try FixtureSQL.build(copy + "/" + script, as: copy + "/" + String(script.dropLast(4)))
            try manager.removeItem(atPath: copy + "/" + script)
        }
        return copy
    }
}

extension FixtureCase {
    /// Every case of the checkout's `Fixtures/`.
    public static var all: [FixtureCase] {
        do {
            return try cases(in: Repository.fixtures)
        } catch {
            fatalError(error.description)
        }
    }
}

/// A directory's entries, sorted, hidden ones left out. A folder that cannot be listed stops the suite:
/// an empty list would make the checks pass vacuously.
public func listing(_ directory: String) -> [String] {
    do {
        return try FixtureCase.entries(directory)
    } catch {
        fatalError(error.description)
    }
}
