internal import CByteScan

/// The C allocator's settings for this process, made once at its start, before any thread allocates.
public enum Allocator: Sendable {
    /// Keeps what the scan frees returnable to the system (on glibc: one arena, large blocks mapped on their own;
    /// see `ubs_tune_allocator`): the scan's workers free the events of every read, and a peak of memory in use
    /// then stays a peak of memory held only by what is kept. Measured by `make bench` (peak RSS).
    public static func tuneForScanning() {
        ubs_tune_allocator()
    }
}
