import Foundation
import Testing
import UnpromptTestSupport

/// The flow, low to high, as folders of `Sources/UnpromptKit/` (and the CLI target above them all): a folder
/// may use what its own folder and the folders of lower rank declare, never what a folder of its own rank or a
/// higher one declares. Folders of one rank are independent of each other.
let layers: [(folder: String, rank: Int)] = [
    // The floor: a lock, the ordered worker pool, the SQLite connection.
    ("Support", 0), ("SQLite", 0),
    // The shared vocabulary: events, counts, identities, skip reasons.
    ("Events", 1),
    ("Descriptors", 2),
    ("Readers", 3),
    // Buckets, the keep rules, episodes, bands: events in, numbers out, no file format.
    ("Aggregation", 4),
    // Prices and water, the user's settings, and the scanner: each uses aggregation, none the others.
    ("Readings", 5), ("Config", 5), ("Scanning", 5),
    // The store implements the scanner's ledger.
    ("Store", 6),
    // The views' queries, and the fixture runner (a case read, scanned and compared): each uses the store.
    ("Queries", 7), ("Fixtures", 7),
    // Exports between devices and share codes between friends: formats and merge rules over the queries' numbers.
    ("Exchange", 8),
    ("CLI", 9),
]

/// A use of a name declared in a folder the flow puts at or above the user.
struct LayerViolation: CustomStringConvertible, Equatable {
    let file: String
    let name: String
    let declaredIn: String

    var description: String { "\(file) uses \(name), declared in \(declaredIn)/" }
}

/// Finds where a folder uses a top-level type or function of a folder of the same or higher rank. Names are
/// read from the source text (comments and string literals left out), so it needs no build; a member added by an
/// extension in a higher folder is not seen, which is why such extensions stay in the type's own folder.
struct LayerCheck {
    let kit: String
    let cli: String
    let layers: [(folder: String, rank: Int)]

    init(root: String, layers: [(folder: String, rank: Int)]) {
        kit = root + "/Sources/UnpromptKit"
        cli = root + "/Sources/unprompt-scan"
        self.layers = layers
    }

    /// Folders of the library that the table does not rank.
    func unranked() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: kit).filter { folder in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: kit + "/" + folder, isDirectory: &isDirectory) && isDirectory.boolValue
                && !layers.contains { $0.folder == folder }
        }.sorted()
    }

    func violations() throws -> (violations: [LayerViolation], declaredTwice: [String]) {
        var sources: [(folder: String, file: String, text: String)] = []
        for (folder, _) in layers {
            let directory = folder == "CLI" ? cli : kit + "/" + folder
            guard let names = FileManager.default.enumerator(atPath: directory)?.allObjects as? [String] else { continue }
            for name in names.sorted() where name.hasSuffix(".swift") {
                let text = try String(contentsOfFile: directory + "/" + name, encoding: .utf8)
                sources.append((folder, folder + "/" + name, Self.code(text)))
            }
        }
        var owner: [String: String] = [:]
        var declaredTwice: [String] = []
        for source in sources {
            for name in Self.declarations(in: source.text) {
                if let other = owner[name], other != source.folder { declaredTwice.append("\(name): \(other)/, \(source.folder)/") }
                owner[name] = owner[name] ?? source.folder
            }
        }
        let rank = Dictionary(uniqueKeysWithValues: layers.map { ($0.folder, $0.rank) })
        var found: [LayerViolation] = []
        for source in sources {
            let own = rank[source.folder]!
            for name in Self.uses(in: source.text, of: owner) {
                guard let folder = owner[name], folder != source.folder, rank[folder]! >= own else { continue }
                found.append(LayerViolation(file: source.file, name: name, declaredIn: folder))
            }
        }
        return (found, declaredTwice)
    }

    /// The source without comments and string literals (their words are not uses), read in one pass so a `//`
    /// inside a string or a quote inside a comment is seen for what it is.
    static func code(_ text: String) -> String {
        let chars = Array(text.unicodeScalars)
        func at(_ index: Int) -> Unicode.Scalar? { index < chars.count ? chars[index] : nil }
        func startsWith(_ literal: String, at index: Int) -> Bool {
            literal.unicodeScalars.enumerated().allSatisfy { at(index + $0.offset) == $0.element }
        }
        var code = String.UnicodeScalarView()
        var i = 0
        while i < chars.count {
            if startsWith("//", at: i) {
                while i < chars.count, chars[i] != "\n" { i += 1 }
                continue
            }
            if startsWith("/*", at: i) {
                var depth = 0
                repeat {
                    if startsWith("/*", at: i) { depth += 1; i += 2 } else if startsWith("*/", at: i) { depth -= 1; i += 2 } else { i += 1 }
                } while depth > 0 && i < chars.count
                code.append(" ")
                continue
            }
            var hashes = 0
            while at(i + hashes) == "#" { hashes += 1 }
            if at(i + hashes) == "\"" {
                let quotes = startsWith("\"\"\"", at: i + hashes) ? "\"\"\"" : "\""
                let closing = quotes + String(repeating: "#", count: hashes)
                var j = i + hashes + quotes.unicodeScalars.count
                while j < chars.count, !startsWith(closing, at: j) { j += hashes == 0 && chars[j] == "\\" ? 2 : 1 }
                i = j + closing.unicodeScalars.count
                code.append(" ")
                continue
            }
            code.append(chars[i])
            i += 1
        }
        return String(code)
    }

    /// Top-level types and functions: a nested type is reached through its outer one.
    static func declarations(in code: String) -> [String] {
        let pattern = #"(?m)^(?:(?:public|package|internal|private|fileprivate|final|indirect)\s+)*(?:struct|class|enum|protocol|actor|typealias|func)\s+([A-Za-z_][A-Za-z0-9_]*)"#
        return matches(pattern, in: code)
    }

    /// The declared names `code` uses: a type by its name, a function by a call (`name(`, not a member `.name(`).
    static func uses(in code: String, of owner: [String: String]) -> Set<String> {
        var used = Set<String>()
        for name in matches(#"(?<![.\w])([A-Za-z_][A-Za-z0-9_]*)"#, in: code) where owner[name] != nil {
            let isType = name.first!.isUppercase
            if isType || code.range(of: #"(?<![.\w])\#(name)\s*\("#, options: .regularExpression) != nil { used.insert(name) }
        }
        return used
    }

    private static func matches(_ pattern: String, in text: String) -> [String] {
        let regex = try! NSRegularExpression(pattern: pattern)
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range(at: 1), in: text).map { String(text[$0]) }
        }
    }
}

