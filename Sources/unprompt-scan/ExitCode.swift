/// The documented exit statuses (the usage text, README.md and the man page say them from `meaning`).
enum ExitCode: Int32, CaseIterable {
    case success = 0
    /// The command ran, but some sources (or directories holding them) could not be read, or the sync folder
    /// held a refused export or could not be used; they are reported, and nothing of them was counted.
    case sourcesUnreadable = 1
    case usage = 2
    /// A descriptor (or a file given to `readers validate`) is invalid.
    case invalidDescriptor = 3
    /// The store cannot be opened or written: damaged, from a newer version, or not writable; or a view of it
    /// was shown, but the store holds something wrong (`StoreProblem`, said after the view).
    case store = 4
    /// The price table, the user's price override or the water method file is invalid or missing.
    case invalidData = 5
    /// The settings file is invalid (`file:line:col` on stderr) or cannot be written.
    case settings = 6
    /// The file `report` writes cannot be written, or the address `serve` listens on cannot be used.
    case unavailable = 7
    /// `readers test`: a fixture case gave other figures than its `expected.json`.
    case fixturesFailed = 8

    var meaning: String {
        switch self {
        case .success: "done"
        case .sourcesUnreadable:
            "done, but some sources, or directories holding them, could not be read, or a device's export in the sync folder was refused (or the folder could not be used): they are reported, and nothing of them was counted"
        case .usage: "usage error (unknown command or option, an option the command does not take, a missing value, an unknown reader)"
        case .invalidDescriptor: "a descriptor is invalid (file:line:col on stderr)"
        case .store:
            "the store cannot be opened or written (damaged, from a newer version, or not writable), or a view was shown but the store holds something wrong (said on stderr)"
        case .invalidData:
            "the price table, your prices.json or the water method file is missing or invalid (the file, row and field on stderr)"
        case .settings: "the settings file is invalid (file:line:col on stderr) or cannot be written"
        case .unavailable: "report cannot write its file, or serve cannot listen on its address (in use, or not this machine's)"
        case .fixturesFailed: "readers test: a fixture case failed (its first difference is printed)"
        }
    }

    /// The status to end with when two things each gave one: the larger.
    static func worst(_ a: ExitCode, _ b: ExitCode) -> ExitCode { a.rawValue >= b.rawValue ? a : b }
}
