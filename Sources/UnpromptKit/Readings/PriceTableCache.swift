import Foundation

/// Remembers that the price table's shipped files (the overlay and the bundled table) were found valid by this
/// program, so that a view, which prices a few models, need not check every row of them again (`PriceRows`). It
/// keeps one key, a digest of the program's stamp and the files' bytes (`CacheDirectory`): numbers only. Another
/// program, or one byte changed, and the table is checked whole again, as without a cache.
public struct PriceTableCache: Sendable {
    public let file: CacheFile

    static let header = "unprompt-prices-cache 1"

    public init(_ file: CacheFile) {
        self.file = file
    }

    func key(of files: [Data]) -> String {
        var digest = ContentDigest()
        digest.combine(Self.header)
        digest.combine(file.program)
        for data in files { data.withUnsafeBytes { digest.combine($0) } }
        return digest.finalize()
    }

    func knows(_ key: String) -> Bool {
        file.read() == Data(Self.text(key).utf8)
    }

    func remember(_ key: String) {
        file.write(Array(Self.text(key).utf8))
    }

    private static func text(_ key: String) -> String { header + "\n" + key + "\n" }
}
