import Foundation

/// Remembers that the price table's shipped files (the overlay and the bundled table) were found valid by this
/// program, so that a view, which prices a few models, need not check every row of them again (`PriceRows`). It
/// keeps one key, a digest of the program's stamp and the files' bytes (`CacheDirectory`): numbers only. Another
/// program, or one byte changed, and the table is checked whole again, as without a cache.
public struct PriceTableCache: Sendable {
    public let path: String
    let program: String

    static let header = "unprompt-prices-cache 1"

    public init(path: String, program: String) {
        self.path = path
        self.program = program
    }

    /// The cache of the running program, `prices.cache` in `directory`; nil when the program's file cannot be found.
    public static func forThisProgram(directory: String) -> PriceTableCache? {
        CacheDirectory.program.map { PriceTableCache(path: directory + "/prices.cache", program: $0) }
    }

    func key(of files: [Data]) -> String {
        var digest = ContentDigest()
        digest.combine(Self.header)
        digest.combine(program)
        for data in files { data.withUnsafeBytes { digest.combine($0) } }
        return digest.finalize()
    }

    func knows(_ key: String) -> Bool {
        FileManager.default.contents(atPath: path) == Data(Self.text(key).utf8)
    }

    func remember(_ key: String) {
        CacheDirectory.write(Array(Self.text(key).utf8), to: path)
    }

    private static func text(_ key: String) -> String { header + "\n" + key + "\n" }
}
