import Foundation

/// The user's home: `$HOME` when set, as every Unix tool reads it, else the account's home directory.
enum HomeDirectory {
    static func path(_ environment: [String: String]) -> String {
        environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    }
}
