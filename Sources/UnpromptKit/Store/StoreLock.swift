import Foundation

/// One writer at a time per store: a second scan waits for the first to finish (it then finds little or
/// nothing new), and so does a second process creating the schema. Held with `flock` on a file beside the
/// store, released by the kernel if the holder dies.
final class StoreLock: Sendable {
    private let fd: Int32

    init(storePath: String) throws(StoreError) {
        fd = open(storePath + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw StoreError(message: "cannot open the store's lock file: \(String(cString: strerror(errno)))", busy: false)
        }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else {
                close(fd)
                throw StoreError(message: "cannot lock the store: \(String(cString: strerror(errno)))", busy: true)
            }
        }
    }

    func release() {
        flock(fd, LOCK_UN)
        close(fd)
    }
}
