/// A token path that names no value in a record whose object holds a key spelled almost like it
/// (`usage.inptu_tokens` beside `input_tokens`): the dry run's `near-miss` warning. A misspelled field beside
/// correct ones counts as 0 without a skip, so nothing else would point at it. Key names only, never a value.
public struct NearMiss: Sendable, Equatable {
    /// The token path as the rule reads it (below `tokens_at`).
    public let path: String
    /// The key of the same object that is within `maximumDistance` edits of the path's last key.
    public let present: String

    /// Edits (insert, delete, change, or swap two neighbours) between the path's key and a present one.
    static let maximumDistance = 2

    /// A rule's token paths made ready for `find` when the rule is compiled: each path that ends in a key long
    /// enough to be misspelled, with its pointer and its object's, and every key the rule's paths end in.
    struct Paths: Sendable {
        fileprivate let checked: [(path: FieldPath, key: String, pointer: JSONPointer, parent: JSONPointer)]
        fileprivate let read: Set<String>

        init(_ paths: [FieldPath]) {
            read = Set(paths.compactMap(\.lastKey))
            checked = paths.compactMap { path in
                guard let key = path.lastKey, key.count > NearMiss.maximumDistance else { return nil }
                let parent = FieldPath(components: Array(path.components.dropLast()), fromRoot: path.fromRoot, text: "")
                return (path, key, RuleCompiler.pointer(path), RuleCompiler.pointer(parent))
            }
        }
    }

    /// The near misses of `paths` in one record: for each path that is absent and ends in a key, the closest key
    /// of its object that no path of the rule reads.
    static func find(_ paths: Paths, in context: RecordContext) -> [NearMiss] {
        paths.checked.compactMap { path, key, pointer, parent -> NearMiss? in
            let base = path.fromRoot ? context.root : context.element
            guard context.parser.value(at: pointer, in: base) == nil,
                case .object(let ref)? = context.parser.value(at: parent, in: base)
            else { return nil }
            // A key whose length differs by more than the distance allowed is never within it: not compared.
            let close = context.parser.entries(of: ref).map(\.key)
                .filter { abs($0.utf8.count - key.utf8.count) <= maximumDistance && !paths.read.contains($0) }
                .map { (key: $0, distance: distance(Array(key.utf8), Array($0.utf8))) }
                .filter { $0.distance <= maximumDistance }
                .min { ($0.distance, $0.key) < ($1.distance, $1.key) }
            return close.map { NearMiss(path: path.text, present: $0.key) }
        }
    }

    /// Optimal string alignment distance: the edits above, each character edited once.
    static func distance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let change = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + change)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { current[j] = min(current[j], before[j - 2] + 1) }
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }
}

extension FieldPath {
    /// The key the path ends in; nil when it ends in an index or is the record itself.
    var lastKey: String? {
        guard case .key(let key)? = components.last else { return nil }
        return key
    }
}
