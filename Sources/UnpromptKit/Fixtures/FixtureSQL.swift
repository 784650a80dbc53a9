import Foundation

/// A fixture's `NAME.sql` script, committed as text so it stays reviewable: the database `NAME` is built from
/// it when a case runs, whole or statement by statement (a split run builds it from its first statements,
/// scans, then applies the rest).
public enum FixtureSQL: Sendable {
    /// The script's statements, as SQLite would run them one by one.
    public static func statements(_ path: String) throws(FixtureFailure) -> [String] {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw FixtureFailure(description: "cannot read \((path as NSString).lastPathComponent)")
        }
        var statements: [String] = []
        var current = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            current += line + "\n"
            if Database.isComplete(current) {
                statements.append(current)
                current = ""
            }
        }
        if !current.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { statements.append(current) }
        return statements
    }

    /// Applies `statements` to the database at `database`, creating it if needed.
    public static func apply(_ statements: ArraySlice<String>, to database: String, script: String) throws(FixtureFailure) {
        do {
            let connection = try Database(path: database, options: [.readWrite, .create])
            try connection.execute(statements.joined())
        } catch {
            throw FixtureFailure(description: "\((script as NSString).lastPathComponent): \(error.message)")
        }
    }

    /// Builds the database `database` from the whole script at `script`.
    public static func build(_ script: String, as database: String) throws(FixtureFailure) {
        try apply(try statements(script)[...], to: database, script: script)
    }
}
