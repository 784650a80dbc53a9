import Foundation

/// What is true of the folder a store lives in, for errors that say so: a store that cannot be opened or written
/// because its folder is read-only, or its disk is full, is not reported as damaged.
enum StoreDirectory {
    /// Why nothing can be written beside the store (its `-wal`, `-shm` and `.lock`), or nil when something can.
    static func cannotWrite(storePath: String) -> String? {
        let directory = (storePath as NSString).deletingLastPathComponent
        let folder = directory.isEmpty ? "." : directory
        var info = statvfs()
        if statvfs(folder, &info) == 0 {
            if info.f_flag & UInt(ST_RDONLY) != 0 { return "cannot write the store's directory (read-only file system)" }
            if info.f_bavail == 0 { return "cannot write the store: disk full" }
        }
        if access(folder, W_OK) != 0, errno == EACCES || errno == EROFS {
            return "cannot write the store's directory (read-only: \(String(cString: strerror(errno))))"
        }
        return nil
    }

    /// Whether a read-only open may read the file alone (`immutable`): its folder cannot take the `-shm` a WAL
    /// store's reader needs, and there is no write-ahead log whose rows the file would lack.
    static func readableAsImmutable(storePath: String) -> Bool {
        guard cannotWrite(storePath: storePath) != nil else { return false }
        var info = stat()
        return stat(storePath + "-wal", &info) != 0 || info.st_size == 0
    }
}
