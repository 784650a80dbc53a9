import Foundation
import UnpromptKit

/// A fixture case run through `scan` into a new store, the ways a case must hold there as in the dry run:
/// - `whole`: the case scanned once (its figures, read back from the store by `StoreReader`, must be the
///   case's `expected.json`), then again (nothing added), then again with every file touched, so every
///   document and database is read again and only the keep rules stand between it and a second count;
/// - `split`: the case fed in two parts across two scans, cut at one place a seeded generator picks.
///
/// The cut is one moment of the case's history: its files in path order (the order a tool writes them in
/// every case: sessions by date, a sidechain after its parent, a sibling before the messages), the files before
/// the cut whole, the one it falls in cut there, the later ones not there yet. A file is cut at a byte: an
/// appended file is then read to its last complete line and resumed; a document is read mid-write (malformed),
/// then whole. A `.sql` script is cut between two of its statements: its database is built from the first
/// part, scanned, then given the rest. Cutting every file on its own would make histories no tool writes (a
/// fork's or a sidechain's replay of a record before the record itself), in which which copy counts may
/// rightly differ.
public struct FixtureStoreRun: Sendable {
    /// What a store holds that a case's `expected.json` also says.
    public static let storedKeys = ["events", "totals", "byModel", "byDay", "loggedCost", "limits"]

    public let fixture: FixtureCase
    public let descriptor: Descriptor
    private let zone: TimeZone

    public init(_ fixture: FixtureCase) throws {
        self.fixture = fixture
        do {
            descriptor = try DescriptorLoader.load(path: Repository.readers + "/" + fixture.tool + ".yaml")
        } catch {
            throw FixtureFailure(description: "\(fixture): \(error)")
        }
        let name = try fixture.timeZone()
        guard let zone = TimeZone(identifier: name) else { throw FixtureFailure(description: "\(fixture): no zone \(name)") }
        self.zone = zone
    }

    public struct Whole: Sendable {
        public let figures: [String: JSONTree]
        /// The scan with nothing new, and the store's figures after it.
        public let again: ScanReport
        public let figuresAgain: [String: JSONTree]
        /// The scan after every file was touched, and the store's figures after it.
        public let touched: ScanReport
        public let figuresTouched: [String: JSONTree]
    }

    public func whole() throws -> Whole {
        let place = try Place()
        defer { place.remove() }
        for file in fixture.inputFiles() { try place.copy(fixture.directory + "/" + file, as: file, cut: nil) }
        _ = try scan(place)
        let figures = try place.figures(tool: fixture.tool)
        let again = try scan(place)
        let figuresAgain = try place.figures(tool: fixture.tool)
        try place.touchAll()
        let touched = try scan(place)
        return Whole(
            figures: figures, again: again, figuresAgain: figuresAgain, touched: touched,
            figuresTouched: try place.figures(tool: fixture.tool))
    }

    /// Where the case was cut: in which file, and where in it (a byte offset, or for a `.sql` script the
    /// number of statements applied first), with the files before it whole and the ones after it absent.
    public struct Cut: Sendable, CustomStringConvertible {
        public let file: String
        public let at: Int
        public let of: Int
        /// The file's place among the case's files, and how many there are.
        public let index: Int
        public let files: Int

        public var description: String {
            "file \(index + 1) of \(files), \(file), at \(at) of \(of)\(file.hasSuffix(".sql") ? " statements" : " bytes")"
        }
    }

    /// The store's figures after the two scans of the cut case, and where it was cut.
    public func split(seed: UInt64) throws -> (figures: [String: JSONTree], cut: Cut) {
        let place = try Place()
        defer { place.remove() }
        let files = fixture.inputFiles()
        var sizes: [Int] = []
        for file in files {
            let path = fixture.directory + "/" + file
            sizes.append(file.hasSuffix(".sql") ? try FixtureSQL.statementCount(path) : try Data(contentsOf: URL(fileURLWithPath: path)).count)
        }
        var random = SeededRandom(seed: seed)
        var position = random.below(sizes.reduce(0, +) + 1)
        var index = 0
        while index < files.count - 1, position >= sizes[index] {
            position -= sizes[index]
            index += 1
        }
        let cut = Cut(file: files[index], at: min(position, sizes[index]), of: sizes[index], index: index, files: files.count)
        for (file, size) in zip(files, sizes).prefix(index) { try place.copy(fixture.directory + "/" + file, as: file, cut: size) }
        try place.copy(fixture.directory + "/" + cut.file, as: cut.file, cut: cut.at)
        _ = try scan(place)
        try place.complete(fixture.directory + "/" + cut.file, as: cut.file, from: cut.at)
        for file in files.dropFirst(index + 1) { try place.copy(fixture.directory + "/" + file, as: file, cut: nil) }
        _ = try scan(place)
        return (try place.figures(tool: fixture.tool), cut)
    }

