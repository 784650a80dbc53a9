import Foundation
import Testing
import UnpromptTestSupport

/// Errors that say what is true: a store in a read-only folder, or on a full disk, is not "damaged". Each case
/// runs on a small tmpfs of its own (mounting needs root; without it the case is skipped, saying why).
struct StoreDirectoryFaultTests {
    /// Mounts a tmpfs of `kilobytes` at a new folder, or says why it cannot.
    static func smallDisk(_ kilobytes: Int) -> (path: String?, whyNot: String) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("unprompt-tmpfs-\(UUID().uuidString)").path
        guard getuid() == 0 else { return (nil, "mounting a tmpfs needs root") }
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        guard mount(["-t", "tmpfs", "-o", "size=\(kilobytes)k", "tmpfs", path]) else {
            try? FileManager.default.removeItem(atPath: path)
            return (nil, "this machine does not allow mounting a tmpfs")
        }
        return (path, "")
    }

    static func mount(_ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/mount")
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    static func unmount(_ path: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/umount")
        process.arguments = [path]
        try? process.run()
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: path)
    }

    static let log = ".claude/projects/p/a.jsonl"
    static let daily = ["daily", "--since", "2026-01-01", "--no-scan", "--json"]

    @Test func readOnlyStoreDirectoryIsSaidAsSuchAndViewsStillRead() throws {
        let disk = Self.smallDisk(4096)
        guard let mounted = disk.path else {
            print("skipped: a read-only store directory: \(disk.whyNot)")
            return
        }
        defer { Self.unmount(mounted) }
        let home = try HostileHome("readonly-store")
        defer { home.remove() }
        try home.write(HostileHome.claudeRecord("a", input: "100"), at: Self.log)
        let store = mounted + "/usage.sqlite"
        #expect(try home.run(["--store", store]).status == 0)
        let before = try home.run(Self.daily + ["--store", store])
        #expect(before.status == 0)
        #expect(Self.mount(["-o", "remount,ro", mounted]))
        let view = try home.run(Self.daily + ["--store", store])
        #expect(view.status == 0, "a view needs no writing: \(view.stderr)")
        #expect(view.stdout == before.stdout)
        let scan = try home.run(["--store", store])
        #expect(scan.status == 4)
        #expect(scan.stderr.contains("cannot write the store's directory (read-only"), "\(scan.stderr)")
        #expect(!scan.stderr.contains("damaged"), "\(scan.stderr)")
    }

    @Test func diskFullIsSaidAsSuchAndTheStoreStillReads() throws {
        let disk = Self.smallDisk(2048)
        guard let mounted = disk.path else {
            print("skipped: a full disk: \(disk.whyNot)")
            return
        }
        defer { Self.unmount(mounted) }
        let home = try HostileHome("full-disk")
        defer { home.remove() }
        try home.write(HostileHome.claudeRecord("a", input: "100"), at: Self.log)
        let store = mounted + "/usage.sqlite"
        #expect(try home.run(["--store", store]).status == 0)
        let before = try home.run(Self.daily + ["--store", store])
        // Fill the disk to its last block.
        let fill = FileHandle(forWritingAtPath: mounted + "/fill") ?? {
            FileManager.default.createFile(atPath: mounted + "/fill", contents: nil)
            return FileHandle(forWritingAtPath: mounted + "/fill")!
        }()
        let block = Data(count: 4096)
        while (try? fill.write(contentsOf: block)) != nil {}
        try? fill.close()
        try home.write(HostileHome.claudeRecord("a", input: "100") + HostileHome.claudeRecord("b", input: "7"), at: Self.log)
        let scan = try home.run(["--store", store])
        #expect(scan.status == 4)
        #expect(scan.stderr.contains("disk full"), "\(scan.stderr)")
        #expect(!scan.stderr.contains("damaged"), "\(scan.stderr)")
        let view = try home.run(Self.daily + ["--store", store])
        #expect(view.status == 0, "\(view.stderr)")
        #expect(view.stdout == before.stdout, "nothing half-written")
    }
}
