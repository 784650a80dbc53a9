import Foundation

/// Where the reader catalog remembers the last set of descriptor files it found valid, so that the next load of
/// the very same files by the very same program checks nothing again, and a scan decodes a descriptor's rules only
/// for a file of it that changed: a rescan with nothing new decodes none of forty.
///
/// The key is a digest of the program's own file (device, inode, size, modification time: any build or install
/// changes it), the directories, and every file's name and bytes; one file written, added or removed, or another
/// program, and the catalog is loaded and checked whole, as without a cache. What is kept per descriptor is what a
/// scan needs before it decodes the rest: its id, name, identity space, derived window, where its sources start, and
/// its inputs' formats and sources (root templates, globs, list files, marks) as the descriptor writes them; no path
/// (a mark in another descriptor's file names that file by its place in the listing). Nothing read from a tool's
/// files is kept. A cache that cannot be read or written is no error: the files are then checked whole.
public struct ReaderCatalogCache: Sendable {
    public let file: CacheFile

    static let header = "unprompt-readers-cache 1"

    public init(_ file: CacheFile) {
        self.file = file
    }

    /// `readers.cache` in the `CacheDirectory`.
    public static func defaultPath(environment: [String: String], home: String) -> String {
        CacheDirectory.path(environment: environment, home: home) + "/readers.cache"
    }

    /// The key of a listing (nil for a directory that could not be listed) and the files' texts; nil when
    /// something could not be listed or read, which only a whole load reports.
    func key(directories: [String], listed: [String?], texts: [String: Result<String, DescriptorError>]) -> String? {
        var digest = ContentDigest()
        for part in [Self.header, file.program, String(directories.count)] + directories + [String(listed.count)] { digest.combine(part) }
        for path in listed {
            guard let path, case .success(let text)? = texts[path] else { return nil }
            digest.combine(path)
            digest.combine(text)
        }
        return digest.finalize()
    }

    /// What was remembered under `key`, one outline per listed file (`files`, by path); nil when it was not (or
    /// cannot be read).
    func outlines(key: String, files: [String]) -> [Outline]? {
        guard let data = file.read() else { return nil }
        var fields = FieldReader(bytes: Array(data), files: files)
        guard fields.next() == Self.header, fields.next() == key, let stored = fields.integer(), stored == files.count else { return nil }
        var outlines: [Outline] = []
        for _ in files {
            guard let outline = Outline(&fields) else { return nil }
            outlines.append(outline)
        }
        return fields.atEnd ? outlines : nil
    }

    /// Remembers `descriptors`, loaded and checked whole from `files`, which `key` names. A mark naming another
    /// descriptor's file (a block it declares) is kept as that file's place in `files`: the cache holds no path.
    func remember(_ descriptors: [Descriptor], key: String, files: [String]) {
        var fields = [Self.header, key, String(descriptors.count)]
        for descriptor in descriptors {
            guard let outline = Outline(descriptor).fields(files: files) else { return }
            fields += outline
        }
        var bytes: [UInt8] = []
        for field in fields {
            bytes += Array(String(field.utf8.count).utf8) + [UInt8(ascii: ":")] + Array(field.utf8) + [UInt8(ascii: "\n")]
        }
        file.write(bytes)
    }

    /// A descriptor as the cache keeps it.
    struct Outline {
        let id: String
        let name: String
        let identitySpace: String
        let derivedWindow: DerivedWindow?
        let starts: [SourceStart]
        /// Each input's format and its sources' fields, as written (`SourceFields`).
        let inputs: [(format: Format, sources: [SourceFields])]

        init(_ descriptor: Descriptor) {
            id = descriptor.id
            name = descriptor.name
            identitySpace = descriptor.identitySpace
            derivedWindow = descriptor.derivedWindow
            starts = descriptor.starts
            inputs = descriptor.layout.map { ($0.format, $0.sources.map(SourceFields.init)) }
        }

        init?(_ fields: inout FieldReader) {
            guard let id = fields.next(), let name = fields.next(), let identitySpace = fields.next(),
                let minutes = fields.integer(), let endedBy = fields.next(), let startCount = fields.integer()
            else { return nil }
            self.id = id
            self.name = name
            self.identitySpace = identitySpace
            derivedWindow = minutes == 0 ? nil : DerivedWindow(minutes: Int64(minutes), endedBy: endedBy.isEmpty ? nil : endedBy)
            var starts: [SourceStart] = []
            for _ in 0..<startCount {
                guard let root = fields.next(), let below = fields.next() else { return nil }
                starts.append(SourceStart(root: root, below: Self.segments(below)))
            }
            self.starts = starts
            var inputs: [(Format, [SourceFields])] = []
            guard let inputCount = fields.integer() else { return nil }
            for _ in 0..<inputCount {
                guard let format = fields.next().flatMap(Format.init(rawValue:)), let sourceCount = fields.integer() else { return nil }
                var sources: [SourceFields] = []
                for _ in 0..<sourceCount {
                    guard let source = SourceFields(&fields) else { return nil }
                    sources.append(source)
                }
                inputs.append((format, sources))
            }
            self.inputs = inputs
        }

