import Foundation

/// One file found for a descriptor input.
public struct DiscoveredSource: Sendable {
    public let path: String
    /// What the stat taken while discovering it says, so a rescan needs no second one: four integers, since
    /// thousands of sources are found, kept and sorted (a whole stat is 144 bytes).
    let stamp: CheckpointStamp

    public var device: UInt64 { stamp.device }
    public var inode: UInt64 { stamp.inode }
    public var size: Int64 { stamp.size }
}

/// A directory that exists but could not be listed (or a root that could not be opened). Reported,
/// never silently treated as empty.
public struct DiscoveryProblem: Error, Sendable, Equatable {
    public let reason: String
}

/// Finds the files a descriptor input names: each root expanded, walked from the glob's fixed prefix, and
/// matched. A file reached twice (two roots, or a link) is listed once, by device and inode. Symbolic links
/// to files are followed; links to directories are not, so a walk cannot loop. A source with a `list`
/// walks each directory its list file names instead of the root (`SourceListReader`). A name the glob matches
/// that is no file (a FIFO, socket or device, a link that loops or leads nowhere) is never opened, and counted
/// in `leftOut` (`not-a-file`).
public struct SourceDiscovery: Sendable {
    public let environment: [String: String]
    public let home: String
    /// Replaces every source's root, for `--root DIR`.
    public let rootOverride: String?

    public init(environment: [String: String], home: String, rootOverride: String? = nil) {
        self.environment = environment
        self.home = home
        self.rootOverride = rootOverride
    }

    public func sources(for specs: [SourceSpec]) -> (sources: [DiscoveredSource], problems: [DiscoveryProblem], leftOut: Int) {
        var found: [DiscoveredSource] = []
        var problems: [DiscoveryProblem] = []
        var leftOut = 0
        var seen = Set<FileIdentity>()
        for spec in specs {
            let roots = rootOverride.map { [$0] } ?? RootTemplate.expand(spec.root, environment: environment, home: home)
            for root in roots {
                let (directories, listProblems) = Self.searchRoots(spec, root: root)
                problems += listProblems
                for directory in directories {
                    var walker = Walker(spec: spec, root: directory)
                    walker.walk()
                    problems += walker.problems
                    leftOut += walker.leftOut
                    for source in walker.found where seen.insert(FileIdentity(device: source.device, inode: source.inode)).inserted {
                        found.append(source)
                    }
                }
            }
        }
        found.sort { DirectoryWalk.bytesPrecede($0.path, $1.path) }
        return (found, problems, leftOut)
    }
}

extension SourceDiscovery {
    /// Whether the descriptor's sources may find a file, or something to report: false only when, for every root
    /// they expand to, where the walk would start (or the list file) is missing, which finds nothing and reports
    /// nothing (a root that does not exist is normal). Then the descriptor need not be decoded.
    public func mayFind(_ descriptor: Descriptor) -> Bool {
        if rootOverride != nil { return true }
        for start in descriptor.starts {
            for root in RootTemplate.expand(start.root, environment: environment, home: home) {
                var info = stat()
                let path = ([root] + start.below).joined(separator: "/")
                if SystemPath.stat(path, &info) || (errno != ENOENT && errno != ENOTDIR) { return true }
            }
        }
        return false
    }

    /// The directories a source's glob applies below, for one expanded root: the root itself, or the
    /// directories its list file names.
    static func searchRoots(_ spec: SourceSpec, root: String) -> (directories: [String], problems: [DiscoveryProblem]) {
        guard let list = spec.list else { return ([root], []) }
        return SourceListReader.directories(list, root: root)
    }
}

/// One source spec's walk below one root (`DirectoryWalk`), collecting the files it names.
private struct Walker {
    let spec: SourceSpec
    let root: String
    var found: [DiscoveredSource] = []
    var problems: [DiscoveryProblem] = []
    /// Names the glob matches that are no file.
    var leftOut = 0

    init(spec: SourceSpec, root: String) {
        self.spec = spec
        self.root = DirectoryWalk.canonical(root)
    }

    mutating func walk() {
        let prefix = spec.glob.literalPrefix
        let start = ([root] + prefix).joined(separator: "/")
        var info = stat()
        guard SystemPath.stat(start, &info) else {
            // A root that does not exist is normal (the tool is not installed); one we may not see is not.
            if errno != ENOENT && errno != ENOTDIR { problems.append(DiscoveryProblem(reason: "cannot open a root: \(String(cString: strerror(errno)))")) }
            return
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { return }
        let spec = spec
        DirectoryWalk.walk(
            start, relative: prefix.map { Substring($0) }, descend: spec.mayHold(directory:),
            file: { file in
                guard spec.names(file: file.segments), let info = file.status() else { return }
                found.append(DiscoveredSource(path: file.path, stamp: SourceFingerprint.stamp(info)))
            },
            other: { segments in if spec.names(file: segments) { leftOut += 1 } },
            unlisted: { error in
                if error != ENOENT {
                    problems.append(DiscoveryProblem(reason: "cannot list a directory: \(String(cString: strerror(error)))"))
                }
            })
    }
}

extension SourceDiscovery {
    /// Explicitly named files, each listed once even when named twice or through a link. A path that
    /// cannot be examined is kept, so reading it reports why.
    public static func distinct(_ paths: [String]) -> [String] {
        var seen = Set<FileIdentity>()
        return paths.filter { path in
            var info = stat()
            guard SystemPath.stat(path, &info) else { return true }
            return seen.insert(FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))).inserted
        }
    }
}

/// A file as the file system knows it, whatever path reaches it: a value, so telling thousands of sources apart
/// allocates nothing per source.
private struct FileIdentity: Hashable {
    let device: UInt64
    let inode: UInt64
}
