import Foundation

/// Named blocks: parts of mappings written once and used in several places, in the same descriptor or in another.
///
/// A descriptor declares them at its top level, `blocks: { NAME: { key: value, … } }`. Any mapping whose keys
/// the reference lists (a record, an input, `tokens`, `identity`, …) may then say `use: NAME` (or a list of
/// names): the block's keys are read as if written there, in its place. `use: OTHER-ID.NAME` takes a block of the
/// descriptor `readers/OTHER-ID.yaml`, found beside the descriptor (then in the other readers directories). A key
/// given both in the mapping and by a block, or by two blocks, is an error: nothing is overridden silently. A
/// block may use other blocks (an unqualified name there is a block of its own file). Every mark keeps the file
/// and place the key is written at, so an error in a block points into the block.
final class DescriptorBlocks {
    private struct Catalog {
        let file: String
        let blocks: [String: YAMLEntry]
    }

    /// Where `OTHER-ID.yaml` is looked for, in order.
    private let directories: [String]
    private let files: DescriptorFiles
    private let own: Catalog
    private var others: [String: Catalog] = [:]

    /// The blocks of the descriptor whose top level is `root` (none when it declares none).
    init(root: YAMLNode, file: String, directories: [String], files: DescriptorFiles) throws(DescriptorError) {
        self.directories = directories
        self.files = files
        own = try Self.catalog(of: root, file: file)
    }

    /// The entries of the blocks `use` names, each block's own `use` expanded, in order.
    func entries(usedBy use: YAMLEntry, chain: [String] = []) throws(DescriptorError) -> [YAMLEntry] {
        let names: [YAMLNode]
        switch use.value.kind {
        case .scalar: names = [use.value]
        case .sequence(let items) where !items.isEmpty: names = items
        default: throw error(use.value, "use takes a block name or a list of them (use: NAME, use: OTHER-ID.NAME)")
        }
        var result: [YAMLEntry] = []
        for nameNode in names {
            guard case .scalar(let reference, _) = nameNode.kind else {
                throw error(nameNode, "use takes a block name or a list of them (use: NAME, use: OTHER-ID.NAME)")
            }
            let (catalog, name) = try resolve(reference, at: nameNode)
            guard let block = catalog.blocks[name] else {
                let known = catalog.blocks.keys.sorted()
                let from = catalog.file == own.file ? "this descriptor" : catalog.file
                throw error(
                    nameNode,
                    "no block named '\(name)' in \(from)" + (known.isEmpty ? "; it declares none" : "; its blocks: " + known.joined(separator: ", ")))
            }
            let qualified = catalog.file + ":" + name
            if chain.contains(qualified) {
                throw error(nameNode, "block '\(reference)' uses itself (through \(chain.count) block\(chain.count == 1 ? "" : "s"))")
            }
            guard case .mapping(let entries) = block.value.kind else {
                throw error(block.value, "a block must be a mapping of keys")
            }
            for entry in entries {
                if entry.key == "use" {
                    result += try self.entries(usedBy: entry, chain: chain + [qualified])
                } else {
                    result.append(entry)
                }
            }
        }
        return result
    }

    /// The catalog a reference names (`NAME` in the file the reference is written in, `OTHER-ID.NAME`), and the name.
    private func resolve(_ reference: String, at node: YAMLNode) throws(DescriptorError) -> (Catalog, String) {
        let parts = reference.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard (parts.count == 1 || parts.count == 2), parts.allSatisfy(Names.isIdentifier) else {
            throw error(node, "'\(reference)' is not a block name: NAME or OTHER-ID.NAME, in lowercase letters, digits and '-'")
        }
        if parts.count == 1 {
            let file = node.mark.file ?? own.file
            if file == own.file { return (own, parts[0]) }
            guard let catalog = others.values.first(where: { $0.file == file }) else { return (own, parts[0]) }
            return (catalog, parts[0])
        }
        return (try other(parts[0], at: node), parts[1])
    }

    /// The blocks of `readers/<id>.yaml`, loaded once.
    private func other(_ id: String, at node: YAMLNode) throws(DescriptorError) -> Catalog {
        if let catalog = others[id] { return catalog }
        var found: (path: String, text: String)?
        for path in directories.map({ $0 + "/" + id + ".yaml" }) {
            if let text = try files.text(path) {
                found = (path, text)
                break
            }
        }
        guard let (path, text) = found else {
            throw error(node, "no descriptor '\(id).yaml' to take blocks from (looked in: \(directories.joined(separator: ", ")))")
        }
        if path == own.file { return own }
        let root = try YAMLLoader.load(text, file: path, markingFile: true)
        let catalog = try Self.catalog(of: root, file: path)
        others[id] = catalog
        return catalog
    }

    private static func catalog(of root: YAMLNode, file: String) throws(DescriptorError) -> Catalog {
        guard case .mapping(let top) = root.kind, let declared = top.first(where: { $0.key == "blocks" }) else {
            return Catalog(file: file, blocks: [:])
        }
        guard case .mapping(let entries) = declared.value.kind, !entries.isEmpty else {
            throw DescriptorError(file: file, mark: declared.value.mark, message: "blocks must map block names to mappings")
        }
        var blocks: [String: YAMLEntry] = [:]
        for entry in entries {
            guard Names.isIdentifier(entry.key) else {
                throw DescriptorError(
                    file: file, mark: entry.keyMark, message: "'\(entry.key)' is not a block name: use lowercase letters, digits and '-'")
            }
            blocks[entry.key] = entry
        }
        return Catalog(file: file, blocks: blocks)
    }

    private func error(_ node: YAMLNode, _ message: String) -> DescriptorError {
        DescriptorError(file: own.file, mark: node.mark, message: message)
    }
}
