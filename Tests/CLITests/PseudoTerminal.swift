import Foundation
import Testing
import UnpromptTestSupport

extension ReportCommandTests.Home {
    /// Runs the binary on a pseudo-terminal (Python's pty module) `columns` wide (its size unset when nil),
    /// returning what it wrote there, line ends as `\n`.
    func onATerminal(_ arguments: [String], environment: [String: String], columns: Int? = nil) throws -> String {
        let script = """
            import fcntl, os, pty, struct, subprocess, sys, termios
            master, slave = pty.openpty()
            if sys.argv[1] != "-":
                fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, int(sys.argv[1]), 0, 0))
            child = subprocess.Popen(sys.argv[2:], stdout=slave, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
            os.close(slave)
            out = b""
            while True:
                try:
                    chunk = os.read(master, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                out += chunk
            child.wait()
            sys.stdout.buffer.write(out)
            sys.exit(child.returncode)
            """
        let process = Binary.process(["--store", store] + arguments, environment: self.environment.merging(environment) { $1 })
        process.arguments = ["python3", "-c", script, columns.map(String.init) ?? "-", Binary.path] + (process.arguments ?? [])
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
    }
}
