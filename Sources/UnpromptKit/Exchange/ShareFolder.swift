import Foundation

/// A shared folder of share codes, for friends who keep one in step (a shared Syncthing or Dropbox folder, a
/// network share): each person's `share --dir DIR` writes their latest code as `unprompt-share-<friend id>.txt`
/// (the code and a newline, written whole), and `friends --dir DIR` reads every such file, conflict copies
/// included (any name starting `unprompt-share-` and ending `.txt`; names starting with a dot are files being
/// written, and are left alone). Of one friend's codes the one of the latest date is kept.
public enum ShareFolder: Sendable {
    static let prefix = "unprompt-share-"
    static let suffix = ".txt"

    public static func fileName(friend: String) -> String { prefix + friend + suffix }

    /// What the folder holds: the latest code of each friend, and each file that did not read (by the friend
    /// id in its name, when it has one).
    public struct Contents: Sendable {
        public let codes: [ShareCode]
        public let problems: [(friend: String?, problem: ShareCodeProblem)]
    }

    public static func write(_ code: ShareCode, to directory: String) throws(SyncError) {
        let name = fileName(friend: code.friend)
        try SyncFolder.write(Data((code.text + "\n").utf8), to: directory, name: name, temporary: ".\(name).\(getpid()).tmp")
    }

    public static func read(_ directory: String) throws(SyncError) -> Contents {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw SyncError(message: "the shared folder cannot be listed (\(SyncError.reason(error)))")
        }
        var latest: [String: ShareCode] = [:]
        var problems: [(friend: String?, problem: ShareCodeProblem)] = []
        for name in names.sorted() where name.hasPrefix(prefix) && name.hasSuffix(suffix) {
            let friend = String(name.dropFirst(prefix.count).prefix(16))
            let named = friend.count == 16 && friend.utf8.allSatisfy { ShareCode.nibble($0) != nil } ? friend : nil
            guard let data = FileManager.default.contents(atPath: directory + "/" + name), data.count < 4096,
                let text = String(data: data, encoding: .utf8)
            else {
                problems.append((named, .malformed("the file cannot be read as a line of text")))
                continue
            }
            do throws(ShareCodeProblem) {
                let code = try ShareCode.decode(text.trimmingCharacters(in: .whitespacesAndNewlines))
                if let held = latest[code.friend + "\(code.period)"], held.date > code.date { continue }
                latest[code.friend + "\(code.period)"] = code
            } catch {
                problems.append((named, error))
            }
        }
        return Contents(codes: latest.keys.sorted().map { latest[$0]! }, problems: problems)
    }
}
