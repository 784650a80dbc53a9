/// A text table that fits a width: every view's tables are laid out by it.
///
/// Columns are padded to their widest cell, text left and numbers right, two spaces apart. Given a width
/// (`TableLayout`), a table wider than it gives way step by step, until it fits:
/// 1. optional columns go, the highest rank first (columns of one rank go together: the six counts);
/// 2. columns with a compact form take it, the least important first (`1.2M` for `1,234,567`);
/// 3. cells that may be shortened are, in the middle (`claude-so…0250929`), the widest column first;
/// 4. essential columns go, the highest rank first; the first column always stays.
///
/// A line that still does not fit is cut at the width, so no row ever wraps. `--wide` shows every column
/// whatever the width; `--columns` shows the chosen ones, compacted and shortened but never dropped.
struct Table {
    struct Column {
        /// The name `--columns` takes (`total`, `cache-read`); the first column's is never asked for.
        let id: String
        let header: String
        var alignment = Alignment.right
        var role: Role
        /// Long cells may be shortened in the middle (model ids, names).
        var shortens = false

        init(_ id: String, _ header: String, _ role: Role, alignment: Alignment = .right, shortens: Bool = false) {
            self.id = id
            self.header = header
            self.role = role
            self.alignment = alignment
            self.shortens = shortens
        }

        /// The first column: row labels, left-aligned, shortened when nothing else is left to give.
        static func label(_ header: String) -> Column { Column("", header, .label, alignment: .left, shortens: true) }
    }

    enum Alignment {
        case left
        case right
    }

    enum Role: Equatable {
        case label
        /// Kept until nothing else fits; rank 1 is the last to go.
        case essential(Int)
        /// Dropped first, the highest rank first.
        case optional(Int)

        /// Which gives way first: the higher, the sooner.
        var order: Int {
            switch self {
            case .label: 0
            case .essential(let rank): rank
            case .optional(let rank): 1000 + rank
            }
        }
    }

    /// Text with an optional style (an SGR escape sequence), shown only with color.
    struct Span {
        var text: String
        var style: String?
    }

    struct Cell: ExpressibleByStringLiteral {
        var spans: [Span]
        /// A narrower form, taken when the table is too wide.
        var compact: [Span]?
        /// A style over the whole padded cell (a band's color), shown only with color.
        var fill: String?

        init(_ text: String, compact: String? = nil, fill: String? = nil) {
            spans = [Span(text: text)]
            self.compact = compact.map { [Span(text: $0)] }
            self.fill = fill
        }

        /// Trailing unstyled spaces are left out: they would only widen the column.
        init(spans: [Span]) { self.spans = Table.trimmed(spans) }

        init(stringLiteral text: String) { self.init(text) }

        func form(compact: Bool) -> [Span] { compact ? self.compact ?? spans : spans }
    }

    enum Row {
        case cells([Cell])
        /// A line of its own (`by model`), not aligned with the columns.
        case heading(String)
    }

    let columns: [Column]
    private var rows: [Row] = []

    init(_ columns: [Column]) { self.columns = columns }

    /// Cells in column order; missing ones at the end are empty.
    mutating func add(_ cells: [Cell]) { rows.append(.cells(cells)) }

    mutating func heading(_ text: String) { rows.append(.heading(text)) }

    static let gap = 2
    /// The least a shortened column keeps.
    static let shortestCell = 12

    func render(_ layout: TableLayout) -> [String] {
        let natural = naturalWidths()
        let plan = plan(layout, natural)
        let widths = plan.widths(natural)
        var lines = [header(plan, widths)]
        for row in rows {
            switch row {
            case .heading(let text): lines.append([Span(text: text)])
            case .cells(let cells): lines.append(line(cells, plan, widths))
            }
        }
        let width = layout.columns == .wide ? nil : layout.width
        return lines.map { line in Self.text(width.map { Self.cut(line, $0) } ?? line, color: layout.color) }
    }

    /// The ids of the columns `layout` shows, in order (the first column's is empty).
    func shown(_ layout: TableLayout) -> [String] { plan(layout, naturalWidths()).visible.map { columns[$0].id } }

