import Foundation

/// The sync folder's files, as a sync engine leaves them: each device's export `unprompt-<id>.export`, the
/// copies an engine makes when two versions meet, and files still being written.
///
/// - Conflict copies keep the device id and the `.export` ending: Syncthing's
///   `unprompt-<id>.sync-conflict-20260105-120000-ABCDEFG.export`, Dropbox's
///   `unprompt-<id> (laptop's conflicted copy 2026-01-05).export`, iCloud Drive's `unprompt-<id> 2.export`, or any
///   other decoration after the id. Each is read like the export itself: the newest complete one of a device
///   wins, by the sequence number inside.
/// - Partial files are never read: names starting with a dot (Syncthing's `.syncthing.….tmp`, iCloud Drive's
///   `.….icloud` placeholders of files not downloaded yet, this program's own temporary files) and names ending
///   in `.tmp`, `.part`, `.partial`, `.download`, `.crdownload`, `.icloud` or `~`.
/// - Anything else is not ours and is left alone.
public enum SyncFolder: Sendable {
    public enum Kind: Sendable, Equatable {
        case export
        /// A copy a sync engine made of the export (a conflict, a duplicate).
        case copy
        /// Being written, or not downloaded yet.
        case partial
    }

    /// A file of the folder that is ours.
    public struct Entry: Sendable, Equatable {
        public let name: String
        /// The device id in the name (the document's own id is what counts).
        public let device: String?
        public let kind: Kind
    }

    static let prefix = "unprompt-"
    static let suffix = ".export"
    static let partialEndings = [".tmp", ".part", ".partial", ".download", ".crdownload", ".icloud", "~"]

    /// The export's name of `device`.
    public static func fileName(device: String) -> String { prefix + device + suffix }

    /// The temporary name an export is written under before it is renamed into place.
    static func temporaryName(device: String) -> String { "." + prefix + device + suffix + ".\(getpid()).tmp" }

    /// What `name` is, or nil when the file is not ours.
    public static func classify(_ name: String) -> Entry? {
        guard name.contains(prefix) else { return nil }
        if name.hasPrefix(".") || partialEndings.contains(where: name.hasSuffix) {
            return Entry(name: name, device: device(in: name), kind: .partial)
        }
        guard name.hasPrefix(prefix), name.hasSuffix(suffix), let device = device(in: name) else { return nil }
        let decoration = name.dropFirst(prefix.count + device.count).dropLast(suffix.count)
        return Entry(name: name, device: device, kind: decoration.isEmpty ? .export : .copy)
    }

    /// The device id that follows `unprompt-` in `name`.
    private static func device(in name: String) -> String? {
        guard let range = name.range(of: prefix) else { return nil }
        let id = String(name[range.upperBound...].prefix(32))
        return SyncExport.isDeviceID(id) ? id : nil
    }

    /// Our files in `directory`, by name.
    static func entries(of directory: String) throws(SyncError) -> [Entry] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw SyncError(message: "the sync folder cannot be listed (\(SyncError.reason(error)))")
        }
        return names.sorted().compactMap(classify)
    }

    /// Writes `data` as `name` in `directory` whole: a temporary file, flushed to disk, renamed over the old one,
    /// and the folder flushed, so a reader (another device, a sync engine) sees the old file or the new one,
    /// never a part.
    static func write(_ data: Data, to directory: String, name: String, temporary: String) throws(SyncError) {
        let path = directory + "/" + temporary
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw SyncError(message: "the export cannot be written in the sync folder (\(SyncError.errno()))") }
        let written = data.withUnsafeBytes { raw -> Bool in
            var offset = 0
            while offset < raw.count {
                let count = Foundation.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += count
            }
            return true
        }
        let problem = !written ? SyncError.errno() : fsync(fd) != 0 ? SyncError.errno() : nil
        close(fd)
        if let problem {
            unlink(path)
            throw SyncError(message: "the export cannot be written in the sync folder (\(problem))")
        }
        guard rename(path, directory + "/" + name) == 0 else {
            let problem = SyncError.errno()
            unlink(path)
            throw SyncError(message: "the export cannot be renamed into place in the sync folder (\(problem))")
        }
        let folder = open(directory, O_RDONLY | O_CLOEXEC)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
    }
}

/// The sync folder cannot be used (missing, not listable, not writable).
public struct SyncError: Error, Sendable {
    public let message: String

    static func errno() -> String { String(cString: strerror(Foundation.errno)) }

    public static func reason(_ error: any Error) -> String {
        if let posix = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError, posix.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(posix.code)))
        }
        return (error as NSError).localizedFailureReason ?? "cannot be read"
    }
}
