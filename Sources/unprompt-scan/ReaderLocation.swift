import Foundation
import UnpromptKit

/// Where descriptors are looked for, first match wins for the built-in set:
/// `--readers-dir DIR`, else `$UNPROMPT_READERS_DIR`, else `share/unprompt-scan/readers` beside an installed
/// binary, else `readers/` of the checkout the binary was built from. A person's own descriptors in
/// `${XDG_CONFIG_HOME:-~/.config}/unprompt/readers` are always added.
enum ReaderLocation {
    static func directories(flag: String?, environment: [String: String]) -> [String] {
        var result: [String] = []
        if let flag {
            result.append(flag)
        } else if let fromEnvironment = environment["UNPROMPT_READERS_DIR"], !fromEnvironment.isEmpty {
            result.append(fromEnvironment)
        } else if let builtIn = builtInDirectory() {
            result.append(builtIn)
        }
        let personal = personalDirectory(environment)
        var isDirectory: ObjCBool = false
        if flag == nil, FileManager.default.fileExists(atPath: personal, isDirectory: &isDirectory), isDirectory.boolValue {
            result.append(personal)
        }
        return result
    }

    /// A person's own descriptors, `${XDG_CONFIG_HOME:-~/.config}/unprompt/readers`, whether or not it exists
    /// (`readers new` writes there).
    static func personalDirectory(_ environment: [String: String]) -> String {
        let config = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (HomeDirectory.path(environment) + "/.config")
        return config + "/unprompt/readers"
    }

    /// The built-in set alone: what `directories` finds first when no `--readers-dir` is given.
    static func bundledDirectory(_ environment: [String: String]) -> String? {
        directories(flag: nil, environment: environment).first { $0 != personalDirectory(environment) }
    }

    private static func builtInDirectory() -> String? { BuiltInData.directory("readers") }
}

/// The data shipped with the binary: `share/unprompt-scan/<name>` beside an installed binary's `bin/`, else
/// `<name>/` of the checkout the binary was built from (its source path is known at compile time).
enum BuiltInData {
    static func directory(_ name: String) -> String? {
        let installed = URL(fileURLWithPath: executable).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("share/unprompt-scan/" + name).path
        if FileManager.default.fileExists(atPath: installed) { return installed }
        let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(name).path
        return FileManager.default.fileExists(atPath: checkout) ? checkout : nil
    }

    /// The running binary itself (argv[0] is only a name when the shell found it on PATH), symlinks resolved. On
    /// Linux the kernel names it; Foundation's main bundle would list the binary's directory to find it (twice a
    /// run: once for the prices, once for the water method), which every command paid at start.
    private static let executable: String = {
        #if os(Linux)
        if let resolved = realpath("/proc/self/exe", nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        #endif
        return (Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])).resolvingSymlinksInPath().path
    }()
}
