import Foundation

/// A directory to watch and which of its entries matter: the start of one source's walk (its root plus
/// the glob's fixed prefix), pruned and filtered exactly as `SourceDiscovery` walks it.
public struct WatchTarget: Sendable {
    /// Where the walk starts. It may not exist yet.
    public let directory: String
    /// The path segments from the source's root to `directory`; the filters see root-relative paths.
    let prefix: [Substring]
    /// Whether a subdirectory (root-relative segments) can hold a source, so is worth watching.
    let descend: @Sendable ([Substring]) -> Bool
    /// Whether a file (root-relative segments) is a source, so a change to it is a change.
    let accept: @Sendable ([Substring]) -> Bool

    /// Everything below `directory`: every subdirectory, every file.
    public init(directory: String) {
        self.directory = directory
        prefix = []
        descend = { _ in true }
        accept = { _ in true }
    }

    /// The files one source spec names below one of its expanded roots. For a database (`writeAheadLog`), its
    /// `-wal` file too: a write often reaches only that file.
    public init(root: String, source: SourceSpec, writeAheadLog: Bool = false) {
        let prefix = source.glob.literalPrefix
        directory = ([DirectoryWalk.canonical(root)] + prefix).joined(separator: "/")
        self.prefix = prefix.map { Substring($0) }
        descend = source.mayHold(directory:)
        accept = { segments in
            var segments = segments
            if writeAheadLog, let last = segments.last, last.hasSuffix("-wal") { segments[segments.count - 1] = last.dropLast(4) }
            return source.names(file: segments)
        }
    }

    /// A source's list file (`SourceList`), below `root`: a change to it may name new directories.
    init(root: String, listFile: [String]) {
        let root = DirectoryWalk.canonical(root)
        let folder = listFile.dropLast()
        directory = ([root] + folder).joined(separator: "/")
        prefix = folder.map { Substring($0) }
        descend = { _ in false }
        accept = { segments in segments.elementsEqual(listFile) { $0 == $1 } }
    }

    /// Every place the descriptors' sources can be, in this environment (`rootOverride` as for `--root`).
    public static func targets(
        for descriptors: [Descriptor], environment: [String: String], home: String, rootOverride: String? = nil
    ) -> [WatchTarget] {
        var targets: [WatchTarget] = []
        var seen = Set<String>()
        for descriptor in descriptors {
            for input in descriptor.layout {
                for spec in input.sources {
                    let roots = rootOverride.map { [$0] } ?? RootTemplate.expand(spec.root, environment: environment, home: home)
                    for root in roots {
                        if let list = spec.list {
                            let target = WatchTarget(root: root, listFile: list.file)
                            if seen.insert(target.directory + "\u{0}" + list.file.joined(separator: "/")).inserted {
                                targets.append(target)
                            }
                        }
                        // Directories named by a list file are those it names now; one added later is found
                        // by the scan its change starts, and watched from the next start.
                        for directory in SourceDiscovery.searchRoots(spec, root: root).directories {
                            let target = WatchTarget(root: directory, source: spec, writeAheadLog: input.format.hasWriteAheadLog)
                            let key = [target.directory, spec.glob.text, spec.maxDepth.map(String.init) ?? "-", "\(input.format)"]
                                + spec.exclude.map(\.text)
                            if seen.insert(key.joined(separator: "\u{0}")).inserted { targets.append(target) }
                        }
                    }
                }
            }
        }
        return targets
    }
}

