import Foundation

/// The ways a fixture case is run, each of which must give its `expected.json`.
public enum FixtureMode: String, Sendable, CaseIterable {
    /// A dry run of the whole case: every figure `expected.json` names.
    case dryRun = "dry-run"
    /// A scan of the whole case into a new store: the figures a store holds.
    case store
    /// The same store scanned again, with nothing new, then with every file touched (so every document and
    /// database is read again and only the keep rules stand between it and a second count): nothing added.
    case again
    /// The case fed in two parts across two scans, cut at a place a seeded generator picks.
    case split
    /// A case with `steps/`: each step's files put in place over the last one's (a `.sql` script applied to
    /// the database the earlier steps built), then scanned into the one store, which must hold that step's
    /// `expected.json`; a scan after the last step adds nothing. The only mode of such a case.
    case steps

    /// The modes of a case without steps.
    public static let single: [FixtureMode] = [.dryRun, .store, .again, .split]
}

/// What running one case gave: per mode, where it differs from `expected.json` (empty when it holds), and
/// what `KNOWN-ISSUES` says of it.
public struct FixtureOutcome: Sendable {
    public struct Mode: Sendable {
        public let mode: FixtureMode
        public let differences: [String]
        public let knownIssue: String?

        /// A mode fails when it differs, or when `KNOWN-ISSUES` says it differs and it no longer does; for a
        /// split, only where it is cut decides whether a known gap shows, so one that does not show passes.
        public var failed: Bool {
            guard knownIssue != nil else { return !differences.isEmpty }
            return differences.isEmpty && mode != .split
        }
    }

    public let fixture: FixtureCase
    public let modes: [Mode]
    /// Where the split run cut the case.
    public let cut: FixtureCut?
    /// Why the case could not be run at all (no descriptor, an unreadable `expected.json`).
    public let error: String?

    public var failed: Bool { error != nil || modes.contains(where: \.failed) }

    /// The first thing wrong, for one line of a report: the mode and its first difference.
    public var firstFailure: String? {
        if let error { return error }
        guard let mode = modes.first(where: \.failed) else { return nil }
        if mode.differences.isEmpty {
            return "\(mode.mode.rawValue): KNOWN-ISSUES says it fails (\(mode.knownIssue ?? "")), but it passes; remove the line"
        }
        let place = mode.mode == .split ? " (cut at \(cut.map(\.description) ?? "?"))" : ""
        return "\(mode.mode.rawValue)\(place): \(mode.differences[0])"
    }
}

/// Where a split run cut the case: in which file, and where in it (a byte offset, or for a `.sql` script the
/// number of statements applied first), with the files before it whole and the ones after it absent.
public struct FixtureCut: Sendable, CustomStringConvertible {
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

/// Runs fixture cases with the library alone, as `unprompt-scan readers test` and the test suite both do:
/// each case as a dry run, scanned into a new store, scanned again, and split across two scans.
///
/// The split is one moment of the case's history: its files in path order (the order a tool writes them in
/// every case: sessions by date, a sidechain after its parent, a sibling before the messages), the files before
/// the cut whole, the one it falls in cut there, the later ones not there yet. A file is cut at a byte: an
/// appended file is then read to its last complete line and resumed; a document is read mid-write (malformed),
/// then whole. A `.sql` script is cut between two of its statements: its database is built from the first
/// part, scanned, then given the rest. Cutting every file on its own would make histories no tool writes (a
/// fork's or a sidechain's replay of a record before the record itself), in which which copy counts may
/// rightly differ.
public struct FixtureRunner: Sendable {
    public let descriptor: Descriptor

    public init(descriptor: Descriptor) { self.descriptor = descriptor }

