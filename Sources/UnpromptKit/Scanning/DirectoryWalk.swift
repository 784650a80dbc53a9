import Foundation

/// The one walk of a directory tree, shared by discovery, the polling watcher and the inotify watcher, so all
/// three see the same files: entries in name order; symbolic links to files followed, links to directories not
/// (a walk cannot loop, and a loop of links is no file); only regular files, so a FIFO, socket or device is
/// never opened (each is given to `other`, as is a link that loops or leads nowhere); the entry type from `readdir`, so only links and unknown types cost a stat. Names are bytes
/// (`SystemPath`): one that is not UTF-8 is walked, matched and opened like any other.
enum DirectoryWalk {
    /// What to do with a directory the walk reaches.
    enum Visit {
        case enter
        /// Leave it and what is below it out.
        case skip
        /// End the whole walk.
        case stop
    }

    /// A file the walk reached, given while its directory is open: `status()` examines it by name in that
    /// directory, so no path is resolved again from the root for each file, and its path is spelled only when
    /// asked for.
    struct File {
        /// Its segments relative to its source's root.
        let segments: [Substring]
        fileprivate let directoryPath: String
        fileprivate let directory: Int32
        fileprivate let name: String

        var path: String { directoryPath + "/" + name }

        /// Its stat, through a link; nil when it is gone (or cannot be examined).
        func status() -> stat? {
            var info = stat()
            return SystemPath.withCString(name) { fstatat(directory, $0, &info, 0) } == 0 ? info : nil
        }
    }

    /// Walks `directory`, whose segments relative to its source's root are `relative`. `visit` is asked about
    /// `directory` and every directory below it that `descend` accepts, before their entries are read; `file`
    /// is given every file, and `other` every entry that is neither a file nor a directory nor a link to one.
    /// `unlisted` hears the `errno` of a directory that could not be listed. False when `visit` stopped the walk.
    ///
    /// Each directory is opened relative to its parent and stays open while its entries are walked (one
    /// descriptor per level). The segments given to the callbacks are one array, grown and shrunk as the walk
    /// goes, so an entry costs no array of its own.
    @discardableResult
    static func walk(
        _ directory: String, relative: [Substring], descend: ([Substring]) -> Bool,
        visit: (String, [Substring]) -> Visit = { _, _ in .enter }, file: (File) -> Void,
        other: ([Substring]) -> Void = { _ in }, unlisted: (Int32) -> Void = { _ in }
    ) -> Bool {
        var segments = relative
        return walk(
            directory, in: AT_FDCWD, named: directory, segments: &segments, descend: descend, visit: visit, file: file,
            other: other, unlisted: unlisted)
    }

    private static func walk(
        _ directory: String, in parent: Int32, named name: String, segments: inout [Substring],
        descend: ([Substring]) -> Bool, visit: (String, [Substring]) -> Visit, file: (File) -> Void,
        other: ([Substring]) -> Void, unlisted: (Int32) -> Void
    ) -> Bool {
        switch visit(directory, segments) {
        case .stop: return false
        case .skip: return true
        case .enter: break
        }
        guard let listing = Listing(name, in: parent) else {
            unlisted(errno)
            return true
        }
        defer { listing.close() }
        for (name, kind) in listing.entries {
            segments.append(Substring(name))
            defer { segments.removeLast() }
            switch kind {
            case .directory:
                guard descend(segments) else { continue }
                guard
                    walk(
                        directory + "/" + name, in: listing.descriptor, named: name, segments: &segments,
                        descend: descend, visit: visit, file: file, other: other, unlisted: unlisted)
                else { return false }
            case .file:
                file(File(segments: segments, directoryPath: directory, directory: listing.descriptor, name: name))
            case .other:
                other(segments)
            case .linkToDirectory:
                continue
            }
        }
        return true
    }

    private enum Kind {
        case directory
        case file
        /// A FIFO, socket or device, or a link that loops or leads nowhere (or to one of those).
        case other
        /// Never entered, so that a walk cannot loop.
        case linkToDirectory
    }

