import Foundation

/// What standard output is: whether it gets color, and the width text is laid out for.
enum Terminal {
    /// Color only on a terminal, never with `NO_COLOR` set (to anything but the empty string,
    /// https://no-color.org) or a dumb terminal.
    static func colors(_ environment: [String: String]) -> Bool {
        isatty(STDOUT_FILENO) == 1 && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }

    /// The columns standard output is laid out for: its terminal's width (`TIOCGWINSZ`), else `COLUMNS`;
    /// nil when it is no terminal and `COLUMNS` is not set, and views print every column.
    static func width(_ environment: [String: String]) -> Int? { width(of: STDOUT_FILENO, environment) }

    /// The width of the terminal on `descriptor`, else `COLUMNS` (a positive number), else nil.
    static func width(of descriptor: Int32, _ environment: [String: String]) -> Int? {
        var size = winsize()
        if isatty(descriptor) == 1, ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        if let columns = environment["COLUMNS"].flatMap(Int.init), columns > 0 { return columns }
        return nil
    }

    /// The rows of the terminal on `descriptor`, nil when unknown.
    static func height(of descriptor: Int32) -> Int? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 else { return nil }
        return Int(size.ws_row)
    }
}
