import Foundation

/// A value that several threads share, reached only inside `withLock`. The one type in the package that
/// vouches for its own thread safety (it is the one unchecked `Sendable`); everything else that crosses threads is
/// `Sendable` as the compiler checks it, or lives in one of these.
///
/// As with the standard library's `Mutex` (which needs macOS 15), the value goes in and comes out with
/// `sending`: it is handed over whole, so no reference to it is left outside the lock.
package final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: sending Value) {
        self.value = value
    }

    package func withLock<Result, Failure: Error>(_ body: (inout sending Value) throws(Failure) -> sending Result)
        throws(Failure) -> sending Result
    {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
