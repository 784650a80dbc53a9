import Foundation

/// A fixture's `NAME.sql` script, committed as text so it stays reviewable: the database `NAME` is built from
/// it when a case runs, whole or statement by statement (a split run builds it from its first statements,
/// scans, then applies the rest).
public enum FixtureSQL: Sendable {
    /// The script's statements, as SQLite would run them one by one; a transaction (`BEGIN;` … `COMMIT;`) is
    /// one of them, since a reader only ever sees a database between two transactions: a split run never cuts
    /// inside one (what the tool writes in one transaction, such as a session's totals and its per-model rows,
    /// is never seen half written).
    public static func statements(_ path: String) throws(FixtureFailure) -> [String] {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw FixtureFailure(description: "cannot read \((path as NSString).lastPathComponent)")
        }
        var statements: [String] = []
        var current = ""
        var transaction: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            current += line + "\n"
            guard Database.isComplete(current) else { continue }
            let verb = keyword(current)
            if transaction == nil, verb == "BEGIN" {
                transaction = current
            } else if let open = transaction {
                transaction = open + current
                if verb == "COMMIT" || verb == "END" {
                    statements.append(open + current)
                    transaction = nil
                }
            } else {
                statements.append(current)
            }
            current = ""
        }
        let rest = (transaction ?? "") + current
        if !rest.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { statements.append(rest) }
        return statements
    }

    /// A statement's first word, upper-cased, past the `--` comment lines before it.
    private static func keyword(_ statement: String) -> String {
        let code = statement.split(separator: "\n").first { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            return !trimmed.isEmpty && !trimmed.hasPrefix("--")
        }
        let word = code?.trimmingCharacters(in: .whitespaces).prefix { $0.isLetter } ?? ""
        return word.uppercased()
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