    private func scan(_ place: Place) throws -> ScanReport {
        let store = try UsageStore(path: place.store)
        return try Scanner(
            store: store, discovery: SourceDiscovery(environment: [:], home: "/nonexistent-home", rootOverride: place.root),
            timeZone: zone
        ).scan([descriptor])
    }
}

/// A fresh root (the case's files, or parts of them) and a fresh store beside it.
private struct Place {
    let directory: String
    var root: String { directory + "/root" }
    var store: String { directory + "/store/usage.sqlite" }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("unprompt-fixture-run-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(atPath: directory) }

    /// The file's place in the root: a script's database has its name without `.sql`.
    private func target(_ file: String) -> String {
        root + "/" + (file.hasSuffix(".sql") ? String(file.dropLast(4)) : file)
    }

    /// Puts a case file in the root: whole (`cut` nil), or its first `cut` bytes or statements.
    func copy(_ source: String, as file: String, cut: Int?) throws {
        let destination = target(file)
        try FileManager.default.createDirectory(
            atPath: (destination as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        if file.hasSuffix(".sql") {
            try FixtureSQL.apply(source, statements: 0..<(cut ?? Int.max), to: destination)
        } else {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: source))
            try bytes.prefix(cut ?? bytes.count).write(to: URL(fileURLWithPath: destination))
        }
    }

    /// Gives a cut file the rest of its case file: the bytes appended to the same file, or the statements
    /// applied to the same database.
    func complete(_ source: String, as file: String, from cut: Int) throws {
        let destination = target(file)
        if file.hasSuffix(".sql") {
            try FixtureSQL.apply(source, statements: cut..<Int.max, to: destination)
            return
        }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: source))
        guard cut < bytes.count else { return }
        guard let handle = FileHandle(forWritingAtPath: destination) else {
            throw FixtureFailure(description: "cannot append to \(destination)")
        }
        handle.seekToEndOfFile()
        handle.write(bytes.suffix(from: cut))
        handle.closeFile()
    }

    /// Moves every file's modification time one second on, so a scan finds each changed.
    func touchAll() throws {
        let names = (FileManager.default.enumerator(atPath: root)?.allObjects as? [String]) ?? []
        for name in names {
            let path = root + "/" + name
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            guard attributes[.type] as? FileAttributeType == .typeRegular, let date = attributes[.modificationDate] as? Date
            else { continue }
            try FileManager.default.setAttributes([.modificationDate: date.addingTimeInterval(1)], ofItemAtPath: path)
        }
    }

    func figures(tool: String) throws -> [String: JSONTree] {
        try StoreReader.figures(store: store, tool: tool)
    }
}

/// A fixture's `.sql` script, as statements SQLite would run one by one (`sqlite3.complete_statement`).
enum FixtureSQL {
    private static let script = """
        import sqlite3, sys
        text = open(sys.argv[1], encoding="utf-8").read()
        statements, current = [], ""
        for line in text.splitlines(keepends=True):
            current += line
            if sqlite3.complete_statement(current):
                statements.append(current)
                current = ""
        if current.strip():
            statements.append(current)
        if sys.argv[2] == "count":
            print(len(statements))
        else:
            connection = sqlite3.connect(sys.argv[2])
            connection.executescript("".join(statements[int(sys.argv[3]):int(sys.argv[4])]))
            connection.commit()
            connection.close()
        """

    static func statementCount(_ path: String) throws -> Int {
        let output = try Python.run(script, arguments: [path, "count"])
        guard let count = Int(output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw FixtureFailure(description: "cannot count the statements of \(path)")
        }
        return count
    }

    static func apply(_ path: String, statements: Range<Int>, to database: String) throws {
        _ = try Python.run(script, arguments: [path, database, String(statements.lowerBound), String(min(statements.upperBound, Int(Int32.max)))])
    }
}
