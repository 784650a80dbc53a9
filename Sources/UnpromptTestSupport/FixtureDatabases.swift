import Foundation

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
        for script in scripts {
            let database = copy + "/" + String(script.dropLast(4))
            _ = try Python.run(
                """
                import sqlite3, sys
                connection = sqlite3.connect(sys.argv[1])
                connection.executescript(open(sys.argv[2], encoding="utf-8").read())
                connection.commit()
                connection.close()
                """, arguments: [database, copy + "/" + script])
            try manager.removeItem(atPath: copy + "/" + script)
        }
        return copy
    }
}
