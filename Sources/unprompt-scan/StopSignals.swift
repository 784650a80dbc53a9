import Foundation

/// SIGINT and SIGTERM (and, for `today --live`, SIGHUP) ask a long-running command (`watch`, `serve`,
/// `today --live`) to stop: the handler only writes one byte to the command's stop pipe (`write` is
/// async-signal-safe), which wakes its `poll` and is seen as the stop flag between two pieces of work.
enum StopSignals {
    nonisolated(unsafe) static var descriptor: Int32 = -1
    nonisolated(unsafe) static var signals: [Int32] = []

    /// Without a stop pipe (it could not be made) the default actions stay: a signal still ends the process.
    static func install(wakingUp descriptor: Int32, signals: [Int32] = [SIGINT, SIGTERM]) {
        guard descriptor >= 0 else { return }
        self.descriptor = descriptor
        self.signals = signals
        for signal in signals {
            var action = sigaction()
            #if os(Linux)
                action.__sigaction_handler.sa_handler = { _ in
                    var byte: UInt8 = 1
                    _ = write(StopSignals.descriptor, &byte, 1)
                }
            #else
                action.__sigaction_u.__sa_handler = { _ in
                    var byte: UInt8 = 1
                    _ = write(StopSignals.descriptor, &byte, 1)
                }
            #endif
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(signal, &action, nil)
        }
        // A parent may have started us with these blocked (a blocked mask is inherited through exec).
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for signal in signals { sigaddset(&unblock, signal) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
    }

    static func restore() {
        for number in signals { signal(number, SIG_DFL) }
    }
}
