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
    /// Without a scan, open the store to write (created when missing) rather than read-only: for answers
    /// that are kept in it (`confirm`).
    public var writable = false

    public init(
        storePath: String, scan: Bool, settingsPath: String, readings: ReadingsLocation, costMode: CostMode, zone: ViewZone,
        now: Int64
    ) {
        self.storePath = storePath
        self.scan = scan
        self.settingsPath = settingsPath
        self.readings = readings
        self.costMode = costMode
        self.zone = zone
        self.now = now
    }
}

/// Why a view could not be opened, in the order the parts are opened.
public enum ViewOpeningError: Error {
    /// The settings file does not parse (`file:line:col`).
    case settings(DescriptorError)
    case readings(ReadingsUnavailable)
    case store(StoreError)
}

/// A view, opened: its queries, and the scan that brought the store up to date (nil with `scan: false`).
public struct OpenedView: Sendable {
    public let queries: UsageQueries
    public let scan: ScanReport?
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
        let confirmations: [Confirmation]
        do {
            if request.scan {
                let opened = try UsageStore(path: request.storePath)
                report = try step.run(opened, descriptors, now: request.now)
                store = opened
            } else if request.writable {
                store = try UsageStore(path: request.storePath)
            } else {
                store = FileManager.default.fileExists(atPath: request.storePath)
                    ? try UsageStore(path: request.storePath, readOnly: true) : nil
            }
            confirmations = try store?.confirmations() ?? []
        } catch {
            throw .store(error)
        }
        let queries = UsageQueries(
            store: store, readings: readings, zone: request.zone, workHours: settings.workHours, now: request.now,
            descriptors: descriptors, confirmations: confirmations)
        return OpenedView(queries: queries, scan: report)
    }
}
