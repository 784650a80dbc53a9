import Foundation

/// A person's settings, kept in one YAML file read with the descriptors' loader, so every error names
/// `file:line:col`: work hours, the sync folder, this device's label and the name share codes carry.
///
/// ```yaml
/// work_hours:
///   - days: Mon-Fri
///     hours: ["09:00-12:30", "13:30-18:00"]
///   - days: Sun-Thu
///     hours: "22:00-06:00"
/// sync_dir: "/home/ada/Sync/unprompt"
/// device_label: "laptop"
/// share_name: "Ada"
/// ```
///
/// A missing file means no settings. Unknown keys, and anything that does not parse, are errors: a
/// setting is never guessed.
public struct UserConfig: Sendable, Equatable {
    public var workHours: WorkHours
    /// The folder every scan and watch syncs with (an absolute path), if any.
    public var syncDirectory: String?
    /// This device's label in the sync folder (`ChosenName`); nil for the neutral `device-3f2a`.
    public var deviceLabel: String?
    /// The name share codes carry (`ChosenName`).
    public var shareName: String?

    public init(workHours: WorkHours = .none, syncDirectory: String? = nil, deviceLabel: String? = nil, shareName: String? = nil) {
        self.workHours = workHours
        self.syncDirectory = syncDirectory
        self.deviceLabel = deviceLabel
        self.shareName = shareName
    }

    /// `config.yaml` in the `ConfigDirectory`.
    public static func defaultPath(environment: [String: String], home: String) -> String {
        ConfigDirectory.path(environment: environment, home: home) + "/config.yaml"
    }

    /// The settings in `path`; none when the file does not exist.
    public static func load(path: String) throws(DescriptorError) -> UserConfig {
        guard FileManager.default.fileExists(atPath: path) else { return UserConfig() }
        return try parse(try DescriptorLoader.readText(path), file: path)
    }

    /// The settings file's keys.
    static let keys = KeySection(
        id: "settings", title: "the settings file",
        keys: [
            DescriptorKey("work_hours", "list of `{days, hours}`", .optional, default: "none", "the hours counted as work"),
            DescriptorKey("sync_dir", "absolute path", .optional, default: "none", "the folder every scan and watch syncs with"),
            DescriptorKey("device_label", "name", .optional, default: "`device-` and 4 hex digits", "this device's label in the sync folder"),
            DescriptorKey("share_name", "name", .optional, default: "none", "the name share codes carry"),
        ])
    static let workHoursKeys = KeySection(
        id: "work-hours", title: "a work-hours entry",
        keys: [
            DescriptorKey("days", "days, e.g. `Mon-Fri`", .required, "the days the hours apply to"),
            DescriptorKey("hours", "range or list of ranges, e.g. `09:00-12:30`", .required, "the work hours of those days"),
        ])

    public static func parse(_ text: String, file: String) throws(DescriptorError) -> UserConfig {
        // A file of comments and blank lines holds no settings (YAML has no document there).
        let meaningful = text.split(separator: "\n").contains { line in
            let trimmed = line.drop { $0 == " " || $0 == "\t" || $0 == "\r" }
            return !trimmed.isEmpty && !trimmed.hasPrefix("#")
        }
        guard meaningful else { return UserConfig() }
        let root = try YAMLLoader.load(text, file: file)
        let top = try MappingReader(root, file: file, section: keys)
        var config = UserConfig()
        if let node = top.optional("work_hours") { config.workHours = try workHours(node, top) }
        if let node = top.optional("sync_dir") {
            let path = try top.string(node, "sync_dir")
            guard path.hasPrefix("/") else { throw top.error(node, "expected an absolute path") }
            config.syncDirectory = path
        }
        for (key, keyPath) in [("device_label", \UserConfig.deviceLabel), ("share_name", \UserConfig.shareName)] {
            guard let node = top.optional(key) else { continue }
            let name = try top.string(node, key)
            if let problem = ChosenName.problem(name) { throw top.error(node, "the name \(problem)") }
            config[keyPath: keyPath] = name
        }
        return config
    }

    private static func workHours(_ node: YAMLNode, _ top: MappingReader) throws(DescriptorError) -> WorkHours {
        var groups: [WorkHours.Group] = []
        for (index, item) in try top.list(node, "work_hours").enumerated() {
            let context = "work_hours[\(index)]"
            let entry = try MappingReader(item, file: top.file, section: workHoursKeys, context: context)
            let daysNode = try entry.required("days")
            let daysText = try entry.string(daysNode, "\(context).days")
            let days: [Int]
            switch WorkHours.parseDays(daysText) {
            case .success(let parsed): days = parsed
            case .failure(let problem):
                throw DescriptorError(file: top.file, mark: markInside(daysNode, offset: problem.offset), message: "\(context).days: \(problem.message)")
            }
            var ranges: [WorkHours.Range] = []
            for (text, rangeNode) in try entry.strings(try entry.required("hours"), "\(context).hours") {
                switch WorkHours.parseRange(text) {
                case .success(let range): ranges.append(range)
                case .failure(let problem):
                    throw DescriptorError(
                        file: top.file, mark: markInside(rangeNode, offset: problem.offset), message: "\(context).hours: \(problem.message)")
                }
            }
            groups.append(WorkHours.Group(days: days, ranges: ranges))
        }
        return WorkHours(groups: groups)
    }

    /// The file's text: what `parse` reads back as these settings.
    public var yaml: String {
        var lines = [
            "# Unprompt settings. `unprompt-scan config set work-hours \"Mon-Fri 09:00-18:00\"` writes this file;",
            "# it may be edited by hand. Times are local, in quarter-hours; a range may run past midnight.",
        ]
        if workHours.isEmpty {
            lines.append("work_hours: []")
        } else {
            lines.append("work_hours:")
            for group in workHours.groups {
                lines.append("  - days: \"\(WorkHours.days(group.days))\"")
                lines.append("    hours: [" + group.ranges.map { "\"\(WorkHours.range($0))\"" }.joined(separator: ", ") + "]")
            }
        }
        for (key, value) in [("sync_dir", syncDirectory), ("device_label", deviceLabel), ("share_name", shareName)] {
            if let value { lines.append("\(key): \(Self.quoted(value))") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A YAML double-quoted scalar: backslash and quote escaped (names hold no control characters).
    private static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// Writes the settings to `path` whole (a temporary file renamed over it), creating its directory.
    public func write(to path: String) throws(DescriptorError) {
        let directory = (path as NSString).deletingLastPathComponent
        let temporary = path + ".tmp-\(getpid())"
        do {
            if !directory.isEmpty {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            }
            try Data(yaml.utf8).write(to: URL(fileURLWithPath: temporary))
            guard rename(temporary, path) == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: String(cString: strerror(errno))])
            }
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw DescriptorError(
                file: path, mark: SourceMark(line: 1, column: 1), message: "cannot write the settings file: \(error.localizedDescription)")
        }
    }
}
