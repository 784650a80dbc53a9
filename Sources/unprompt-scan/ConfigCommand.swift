import Foundation
import UnpromptKit

/// `unprompt-scan config set work-hours SPEC` and `config get work-hours [--json]`, on the settings file
/// (`--config FILE`, else `UserConfig.defaultPath`).
///
/// SPEC is the written form of `WorkHours`: `"Mon-Fri 09:00-18:00"`, `"Mon-Fri 09:00-12:30 13:30-18:00; Sat
/// 10:00-14:00"`, `"Sun-Thu 22:00-06:00"` for nights, or `none`. A SPEC that does not parse is refused with
/// the column of the mistake, and a settings file that does not parse is never overwritten.
enum ConfigCommand {
    static let settings = ["work-hours"]

    static func run(_ arguments: Arguments, environment: [String: String]) throws(UsageError) -> ExitCode {
        let words = Array(arguments.words.dropFirst())
        guard let action = words.first, ["get", "set"].contains(action) else {
            throw UsageError("config takes 'get work-hours' or 'set work-hours SPEC'")
        }
        guard words.count >= 2 else { throw UsageError("config \(action) needs a setting: \(settings.joined(separator: ", "))") }
        guard words[1] == "work-hours" else {
            throw UsageError("config: unknown setting '\(words[1])'; settings: \(settings.joined(separator: ", "))")
        }
        let path = try SettingsLocation.path(arguments, environment)
        guard var config = try SettingsLocation.load(arguments, environment) else { return .settings }
        if action == "get" {
            guard words.count == 2 else { throw UsageError("config get work-hours takes nothing more") }
            let hours = config.workHours
            print(
                arguments.has("--json")
                    ? JSON.object([("workHours", hours.isEmpty ? .null : .string(hours.description))]).text
                    : "work hours: \(hours)")
            return .success
        }
        // The words after the setting, so the SPEC may be quoted or not.
        let spec = words.dropFirst(2).joined(separator: " ")
        switch WorkHours.parse(spec) {
        case .success(let hours): config.workHours = hours
        case .failure(let problem):
            throw UsageError("config set work-hours: column \(problem.offset + 1) of '\(spec)': \(problem.message)")
        }
        do {
            try config.write(to: path)
        } catch {
            printError("unprompt-scan: settings: \(error.description)")
            return .settings
        }
        print("work hours: \(config.workHours)")
        return .success
    }
}
