/// The one document a patch journal's lines rebuild (`JournalRules`), patch by patch, as the tool's own reader
/// does it, and refusing what that reader would have to guess at.
///
/// - Values stay the JSON text they were written as until a patch reaches inside them: only the containers a
///   path walks through are opened, so memory stays near the size of the journal itself.
/// - A patch that cannot be applied (its path does not resolve, its value is not what the operation takes, its
///   operation is unknown) changes nothing and marks as damaged the deepest node its path reached. Records read
///   from the document are refused where they contain a damaged node or lie inside one (`damage`), and read
///   elsewhere. A snapshot replaces the whole document, damage included; setting a node replaces its damage.
/// - Elements that a cut removes from a watched array are kept as they were (`removedText`).
final class JournalDocument {
    typealias Step = JSONPointer.Component

    /// Why a patch was not applied; each is a skip reason of its own.
    enum Failure: Error, Equatable {
        /// A patch before the first snapshot: there is no document to apply it to.
        case noSnapshot
        /// Its path does not lead to a place the operation can change.
        case badPath
        /// Its value or cut index is not what the operation takes.
        case badValue

        var reason: String {
            switch self {
            case .noSnapshot: SkipReason.journalNoSnapshot
            case .badPath: SkipReason.journalBadPath
            case .badValue: SkipReason.journalBadValue
            }
        }
    }

    final class Node {
        enum Content {
            /// A value's JSON text, not opened yet.
            case raw([UInt8])
            /// Keys in document order, each once.
            case object(keys: [String], values: [Node])
            case array([Node])
        }

        var content: Content
        var damaged = false

        init(_ content: Content) { self.content = content }
    }

    private(set) var root: Node?
    /// Opens raw values; their bytes are copies, so this parser's refs are never kept.
    private let parser = JSONParser()
    /// The arrays whose elements a cut removes are kept (`keep_removed`), by path.
    private let watched: Set<[Step]>
    /// The elements cut from them, in the order they left, each as it was then; not ended by a snapshot.
    private var removed: [[Step]: [Node]] = [:]
    var hasRemoved: Bool { !removed.isEmpty }
    /// Removed elements not kept because a refused patch had damaged them.
    private(set) var removedDamaged = 0

    init(keepingRemovedFrom watched: Set<[Step]> = []) { self.watched = watched }

    /// The document is the value `json`.
    func snapshot(_ json: [UInt8]) {
        root = Node(.raw(json))
    }

    /// Puts `json` at `path`: a key of an object (added when absent), or an element of an array (or one past its
    /// end, which appends).
    func set(_ path: [Step], to json: [UInt8]) throws(Failure) {
        let (parent, last) = try parentOf(path)
        switch (parent.content, last) {
        case (.object(var keys, var values), .key(let key)):
            if let at = keys.firstIndex(of: key) {
                values[at] = Node(.raw(json))
            } else {
                keys.append(key)
                values.append(Node(.raw(json)))
            }
            parent.content = .object(keys: keys, values: values)
        case (.array(var elements), .index(let index)) where index <= elements.count:
            if index == elements.count { elements.append(Node(.raw(json))) } else { elements[index] = Node(.raw(json)) }
            parent.content = .array(elements)
        default:
            parent.damaged = true
            throw .badPath
        }
    }

    /// Cuts the array at `path` to `cut` elements when given, then appends `elements`. An absent (or null) array
    /// starts empty.
    func append(_ path: [Step], elements: [[UInt8]], cut: Int?) throws(Failure) {
        let (parent, last) = try parentOf(path)
        let target: Node
        switch (parent.content, last) {
        case (.object(var keys, var values), .key(let key)):
            if let at = keys.firstIndex(of: key) {
                target = values[at]
            } else {
                target = Node(.array([]))
                keys.append(key)
                values.append(target)
                parent.content = .object(keys: keys, values: values)
            }
        case (.array(let array), .index(let index)) where index < array.count:
            target = array[index]
        default:
            parent.damaged = true
            throw .badPath
        }
        if case .raw(let json) = target.content, json == Array("null".utf8) { target.content = .array([]) }
        open(target)
        guard case .array(var array) = target.content else {
            target.damaged = true
            throw .badPath
        }
        if let cut {
            guard cut <= array.count else {
                target.damaged = true
                throw .badValue
            }
            if watched.contains(path) {
                for node in array[cut...] {
                    if Self.holdsDamage(node) { removedDamaged += 1 } else { removed[path, default: []].append(node) }
                }
            }
            array.removeSubrange(cut...)
        }
        array += elements.map { Node(.raw($0)) }
        target.content = .array(array)
    }

    /// Removes the key at `path` from its object; an absent key is not an error.
    func delete(_ path: [Step]) throws(Failure) {
        let (parent, last) = try parentOf(path)
        guard case .object(var keys, var values) = parent.content, case .key(let key) = last else {
            parent.damaged = true
            throw .badPath
        }
        if let at = keys.firstIndex(of: key) {
            keys.remove(at: at)
            values.remove(at: at)
            parent.content = .object(keys: keys, values: values)
        }
    }

    /// A patch that is not one: the whole document is damaged (until the next snapshot).
    func damageAll() { root?.damaged = true }

    /// A patch whose value is wrong: the deepest node on its path is damaged.
    func damage(at path: [Step]) {
        guard var node = root else { return }
        walk: for step in path {
            open(node)
            switch (node.content, step) {
            case (.object(let keys, let values), .key(let key)):
                guard let at = keys.firstIndex(of: key) else { break walk }
                node = values[at]
            case (.array(let elements), .index(let index)) where index < elements.count:
                node = elements[index]
            default: break walk
            }
        }
        node.damaged = true
    }

