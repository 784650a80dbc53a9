/// The bottle: a pixel drawing whose water level is today's bottle level (`BottleLevel`, a share of the fullest
/// of the person's own last 30 days), filled from the bottom a row of pixels at a time. Any water at all shows at
/// least one row; an empty bottle is empty. Its colors are the page's (glass, water, air), never a warning.
enum PixelBottle {
    /// `G` glass; `.` inside it (air or water); ` ` outside.
    static let shape = [
        "    GGGG    ",
        "    G..G    ",
        "    G..G    ",
        "   GG..GG   ",
        "  GG....GG  ",
        " GG......GG ",
        " G........G ",
        " G........G ",
        " G........G ",
        " G........G ",
        " G........G ",
        " G........G ",
        " G........G ",
        " G........G ",
        " G........G ",
        " G........G ",
        " G........G ",
        " G........G ",
        " G........G ",
        " G........G ",
        " G........G ",
        " GGGGGGGGGG ",
    ]
    static let pixel = 7

    /// Rows of the inside, counted from the bottom, that hold water at `level`.
    static func waterRows(_ level: Double?) -> Int {
        let inside = shape.filter { $0.contains(".") }.count
        guard let level, level > 0 else { return 0 }
        return min(inside, max(1, Int((level * Double(inside)).rounded())))
    }

    static func svg(level: Double?) -> String {
        let rows = shape.map { Array($0) }
        let width = rows[0].count * pixel
        let height = rows.count * pixel
        let label = level.map { "a bottle filled to \(ReadingsFormat.bottle($0))" } ?? "an empty bottle"
        var svg = "<svg width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\" shape-rendering=\"crispEdges\" role=\"img\" aria-label=\"\(label)\">"
        let insideRows = rows.indices.filter { rows[$0].contains(".") }
        let wet = Set(insideRows.suffix(waterRows(level)))
        for (y, row) in rows.enumerated() {
            for (x, cell) in row.enumerated() where cell != " " {
                let kind = cell == "G" ? "px-glass" : (wet.contains(y) ? "px-water" : "px-air")
                svg += "<rect x=\"\(x * pixel)\" y=\"\(y * pixel)\" width=\"\(pixel)\" height=\"\(pixel)\" class=\"\(kind)\"/>"
            }
        }
        return svg + "</svg>"
    }
}
