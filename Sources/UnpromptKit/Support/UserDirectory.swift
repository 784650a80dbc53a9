/// The folders where Unprompt keeps a person's files of one kind, one rule for all: on Linux the XDG base
/// directory (its variable when set and not empty, else its default below home) with `unprompt` in it; on macOS the
/// matching folder of `~/Library`.
package enum UserDirectory: Sendable {
    /// Settings and the price override (`ConfigDirectory`).
    case config
    /// What can be made again (`CacheDirectory`).
    case cache
    /// The store.
    case data

    package func path(environment: [String: String], home: String) -> String {
        #if os(macOS)
            switch self {
            case .config, .data: return home + "/Library/Application Support/Unprompt"
            case .cache: return home + "/Library/Caches/Unprompt"
            }
        #else
            let (variable, fallback) =
                switch self {
                case .config: ("XDG_CONFIG_HOME", "/.config")
                case .cache: ("XDG_CACHE_HOME", "/.cache")
                case .data: ("XDG_DATA_HOME", "/.local/share")
                }
            let base = environment[variable].flatMap { $0.isEmpty ? nil : $0 } ?? home + fallback
            return base + "/unprompt"
        #endif
    }
}
