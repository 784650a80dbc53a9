import Foundation

/// The descriptor reference's key tables, as CONTRIBUTING.md shows them: made from `DescriptorKeys`, between the
/// markers `<!-- keys: ID -->` and `<!-- end keys -->`, so the reference says what the loader reads.
public enum DescriptorReference: Sendable {
    public static func startMarker(_ section: KeySection) -> String { "<!-- keys: \(section.id) -->" }
    public static let endMarker = "<!-- end keys -->"

    /// The section's table, markers included.
    public static func block(_ section: KeySection) -> String {
        var lines = [startMarker(section), "| key | type | required | default | meaning |", "|---|---|---|---|---|"]
        for key in section.keys {
            let required: String
            switch key.requirement {
            case .required: required = "yes"
            case .optional: required = "no"
            case .when(let text): required = text
            }
            lines.append("| `\(key.name)` | \(key.type) | \(required) | \(key.defaultValue) | \(key.help) |")
        }
        lines.append(endMarker)
        return lines.joined(separator: "\n")
    }

    /// `text` with every section's block replaced by its table as the keys say it; nil for a section whose
    /// markers are missing, or appear more than once.
    public static func regenerated(_ text: String, sections: [KeySection] = DescriptorKeys.all) -> Result<String, MissingSection> {
        var result = text
        for section in sections {
            let start = startMarker(section)
            let pieces = result.components(separatedBy: start)
            guard pieces.count == 2, let end = pieces[1].range(of: endMarker) else {
                return .failure(MissingSection(id: section.id, count: pieces.count - 1))
            }
            result = pieces[0] + block(section) + pieces[1][end.upperBound...]
        }
        return .success(result)
    }

    public struct MissingSection: Error, Sendable, CustomStringConvertible {
        public let id: String
        public let count: Int
        public var description: String { "the reference has \(count) '<!-- keys: \(id) -->' markers with an end; it needs exactly 1" }
    }
}