/// Waits until something changes under a set of directories, without spending CPU while nothing does.
///
/// **Linux** uses inotify: every directory of each target that can hold a source is watched (new ones
/// as they appear, in the same pass that reports them as a change, so a file written in a new
/// directory before its watch existed is still found by the scan that follows). A target that does
/// not exist yet is awaited by watching its nearest existing ancestor for the next missing component.
/// A full kernel queue (`IN_Q_OVERFLOW`) counts as a change and rebuilds the watches. When inotify is
/// unavailable or the per-user watch limit (`fs.inotify.max_user_watches`) is reached, the watcher
/// falls back to polling.
///
/// **macOS** (and the fallback) polls: every `pollInterval` seconds (2 s by default) it stats the files
/// the targets can hold (no file is opened) and reports a change when any path, inode, size, modification
/// or status-change time differs. kqueue/FSEvents are not used, since they could not be tested here.
///
/// Not seen by inotify, but seen by polling and by the caller's periodic rescan: a change to a file
/// reached through a symbolic link whose target lives outside the watched directories, and changes on
/// network file systems made by another machine.
///
/// Use one thread for `wait`; `stop()` may be called from any thread, and a signal handler may write one
/// byte to `stopDescriptor` (`write` is async-signal-safe). Once stopped, `wait` returns false at once.
public final class ChangeWatcher: Sendable {
    public enum Backend: Sendable, Equatable {
        case inotify
        case polling
    }

    /// How often the polling backend looks, in seconds.
    public static let defaultPollInterval = 2.0

    public let targets: [WatchTarget]
    public let pollInterval: Double
    /// Kept apart from `watching`, so it can be read while a `wait` is under way.
    private let currentBackend: Locked<Backend>
    public var backend: Backend { currentBackend.withLock { $0 } }
    /// The write end of the stop pipe: one byte written here stops the watcher.
    public let stopDescriptor: Int32
    private let stopReadDescriptor: Int32

    /// What `wait` works with, held for the whole of each wait (one waiter at a time).
    private struct Watching {
        /// Polling state: the stamp of every file the targets hold, by path.
        var snapshot: [String: FileStamp] = [:]
        #if os(Linux)
            var inotify: InotifyWatches?
        #endif
    }

    private let watching: Locked<Watching>

    #if os(Linux)
        /// How many directories inotify watches (for tests).
        var inotifyWatchCount: Int { watching.withLock { $0.inotify?.watchCount ?? 0 } }
    #endif

    /// Starts watching at once: changes made after this returns are reported by the next `wait`.
    public convenience init(directories: [String], pollInterval: Double = ChangeWatcher.defaultPollInterval, polling: Bool = false) {
        self.init(targets: directories.map { WatchTarget(directory: $0) }, pollInterval: pollInterval, polling: polling)
    }

    /// Starts watching at once: changes made after this returns are reported by the next `wait`.
    /// `polling` forces the polling backend (it is the only one on macOS).
    public convenience init(targets: [WatchTarget], pollInterval: Double = ChangeWatcher.defaultPollInterval, polling: Bool = false) {
        self.init(targets: targets, pollInterval: pollInterval, polling: polling, watchLimit: nil)
    }