        /// Window lengths start at one minute (`DerivedWindow.minutesRange`), so 0 stands for none; window names are
        /// never empty, nor are path segments, which hold no `/`. Nil when a mark names a file not in `files`.
        func fields(files: [String]) -> [String]? {
            var fields = [id, name, identitySpace, String(derivedWindow?.minutes ?? 0), derivedWindow?.endedBy ?? "", String(starts.count)]
            for start in starts { fields += [start.root, start.below.joined(separator: "/")] }
            fields.append(String(inputs.count))
            for input in inputs {
                fields += [input.format.rawValue, String(input.sources.count)]
                for source in input.sources {
                    guard let source = source.fields(files: files) else { return nil }
                    fields += source
                }
            }
            return fields
        }

        static func segments(_ text: String) -> [String] { text.split(separator: "/").map(String.init) }

        func descriptor(file: String, decode: @escaping @Sendable () -> DescriptorBody.Decoded) -> Descriptor {
            let inputs = inputs
            return Descriptor(
                id: id, name: name, identitySpace: identitySpace, derivedWindow: derivedWindow, file: file, starts: starts,
                body: DescriptorBody(
                    layOut: { inputs.map { InputLayout(format: $0.format, sources: $0.sources.map(\.spec)) } }, decode: decode))
        }
    }

    /// A source as the cache keeps it: its globs as written, parsed again only for a descriptor that may find files.
    struct SourceFields: Sendable {
        let root: String
        let glob: String
        let exclude: [String]
        let maxDepth: Int?
        let list: (file: [String], paths: String)?
        let mark: SourceMark

        init(_ spec: SourceSpec) {
            root = spec.root
            glob = spec.glob.text
            exclude = spec.exclude.map(\.text)
            maxDepth = spec.maxDepth
            list = spec.list.map { ($0.file, $0.paths.text) }
            mark = spec.mark
        }

        init?(_ fields: inout FieldReader) {
            guard let root = fields.next(), let glob = fields.next(), let excludeCount = fields.integer() else { return nil }
            var exclude: [String] = []
            for _ in 0..<excludeCount {
                guard let text = fields.next() else { return nil }
                exclude.append(text)
            }
            guard let maxDepth = fields.integer(), let listFile = fields.next(), let listPaths = fields.next(), let line = fields.integer(),
                let column = fields.integer(), let file = fields.integer(), (-1..<fields.files.count).contains(file)
            else { return nil }
            self.root = root
            self.glob = glob
            self.exclude = exclude
            self.maxDepth = maxDepth == 0 ? nil : maxDepth
            list = listFile.isEmpty ? nil : (Outline.segments(listFile), listPaths)
            mark = SourceMark(line: line, column: column, file: file < 0 ? nil : fields.files[file])
        }

        /// `max_depth` starts at 1 and a list file is never empty, so 0 and "" stand for none; a mark's file is its
        /// place in `files` (-1: the descriptor's own). Nil when it is not there.
        func fields(files: [String]) -> [String]? {
            var file = -1
            if let path = mark.file {
                guard let place = files.firstIndex(of: path) else { return nil }
                file = place
            }
            let list = [list?.file.joined(separator: "/") ?? "", list?.paths ?? ""]
            return [root, glob, String(exclude.count)] + exclude + [String(maxDepth ?? 0)] + list
                + [String(mark.line), String(mark.column), String(file)]
        }

        /// The source, its globs and list path parsed as when the descriptor was checked.
        var spec: SourceSpec {
            func parsed<T>(_ result: Result<T, FieldPathError>) -> T {
                guard case .success(let value) = result else { preconditionFailure("a glob or list path this program found valid") }
                return value
            }
            return SourceSpec(
                root: root, glob: parsed(Glob.parse(glob)), exclude: exclude.map { parsed(Glob.parse($0)) }, maxDepth: maxDepth,
                list: list.map { SourceList(file: $0.file, paths: parsed(ListPath.parse($0.paths))) }, mark: mark)
        }
    }

    /// Reads the fields the cache is written in: each its length in UTF-8 bytes, `:`, the bytes, and a line break.
    struct FieldReader {
        let bytes: [UInt8]
        /// The listed files, which marks name by their place.
        let files: [String]
        var position = 0

        var atEnd: Bool { position == bytes.count }

        mutating func next() -> String? {
            var length = 0
            let start = position
            while position < bytes.count, let digit = bytes[position].wholeNumberValue {
                guard length < 1 << 24 else { return nil }
                length = length * 10 + digit
                position += 1
            }
            guard position > start, position < bytes.count, bytes[position] == UInt8(ascii: ":"), position + 1 + length < bytes.count,
                bytes[position + 1 + length] == UInt8(ascii: "\n")
            else { return nil }
            let field = String(validating: bytes[(position + 1)..<(position + 1 + length)], as: UTF8.self)
            position += length + 2
            return field
        }

        mutating func integer() -> Int? { next().flatMap { Int($0) } }
    }
}

extension UInt8 {
    fileprivate var wholeNumberValue: Int? { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) ? Int(self - UInt8(ascii: "0")) : nil }
}