    /// Each case its own seed for the cut: `base` and the case's name, mixed (FNV-1a), so one base seed
    /// reproduces every cut of a run.
    public static func seed(base: UInt64, for fixture: FixtureCase) -> UInt64 {
        fixture.description.utf8.reduce(base ^ 0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
    }

    public func run(_ fixture: FixtureCase, seed: UInt64) -> FixtureOutcome {
        let steps = !fixture.steps().isEmpty
        let expected: [String: FixtureJSON]
        let zone: TimeZone
        var known: [FixtureMode: String] = [:]
        do throws(FixtureFailure) {
            // A case with steps has an `expected.json` per step instead.
            expected = steps ? [:] : try fixture.expected()
            zone = try fixture.timeZone()
            for mode in FixtureMode.allCases { known[mode] = try fixture.knownIssue(mode) }
        } catch {
            return FixtureOutcome(fixture: fixture, modes: [], cut: nil, error: error.description)
        }
        if steps {
            let differences: [String]
            do throws(FixtureFailure) {
                differences = try runSteps(fixture, zone)
            } catch {
                differences = [error.description]
            }
            return FixtureOutcome(
                fixture: fixture, modes: [FixtureOutcome.Mode(mode: .steps, differences: differences, knownIssue: known[.steps])],
                cut: nil, error: nil)
        }
        let stored = expected.filter { FixtureFigures.storedKeys.contains($0.key) }
        var differences: [FixtureMode: [String]] = [:]
        do throws(FixtureFailure) {
            let place = try FixturePlace()
            defer { place.remove() }
            for file in fixture.inputFiles() { try place.copy(fixture.directory + "/" + file, as: file, cut: nil) }
            let report = DryRun(discovery: place.discovery, timeZone: zone).run(descriptor)
            differences[.dryRun] = FixtureCase.differences(FixtureFigures.of(report), expected: expected)
            let store = try place.openStore()
            _ = try scan(store, place, zone)
            let figures = try place.figures(store, tool: fixture.tool)
            differences[.store] = FixtureCase.differences(figures, expected: stored)
            differences[.again] = try again(store, place, zone, figures: figures)
        } catch {
            differences[.dryRun, default: []].append(error.description)
        }
        var cut: FixtureCut?
        do throws(FixtureFailure) {
            let split = try self.split(fixture, seed: seed, zone)
            cut = split.cut
            differences[.split] = FixtureCase.differences(split.figures, expected: stored)
        } catch {
            differences[.split] = [error.description]
        }
        return FixtureOutcome(
            fixture: fixture,
            modes: FixtureMode.single.map { mode in
                FixtureOutcome.Mode(mode: mode, differences: differences[mode] ?? [], knownIssue: known[mode])
            },
            cut: cut, error: nil)
    }

    /// The case's steps in order, against one store: where each step's store differs from its `expected.json`.
    private func runSteps(_ fixture: FixtureCase, _ zone: TimeZone) throws(FixtureFailure) -> [String] {
        let place = try FixturePlace()
        defer { place.remove() }
        let store = try place.openStore()
        var problems: [String] = []
        for (index, step) in fixture.steps().enumerated() {
            let files = step.inputFiles()
            guard !files.isEmpty else { throw FixtureFailure(description: "\(step) has no input files") }
            // Every file moves on a second, so each step's changes are seen whatever the clock's resolution.
            if index > 0 { try place.touchAll() }
            for file in files { try place.copy(step.directory + "/" + file, as: file, cut: nil) }
            _ = try scan(store, place, zone)
            let want = try step.expected().filter { FixtureFigures.storedKeys.contains($0.key) }
            guard !want.isEmpty else { throw FixtureFailure(description: "\(step): expected.json names no figure a store holds") }
            problems += FixtureCase.differences(try place.figures(store, tool: fixture.tool), expected: want)
                .map { "step \(step.name.split(separator: "/").last ?? ""): \($0)" }
        }
        let again = try scan(store, place, zone)
        if again.counted != 0 { problems.append("a scan after the last step counted \(again.counted) records") }
        return problems
    }

    /// A second scan with nothing new, then a third after every file was touched: each must count nothing
    /// and leave the store's figures as they were.
    private func again(_ store: UsageStore, _ place: FixturePlace, _ zone: TimeZone, figures: [String: FixtureJSON])
        throws(FixtureFailure) -> [String]
    {
        var problems: [String] = []
        let again = try scan(store, place, zone)
        if again.counted != 0 { problems.append("a scan with nothing new counted \(again.counted) records") }
        if again.read != 0 { problems.append("a scan with nothing new opened \(again.read) sources") }
        let figuresAgain = try place.figures(store, tool: descriptor.id)
        problems += FixtureCase.differences(figuresAgain, expected: figures).map { "a scan with nothing new changed \($0)" }
        try place.touchAll()
        let touched = try scan(store, place, zone)
        if touched.counted != 0 { problems.append("reading every file again counted \(touched.counted) records") }
        problems += FixtureCase.differences(try place.figures(store, tool: descriptor.id), expected: figures)
            .map { "reading every file again changed \($0)" }
        return problems
    }

    /// The store's figures after the two scans of the cut case, and where it was cut.
    private func split(_ fixture: FixtureCase, seed: UInt64, _ zone: TimeZone) throws(FixtureFailure)
        -> (figures: [String: FixtureJSON], cut: FixtureCut)
    {
        let place = try FixturePlace()
        defer { place.remove() }
        let files = fixture.inputFiles()
        guard !files.isEmpty else { throw FixtureFailure(description: "\(fixture) has no input files") }
        var sizes: [Int] = []
        for file in files { sizes.append(try FixturePlace.size(of: fixture.directory + "/" + file)) }
        var random = SeededRandom(seed: seed)
        var position = random.below(sizes.reduce(0, +) + 1)
        var index = 0
        while index < files.count - 1, position >= sizes[index] {
            position -= sizes[index]
            index += 1
        }
        let cut = FixtureCut(file: files[index], at: min(position, sizes[index]), of: sizes[index], index: index, files: files.count)
        for file in files.prefix(index) { try place.copy(fixture.directory + "/" + file, as: file, cut: nil) }
        try place.copy(fixture.directory + "/" + cut.file, as: cut.file, cut: cut.at)
        let store = try place.openStore()
        _ = try scan(store, place, zone)
        try place.complete(fixture.directory + "/" + cut.file, as: cut.file, from: cut.at)
        for file in files.dropFirst(index + 1) { try place.copy(fixture.directory + "/" + file, as: file, cut: nil) }
        _ = try scan(store, place, zone)
        return (try place.figures(store, tool: fixture.tool), cut)
    }

    private func scan(_ store: UsageStore, _ place: FixturePlace, _ zone: TimeZone) throws(FixtureFailure) -> ScanReport {
        do {
            return try Scanner(store: store, discovery: place.discovery, timeZone: zone).scan([descriptor])
        } catch {
            throw FixtureFailure(description: "the scan failed: \(error.message)")
        }
    }
}

/// A fresh root (the case's files, or parts of them) and a fresh store beside it.
private struct FixturePlace {
    let directory: String
    var root: String { directory + "/root" }
    var storePath: String { directory + "/store/usage.sqlite" }
    /// Every source's root replaced by this one, as `--root` does; no home, no environment.
    var discovery: SourceDiscovery { SourceDiscovery(environment: [:], home: "/nonexistent-home", rootOverride: root) }