    /// `watchLimit`, a test hook: behave as if the kernel refused more than this many watches (`ENOSPC`).
    init(targets: [WatchTarget], pollInterval: Double, polling: Bool, watchLimit: Int?) {
        self.targets = targets
        self.pollInterval = max(0.01, pollInterval)
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for fd in ends {
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            }
        }
        stopReadDescriptor = ends[0]
        stopDescriptor = ends[1]
        var watching = Watching()
        var backend = Backend.polling
        #if os(Linux)
            if !polling, let watches = InotifyWatches(targets: targets, limit: watchLimit) {
                watching.inotify = watches
                backend = .inotify
            }
        #endif
        if backend == .polling { watching.snapshot = Self.takeSnapshot(targets) }
        self.watching = Locked(watching)
        currentBackend = Locked(backend)
    }

    deinit {
        for fd in [stopReadDescriptor, stopDescriptor] where fd >= 0 { close(fd) }
    }

    /// Stops the watcher: the current and every later `wait` returns false.
    public func stop() {
        var byte: UInt8 = 1
        _ = write(stopDescriptor, &byte, 1)
    }

    /// Whether `stop()` was called (or a byte written to `stopDescriptor`).
    public var isStopped: Bool {
        var entry = pollfd(fd: stopReadDescriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) > 0 && entry.revents != 0
    }

    /// Blocks until something changed (true), or until `timeout` seconds passed or the watcher was
    /// stopped (false). nil waits without limit. Changes are coalesced: many events make one true.
    public func wait(timeout: Double? = nil) -> Bool {
        watching.withLock { watching in wait(timeout: timeout, &watching) }
    }

    private func wait(timeout: Double?, _ watching: inout Watching) -> Bool {
        let clock = ContinuousClock()
        let deadline = timeout.map { clock.now.advanced(by: .milliseconds(Int64(max(0, $0) * 1000))) }
        while true {
            if isStopped { return false }
            var remaining: Int32 = -1
            if let deadline {
                let left = clock.now.duration(to: deadline)
                remaining = left <= .zero ? 0 : Int32(min(Double(Int32.max), Self.milliseconds(left).rounded(.up)))
            }
            #if os(Linux)
                if let watches = watching.inotify {
                    switch watches.wait(stop: stopReadDescriptor, milliseconds: remaining) {
                    case .stopped: return false
                    case .changed: return true
                    case .nothing: break
                    case .failed:
                        // The watch limit was reached while adding a new directory, or inotify failed:
                        // poll from now on, and report a change so the caller rescans what was missed.
                        watching.inotify = nil
                        currentBackend.withLock { $0 = .polling }
                        watching.snapshot = Self.takeSnapshot(targets)
                        return true
                    }
                    if remaining == 0 { return false }
                    continue
                }
            #endif
            let step = remaining < 0 ? Int32(pollInterval * 1000) : min(remaining, Int32(pollInterval * 1000))
            var entry = pollfd(fd: stopReadDescriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, step)
            if ready > 0 { return false }
            let now = Self.takeSnapshot(targets)
            if now != watching.snapshot {
                watching.snapshot = now
                return true
            }
            if remaining == 0 || (remaining > 0 && step >= remaining) { return false }
        }
    }

    private static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }

    // MARK: Polling

    struct FileStamp: Equatable {
        let device: UInt64
        let inode: UInt64
        let size: Int64
        let modified: Int64
        let changed: Int64
    }

    /// Stats every file the targets can hold (walked as discovery walks them); opens none.
    static func takeSnapshot(_ targets: [WatchTarget]) -> [String: FileStamp] {
        var stamps: [String: FileStamp] = [:]
        for target in targets {
            var info = stat()
            guard SystemPath.stat(target.directory, &info), (info.st_mode & S_IFMT) == S_IFDIR else { continue }
            DirectoryWalk.walk(
                target.directory, relative: target.prefix, descend: target.descend,
                file: { file in
                    guard target.accept(file.segments), let info = file.status() else { return }
                    stamps[file.path] = FileStamp(
                        device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
                        modified: SystemPath.modifiedNanoseconds(info), changed: SystemPath.changedNanoseconds(info))
                })
        }
        return stamps
    }
}

