import Foundation
import UnpromptKit

/// `unprompt-scan config set SETTING VALUE` and `config get SETTING [--json]`, on the settings file
/// (`--config FILE`, else `UserConfig.defaultPath`). The settings:
///
/// - `work-hours SPEC`: the written form of `WorkHours`: `"Mon-Fri 09:00-18:00"`, `"Mon-Fri 09:00-12:30
///   13:30-18:00; Sat 10:00-14:00"`, `"Sun-Thu 22:00-06:00"` for nights, or `none`; a SPEC that does not parse is
///   refused with the column of the mistake;
/// - `sync-dir DIR`: the folder every scan and watch then syncs with (kept as an absolute path; `none` stops);
/// - `device-label NAME`: this device's label in the sync folder (`none`: the neutral `device-3f2a`);
/// - `share-name NAME`: the name share codes carry (`none` removes it).
///
/// Names follow `ChosenName`. A settings file that does not parse is never overwritten.
enum ConfigCommand {
    static let settings = ["work-hours", "sync-dir", "device-label", "share-name"]

    /// `config get SETTING [--json]`.
    static func get(_ arguments: Arguments, _ operands: [String], environment: [String: String]) throws(UsageError) -> ExitCode {
        try checkSetting(operands, action: "get")
        if operands.count > 1 { throw UsageError("config get \(operands[0]) takes no argument '\(operands[1])'") }
        guard let config = SettingsLocation.load(arguments, environment) else { return .settings }
        let (key, value) = shown(operands[0], config)
        print(arguments.has("--json") ? JSON.object([(key, value.map { .string($0) } ?? .null)]).text : line(operands[0], config))
        return .success
    }

    /// `config set SETTING VALUE`: the words after the setting, so VALUE may be quoted or not.
    static func set(_ arguments: Arguments, _ operands: [String], environment: [String: String]) throws(UsageError) -> ExitCode {
        try checkSetting(operands, action: "set")
        guard var config = SettingsLocation.load(arguments, environment) else { return .settings }
        let setting = operands[0]
        let value = operands.dropFirst().joined(separator: " ")
        if value.isEmpty { throw UsageError("config set \(setting) needs a value (or none)") }
        switch setting {
        case "work-hours":
            switch WorkHours.parse(value) {
            case .success(let hours): config.workHours = hours
            case .failure(let problem):
                throw UsageError("config set work-hours: column \(problem.offset + 1) of '\(value)': \(problem.message)")
            }
        case "sync-dir":
            config.syncDirectory = value == "none" ? nil : FolderOption.absolute(value)
        default:
            var name: String?
            if value != "none" {
                if let problem = ChosenName.problem(value) { throw UsageError("config set \(setting): the name \(problem)") }
                name = value
            }
            if setting == "device-label" { config.deviceLabel = name } else { config.shareName = name }
        }
        do {
            try config.write(to: SettingsLocation.path(arguments, environment))
        } catch {
            printError("unprompt-scan: settings: \(error.description)")
            return .settings
        }
        print(line(setting, config))
        return .success
    }

    /// The JSON key and value of a setting.
    static func shown(_ setting: String, _ config: UserConfig) -> (String, String?) {
        switch setting {
        case "work-hours": ("workHours", config.workHours.isEmpty ? nil : config.workHours.description)
        case "sync-dir": ("syncDir", config.syncDirectory)
        case "device-label": ("deviceLabel", config.deviceLabel)
        default: ("shareName", config.shareName)
        }
    }

    static func line(_ setting: String, _ config: UserConfig) -> String {
        switch setting {
        case "work-hours": "work hours: \(config.workHours)"
        case "sync-dir": "sync folder: \(config.syncDirectory ?? "none (scans and watch do not sync)")"
        case "device-label": "device label: \(config.deviceLabel ?? "none (the neutral device-…)")"
        default: "share name: \(config.shareName ?? "none (share needs one)")"
        }
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
