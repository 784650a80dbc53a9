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

    /// Walks `directory`, whose segments relative to its source's root are `relative`. `visit` is asked about
    /// `directory` and every directory below it that `descend` accepts, before their entries are read; `file`
    /// is given every file, and `other` every entry that is neither a file nor a directory nor a link to one.
    /// `unlisted` hears the `errno` of a directory that could not be listed. False when `visit` stopped the walk.
    @discardableResult
    static func walk(
        _ directory: String, relative: [Substring], descend: ([Substring]) -> Bool,
        visit: (String, [Substring]) -> Visit = { _, _ in .enter }, file: (String, [Substring]) -> Void,
        other: ([Substring]) -> Void = { _ in }, unlisted: (Int32) -> Void = { _ in }
    ) -> Bool {
        switch visit(directory, relative) {
        case .stop: return false
        case .skip: return true
        case .enter: break
        }
        guard let entries = entries(of: directory) else {
            unlisted(errno)
            return true
        }
        for (name, kind) in entries {
            let path = directory + "/" + name
            let segments = relative + [Substring(name)]
            switch kind {
            case .directory:
                guard descend(segments) else { continue }
                guard
                    walk(
                        path, relative: segments, descend: descend, visit: visit, file: file, other: other,
                        unlisted: unlisted)
                else { return false }
            case .file:
                file(path, segments)
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

    /// A directory's entries by name, with what each is; nil when it cannot be listed (`errno` says why).
    private static func entries(of directory: String) -> [(name: String, kind: Kind)]? {
        guard let handle = SystemPath.withCString(directory, { opendir($0) }) else { return nil }
        var listed: [(name: String, type: UInt8)] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                SystemPath.string(UnsafeRawBufferPointer(rebasing: raw[..<(raw.firstIndex(of: 0) ?? raw.count)]))
            }
            if name != "." && name != ".." { listed.append((name, entry.pointee.d_type)) }
        }
        closedir(handle)
        // Sorted, so that when two paths reach one file the same path is kept every time.
        listed.sort { bytesPrecede($0.name, $1.name) }
        return listed.compactMap { name, type in
            if type == UInt8(DT_DIR) { return (name, .directory) }
            if type == UInt8(DT_REG) { return (name, .file) }
            // A link, or a file system that does not report types: look.
            var info = stat()
            let path = directory + "/" + name
            // Gone since it was listed: nothing to report.
            guard SystemPath.lstat(path, &info) else { return nil }
            if info.st_mode & S_IFMT == S_IFLNK {
                guard SystemPath.stat(path, &info) else { return (name, .other) }
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
