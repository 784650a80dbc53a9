import Foundation

/// What one sync did: this device's export written (or found unchanged), each other device imported, or left
/// as it was, and every file refused.
public struct SyncReport: Sendable {
    /// A device whose export was imported.
    public struct Imported: Sendable, Equatable {
        public let device: String
        public let label: String
        public let sequence: Int64
        public let tokens: Int64
    }

    /// A file that was refused, and the device it belongs to when that much could be read (else the device in
    /// its name, with the label of its previous import if there is one).
    public struct Refused: Sendable, Equatable {
        public let device: String?
        public let label: String?
        public let copy: Bool
        public let problem: SyncExportProblem
    }

    /// This device's export: its sequence number, and whether it was written (false: it held the same as the
    /// one in the folder already).
    public let sequence: Int64
    public let wrote: Bool
    public let exportBytes: Int
    public let imported: [Imported]
    /// Devices whose newest export was already imported.
    public let unchanged: Int
    public let refused: [Refused]
    /// Files still being written or not downloaded yet, left for the next sync.
    public let partial: Int
    public let milliseconds: Double

    public var complete: Bool { refused.isEmpty }
}

/// `unprompt-scan sync`: this device writes its own history into the sync folder as one export
/// (`SyncExport`, `SyncFolder`), then imports the newest complete export of every other device.
///
/// - Exactly once by construction: an import replaces the device's previous import whole, in one transaction;
///   a device never imports its own export, and never exports what it imported.
/// - Newest by the export's own sequence number: an export older than the one imported (a stale copy, a
///   restored backup) changes nothing, and one no newer changes nothing either, so syncing again adds nothing.
/// - A damaged, cut or newer-version file is refused and named; the device's previous import stays.
/// - One sync at a time per store (the store's lock), so its sequence numbers never repeat.
public enum DeviceSync: Sendable {
    /// `export`: false to only import (a command that syncs every round writes its export less often).
    public static func run(_ queries: UsageQueries, directory: String, label: String, export: Bool = true) throws(DeviceSyncError)
        -> SyncReport
    {
        guard let store = queries.store else { preconditionFailure("a sync opens its store for writing") }
        let started = DispatchTime.now().uptimeNanoseconds
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .folder(SyncError(message: "the sync folder does not exist (create it, or let your sync engine create it, first)"))
        }
        let lease: ScanLease
        do {
            lease = try store.lockForScan()
        } catch {
            throw .store(error)
        }
        defer { lease.release() }
        let own = try stored { () throws(StoreError) in try store.deviceID() }
        let entries: [SyncFolder.Entry]
        do throws(SyncError) {
            entries = try SyncFolder.entries(of: directory)
        } catch {
            throw .folder(error)
        }
        let known = Dictionary(
            try stored { () throws(StoreError) in try store.importedDevices() }.map { ($0.device, $0) }, uniquingKeysWith: { a, _ in a })
        var survey = SyncFolderSurvey(directory: directory, own: own, known: known)
        survey.take(entries)
        let written = try writeExport(queries, own: own, label: label, directory: directory, export: export, ownSequenceInFolder: survey.ownSequenceInFolder)
        let (imported, unchanged) = try importNewest(&survey, into: store, importedAt: queries.now)
        return SyncReport(
            sequence: written.sequence, wrote: written.wrote, exportBytes: written.bytes, imported: imported, unchanged: unchanged,
            refused: survey.refused, partial: survey.partial, milliseconds: Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6)
    }

    /// This device's export, written unless the folder already holds the same: its sequence number, whether it was
    /// written, its size.
    private static func writeExport(
        _ queries: UsageQueries, own: String, label: String, directory: String, export: Bool, ownSequenceInFolder: Int64
    ) throws(DeviceSyncError) -> (sequence: Int64, wrote: Bool, bytes: Int) {
        let store = queries.store!
        let last = try stored { () throws(StoreError) in try store.lastExport() }
        let fileName = SyncFolder.fileName(device: own)
        let sequence = last?.sequence ?? 0
        guard export else { return (sequence, false, 0) }
        let history = try stored { () throws(StoreError) in try queries.exportHistory() }
        let digest = SyncExport.digest(label: label, history: history)
        guard last?.digest != digest || ownSequenceInFolder != sequence || !FileManager.default.fileExists(atPath: directory + "/" + fileName)
        else { return (sequence, false, 0) }
        let next = max(sequence, ownSequenceInFolder) + 1
        let data = SyncExport.file(DeviceImport(device: own, label: label, sequence: next, exportedAt: queries.now, history: history))
        do throws(SyncError) {
            try SyncFolder.write(data, to: directory, name: fileName, temporary: SyncFolder.temporaryName(device: own))
        } catch {
            throw .folder(error)
        }
        try stored { () throws(StoreError) in try store.recordExport(ExportRecord(sequence: next, exportedAt: queries.now, digest: digest)) }
        return (next, true, data.count)
    }

    /// Every other device's newest complete export, when it is newer than its import, each in a transaction of its
    /// own (the store's own checkpoints then run while the next files are read, not all at the end). Files whose
    /// header says they are newer are read whole, newest first, in rounds of one file of every device still
    /// waiting, in parallel: the first that reads whole is that device's newest complete export, imported as soon as
    /// it is read while the rest are still being read; a damaged one is refused and the device's next file tried in
    /// the next round. Of files without a header (version 1), read already, the newest is imported unless a newer
    /// file with a header reads whole. Gives the devices imported, by id, and how many were unchanged.
    private static func importNewest(_ survey: inout SyncFolderSurvey, into store: UsageStore, importedAt: Int64) throws(DeviceSyncError)
        -> (imported: [SyncReport.Imported], unchanged: Int)
    {
        var imported: [SyncReport.Imported] = []
        var unchanged = 0
        func add(_ one: PackedImport) throws(DeviceSyncError) {
            try stored { () throws(StoreError) in
                try store.importing(importedAt: importedAt) { batch throws(StoreError) in try batch.replace(one) }
            }
            imported.append(SyncReport.Imported(device: one.device, label: one.label, sequence: one.sequence, tokens: one.tokens))
        }
        let headerless = survey.headerless
        for device in headerless.keys.sorted() {
            let newest = headerless[device]!
            if let held = survey.known[device], held.sequence >= newest.sequence {
                unchanged += 1
                continue
            }
            // A newer file with a header, if one reads whole, is imported instead.
            if let files = survey.newer[device], files.contains(where: { $0.sequence > newest.sequence }) { continue }
            try add(newest)
        }
        var waiting = survey.newer.keys.sorted().map { device in
            let held = headerless[device]?.sequence ?? 0
            return (device, survey.newer[device]!.filter { $0.sequence > held }.sorted { a, b in
                (a.sequence, a.entry.kind == .export ? 1 : 0, b.entry.name) > (b.sequence, b.entry.kind == .export ? 1 : 0, a.entry.name)
            })
        }.filter { !$0.1.isEmpty }
        // Devices whose files without a header lost to a newer file, as long as none of those read whole.
        var fallback = Set(waiting.map(\.0)).intersection(headerless.keys)
        while !waiting.isEmpty {
            let round = waiting.map { $0.1[0].entry }
            var failure: DeviceSyncError?
            SyncFolderSurvey.readEach(round, in: survey.directory) { entry, result in
                guard failure == nil else { return }
                switch result {
                case .failure(let error): survey.refuse(entry, error)
                case .success(let export):
                    do throws(DeviceSyncError) {
                        try add(export)
                        fallback.remove(export.device)
                        waiting.removeAll { $0.0 == export.device }
                    } catch {
                        failure = error
                    }
                }
            }
            if let failure { throw failure }
            waiting = waiting.map { ($0.0, Array($0.1.dropFirst())) }.filter { !$0.1.isEmpty }
        }
        for device in fallback.sorted() {
            let newest = headerless[device]!
            if let held = survey.known[device], held.sequence >= newest.sequence {
                unchanged += 1
            } else {
                try add(newest)
            }
        }
        // Devices whose every file was no newer than their import (a newer one that did not read whole aside).
        unchanged += survey.seen.subtracting(headerless.keys).subtracting(imported.map(\.device)).count
        return (imported.sorted { $0.device < $1.device }, unchanged)
    }

    private static func stored<T>(_ body: () throws(StoreError) -> T) throws(DeviceSyncError) -> T {
        do {
            return try body()
        } catch {
            throw .store(error)
        }
    }
}

public enum DeviceSyncError: Error {
    case folder(SyncError)
    case store(StoreError)
}
