import Foundation
import Testing
import UnpromptTestSupport
@testable import UnpromptKit

/// Schema 7's step over a schema 6 store: the device tables and ids are added, and nothing moves.
struct DeviceSchemaTests {
    @Test func aSchemaSixStoreGainsTheDeviceTablesAndKeepsEverything() throws {
        let device = try TestDevice()
        try device.add([Moments.event("claude-code", "claude-sonnet-4-5", at: Moments.monday, input: 5, id: 1)])
        let path = device.directory + "/usage.sqlite"
        try Database(path: path, options: [.readWrite]).execute(
            LegacyStore.beforeSchemaNine + """
            DROP TABLE sync_devices; DROP TABLE sync_days; DROP TABLE sync_limits; DROP TABLE friends;
            DELETE FROM settings WHERE key IN ('device_id', 'friend_id');
            PRAGMA user_version = 6;
            """)
        #expect(throws: StoreError.self) { try UsageStore(path: path, readOnly: true) }

        let upgraded = try UsageStore(path: path)
        let id = try upgraded.deviceID()
        let friend = try upgraded.friendID()
        #expect(id.count == 32 && SyncExport.isDeviceID(id))
        #expect(friend.count == 16 && friend.allSatisfy(\.isHexDigit))
        let quarter = Moments.monday / Bucket.quarterMilliseconds
        #expect(try upgraded.buckets(fromQuarter: quarter, toQuarter: quarter + 1).map(\.counts.input) == [5])
        #expect(try upgraded.importedDevices().isEmpty)
        #expect(try upgraded.friendShares().isEmpty)

        // Made once: the ids are the same when the store is opened again.
        let reopened = try UsageStore(path: path, readOnly: true)
        #expect(try reopened.deviceID() == id && reopened.friendID() == friend)
        #expect(
            try Database(path: path, options: [.readOnly]).prepare("PRAGMA user_version").rows().first?.int(0)
                == UsageStore.schemaVersion)
    }
}
