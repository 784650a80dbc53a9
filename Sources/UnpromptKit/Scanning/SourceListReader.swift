import Foundation

/// Reads a source list (`SourceList`): the directories a tool names in its own JSON file, to be searched
/// with the source's glob as if each were a root.
///
/// - A list file that does not exist names nothing, silently, as a root that does not exist.
/// - A list that cannot be read, is larger than `maxBytes`, is not JSON, or names a directory with a value
///   that is not a string is reported (never with its path or content) and names nothing.
/// - `null` and absent values name nothing; an empty string too.
/// - A relative name is taken relative to the directory holding the list file.
enum SourceListReader {
    static let maxBytes = 16 << 20

    static func directories(_ list: SourceList, root: String) -> (directories: [String], problems: [DiscoveryProblem]) {
        let path = ([root] + list.file).joined(separator: "/")
        let bytes: [UInt8]
        switch read(path) {
        case .success(let contents?): bytes = contents
        case .success(nil): return ([], [])
        case .failure(let problem): return ([], [problem])
        }
        let parser = JSONParser()
        let document: JSONRef
        do {
            document = try bytes.withUnsafeBytes { buffer throws(JSONParseError) in try parser.parse(copying: buffer) }
        } catch {
            return ([], [DiscoveryProblem(reason: "a source list is not valid JSON: \(error)")])
        }
        var names: [String] = []
        var notText = false
        collect(list.paths.steps[...], from: document, parser, into: &names, notText: &notText)
        if notText { return ([], [DiscoveryProblem(reason: "a source list names a directory with a value that is not a string")]) }
        let base = ([root] + list.file.dropLast()).joined(separator: "/")
        return (names.filter { !$0.isEmpty }.map { $0.hasPrefix("/") ? $0 : base + "/" + $0 }, [])
    }

    /// Follows the list path: each step's field, then (between steps) every element of an array.
    private static func collect(
        _ steps: ArraySlice<FieldPath?>, from ref: JSONRef, _ parser: JSONParser, into names: inout [String],
        notText: inout Bool
    ) {
        guard let step = steps.first else { return }
        var value: JSONValue? = parser.value(of: ref)
        if let path = step { value = parser.value(at: RuleCompiler.pointer(path), in: ref) }
        let rest = steps.dropFirst()
        guard let value else { return }
        if rest.isEmpty {
            switch value {
            case .string(let text): names.append(String(decoding: text, as: UTF8.self))
            case .null: break
            default: notText = true
            }
            return
        }
        // A value that is not an array where the path expands one holds no names (like an absent field).
        guard case .array(let array) = value else { return }
        for element in parser.elements(of: array) {
            collect(rest, from: element, parser, into: &names, notText: &notText)
        }
    }

    /// The file's bytes; nil when it does not exist.
    private static func read(_ path: String) -> Result<[UInt8]?, DiscoveryProblem> {
        let fd = SystemPath.openForReading(path)
        guard fd >= 0 else {
            if errno == ENOENT || errno == ENOTDIR { return .success(nil) }
            return .failure(DiscoveryProblem(reason: "cannot read a source list: \(String(cString: strerror(errno)))"))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, SystemPath.isRegularFile(info) else {
            return .failure(DiscoveryProblem(reason: "cannot read a source list: not a regular file"))
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(DiscoveryProblem(reason: "cannot read a source list: \(String(cString: strerror(errno)))"))
            }
            if n == 0 { break }
            bytes += chunk[..<n]
            if bytes.count > maxBytes {
                return .failure(DiscoveryProblem(reason: "a source list is larger than \(maxBytes >> 20) MiB"))
            }
        }
        return .success(bytes)
    }
}
