import Foundation

/// Where Unprompt keeps what it can make again from files it reads (`ReaderCatalogCache`, `PriceTableCache`): never a
/// number of the store, and deleted at no cost (the next command checks its files whole, and writes it again).
package enum CacheDirectory {
    /// `${XDG_CACHE_HOME:-~/.cache}/unprompt` on Linux, `~/Library/Caches/Unprompt` on macOS.
    package static func path(environment: [String: String], home: String) -> String {
        UserDirectory.cache.path(environment: environment, home: home)
    }

    /// What tells the running program apart from every other build of it: its file's device, inode, size and
    /// modification time. Nil when its file cannot be found: nothing is then remembered.
    package static let program: String? = {
        #if os(Linux)
            // The link itself, not the path it names (as `BuiltInData` needs): stat through it sees the running
            // image, even once an upgrade has put another file at that path.
            let executable: String? = "/proc/self/exe"
        #else
            let executable = Bundle.main.executablePath
        #endif
        var info = stat()
        guard let executable, stat(executable, &info) == 0 else { return nil }
        return "\(info.st_dev):\(info.st_ino):\(info.st_size):\(SystemPath.modifiedNanoseconds(info))"
    }()

}

/// One file of the `CacheDirectory`, as one build of the program keeps it: what it remembers holds for that build only.
public struct CacheFile: Sendable {
    public let path: String
    /// What tells the program that keeps it apart from every other build (`CacheDirectory.program`).
    public let program: String

    public init(path: String, program: String) {
        self.path = path
        self.program = program
    }

    /// The file at `path` of the running program; nil when the program's own file cannot be found.
    public static func forThisProgram(path: String) -> CacheFile? {
        CacheDirectory.program.map { CacheFile(path: path, program: $0) }
    }

    func read() -> Data? { FileManager.default.contents(atPath: path) }

    /// Writes `bytes` through a file of its own moved into place, so a reader never sees half of it. The cache's
    /// folder, and the one holding it (`~/.cache`), are made when missing; the home is never made. A failure leaves
    /// what was there.
    func write(_ bytes: [UInt8]) {
        let directory = (path as NSString).deletingLastPathComponent
        mkdir((directory as NSString).deletingLastPathComponent, 0o755)
        mkdir(directory, 0o755)
        let temporary = path + ".\(getpid()).tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(bytes)) else { return }
        if rename(temporary, path) != 0 { unlink(temporary) }
    }
}
