import Foundation

extension UsageStore {
    /// Every source's stamp, by source key: one query of four integers a source, so a rescan with nothing new
    /// reads no hash and no saved state (`checkpoint(for:)` reads those of a source that changed).
    public func checkpointStamps() throws(StoreError) -> [Identity: CheckpointStamp] {
        try locked { database throws(StoreError) in
            var result: [Identity: CheckpointStamp] = [:]
            result.reserveCapacity(Int(try database.prepare("SELECT count(*) FROM checkpoints").rows().first?.int(0) ?? 0))
            let stamps = try database.prepare("SELECT source_key, device, inode, size, mtime_ns FROM checkpoints")
            try stamps.forEachRow(reading: { row in
                guard let key = row.withText(0, Identity.init(description:)) ?? nil else { return }
                result[key] = CheckpointStamp(
                    device: UInt64(bitPattern: row.int(1) ?? 0), inode: UInt64(bitPattern: row.int(2) ?? 0),
                    size: row.int(3) ?? 0, modifiedNanoseconds: row.int(4) ?? 0)
            })
            return result
        }
    }
}