    init() throws(FixtureFailure) {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("unprompt-fixture-run-\(UUID().uuidString)").path
        try attempt("create a temporary folder") {
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: directory + "/store", withIntermediateDirectories: true)
        }
    }

    func remove() { try? FileManager.default.removeItem(atPath: directory) }

    func openStore() throws(FixtureFailure) -> UsageStore {
        do {
            return try UsageStore(path: storePath)
        } catch {
            throw FixtureFailure(description: "cannot open a temporary store: \(error.message)")
        }
    }

    func figures(_ store: UsageStore, tool: String) throws(FixtureFailure) -> [String: FixtureJSON] {
        do {
            return try FixtureFigures.of(store: store, tool: tool)
        } catch {
            throw FixtureFailure(description: "cannot read the temporary store: \(error.message)")
        }
    }

    /// A case file's size: bytes, or for a `.sql` script its statements.
    static func size(of path: String) throws(FixtureFailure) -> Int {
        if path.hasSuffix(".sql") { return try FixtureSQL.statements(path).count }
        return try attempt("read \((path as NSString).lastPathComponent)") { try Data(contentsOf: URL(fileURLWithPath: path)).count }
    }

    /// The file's place in the root: a script's database has its name without `.sql`.
    private func target(_ file: String) -> String {
        root + "/" + (file.hasSuffix(".sql") ? String(file.dropLast(4)) : file)
    }

    /// Puts a case file in the root: whole (`cut` nil), or its first `cut` bytes or statements.
    func copy(_ source: String, as file: String, cut: Int?) throws(FixtureFailure) {
        let destination = target(file)
        try attempt("create the folder of \(file)") {
            try FileManager.default.createDirectory(
                atPath: (destination as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        }
        if file.hasSuffix(".sql") {
            let statements = try FixtureSQL.statements(source)
            try FixtureSQL.apply(statements.prefix(cut ?? statements.count), to: destination, script: source)
            return
        }
        try attempt("copy \(file)") {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: source))
            try bytes.prefix(cut ?? bytes.count).write(to: URL(fileURLWithPath: destination))
        }
    }

    /// Gives a cut file the rest of its case file: the bytes appended to the same file, or the statements
    /// applied to the same database.
    func complete(_ source: String, as file: String, from cut: Int) throws(FixtureFailure) {
        let destination = target(file)
        if file.hasSuffix(".sql") {
            try FixtureSQL.apply(try FixtureSQL.statements(source).dropFirst(cut), to: destination, script: source)
            return
        }
        try attempt("append to \(file)") {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: source))
            guard cut < bytes.count else { return }
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: destination))
            defer { try? handle.close() }
            try handle.seekToEnd()
            try handle.write(contentsOf: bytes.suffix(from: cut))
        }
    }

    /// Moves every file's modification time one second on, so a scan finds each changed.
    func touchAll() throws(FixtureFailure) {
        try attempt("touch the case's files") {
            let names = (FileManager.default.enumerator(atPath: root)?.allObjects as? [String]) ?? []
            for name in names {
                let path = root + "/" + name
                let attributes = try FileManager.default.attributesOfItem(atPath: path)
                guard attributes[.type] as? FileAttributeType == .typeRegular, let date = attributes[.modificationDate] as? Date
                else { continue }
                try FileManager.default.setAttributes([.modificationDate: date.addingTimeInterval(1)], ofItemAtPath: path)
            }
        }
    }
}

/// Runs `body`, turning what Foundation throws into a `FixtureFailure` that says what could not be done.
private func attempt<T>(_ what: String, _ body: () throws -> T) throws(FixtureFailure) -> T {
    do {
        return try body()
    } catch {
        throw FixtureFailure(description: "cannot \(what): \(error.localizedDescription)")
    }
}
