import Foundation
internal import CZstd

/// Compresses and decompresses zstd data with the system's libzstd. C types stay in this file.
enum Zstd {
    /// Why data could not be decompressed.
    struct Failure: Error, Equatable {
        /// The result would be larger than the limit (the data itself may be sound).
        let tooLarge: Bool
        let message: String
    }

    /// Every frame in `data`, decompressed and concatenated (as zstd's own tools read concatenated frames;
    /// a frame need not declare its size). Throws when `data` is empty, is not zstd, is damaged or cut short,
    /// or would decompress to more than `limit` bytes.
    /// `reserving`: room kept after the bytes, so that appending that many (a parser's padding) copies nothing.
    static func decompress(_ data: Data, limit: Int, reserving extra: Int = 0) throws(Failure) -> [UInt8] {
        guard !data.isEmpty else { throw Failure(tooLarge: false, message: "no data") }
        // Frames that state their sizes (as this program writes them) are decompressed at once into a buffer of
        // their size; the size is checked against the content as it is decompressed.
        if let stated = statedSize(data) {
            guard stated <= UInt64(limit) else { throw Failure(tooLarge: true, message: "larger than \(limit) bytes") }
            return try decompressWhole(data, size: Int(stated), extra: extra)
        }
        guard let stream = ZSTD_createDStream() else { fatalError("Zstd: out of memory") }
        defer { ZSTD_freeDStream(stream) }
        ZSTD_initDStream(stream)
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: ZSTD_DStreamOutSize())
        let outcome: Failure? = data.withUnsafeBytes { raw in
            var input = ZSTD_inBuffer(src: raw.baseAddress, size: raw.count, pos: 0)
            var pending = 0  // 0 once the last frame is complete and flushed
            repeat {
                let (written, hint) = chunk.withUnsafeMutableBytes { buffer in
                    var out = ZSTD_outBuffer(dst: buffer.baseAddress, size: buffer.count, pos: 0)
                    let hint = ZSTD_decompressStream(stream, &out, &input)
                    return (out.pos, hint)
                }
                if ZSTD_isError(hint) != 0 {
                    return Failure(tooLarge: false, message: String(cString: ZSTD_getErrorName(hint)))
                }
                if output.count + written > limit { return Failure(tooLarge: true, message: "larger than \(limit) bytes") }
                output += chunk[..<written]
                pending = hint
                // Done when every input byte is in and the decoder had no more output than fitted.
                if input.pos == input.size && written < chunk.count { break }
            } while true
            return pending == 0 ? nil : Failure(tooLarge: false, message: "the data ends inside a frame")
        }
        if let outcome { throw outcome }
        return output
    }

    /// What `data`'s frames say they hold in all, when every one of them says it (a skippable frame holds none);
    /// nil when one does not, or does not read as a frame (the streaming decompression then says what is wrong).
    private static func statedSize(_ data: Data) -> UInt64? {
        data.withUnsafeBytes { raw -> UInt64? in
            guard let base = raw.baseAddress else { return nil }
            var position = 0
            var total: UInt64 = 0
            while position < raw.count {
                let content = ZSTD_getFrameContentSize(base + position, raw.count - position)
                // UInt64.max - 1 is ZSTD_CONTENTSIZE_ERROR, UInt64.max ZSTD_CONTENTSIZE_UNKNOWN.
                let frame = ZSTD_findFrameCompressedSize(base + position, raw.count - position)
                guard content < UInt64.max - 1, ZSTD_isError(frame) == 0 else { return nil }
                let (sum, overflow) = total.addingReportingOverflow(content)
                guard !overflow else { return nil }
                total = sum
                position += frame
            }
            return total
        }
    }

    /// `data`'s frames, which state that they hold `size` bytes in all, decompressed into one buffer.
    private static func decompressWhole(_ data: Data, size: Int, extra: Int) throws(Failure) -> [UInt8] {
        guard let context = ZSTD_createDCtx() else { fatalError("Zstd: out of memory") }
        defer { ZSTD_freeDCtx(context) }
        var result: Int = 0
        var output = [UInt8](unsafeUninitializedCapacity: size + extra) { buffer, count in
            result = data.withUnsafeBytes { input in
                ZSTD_decompressDCtx(context, buffer.baseAddress, size, input.baseAddress, input.count)
            }
            count = ZSTD_isError(result) == 0 ? result : 0
        }
        if ZSTD_isError(result) != 0 { throw Failure(tooLarge: false, message: String(cString: ZSTD_getErrorName(result))) }
        // Frames that say they hold more than they do are damaged.
        guard result == size else { throw Failure(tooLarge: false, message: "the data ends inside a frame") }
        output.reserveCapacity(size + extra)
        return output
    }

    /// `bytes` as one zstd frame that records its size and a checksum of its content, so a decompression of a
    /// damaged or cut frame fails instead of giving other bytes.
    static func compress(_ bytes: [UInt8], level: Int32 = 6) -> Data {
        guard let context = ZSTD_createCCtx() else { fatalError("Zstd: out of memory") }
        defer { ZSTD_freeCCtx(context) }
        ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, level)
        ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, 1)
        let bound = ZSTD_compressBound(bytes.count)
        var output = [UInt8](repeating: 0, count: bound)
        let written = output.withUnsafeMutableBytes { out in
            bytes.withUnsafeBytes { input in ZSTD_compress2(context, out.baseAddress, bound, input.baseAddress, input.count) }
        }
        precondition(ZSTD_isError(written) == 0, "Zstd: \(String(cString: ZSTD_getErrorName(written)))")
        return Data(output[..<written])
    }
}
