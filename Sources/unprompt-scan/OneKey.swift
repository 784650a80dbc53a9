import Foundation

/// Answers read from the terminal one key at a time: standard input leaves canonical mode (no echo, no line
/// editing, no signal keys) while a key is awaited, and its settings are put back after, and on SIGTERM,
/// SIGHUP or SIGINT too. A line (a range, work hours) is read in the terminal's own mode, with echo.
enum OneKey {
    /// Both standard input and standard output are terminals: a person can answer.
    static var available: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }

    /// The terminal's settings before raw mode, for the signal handler to put back.
    nonisolated(unsafe) private static var saved = termios()
    nonisolated(unsafe) private static var raw = false

    /// Ctrl-C, Ctrl-D and Escape, read as "leave".
    static let leaveKeys: Set<UInt8> = [3, 4, 27]

    /// One key (a byte), after printing `prompt`; nil when input ended.
    static func key(_ prompt: String) -> UInt8? {
        write(prompt)
        var original = termios()
        guard tcgetattr(STDIN_FILENO, &original) == 0 else { return nil }
        var settings = original
        settings.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
        withUnsafeMutableBytes(of: &settings.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        saved = original
        installRestoringHandlers()
        raw = true
        // TCSANOW, not TCSAFLUSH: a key typed ahead (during the scan) still answers.
        tcsetattr(STDIN_FILENO, TCSANOW, &settings)
        var byte: UInt8 = 0
        var count = 0
        repeat { count = read(STDIN_FILENO, &byte, 1) } while count < 0 && errno == EINTR
        tcsetattr(STDIN_FILENO, TCSANOW, &original)
        raw = false
        for signal in [SIGTERM, SIGHUP, SIGINT] { Foundation.signal(signal, SIG_DFL) }
        return count == 1 ? byte : nil
    }

    /// One line typed with echo, after printing `prompt`; nil when input ended.
    static func line(_ prompt: String) -> String? {
        write(prompt)
        return readLine(strippingNewline: true)
    }

    static func write(_ text: String) {
        print(text, terminator: "")
        // Every stream: `print` writes through the C standard output's buffer.
        fflush(nil)
    }

    /// While raw, a signal that ends the process first puts the terminal back (`tcsetattr` is async-signal-safe).
    private static func installRestoringHandlers() {
        for signal in [SIGTERM, SIGHUP, SIGINT] {
            Foundation.signal(signal) { number in
                if OneKey.raw { tcsetattr(STDIN_FILENO, TCSANOW, &OneKey.saved) }
                Foundation.signal(number, SIG_DFL)
                raise(number)
            }
        }
    }
}
