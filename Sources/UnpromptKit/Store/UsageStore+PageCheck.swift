/// SQLite's own check of the store's pages. A damaged page that no view reads (an identity's, a checkpoint's)
/// leaves every total as it was, but the next scan that meets it would count wrong or fail: so a scan first has
/// every page read once a day, and refuses to write into a store found damaged. `unprompt-scan check` runs the
/// full check at any time, on a store it only reads.
extension UsageStore {
    /// How long a clean page check holds, in milliseconds: the check reads the whole file (about 0.2 s for a
    /// year of a heavy user's history), so a scan pays it at most once a day.
    public static let pageCheckInterval: Int64 = 24 * 60 * 60 * 1000

    /// The `settings` key of the last clean check's time.
    static let pagesCheckedKey = "pages_checked_at"

    /// At most this many of SQLite's findings are kept: the first ones say what is wrong, the rest repeat it.
    static let pageFindingLimit = 10

    /// SQLite's findings on every page of the store: `PRAGMA integrity_check` when `thorough` (indexes against
    /// their tables too), else `PRAGMA quick_check`. Empty when the file is whole. A check that itself fails on
    /// a damaged page is that finding. The findings name only the store's own tables, indexes and page numbers.
    public func pageFindings(thorough: Bool) throws(StoreError) -> [String] {
        let pragma = thorough ? "integrity_check" : "quick_check"
        return try locked { database throws(StoreError) in
            let rows: [Statement.Row]
            do throws(StoreError) {
                rows = try database.prepare("PRAGMA \(pragma)(\(Self.pageFindingLimit))").rows()
            } catch {
                if error.busy { throw error }
                return [error.message]
            }
            let findings = rows.compactMap { $0.text(0) }
            return findings == ["ok"] ? [] : findings
        }
    }

    /// Before a scan writes: the page check, when the last clean one is older than `pageCheckInterval` at `now`
    /// (milliseconds since 1970) or never ran. A clean check is remembered; a damaged store is refused, and
    /// nothing is written into it. A clock set back before the last check does not make one due.
    public func refuseDamagedPagesWhenDue(now: Int64) throws(StoreError) {
        if let checked = try instant(Self.pagesCheckedKey), now - checked < Self.pageCheckInterval { return }
        let findings = try pageFindings(thorough: false)
        guard findings.isEmpty else { throw Self.damaged(findings) }
        try record(instant: now, as: Self.pagesCheckedKey)
    }

    static func damaged(_ findings: [String]) -> StoreError {
        StoreError(
            message:
                "the store is damaged (SQLite's check of its pages: \(findings[0])\(findings.count > 1 ? "; and more" : "")); nothing was scanned or written into it. `unprompt-scan check` lists the damage; views with --no-scan still show what it holds; \(rebuilt)",
            busy: false, damaged: true)
    }

    /// Damage met while reading or writing: what was being done is not finished (a source's read is stored
    /// whole or not at all).
    static func damaged(_ message: String) -> StoreError {
        StoreError(message: "the store is damaged (\(message)); `unprompt-scan check` lists the damage; \(rebuilt)", busy: false, damaged: true)
    }

    private static let rebuilt = "a store moved aside is rebuilt by the next scan from the logs still on disk"
}
