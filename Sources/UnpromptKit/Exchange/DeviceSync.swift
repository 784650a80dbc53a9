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
        do {
            let entries: [SyncFolder.Entry]
            do throws(SyncError) {
                entries = try SyncFolder.entries(of: directory)
            } catch {
                throw .folder(error)
            }
            let known = Dictionary(
                try stored { () throws(StoreError) in try store.importedDevices() }.map { ($0.device, $0) }, uniquingKeysWith: { a, _ in a })
            var exports: [String: [(entry: SyncFolder.Entry, export: PackedImport)]] = [:]
            var refused: [SyncReport.Refused] = []
            var partial = 0
            var ownSequenceInFolder: Int64 = 0
            // Files whose header says they are newer than their device's import, read whole below, newest first.
            var newer: [String: [(entry: SyncFolder.Entry, sequence: Int64)]] = [:]
            var seen: Set<String> = []
            func refuse(_ entry: SyncFolder.Entry, _ error: SyncExportProblem) {
                let device = error.device ?? entry.device
                guard device != own else { return }
                refused.append(
                    SyncReport.Refused(
                        device: device, label: error.label ?? device.flatMap { known[$0]?.label }, copy: entry.kind == .copy,
                        problem: error))
            }
            var headerless: [SyncFolder.Entry] = []
            for entry in entries {
                if entry.kind == .partial {
                    partial += 1
                    continue
                }
                // A copy of this device's own export is never read (this device's history is its store).
                if entry.device == own, entry.kind == .copy { continue }
                // Only the header, when the file has one: an export no newer than its import is not read at all.
                if let header = SyncExportHeader.read(path: directory + "/" + entry.name), header.version <= SyncExport.version {
                    if header.device == own {
                        ownSequenceInFolder = max(ownSequenceInFolder, header.sequence)
                    } else if let held = known[header.device], held.sequence >= header.sequence {
                        seen.insert(header.device)
                    } else {
                        newer[header.device, default: []].append((entry, header.sequence))
                    }
                    continue
                }
                headerless.append(entry)
            }
            readEach(headerless, in: directory) { entry, result in
                switch result {
                case .failure(let error): refuse(entry, error)
                case .success(let export) where export.device == own: ownSequenceInFolder = max(ownSequenceInFolder, export.sequence)
                case .success(let export): exports[export.device, default: []].append((entry, export))
                }
            }

            // This device's export, unless the folder already holds the same.
            let last = try stored { () throws(StoreError) in try store.lastExport() }
            let fileName = SyncFolder.fileName(device: own)
            var sequence = last?.sequence ?? 0
            var wrote = false
            var bytes = 0
            let history = export ? try stored { () throws(StoreError) in try queries.exportHistory() } : DeviceHistory()
            let digest = SyncExport.digest(label: label, history: history)
            if export,
                last?.digest != digest || ownSequenceInFolder != sequence
                    || !FileManager.default.fileExists(atPath: directory + "/" + fileName)
            {
                sequence = max(sequence, ownSequenceInFolder) + 1
                let data = SyncExport.file(DeviceImport(device: own, label: label, sequence: sequence, exportedAt: queries.now, history: history))
                do throws(SyncError) {
                    try SyncFolder.write(data, to: directory, name: fileName, temporary: SyncFolder.temporaryName(device: own))
                } catch {
                    throw .folder(error)
                }
                try stored { () throws(StoreError) in
                    try store.recordExport(ExportRecord(sequence: sequence, exportedAt: queries.now, digest: digest))
                }
                wrote = true
                bytes = data.count
            }

            // Every other device's newest complete export, when it is newer than its import, each in a transaction
            // of its own (the store's own checkpoints then run while the next files are read, not all at the end).
            // Files whose header says they are newer are read whole, newest first, in rounds of one file of every
            // device still waiting, in parallel: the first that reads whole is that device's newest complete
            // export, imported as soon as it is read while the rest are still being read; a damaged one is
            // refused and the device's next file tried in the next round. Of files without a header (version 1),
            // read above, the newest is imported unless a newer file with a header reads whole.
            var imported: [SyncReport.Imported] = []
            var unchanged = 0
            var waiting = newer.keys.sorted().map { device in
                (device, newer[device]!.sorted { a, b in
                    (a.sequence, a.entry.kind == .export ? 1 : 0, b.entry.name) > (b.sequence, b.entry.kind == .export ? 1 : 0, a.entry.name)
                })
            }
            // Of each device's files without a header, the newest.
            let read = exports.mapValues { files in
                files.max { a, b in
                    (a.export.sequence, a.export.exportedAt, a.entry.kind == .export ? 1 : 0, b.entry.name)
                        < (b.export.sequence, b.export.exportedAt, b.entry.kind == .export ? 1 : 0, a.entry.name)
                }!.export
            }
            var decided: [PackedImport] = []
            for device in read.keys.sorted() {
                let newest = read[device]!
                if let held = known[device], held.sequence >= newest.sequence {
                    unchanged += 1
                    continue
                }
                // A newer file with a header, if one reads whole, is imported instead.
                if let files = newer[device], files.contains(where: { $0.sequence > newest.sequence }) { continue }
                decided.append(newest)
            }
            waiting = waiting.map { device, files in
                let held = read[device]?.sequence ?? 0
                return (device, files.filter { $0.sequence > held })
            }.filter { !$0.1.isEmpty }
            // Devices whose headerless files lost to a newer file that then did not read whole.
            var fallback = Set(waiting.map(\.0)).intersection(read.keys)
            func add(_ one: PackedImport) throws(DeviceSyncError) {
                try stored { () throws(StoreError) in
                    try store.importing(importedAt: queries.now) { batch throws(StoreError) in try batch.replace(one) }
                }
                imported.append(SyncReport.Imported(device: one.device, label: one.label, sequence: one.sequence, tokens: one.tokens))
            }
            for one in decided { try add(one) }
            while !waiting.isEmpty {
                let round = waiting.map { $0.1[0].entry }
                var failure: DeviceSyncError?
                readEach(round, in: directory) { entry, result in
                    guard failure == nil else { return }
                    switch result {
                    case .failure(let error): refuse(entry, error)
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
            // Every newer file of these was refused: their newest headerless export is imported after all.
            for device in fallback.sorted() {
                let newest = read[device]!
                if let held = known[device], held.sequence >= newest.sequence {
                    unchanged += 1
                } else {
                    try add(newest)
                }
            }
            // Devices whose every file was no newer than their import (a newer one that did not read whole aside).
            unchanged += seen.subtracting(read.keys).subtracting(imported.map(\.device)).count
            return SyncReport(
                sequence: sequence, wrote: wrote, exportBytes: bytes, imported: imported.sorted { $0.device < $1.device }, unchanged: unchanged,
                refused: refused, partial: partial, milliseconds: Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6)
        }
    }

    /// Each file read whole, checked and packed on a worker per core, each worker taking the next file until none
    /// is left, with one parser for all it takes (its buffers reused, not made again per file). `handle` gets each
    /// one in the order given, on the calling thread, as soon as it and those before it are read, while the workers
    /// read on.
    private static func readEach(
        _ entries: [SyncFolder.Entry], in directory: String,
        _ handle: (SyncFolder.Entry, Result<PackedImport, SyncExportProblem>) -> Void
    ) {
        guard !entries.isEmpty else { return }
        let next = Locked(0)
        let done = Locked<[Int: Result<PackedImport, SyncExportProblem>]>([:])
        let ready = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        for _ in 0..<min(entries.count, ProcessInfo.processInfo.activeProcessorCount) {
            DispatchQueue.global().async(group: group) {
                let parser = JSONParser()
                while let index = next.withLock({ taken -> Int? in
                    guard taken < entries.count else { return nil }
                    taken += 1
                    return taken - 1
                }) {
                    let result = read(entries[index], in: directory, parser: parser)
                    done.withLock { $0[index] = result }
                    ready.signal()
                }
            }
        }
        for index in entries.indices {
            // Each result signals once: a wake-up for a later one leaves it in `done` for its turn.
            while true {
                if let result = done.withLock({ $0.removeValue(forKey: index) }) {
                    handle(entries[index], result)
                    break
                }
                ready.wait()
            }
        }
        group.wait()
    }

    private static func read(_ entry: SyncFolder.Entry, in directory: String, parser: JSONParser) -> Result<PackedImport, SyncExportProblem> {
        do throws(SyncExportProblem) {
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + entry.name))
            } catch {
                throw SyncExportProblem(kind: .damaged, message: "it cannot be read (\(SyncError.reason(error)))", device: nil, label: nil)
            }
            return .success(try SyncExport.readPacked(file: data, parser: parser))
        } catch {
            return .failure(error)
        }
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