    // MARK: Planning

    private func plan(_ layout: TableLayout, _ natural: [(full: Int, compact: Int)]) -> Plan {
        var plan = Plan(visible: Array(columns.indices))
        switch layout.columns {
        case .wide:
            break
        case .chosen(let ids):
            plan.visible = [0] + ids.compactMap { id in columns.indices.first { $0 > 0 && columns[$0].id == id } }
            if let width = layout.width { narrow(&plan, natural, to: width, dropping: false) }
        case .fit:
            if let width = layout.width { narrow(&plan, natural, to: width, dropping: true) }
        }
        return plan
    }

    private struct Plan {
        var visible: [Int]
        var compact: Set<Int> = []
        /// Widths of shortened columns.
        var caps: [Int: Int] = [:]

        func widths(_ natural: [(full: Int, compact: Int)]) -> [Int: Int] {
            var widths: [Int: Int] = [:]
            for index in visible {
                let width = compact.contains(index) ? natural[index].compact : natural[index].full
                widths[index] = min(width, caps[index] ?? width)
            }
            return widths
        }

        func lineWidth(_ natural: [(full: Int, compact: Int)]) -> Int {
            widths(natural).values.reduce(0, +) + Table.gap * (visible.count - 1)
        }
    }

    /// Each column's width with its full cells and with its compact ones (headers included).
    private func naturalWidths() -> [(full: Int, compact: Int)] {
        var widths = columns.map { (full: $0.header.count, compact: $0.header.count) }
        for case .cells(let cells) in rows {
            for (index, cell) in cells.enumerated() where index < columns.count {
                widths[index].full = max(widths[index].full, Self.width(cell.spans))
                widths[index].compact = max(widths[index].compact, Self.width(cell.form(compact: true)))
            }
        }
        return widths
    }

    private func narrow(_ plan: inout Plan, _ natural: [(full: Int, compact: Int)], to width: Int, dropping: Bool) {
        func fits() -> Bool { plan.lineWidth(natural) <= width }
        func drop(_ kind: (Role) -> Int?) -> Bool {
            let ranks = Set(plan.visible.compactMap { kind(columns[$0].role) }).sorted(by: >)
            for rank in ranks {
                plan.visible.removeAll { kind(columns[$0].role) == rank }
                if fits() { return true }
            }
            return false
        }
        func optional(_ role: Role) -> Int? { if case .optional(let rank) = role { rank } else { nil } }
        if fits() { return }
        // The last step may leave room for optional columns dropped before: the most important go back first.
        if dropping, drop(optional) { return refill(&plan, natural, to: width, ranks: optional) }
        for index in plan.visible.sorted(by: { columns[$0].role.order > columns[$1].role.order })
        where natural[index].compact < natural[index].full {
            plan.compact.insert(index)
            if fits() { return dropping ? refill(&plan, natural, to: width, ranks: optional) : () }
        }
        while !fits() {
            let widths = plan.widths(natural)
            guard let widest = plan.visible.filter({ columns[$0].shortens && widths[$0]! > Self.shortestCell })
                .max(by: { widths[$0]! < widths[$1]! })
            else { break }
            plan.caps[widest] = widths[widest]! - 1
        }
        if fits() || !dropping { return }
        _ = drop({ if case .essential(let rank) = $0 { rank } else { nil } })
    }

    /// Puts back the columns of each rank `kind` gives that are not shown, the lowest rank first, while they fit.
    private func refill(_ plan: inout Plan, _ natural: [(full: Int, compact: Int)], to width: Int, ranks kind: (Role) -> Int?) {
        let hidden = columns.indices.filter { !plan.visible.contains($0) && kind(columns[$0].role) != nil }
        for rank in Set(hidden.compactMap { kind(columns[$0].role) }).sorted() {
            var wider = plan
            wider.visible = (plan.visible + hidden.filter { kind(columns[$0].role) == rank }).sorted()
            if wider.lineWidth(natural) <= width { plan = wider }
        }
    }

    // MARK: Lines