#if os(Linux)
    /// The inotify backend: one watch per directory that can hold a source, plus one per missing target
    /// on its nearest existing ancestor.
    final class InotifyWatches {
        enum Outcome {
            case changed
            case nothing
            case stopped
            /// inotify cannot go on (watch limit reached, or an error): fall back to polling.
            case failed
        }

        /// What one watch descriptor stands for. Two targets may share a directory, hence a list per wd.
        private enum Role {
            /// A directory of target `target`, `relative` being its root-relative segments.
            case tree(target: Int, relative: [Substring], isStart: Bool)
            /// The nearest existing ancestor of target `target`'s missing start directory; `next` is the
            /// entry whose appearance (or disappearance) matters.
            case ancestor(target: Int, next: String)
        }

        private static let events = UInt32(
            IN_MODIFY | IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_CLOSE_WRITE | IN_ATTRIB
                | IN_DELETE_SELF | IN_MOVE_SELF)
        private static let excludeUnlinked = UInt32(IN_EXCL_UNLINK)
        private static let directoriesOnly = UInt32(IN_ONLYDIR)
        private static let noFollow = UInt32(IN_DONT_FOLLOW)

        private let targets: [WatchTarget]
        private let limit: Int?
        private var fd: Int32 = -1
        private var roles: [Int32: [Role]] = [:]
        private var buffer = [UInt8](repeating: 0, count: 64 * 1024)

        /// nil when inotify is unavailable or the watch limit is already reached.
        init?(targets: [WatchTarget], limit: Int?) {
            self.targets = targets
            self.limit = limit
            guard rebuild() else {
                // Reset, so deinit (which runs for a failed init of a class) cannot close the number
                // again after another file has been given it.
                if fd >= 0 { close(fd) }
                fd = -1
                return nil
            }
        }

        deinit {
            if fd >= 0 { close(fd) }
        }

        /// Drops every watch and adds them again from the current tree: after an overflow, or when a
        /// watched directory moved or a missing target's ancestor changed. False when inotify failed.
        private func rebuild() -> Bool {
            if fd >= 0 { close(fd) }
            roles = [:]
            fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
            guard fd >= 0 else { return false }
            for index in targets.indices {
                guard watch(target: index) else { return false }
            }
            return true
        }

        /// False only when the kernel refuses a watch for lack of resources.
        private func watch(target index: Int) -> Bool {
            let target = targets[index]
            var info = stat()
            if SystemPath.stat(target.directory, &info), (info.st_mode & S_IFMT) == S_IFDIR {
                return watchTree(index, target.directory, target.prefix, isStart: true)
            }
            // Missing (or not a directory): wait for it on the nearest ancestor that exists.
            var path = target.directory
            while true {
                let (parent, name) = Self.split(path)
                guard let parent else { return true }
                if SystemPath.stat(parent, &info), (info.st_mode & S_IFMT) == S_IFDIR {
                    switch add(parent, follow: true) {
                    case .added(let wd):
                        roles[wd, default: []].append(.ancestor(target: index, next: name))
                        return true
                    case .skipped: return true
                    case .exhausted: return false
                    }
                }
                path = parent
            }
        }

        /// Watches `directory` and every directory below it that can hold a source (walked as discovery walks
        /// them). False only when the kernel refuses a watch for lack of resources.
        private func watchTree(_ index: Int, _ directory: String, _ relative: [Substring], isStart: Bool) -> Bool {
            DirectoryWalk.walk(
                directory, relative: relative, descend: targets[index].descend,
                visit: { path, segments in
                    let isStart = isStart && path == directory
                    switch add(path, follow: isStart) {
                    case .exhausted: return .stop
                    case .skipped: return .skip
                    case .added(let wd):
                        roles[wd, default: []].append(.tree(target: index, relative: segments, isStart: isStart))
                        return .enter
                    }
                }, file: { _ in })
        }

        private enum Added {
            case added(Int32)
            /// Gone or not readable: discovery reports what it cannot list; nothing to watch.
            case skipped
            /// The watch limit, or memory: inotify cannot cover the targets.
            case exhausted
        }

        private func add(_ path: String, follow: Bool) -> Added {
            if let limit, roles.count >= limit { return .exhausted }
            let mask = Self.events | Self.excludeUnlinked | Self.directoriesOnly | (follow ? 0 : Self.noFollow)
            let wd = SystemPath.withCString(path) { inotify_add_watch(fd, $0, mask) }
            if wd >= 0 { return .added(wd) }
            return errno == ENOSPC || errno == ENOMEM ? .exhausted : .skipped
        }

        /// The parent directory and last component of a path; nil parent at the top.
        private static func split(_ path: String) -> (String?, String) {
            guard let slash = path.lastIndex(of: "/") else { return (path == "." ? nil : ".", path) }
            let name = String(path[path.index(after: slash)...])
            let parent = String(path[..<slash])
            if parent.isEmpty { return (name.isEmpty ? nil : "/", name) }
            return (parent, name)
        }

        func wait(stop: Int32, milliseconds: Int32) -> Outcome {
            var entries = [
                pollfd(fd: stop, events: Int16(POLLIN), revents: 0), pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&entries, nfds_t(entries.count), milliseconds)
            if ready < 0 { return errno == EINTR ? .nothing : .failed }
            if entries[0].revents != 0 { return .stopped }
            if entries[1].revents == 0 { return .nothing }
            return drain()
        }

        /// Reads every queued event and decides whether any of them is a change that matters.
        private func drain() -> Outcome {
            var changed = false
            var needsRebuild = false
            var newDirectories: [(target: Int, path: String, relative: [Substring])] = []
            // Bounded, so a writer faster than this loop cannot keep it from returning; what is left is
            // read by the next wait.
            for _ in 0..<64 {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
                if count < 0 {
                    if errno == EINTR { continue }
                    if errno == EAGAIN || errno == EWOULDBLOCK { break }
                    return .failed
                }
                if count == 0 { break }
                var offset = 0
                while offset + 16 <= count {
                    let (wd, mask, nameLength) = buffer.withUnsafeBytes { raw in
                        (
                            raw.loadUnaligned(fromByteOffset: offset, as: Int32.self),
                            raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
                            Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                        )
                    }
                    let name = nameLength == 0 ? "" : buffer.withUnsafeBytes { raw in
                        let bytes = raw[(offset + 16)..<(offset + 16 + nameLength)]
                        return SystemPath.string(UnsafeRawBufferPointer(rebasing: bytes.prefix { $0 != 0 }))
                    }
                    offset += 16 + nameLength
                    if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                        changed = true
                        needsRebuild = true
                        continue
                    }
                    guard let list = roles[wd] else { continue }
                    if mask & UInt32(IN_IGNORED) != 0 {
                        // The directory is gone (or its watch was dropped): forget it; if it was a target's
                        // start, wait for the target again on an ancestor.
                        roles[wd] = nil
                        if list.contains(where: { if case .tree(_, _, true) = $0 { true } else { false } }) {
                            changed = true
                            needsRebuild = true
                        }
                        continue
                    }
                    let isDirectory = mask & UInt32(IN_ISDIR) != 0
                    for role in list {
                        switch role {
                        case .ancestor(_, let next):
                            if name == next {
                                changed = true
                                needsRebuild = true
                            }
                        case .tree(let index, let relative, let isStart):
                            if mask & UInt32(IN_MOVE_SELF | IN_DELETE_SELF) != 0 {
                                // A watched directory moved: the paths kept for its subtree are stale.
                                changed = true
                                if isStart || mask & UInt32(IN_MOVE_SELF) != 0 { needsRebuild = true }
                                continue
                            }
                            guard !name.isEmpty else { continue }
                            let segments = relative + [Substring(name)]
                            if isDirectory {
                                guard targets[index].descend(segments) else { continue }
                                changed = true
                                if mask & UInt32(IN_MOVED_FROM) != 0 { needsRebuild = true }
                                if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
                                    newDirectories.append((index, Self.path(of: index, targets, segments), segments))
                                }
                            } else if targets[index].accept(segments) {
                                changed = true
                            }
                        }
                    }
                }
            }
            if needsRebuild {
                return rebuild() ? (changed ? .changed : .nothing) : .failed
            }
            for directory in newDirectories {
                guard watchTree(directory.target, directory.path, directory.relative, isStart: false) else { return .failed }
            }
            return changed ? .changed : .nothing
        }

        /// The path of a root-relative location inside target `index`.
        private static func path(of index: Int, _ targets: [WatchTarget], _ relative: [Substring]) -> String {
            let target = targets[index]
            return ([target.directory] + relative.dropFirst(target.prefix.count).map(String.init)).joined(separator: "/")
        }

        /// How many directories are watched (for tests).
        var watchCount: Int { roles.count }
    }
#endif
