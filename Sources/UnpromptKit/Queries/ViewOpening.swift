import Foundation

/// What a front end asks for when it opens a view of the store.
public struct ViewRequest: Sendable {
    public var storePath: String
    /// Scan first (the store is created when missing); false: open it read-only as it is (and none when
    /// there is no store yet).
    public var scan: Bool
    /// The settings file (`UserConfig`); a missing file means no settings.
    public var settingsPath: String
    public var readings: ReadingsLocation
    public var costMode: CostMode
    public var zone: ViewZone
    /// The clock: milliseconds since 1970.
    public var now: Int64
    /// Whose usage: `all` (nil means the same), `this`, or a device's id, id prefix or label
    /// (`UsageQueries.choose(device:…)`).
    public var device: String?
    /// Without a scan, open the store to write (created when missing) rather than read-only: for answers
    /// that are kept in it (`confirm`) and for a sync that imports.
    public var writable: Bool

    public init(
        storePath: String, scan: Bool, settingsPath: String, readings: ReadingsLocation, costMode: CostMode, zone: ViewZone,
        now: Int64, device: String? = nil, writable: Bool = false
    ) {
        self.storePath = storePath
        self.scan = scan
        self.settingsPath = settingsPath
        self.readings = readings
        self.costMode = costMode
        self.zone = zone
        self.now = now
        self.device = device
        self.writable = writable
    }
}

/// Why a view could not be opened, in the order the parts are opened.
public enum ViewOpeningError: Error {
    /// The settings file does not parse (`file:line:col`).
    case settings(DescriptorError)
    case readings(ReadingsUnavailable)
    case store(StoreError)
    /// `device` names no device the store knows.
    case device(String)
}

/// A view, opened: its queries, the scan that brought the store up to date (nil with `scan: false`), what is wrong
/// with the store (`UsageStore.problems`), to be said beside the view, and the settings it was opened with.
public struct OpenedView: Sendable {
    public let queries: UsageQueries
    public let scan: ScanReport?
    public let storeProblems: [StoreProblem]
    public let settings: UserConfig
}

extension UsageQueries {
    /// Opens a view the way every front end does: the settings, then the readings, then the store, scanned
    /// with `step` unless the request says not to. `descriptors` are the readers scanned, and whose limit
    /// windows the view shows.
    public static func open(_ request: ViewRequest, descriptors: [Descriptor], step: ScanStep) throws(ViewOpeningError)
        -> OpenedView
    {
        let settings: UserConfig
        do {
            settings = try UserConfig.load(path: request.settingsPath)
        } catch {
            throw .settings(error)
        }
        let readings: Readings
        do {
            readings = try Readings.load(mode: request.costMode, location: request.readings)
        } catch {
            throw .readings(error)
        }
        let store: UsageStore?
        var report: ScanReport?
        let problems: [StoreProblem]
        let confirmations: [Confirmation]
        do {
            if request.scan {
                let opened = try UsageStore(path: request.storePath)
                report = try step.run(opened, descriptors, now: request.now)
                store = opened
            } else if request.writable {
                let opened = try UsageStore(path: request.storePath)
                try opened.refuseDamagedPagesWhenDue(now: request.now)
                store = opened
            } else {
                store = FileManager.default.fileExists(atPath: request.storePath)
                    ? try UsageStore(path: request.storePath, readOnly: true) : nil
            }
            problems = try store?.problems() ?? []
            confirmations = try store?.confirmations() ?? []
        } catch {
            throw .store(error)
        }
        let devices: DeviceSelection
        do {
            devices = try choose(device: request.device, store: store, settings: settings)
        } catch {
            switch error {
            case .store(let error): throw .store(error)
            case .unknown(let message): throw .device(message)
            }
        }
        let queries = UsageQueries(
            store: store, readings: readings, zone: request.zone, workHours: settings.workHours, now: request.now,
            descriptors: descriptors, confirmations: confirmations, devices: devices)
        return OpenedView(queries: queries, scan: report, storeProblems: problems, settings: settings)
    }
}
