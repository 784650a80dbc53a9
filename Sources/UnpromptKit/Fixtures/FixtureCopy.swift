import Foundation

/// A fixture case's files laid out as the tool's, in a new temporary folder: its `NAME.sql` scripts built into
/// the databases `NAME`, as `readers test` builds them. A dry run by hand of a case (`--dry-run --root CASE`)
/// reads this copy, so a SQLite case shows what its script holds rather than no source.
public struct FixtureCopy: Sendable {
    private let place: FixturePlace

    /// The folder that plays the tool's files.
    public var root: String { place.root }

    /// A copy of `directory` when it is a case (it holds an `expected.json`) with a `.sql` script among its
    /// files; nil for any other folder, which is read as it is.
    public static func ifNeeded(_ directory: String) throws(FixtureFailure) -> FixtureCopy? {
        guard FileManager.default.fileExists(atPath: directory + "/expected.json") else { return nil }
        let fixture = FixtureCase(tool: "", name: (directory as NSString).lastPathComponent, directory: directory)
        let files = fixture.inputFiles()
        guard files.contains(where: { $0.hasSuffix(".sql") }) else { return nil }
        let copy = FixtureCopy(place: try FixturePlace())
        do throws(FixtureFailure) {
            for file in files { try copy.place.copy(directory + "/" + file, as: file, cut: nil) }
        } catch {
            copy.remove()
            throw error
        }
        return copy
    }

    public func remove() { place.remove() }
}
