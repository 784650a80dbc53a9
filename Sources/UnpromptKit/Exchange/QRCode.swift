internal import CQRencode

/// A QR code's modules, made by the system's libqrencode (C types stay in this file): what `share` draws in the
/// terminal and on the share card.
public struct QRMatrix: Sendable, Equatable {
    /// Modules per side.
    public let size: Int
    /// Row by row, true for a dark module.
    public let modules: [Bool]

    public subscript(x: Int, y: Int) -> Bool {
        x >= 0 && y >= 0 && x < size && y < size && modules[y * size + x]
    }

    /// The code of `text` at error correction level M (15% of the symbol may be lost), or nil when libqrencode
    /// cannot make one (text too long, out of memory).
    public init?(_ text: String) {
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        size = width
        modules = (0..<width * width).map { code.pointee.data[$0] & 1 == 1 }
    }
}