    /// The node holding `path`'s last step, opened, and that step. An empty path names no place to change.
    private func parentOf(_ path: [Step]) throws(Failure) -> (Node, Step) {
        guard let root else { throw .noSnapshot }
        guard let last = path.last else {
            root.damaged = true
            throw .badPath
        }
        var node = root
        for step in path.dropLast() {
            open(node)
            switch (node.content, step) {
            case (.object(let keys, let values), .key(let key)):
                guard let at = keys.firstIndex(of: key) else {
                    node.damaged = true
                    throw .badPath
                }
                node = values[at]
            case (.array(let elements), .index(let index)) where index < elements.count:
                node = elements[index]
            default:
                node.damaged = true
                throw .badPath
            }
        }
        open(node)
        return (node, last)
    }

    /// Turns a raw object or array into its entries (each still raw); a scalar stays raw. The first of a
    /// repeated key is kept, as every path lookup does.
    private func open(_ node: Node) {
        guard case .raw(let json) = node.content, let first = json.first, first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
        else { return }
        // The text was written by `JSONParser` or checked by it, so it parses.
        guard let ref = try? json.withUnsafeBytes({ (bytes) throws(JSONParseError) in try parser.parse(copying: bytes) }) else {
            return
        }
        let text = { (ref: JSONRef) in self.parser.withMinifiedJSON(of: ref) { Array($0) } }
        switch parser.value(of: ref) {
        case .object(let object):
            var keys: [String] = []
            var values: [Node] = []
            var seen = Set<String>()
            for entry in parser.entries(of: object) where seen.insert(entry.key).inserted {
                keys.append(entry.key)
                values.append(Node(.raw(text(entry.value))))
            }
            node.content = .object(keys: keys, values: values)
        case .array(let array):
            node.content = .array(parser.elements(of: array).map { Node(.raw(text($0))) })
        default: break
        }
    }

    /// The document's JSON text, or nil when it is longer than `limit` bytes (or there is no document).
    func text(limit: Int) -> [UInt8]? {
        guard let root else { return nil }
        var out: [UInt8] = []
        return Self.write(root, into: &out, limit: limit, replacing: [:]) ? out : nil
    }

    /// The document with each watched array holding only the elements removed from it (none for an array none
    /// left), so that its records are those elements; nil when none was removed, or when it is longer than
    /// `limit`. An array no longer in the document gives nothing.
    func removedText(limit: Int) -> [UInt8]? {
        guard let root, !removed.isEmpty else { return nil }
        var replacing: [ObjectIdentifier: [Node]] = [:]
        for path in watched {
            guard let node = resolve(path) else { continue }
            replacing[ObjectIdentifier(node)] = removed[path] ?? []
        }
        var out: [UInt8] = []
        return Self.write(root, into: &out, limit: limit, replacing: replacing) ? out : nil
    }

    /// The node at `path`, opening what it walks through; nil when the path does not resolve.
    private func resolve(_ path: [Step]) -> Node? {
        guard var node = root else { return nil }
        for step in path {
            open(node)
            switch (node.content, step) {
            case (.object(let keys, let values), .key(let key)):
                guard let at = keys.firstIndex(of: key) else { return nil }
                node = values[at]
            case (.array(let elements), .index(let index)) where index < elements.count:
                node = elements[index]
            default: return nil
            }
        }
        return node
    }

    private static func holdsDamage(_ node: Node) -> Bool {
        if node.damaged { return true }
        switch node.content {
        case .raw: return false
        case .object(_, let values): return values.contains(where: holdsDamage)
        case .array(let elements): return elements.contains(where: holdsDamage)
        }
    }

    private static func write(
        _ node: Node, into out: inout [UInt8], limit: Int, replacing: [ObjectIdentifier: [Node]]
    ) -> Bool {
        if let elements = replacing[ObjectIdentifier(node)] {
            return write(Node(.array(elements)), into: &out, limit: limit, replacing: [:])
        }
        switch node.content {
        case .raw(let json): out += json
        case .object(let keys, let values):
            out.append(UInt8(ascii: "{"))
            for (index, (key, value)) in zip(keys, values).enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                var key = key
                key.withUTF8 { CanonicalJSON.string(UnsafeRawBufferPointer($0), into: &out) }
                out.append(UInt8(ascii: ":"))
                guard write(value, into: &out, limit: limit, replacing: replacing) else { return false }
            }
            out.append(UInt8(ascii: "}"))
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                guard write(element, into: &out, limit: limit, replacing: replacing) else { return false }
            }
            out.append(UInt8(ascii: "]"))
        }
        return out.count <= limit
    }

    /// Where the document is damaged: the paths of its damaged nodes, outermost first.
    var damage: JournalDamage {
        var paths: [[Step]] = []
        func walk(_ node: Node, _ path: [Step]) {
            if node.damaged {
                paths.append(path)
                return  // everything inside is refused already
            }
            switch node.content {
            case .raw: break
            case .object(let keys, let values):
                for (key, value) in zip(keys, values) { walk(value, path + [.key(key)]) }
            case .array(let elements):
                for (index, element) in elements.enumerated() { walk(element, path + [.index(index)]) }
            }
        }
        if let root { walk(root, []) }
        return JournalDamage(paths: paths)
    }
}

/// The places of a rebuilt document that a patch could not be applied to.
struct JournalDamage: Sendable {
    let paths: [[JSONPointer.Component]]

    var isEmpty: Bool { paths.isEmpty }

    /// Whether a record at `container` (its element `element`, or the container itself) holds a damaged place or
    /// lies inside one.
    func touches(_ container: JSONPointer, _ element: JSONPointer.Component?) -> Bool {
        let place = container.components + (element.map { [$0] } ?? [])
        return paths.contains { $0.starts(with: place) || place.starts(with: $0) }
    }
}
