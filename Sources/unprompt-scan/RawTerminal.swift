import Foundation

/// The terminal as a full-screen view needs it, and back as it was: keys read one at a time without echo
/// (Ctrl-C arrives as a key, not a signal), the alternate screen, the cursor hidden. `restore()` undoes all
/// of it, in the reverse order.
final class RawTerminal {
    private var saved: termios

    private init(saved: termios) { self.saved = saved }

    /// Switches standard input's terminal and standard output; nil when standard input is no terminal.
    static func enter() -> RawTerminal? {
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return nil }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == 0 else { return nil }
        write(enterScreen)
        return RawTerminal(saved: saved)
    }

    /// The alternate screen, cleared, the cursor hidden.
    static let enterScreen = "\u{1B}[?1049h\u{1B}[H\u{1B}[2J\u{1B}[?25l"
    /// The cursor shown, the alternate screen left.
    static let leaveScreen = "\u{1B}[?25h\u{1B}[?1049l"

    func restore() {
        Self.write(Self.leaveScreen)
        _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
    }

    /// Writes all of `text` to standard output, unbuffered.
    static func write(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Foundation.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }
}
