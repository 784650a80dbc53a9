/// One key of a mapping in a descriptor (or the settings file): its name, the kind of value it takes, whether it
/// is required, its default, and one line of help. The loader reads a mapping through its section's keys
/// (`MappingReader`), the descriptor reference in CONTRIBUTING.md is generated from them
/// (`DescriptorReference`), and an error about a key's value quotes its help.
public struct DescriptorKey: Sendable, Equatable {
    public enum Requirement: Sendable, Equatable {
        case required
        case optional
        /// Required or allowed only in some cases, said in words (`sqlite only, required there`).
        case when(String)
    }

    public let name: String
    /// The kind of value, as the reference writes it (`field path`, `list of sources`).
    public let type: String
    public let requirement: Requirement
    /// What an absent key means; empty for a required key or one whose absence means nothing.
    public let defaultValue: String
    public let help: String

    public init(_ name: String, _ type: String, _ requirement: Requirement, default defaultValue: String = "", _ help: String) {
        self.name = name
        self.type = type
        self.requirement = requirement
        self.defaultValue = defaultValue
        self.help = help
    }
}

/// The keys of one kind of mapping, in the order the reference lists them. A mapping read through a section may
/// hold only these keys (and `use`, see `DescriptorBlocks`), and the loader may ask only for these.
public struct KeySection: Sendable {
    /// Names the section in the reference's markers (`<!-- keys: record -->`).
    public let id: String
    /// How messages name such a mapping: `a record`, `the descriptor`.
    public let title: String
    public let keys: [DescriptorKey]

    public init(id: String, title: String, keys: [DescriptorKey]) {
        self.id = id
        self.title = title
        self.keys = keys
    }

    public subscript(name: String) -> DescriptorKey? { keys.first { $0.name == name } }

    public var names: [String] { keys.map(\.name) }

    /// The known key nearest to a misspelled one, when one is near enough to be what was meant.
    func nearest(to name: String) -> DescriptorKey? {
        let scored = keys.map { ($0, Self.distance(Array(name), Array($0.name))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(1, name.count / 3) else { return nil }
        return best.0
    }

    /// Edit distance (insertions, deletions, substitutions).
    private static func distance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
