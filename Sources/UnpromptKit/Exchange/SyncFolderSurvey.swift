import Foundation

/// What a sync finds in the folder before it imports (`DeviceSync`): every file's header read (a file no newer than
/// its device's import is read no further), files without a header read whole, partial files counted and left,
/// and every file refused, named by its device.
struct SyncFolderSurvey {
    let directory: String
    let own: String
    let known: [String: ImportedDevice]
    private(set) var refused: [SyncReport.Refused] = []
    /// Files still being written or not downloaded yet, left for the next sync.
    private(set) var partial = 0
    /// The largest sequence number of this device's own export in the folder.
    private(set) var ownSequenceInFolder: Int64 = 0
    /// Devices with a file no newer than their import.
    private(set) var seen: Set<String> = []
    /// Files whose header says they are newer than their device's import, to read whole.
    private(set) var newer: [String: [(entry: SyncFolder.Entry, sequence: Int64)]] = [:]
    /// Of each device's files without a header, read whole, the newest.
    private(set) var headerless: [String: PackedImport] = [:]

    init(directory: String, own: String, known: [String: ImportedDevice]) {
        self.directory = directory
        self.own = own
        self.known = known
    }

    mutating func take(_ entries: [SyncFolder.Entry]) {
        var withoutHeader: [SyncFolder.Entry] = []
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
            withoutHeader.append(entry)
        }
        var read: [String: [(entry: SyncFolder.Entry, export: PackedImport)]] = [:]
        Self.readEach(withoutHeader, in: directory) { entry, result in
            switch result {
            case .failure(let error): refuse(entry, error)
            case .success(let export) where export.device == own: ownSequenceInFolder = max(ownSequenceInFolder, export.sequence)
            case .success(let export): read[export.device, default: []].append((entry, export))
            }
        }
        headerless = read.mapValues { files in
            files.max { a, b in
                (a.export.sequence, a.export.exportedAt, a.entry.kind == .export ? 1 : 0, b.entry.name)
                    < (b.export.sequence, b.export.exportedAt, b.entry.kind == .export ? 1 : 0, a.entry.name)
            }!.export
        }
    }

    /// Notes `entry` as refused, named by its device (from the file, else its name) and that device's label (from
    /// the file, else its previous import); this device's own files are never named.
    mutating func refuse(_ entry: SyncFolder.Entry, _ error: SyncExportProblem) {
        let device = error.device ?? entry.device
        guard device != own else { return }
        refused.append(
            SyncReport.Refused(
                device: device, label: error.label ?? device.flatMap { known[$0]?.label }, copy: entry.kind == .copy, problem: error))
    }

    /// Each file read whole, checked and packed on a worker per core (`OrderedWorkPool`), with one parser per worker
    /// for all it takes (its buffers reused, not made again per file). `handle` gets each one in the order given, on
    /// the calling thread, as soon as it and those before it are read, while the workers read on.
    static func readEach(
        _ entries: [SyncFolder.Entry], in directory: String, _ handle: (SyncFolder.Entry, Result<PackedImport, SyncExportProblem>) -> Void
    ) {
        OrderedWorkPool.run(
            count: entries.count, threads: ProcessInfo.processInfo.activeProcessorCount, workerState: { JSONParser() },
            job: { parser, index in (entries[index], read(entries[index], in: directory, parser: parser)) },
            onCallingThread: handle)
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
}
