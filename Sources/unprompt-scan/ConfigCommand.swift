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

    /// `config get work-hours [--json]`.
    static func get(_ arguments: Arguments, _ operands: [String], environment: [String: String]) throws(UsageError) -> ExitCode {
        try checkSetting(operands, action: "get")
        if operands.count > 1 { throw UsageError("config get \(operands[0]) takes no argument '\(operands[1])'") }
        guard let config = SettingsLocation.load(arguments, environment) else { return .settings }
        let hours = config.workHours
        print(
            arguments.has("--json")
                ? JSON.object([("workHours", hours.isEmpty ? .null : .string(hours.description))]).text
                : "work hours: \(hours)")
        return .success
    }

    /// `config set work-hours SPEC`: the words after the setting, so the SPEC may be quoted or not.
    static func set(_ arguments: Arguments, _ operands: [String], environment: [String: String]) throws(UsageError) -> ExitCode {
        try checkSetting(operands, action: "set")
        guard var config = SettingsLocation.load(arguments, environment) else { return .settings }
        let spec = operands.dropFirst().joined(separator: " ")
        switch WorkHours.parse(spec) {
        case .success(let hours): config.workHours = hours
        case .failure(let problem):
            throw UsageError("config set work-hours: column \(problem.offset + 1) of '\(spec)': \(problem.message)")
        }
        do {
            try config.write(to: SettingsLocation.path(arguments, environment))
        } catch {
            printError("unprompt-scan: settings: \(error.description)")
            return .settings
        }
        print("work hours: \(config.workHours)")
        return .success
    }

    static func checkSetting(_ operands: [String], action: String) throws(UsageError) {
        guard let setting = operands.first else {
            throw UsageError("config \(action) needs a setting: \(settings.joined(separator: ", "))")
        }
        guard settings.contains(setting) else {
            throw UsageError("config: unknown setting '\(setting)'; settings: \(settings.joined(separator: ", "))")
        }
    }
}
