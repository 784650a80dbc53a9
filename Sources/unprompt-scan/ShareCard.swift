import Foundation
import UnpromptKit

/// How a share code is drawn: as a QR code in the terminal (two module rows per line, in half blocks), and as
/// the share card, a self-contained SVG image (no fonts, images or links from elsewhere).
enum ShareDrawing {
    /// Modules of light margin around the code, as readers need.
    static let quietZone = 2

    /// The code in half blocks. Light modules are drawn and dark ones left blank, so on a terminal's dark
    /// background the code reads dark on light, as scanners expect (as `qrencode -t UTF8` draws it).
    static func terminal(_ matrix: QRMatrix) -> String {
        let range = -quietZone..<(matrix.size + quietZone)
        var lines: [String] = []
        for y in stride(from: range.lowerBound, to: range.upperBound, by: 2) {
            var line = ""
            for x in range {
                let top = !matrix[x, y]
                let bottom = y + 1 < range.upperBound && !matrix[x, y + 1]
                line += top ? (bottom ? "█" : "▀") : (bottom ? "▄" : " ")
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    /// The card: the name, the period and its date, the number, the code and its QR code.
    static func card(_ code: ShareCode, matrix: QRMatrix, headline: String, detail: String) -> String {
        let module = 8
        let side = (matrix.size + 2 * quietZone) * module
        let width = max(side + 48, 360)
        let qrX = (width - side) / 2
        let qrY = 132
        let height = qrY + side + 64
        var path = ""
        for y in 0..<matrix.size {
            for x in 0..<matrix.size where matrix[x, y] {
                path += "M\(qrX + (x + quietZone) * module) \(qrY + (y + quietZone) * module)h\(module)v\(module)h-\(module)z"
            }
        }
        let center = width / 2
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)">
            <rect width="\(width)" height="\(height)" rx="16" fill="#f6f5f2"/>
            <text x="\(center)" y="40" text-anchor="middle" font-family="sans-serif" font-size="22" fill="#222">\(escaped(code.name))</text>
            <text x="\(center)" y="72" text-anchor="middle" font-family="sans-serif" font-size="15" fill="#555">\(escaped(headline))</text>
            <text x="\(center)" y="104" text-anchor="middle" font-family="sans-serif" font-size="26" fill="#222">\(escaped(detail))</text>
            <rect x="\(qrX)" y="\(qrY)" width="\(side)" height="\(side)" fill="#ffffff"/>
            <path d="\(path)" fill="#000000"/>
            <text x="\(center)" y="\(qrY + side + 28)" text-anchor="middle" font-family="monospace" font-size="12" fill="#333">\(escaped(code.text))</text>
            <text x="\(center)" y="\(qrY + side + 50)" text-anchor="middle" font-family="sans-serif" font-size="11" fill="#777">unprompt-scan friends add CODE · measured, never judged</text>
            </svg>

            """
    }

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&apos;")
    }
}
