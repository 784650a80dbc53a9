import Foundation

/// Turns a descriptor file into a checked `Descriptor`, or says exactly where and why it cannot.
///
/// Unknown keys, wrong types, missing keys, duplicate keys, bad globs, bad field paths and bad patterns are
/// all errors at `file:line:col`. Nothing is defaulted silently: every key, with its default, is declared once in
/// `DescriptorKeys` (from which CONTRIBUTING.md's reference is generated), and every choice that changes a count
/// (counting rules, which copy to keep) is required.
public enum DescriptorLoader: Sendable {
    /// Loads a descriptor file, whose name must be its id: `readers/codex.yaml` declares `id: codex`. Blocks of
    /// other descriptors (`use: OTHER-ID.NAME`) are looked for beside it, then in `directories`.
    public static func load(path: String, directories: [String] = []) throws(DescriptorError) -> Descriptor {
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        let beside = URL(fileURLWithPath: path).deletingLastPathComponent().path
        return try load(text: try readText(path), file: path, expectedID: name, directories: [beside] + directories)
    }

    public static func load(text: String, file: String, expectedID: String? = nil, directories: [String] = [])
        throws(DescriptorError) -> Descriptor
    {
        try load(text: text, file: file, expectedID: expectedID, directories: directories, log: nil)
    }

    static func load(
        text: String, file: String, expectedID: String?, directories: [String] = [], log: KeyReadLog?,
        files: DescriptorFiles = .disk
    ) throws(DescriptorError) -> Descriptor {
        let root = try YAMLLoader.load(text, file: file)
        let blocks = try DescriptorBlocks(root: root, file: file, directories: directories, files: files)
        return try DescriptorDecoder(file: file, expectedID: expectedID, log: log, blocks: blocks).descriptor(root)
    }

    /// The status line a descriptor's text declares (`StatusLineRule`), nil when it declares none: decoded only as
    /// far as its `schema`, `id` and `status_line` (`StatusLinePayload.readers` finds them, for a command that
    /// runs each time a line is drawn; every other command loads and checks the descriptors whole). An invalid
    /// one is an error at `file:line:col`, as it is for every other command.
    public static func statusLine(text: String, file: String, expectedID: String?) throws(DescriptorError) -> StatusLineReader? {
        let root = try YAMLLoader.load(text, file: file)
        let blocks = try DescriptorBlocks(root: root, file: file, directories: [], files: .disk)
        return try DescriptorDecoder(file: file, expectedID: expectedID, log: nil, blocks: blocks).statusLine(root)
    }

    /// The text of a descriptor or settings file, or an error at its start that says why not: a missing file,
    /// a directory, a file that cannot be read, or bytes that are not UTF-8 are four different mistakes.
    static func readText(_ path: String) throws(DescriptorError) -> String {
        func failure(_ message: String) -> DescriptorError {
            DescriptorError(file: path, mark: SourceMark(line: 1, column: 1), message: message)
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw failure("no such file") }
        guard !isDirectory.boolValue else { throw failure("a directory, not a file") }
        guard let data = FileManager.default.contents(atPath: path) else { throw failure("the file cannot be read") }
        guard let text = String(validating: data, as: UTF8.self) else { throw failure("the file is not UTF-8 text") }
        return text
    }
}

/// Where a load reads the descriptors whose blocks it uses (`use: OTHER-ID.NAME`): the disk, or the texts the
/// reader catalog read once, so that a descriptor decoded later reads exactly what was checked.
struct DescriptorFiles: Sendable {
    /// The text of the file at `path`; nil when there is none.
    let text: @Sendable (String) throws(DescriptorError) -> String?

    static let disk = DescriptorFiles { path throws(DescriptorError) in
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try DescriptorLoader.readText(path)
    }
}

/// The decoding itself, one function per section of the language, spread over `DescriptorLoader+*.swift` by
/// subject: sources and formats, records, counting and identity, values and conditions, limits.
struct DescriptorDecoder {
    let file: String
    let expectedID: String?
    let log: KeyReadLog?
    let blocks: DescriptorBlocks
    /// The descriptor's protobuf messages, read before its inputs, whose queries name them.
    var messages: [String: ProtobufMessage] = [:]
    /// Where each value reading `@index` was decoded, in order.
    let elementIndexUses = ElementIndexUses()

    func reader(_ node: YAMLNode, _ section: KeySection, context: String? = nil) throws(DescriptorError) -> MappingReader {
        try MappingReader(node, file: file, section: section, context: context, log: log, blocks: blocks)
    }

