/// The documented exit statuses (README.md, "Exit status").
enum ExitCode: Int32 {
    case success = 0
    /// The command ran, but some sources (or directories holding them) could not be read; they are
    /// reported, and nothing of them was counted.
    case sourcesUnreadable = 1
    case usage = 2
    /// A descriptor (or a file given to `readers validate`) is invalid.
    case invalidDescriptor = 3
    /// The store cannot be opened or written: damaged, from a newer version, or not writable.
    case store = 4
    /// The price table, the user's price override or the water method file is invalid or missing.
    case invalidData = 5
    /// The settings file is invalid (`file:line:col` on stderr) or cannot be written.
    case settings = 6
}
