import Foundation
@testable import UnpromptKit

extension Input {
    /// A `sqlite` input's queries (none for the other formats).
    var sqlQueries: [SQLQuery] {
        if case .sqlite(let queries) = formatRules { queries } else { [] }
    }
}

/// A pattern as the loader builds it, to compare with what it built.
func pattern(_ text: String) throws -> Pattern {
    Pattern(text: text, regex: try NSRegularExpression(pattern: text))
}
