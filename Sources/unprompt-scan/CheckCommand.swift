import Foundation
import UnpromptKit

/// `unprompt-scan check [--store PATH] [--json]`: SQLite's full integrity check of every page of the store, and
/// the check of its sums that every view runs (`UsageStore.problems`), on a store it only opens read-only. Exit 0
/// when both find nothing, 4 when either finds something (or the store cannot be opened). It repairs nothing.
enum CheckCommand {
    static func run(_ arguments: Arguments, environment: [String: String]) throws(UsageError) -> ExitCode {
        let findings: [String]
        let problems: [StoreProblem]
        do {
            let store = try UsageStore(path: StoreLocation.path(arguments, environment), readOnly: true)
            findings = try store.pageFindings(thorough: true)
            problems = try store.problems()
        } catch {
            return StoreFailure.report(error)
        }
        print(arguments.has(Option.json.name) ? json(findings, problems).text : text(findings, problems))
        return findings.isEmpty && problems.isEmpty ? .success : .store
    }

    /// `{"whole": bool, "pages": [finding, …], "sums": [problem, …]}`: SQLite's findings (at most ten) and the
    /// sums' problems, each as a sentence.
    static func json(_ findings: [String], _ problems: [StoreProblem]) -> JSON {
        .object([
            ("whole", .bool(findings.isEmpty && problems.isEmpty)),
            ("pages", .array(findings.map { .string($0) })),
            ("sums", .array(problems.map { .string($0.message) })),
        ])
    }

    static func text(_ findings: [String], _ problems: [StoreProblem]) -> String {
        var lines: [String] = []
        if findings.isEmpty {
            lines.append("pages: whole (SQLite's integrity check read every page and index)")
        } else {
            lines.append("pages: damaged; SQLite's integrity check found:")
            lines += findings.map { "  " + $0 }
        }
        if problems.isEmpty {
            lines.append("sums: every bucket row holds counts that records could give")
        } else {
            lines.append("sums:")
            lines += problems.map { "  " + $0.message }
        }
        if !findings.isEmpty || !problems.isEmpty {
            lines.append(
                "nothing was changed. Views with --no-scan still show what the store holds; a store moved aside is rebuilt by the next scan from the logs still on disk")
        }
        return lines.joined(separator: "\n")
    }
}