    /// A directory, open until `close()`, and its entries by name with what each is.
    private struct Listing {
        private let handle: OpaquePointer
        /// The open directory, to reach its entries by name.
        let descriptor: Int32
        let entries: [(name: String, kind: Kind)]

        /// Nil when the directory cannot be listed (`errno` says why).
        init?(_ name: String, in parent: Int32) {
            let descriptor = SystemPath.withCString(name) { openat(parent, $0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
            guard descriptor >= 0 else { return nil }
            guard let handle = fdopendir(descriptor) else {
                let error = errno
                Foundation.close(descriptor)
                errno = error
                return nil
            }
            var listed: [(name: String, type: UInt8)] = []
            while let entry = readdir(handle) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    SystemPath.string(UnsafeRawBufferPointer(rebasing: raw[..<(raw.firstIndex(of: 0) ?? raw.count)]))
                }
                if name != "." && name != ".." { listed.append((name, entry.pointee.d_type)) }
            }
            // Sorted, so that when two paths reach one file the same path is kept every time.
            listed.sort { bytesPrecede($0.name, $1.name) }
            self.handle = handle
            self.descriptor = descriptor
            self.entries = listed.compactMap { name, type in
                if type == UInt8(DT_DIR) { return (name, .directory) }
                if type == UInt8(DT_REG) { return (name, .file) }
                // A link, or a file system that does not report types: look.
                var info = stat()
                // Gone since it was listed: nothing to report.
                guard Self.status(name, in: descriptor, &info, follow: false) else { return nil }
                if info.st_mode & S_IFMT == S_IFLNK {
                    guard Self.status(name, in: descriptor, &info, follow: true) else { return (name, .other) }
                    if info.st_mode & S_IFMT == S_IFDIR { return (name, .linkToDirectory) }
                    return (name, SystemPath.isRegularFile(info) ? .file : .other)
                }
                switch info.st_mode & S_IFMT {
                case S_IFDIR: return (name, .directory)
                case S_IFREG: return (name, .file)
                default: return (name, .other)
                }
            }
        }

        /// Closes the directory (and its descriptor).
        func close() { closedir(handle) }

        private static func status(_ name: String, in directory: Int32, _ info: inout stat, follow: Bool) -> Bool {
            SystemPath.withCString(name) { fstatat(directory, $0, &info, follow ? 0 : AT_SYMLINK_NOFOLLOW) } == 0
        }
    }

    /// Whether `a`'s UTF-8 bytes sort before `b`'s, the order of every walk's names and of discovery's paths:
    /// `memcmp` on the strings' storage, so sorting thousands of long paths costs no per-byte iteration.
    static func bytesPrecede(_ a: String, _ b: String) -> Bool {
        let compared = a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y -> Bool in
                let common = min(x.count, y.count)
                if common > 0, case let order = memcmp(x.baseAddress!, y.baseAddress!, common), order != 0 { return order < 0 }
                return x.count < y.count
            }
        }
        return (compared ?? nil) ?? a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    /// A root as every walk of it spells it: canonical (`realpath`) when it exists, so a source's key (a hash of
    /// its path) never depends on how the root was written (relative, through a link, with a trailing slash).
    static func canonical(_ root: String) -> String {
        guard let resolved = SystemPath.withCString(root, { realpath($0, nil) }) else {
            return root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
        }
        defer { free(resolved) }
        return SystemPath.string(UnsafeRawBufferPointer(start: resolved, count: strlen(resolved)))
    }
}

extension SourceSpec {
    /// Whether a directory below the root (its segments) can hold a source, so is walked or watched. An excluded
    /// directory is not entered: nothing below it is a source, and a root such as `~` holds folders no one
    /// should walk (or may list).
    func mayHold(directory segments: [Substring]) -> Bool {
        if let maxDepth, segments.count > maxDepth { return false }
        if exclude.contains(where: { $0.matches(segments) }) { return false }
        return glob.mayDescend(into: segments)
    }

    /// Whether a file below the root (its segments) is a source.
    func names(file segments: [Substring]) -> Bool {
        glob.matches(segments) && !exclude.contains { $0.matches(segments) }
    }
}
