import Testing

@testable import unprompt_scan

/// The one table renderer (`Table`) and line breaking (`Prose`), on small tables whose widths are counted by hand.
struct TableTests {
    /// `label` 5 wide, then `a`, `b` and `c` (optional, ranks 2 and 1), `t` (essential 1, compact `9k`), `w`
    /// (essential 2): `label  aaaa  bbbb  cccc      t       w` is 5 + 4 + 4 + 4 + 5 + 6 and 5 gaps of 2: 38 wide.
    func table() -> Table {
        var table = Table([
            .label("label"), Table.Column("a", "aaaa", .optional(2)), Table.Column("b", "bbbb", .optional(2)),
            Table.Column("c", "cccc", .optional(1)), Table.Column("t", "t", .essential(1)), Table.Column("w", "w", .essential(2)),
        ])
        table.add([Table.Cell("x"), "1", "2", "3", Table.Cell("9,999", compact: "9k"), "wwwwww"])
        return table
    }

    func render(_ table: Table, _ width: Int?, _ columns: TableLayout.Columns = .fit) -> [String] {
        table.render(TableLayout(width: width, columns: columns))
    }

    @Test func aTableGivesWayStepByStep() {
        #expect(render(table(), nil) == ["label  aaaa  bbbb  cccc      t       w", "x         1     2     3  9,999  wwwwww"])
        #expect(render(table(), 38) == render(table(), nil), "it fits")
        // 37: the optional columns of the highest rank go together (a and b); c stays.
        #expect(render(table(), 37) == ["label  cccc      t       w", "x         3  9,999  wwwwww"])
        // 25: c goes too (20 wide); at 19 the total takes its compact form (17 wide).
        #expect(render(table(), 25) == ["label      t       w", "x      9,999  wwwwww"])
        #expect(render(table(), 19) == ["label   t       w", "x      9k  wwwwww"])
        // 14: nothing left to shorten (the label is 5 wide), so the least essential column goes.
        #expect(render(table(), 14) == ["label   t", "x      9k"])
        // 4: the first column stays, cut at the edge.
        #expect(render(table(), 4) == ["lab…", "x"])
    }

    @Test func wideShowsEveryColumnAndChosenOnesAreNeverDropped() {
        #expect(render(table(), 10, .wide) == render(table(), nil))
        #expect(render(table(), nil, .chosen(["w", "a"])) == ["label       w  aaaa", "x      wwwwww     1"])
        // Chosen columns are compacted, never dropped: the line is cut at the width instead.
        #expect(render(table(), 14, .chosen(["t", "a"])) == ["label   t  aaaa", "x      9k     1"].map { String($0.prefix(13)) + "…" })
    }

    @Test func longLabelsAreShortenedInTheMiddleKeepingTheirIndent() {
        #expect(Table.shorten("    claude-sonnet-4-5-20250929", to: 16) == "    claude…50929")
        #expect(Table.shorten("claude-sonnet-4-5", to: 17) == "claude-sonnet-4-5")
        var table = Table([.label("model"), Table.Column("t", "tokens", .essential(1))])
        table.add([Table.Cell("  claude-sonnet-4-5-20250929"), "12"])
        #expect(render(table, 22) == ["model" + String(repeating: " ", count: 11) + "tokens", "  claude…50929      12"])
    }

    @Test func stylesShowOnlyWithColorAndAFillCoversTheWholeCell() {
        var table = Table([.label("day"), Table.Column("t", "total", .essential(1))])
        table.add([Table.Cell("a"), Table.Cell("300", fill: "\u{1B}[1m")])
        table.add([Table.Cell("b"), Table.Cell(spans: [Table.Span(text: "A", style: "\u{1B}[2m"), Table.Span(text: " ")])])
        #expect(table.render(TableLayout(width: nil, color: false)) == ["day  total", "a      300", "b        A"])
        #expect(table.render(TableLayout(width: nil, color: true)) == [
            "day  total", "a    \u{1B}[1m  300\u{1B}[0m", "b        \u{1B}[2mA\u{1B}[0m",
        ])
    }

    @Test func proseBreaksAtSpacesOrBetweenPartsAndNeverOverflows() {
        #expect(Prose.wrap("  one two three four", width: 12) == ["  one two", "    three", "    four"])
        #expect(Prose.wrap("  one two three four", width: nil) == ["  one two three four"])
        #expect(Prose.parts(["1 use today", "245 tokens", "$0.0011"], width: 30) == ["1 use today · 245 tokens", "  $0.0011"])
        #expect(Prose.parts(["total: 9 tokens", "work: 4 tokens"], joiner: "; ", width: 20) == ["total: 9 tokens", "  work: 4 tokens"])
        #expect(Prose.parts(["total: 9 tokens", "work: 4 tokens"], joiner: "; ", width: nil) == ["total: 9 tokens; work: 4 tokens"])
        #expect(Prose.wrap("x averyveryverylongmodelid y", width: 12) == ["x", "  avery…elid", "  y"])
        #expect("\u{1B}[1mab\u{1B}[0mc".visibleWidth == 3)
    }
}