    /// The schema this version reads, and the id (which must be the file's name when one is expected).
    func checkedID(_ map: MappingReader) throws(DescriptorError) -> String {
        let schemaNode = try map.required("schema")
        let schema = try map.integer(schemaNode, "schema", range: 1...1_000)
        guard schema == Descriptor.schemaVersion else {
            throw map.error(schemaNode, "schema \(schema) is not supported; this version reads schema \(Descriptor.schemaVersion)")
        }
        let idNode = try map.required("id")
        let id = try identifier(idNode, map, "id")
        if let expectedID, expectedID != id {
            throw map.error(idNode, "id '\(id)' must match the file name '\(expectedID).yaml'")
        }
        return id
    }

    func descriptor(_ node: YAMLNode) throws(DescriptorError) -> Descriptor {
        let map = try reader(node, DescriptorKeys.descriptor)
        let id = try checkedID(map)
        let name = try map.string(try map.required("name"), "name")
        // Read by `DescriptorBlocks` before any mapping, since any mapping may use them.
        _ = map.optional("blocks")
        let space = try map.optional("identity_space") { (n) throws(DescriptorError) in try identifier(n, map, "identity_space") } ?? id
        let inputsNode = try map.required("inputs")
        let inputNodes = try map.list(inputsNode, "inputs")
        if inputNodes.isEmpty { throw map.error(inputsNode, "inputs must list at least one input") }
        var decoder = self
        decoder.messages = try map.optional("messages") { (n) throws(DescriptorError) in try protobufMessages(n, map) } ?? [:]
        var inputs: [Input] = []
        for item in inputNodes { inputs.append(try decoder.input(item)) }
        let windows = inputs.flatMap { $0.limits.flatMap { $0.windows.flatMap { [$0.name] + $0.namesByMinutes.values.sorted() } } }
        let derived = try map.optional("derived_window") { (n) throws(DescriptorError) in
            try DerivedWindow.decode(n, file: file, limitWindows: windows, log: log)
        }
        let statusLine = try map.optional("status_line") { (n) throws(DescriptorError) in try statusLineRule(n) }
        return Descriptor(
            id: id, name: name, identitySpace: space, inputs: inputs, derivedWindow: derived, statusLine: statusLine, file: file)
    }

    /// The descriptor's status line only: its schema and id are checked, its other sections are not read.
    func statusLine(_ node: YAMLNode) throws(DescriptorError) -> StatusLineReader? {
        let map = try reader(node, DescriptorKeys.descriptor)
        let id = try checkedID(map)
        guard let lineNode = map.optional("status_line") else { return nil }
        return StatusLineReader(tool: id, rule: try statusLineRule(lineNode), file: file)
    }

    func statusLineRule(_ node: YAMLNode) throws(DescriptorError) -> StatusLineRule {
        let rule = try reader(node, DescriptorKeys.statusLine)
        return StatusLineRule(windows: try limitWindows(try rule.required("windows"), rule))
    }

    func identifier(_ node: YAMLNode, _ map: MappingReader, _ what: String) throws(DescriptorError) -> String {
        let text = try map.string(node, what)
        guard Names.isIdentifier(text) else {
            throw map.error(node, "\(what) must be lowercase letters, digits and '-', starting with a letter")
        }
        return text
    }

    func placeError(_ node: YAMLNode, _ message: String) -> DescriptorError {
        DescriptorError(file: file, mark: node.mark, message: message)
    }
}

/// The three kinds of name a descriptor writes: ids and reason names (`-`), value and window names (`_`).
enum Names {
    /// Lowercase ASCII letters, digits and `-`, starting with a letter, at most 64 characters: ids, record names.
    static func isIdentifier(_ text: String) -> Bool { isName(text, joiner: "-") }
    /// The same with `_`: carried values, window names.
    static func isVariable(_ text: String) -> Bool { isName(text, joiner: "_") }

    private static func isName(_ text: String, joiner: Character) -> Bool {
        guard let first = text.first, first.isLetter, text.count <= 64 else { return false }
        return text.allSatisfy { ($0.isASCII && ($0.isLowercase || $0.isNumber)) || $0 == joiner }
    }
}

/// The marks of the values that read `@index`, noted as they are decoded: a record checks its own without walking
/// its rule again (a walk by reflection cost most of the descriptors' loading time).
final class ElementIndexUses {
    var marks: [SourceMark] = []
}
