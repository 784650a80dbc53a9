/// Where a person's own files for Unprompt live (settings, price override): the one rule for every such file.
public enum ConfigDirectory: Sendable {
    /// `${XDG_CONFIG_HOME:-~/.config}/unprompt` on Linux, `~/Library/Application Support/Unprompt` on macOS.
    public static func path(environment: [String: String], home: String) -> String {
        UserDirectory.config.path(environment: environment, home: home)
    }
}