    private func header(_ plan: Plan, _ widths: [Int: Int]) -> [Span] {
        var spans: [Span] = []
        for (position, index) in plan.visible.enumerated() {
            if position > 0 { spans.append(Span(text: String(repeating: " ", count: Self.gap))) }
            spans += pad([Span(text: Self.shorten(columns[index].header, to: widths[index]!))], columns[index].alignment, widths[index]!)
        }
        return Self.trimmed(spans)
    }

    private func line(_ cells: [Cell], _ plan: Plan, _ widths: [Int: Int]) -> [Span] {
        var spans: [Span] = []
        for (position, index) in plan.visible.enumerated() {
            if position > 0 { spans.append(Span(text: String(repeating: " ", count: Self.gap))) }
            let cell = index < cells.count ? cells[index] : Cell("")
            let width = widths[index]!
            var form = cell.form(compact: plan.compact.contains(index))
            if Self.width(form) > width { form = [Span(text: Self.shorten(form.map(\.text).joined(), to: width))] }
            let padded = pad(form, columns[index].alignment, width)
            spans += cell.fill.map { [Span(text: padded.map(\.text).joined(), style: $0)] } ?? padded
        }
        return Self.trimmed(spans)
    }

    private func pad(_ spans: [Span], _ alignment: Alignment, _ width: Int) -> [Span] {
        let padding = Span(text: String(repeating: " ", count: max(0, width - Self.width(spans))))
        return alignment == .left ? spans + [padding] : [padding] + spans
    }

    // MARK: Text

    static func width(_ spans: [Span]) -> Int { spans.reduce(0) { $0 + $1.text.count } }

    /// `text` in at most `width` columns: its leading spaces (an indent) kept, the middle of the rest left out.
    static func shorten(_ text: String, to width: Int) -> String {
        guard text.count > width else { return text }
        let indent = text.prefix { $0 == " " }.prefix(max(0, width - 3))
        let rest = text.dropFirst(indent.count)
        let room = width - indent.count - 1
        guard room > 0 else { return String(text.prefix(width)) }
        return indent + rest.prefix((room + 1) / 2) + "…" + rest.suffix(room / 2)
    }

    /// The spans without trailing unstyled spaces.
    static func trimmed(_ spans: [Span]) -> [Span] {
        var spans = spans
        while let last = spans.last, last.style == nil {
            // Cut at the last character that is no space (reversed collections made their types at run time).
            let end = last.text.lastIndex { $0 != " " }.map(last.text.index(after:)) ?? last.text.startIndex
            let text = String(last.text[..<end])
            if text.isEmpty {
                spans.removeLast()
                continue
            }
            spans[spans.count - 1].text = text
            break
        }
        return spans
    }

    /// The spans cut to `width` columns, the last one kept marked `…`.
    static func cut(_ spans: [Span], _ width: Int) -> [Span] {
        guard Self.width(spans) > width else { return spans }
        var kept: [Span] = []
        var room = max(0, width - 1)
        for span in spans {
            guard room > 0 else { break }
            kept.append(Span(text: String(span.text.prefix(room)), style: span.style))
            room -= min(room, span.text.count)
        }
        return kept + [Span(text: "…")]
    }

    static let reset = "\u{1B}[0m"

    static func text(_ spans: [Span], color: Bool) -> String {
        spans.map { span in
            guard color, let style = span.style else { return span.text }
            return style + span.text + reset
        }.joined()
    }
}

/// How a table is laid out: the width it must fit (nil: every column), which columns it shows, and whether
/// styles are shown.
struct TableLayout: Sendable {
    enum Columns: Equatable, Sendable {
        /// Fit the width, giving way as `Table` says.
        case fit
        /// Every column, whatever the width (`--wide`).
        case wide
        /// These columns after the first, in this order (`--columns`).
        case chosen([String])
    }

    var width: Int?
    var columns = Columns.fit
    var color = false

    /// The layout for a table printed `count` columns in.
    func indented(by count: Int) -> TableLayout {
        var copy = self
        copy.width = width.map { max(1, $0 - count) }
        return copy
    }
}
