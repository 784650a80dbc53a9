import Foundation
import UnpromptKit

/// `--config FILE`, else the platform's settings file (`UserConfig.defaultPath`).
enum SettingsLocation {
    static func path(_ arguments: Arguments, _ environment: [String: String]) -> String {
        arguments.single("--config") ?? UserConfig.defaultPath(environment: environment, home: HomeDirectory.path(environment))
    }

    /// The settings, or nil after printing the file's error (`file:line:col: …`).
    static func load(_ arguments: Arguments, _ environment: [String: String]) -> UserConfig? {
        let path = path(arguments, environment)
        do {
            return try UserConfig.load(path: path)
        } catch {
            printError("unprompt-scan: settings: \(error.description)")
            return nil
        }
    }
}
