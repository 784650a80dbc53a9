/// Whether another connection changed the store: SQLite's `data_version`, which moves each time another
/// connection commits, and stays while this one only reads. A long-running reader (`serve`) reads the store
/// again only when it moved.
extension UsageStore {
    public func dataVersion() throws(StoreError) -> Int64 {
        try locked { database throws(StoreError) in try database.prepare("PRAGMA data_version").rows().first?.int(0) ?? 0 }
    }
}
