import Foundation

/// How a view lays out its tables: the terminal's width and colors, `--wide` (every column) or `--columns LIST`
/// (these, in this order), checked against the columns the view has.
enum TableOptions {
    static func layout(_ arguments: Arguments, environment: [String: String], columns: [String], view: String)
        throws(UsageError) -> TableLayout
    {
        var layout = TableLayout(width: Terminal.width(environment), color: Terminal.colors(environment))
        let wide = arguments.has(Option.wide.name)
        guard let list = arguments.single(Option.columns.name) else {
            if wide { layout.columns = .wide }
            return layout
        }
        if wide { throw UsageError("--wide shows every column and --columns only some: give one of them") }
        var chosen: [String] = []
        for name in list.split(separator: ",", omittingEmptySubsequences: false).map({ $0.trimmingCharacters(in: .whitespaces) }) {
            guard columns.contains(name) else {
                let shown = name.isEmpty ? "an empty column name in '\(list)'" : "unknown column '\(name)'"
                throw UsageError("--columns: \(shown); \(view) has " + columns.joined(separator: ", "))
            }
            if !chosen.contains(name) { chosen.append(name) }
        }
        layout.columns = .chosen(chosen)
        return layout
    }
}