@Test func noFolderUsesAFolderAboveItInTheFlow() throws {
    let check = LayerCheck(root: Repository.root, layers: layers)
    #expect(try check.unranked() == [], "every folder of Sources/UnpromptKit/ has its place in `layers`")
    let (violations, declaredTwice) = try check.violations()
    #expect(declaredTwice == [], "one name, one folder: \(declaredTwice)")
    #expect(violations == [], "against the flow:\n\(violations.map(\.description).joined(separator: "\n"))")
}

/// The check itself finds an edge against the flow, a use between two folders of one rank, and a folder the
/// table leaves out, and it does not count names in comments or strings.
@Test func theLayerCheckFindsAnEdgeAgainstTheFlow() throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("layers-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: root) }
    func write(_ path: String, _ text: String) throws {
        let full = root + "/Sources/" + path
        try FileManager.default.createDirectory(
            atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: full, atomically: true, encoding: .utf8)
    }
    try write("UnpromptKit/Low/Low.swift", "public struct Low {}\nfunc lowHelper() {}\n")
    try write("UnpromptKit/High/High.swift", "struct High { let low: Low }\nfunc highHelper() { lowHelper() }\n")
    try write("UnpromptKit/Side/Side.swift", "struct Side {}\n")
    try write("UnpromptKit/Extra/Extra.swift", "struct Extra {}\n")
    try write("UnpromptKit/Low/Uses.swift", "func f() -> High? { highHelper(); return nil }\n")
    // Named only in comments and strings, and as a member: no use.
    try write(
        "UnpromptKit/Low/Quiet.swift",
        #"""
        // Side, in a comment: "Side"
        /* Side, /* nested Side */ Side */
        let text = "Side in a string // \"Side\""
        let raw = #"Side "Side" Side"#
        let many = """
            Side
            """
        let member = y.highHelper()
        """#)
    try write("UnpromptKit/High/Sideways.swift", "let s: Side? = nil\n")
    try write("unprompt-scan/main.swift", "let low = Low()\n")
    let table = [("Low", 0), ("High", 1), ("Side", 1), ("CLI", 2)]
    let check = LayerCheck(root: root, layers: table)
    #expect(try check.unranked() == ["Extra"])
    let (violations, declaredTwice) = try check.violations()
    #expect(declaredTwice == [])
    #expect(Set(violations.map(\.description)) == [
        "Low/Uses.swift uses High, declared in High/", "Low/Uses.swift uses highHelper, declared in High/",
        "High/Sideways.swift uses Side, declared in Side/",
    ])
}
