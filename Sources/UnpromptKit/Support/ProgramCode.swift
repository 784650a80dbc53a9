internal import CByteScan

/// The program's code as this process holds it in memory.
enum ProgramCode {
    /// Start-up (Foundation, the descriptors and their regular expressions, discovery) runs some 10 MB of the static
    /// binary's code, and of its libraries', that a read pass never runs again, and the kernel keeps each page of it
    /// mapped, counted in the process's memory, until the process ends. Unmapping the code before a long pass gives those pages back; the
    /// pass maps back only the code it runs, each page by a minor fault (the pages stay in the page cache).
    /// Linux only; returns the bytes of code unmapped.
    @discardableResult
    static func releaseStartupPages() -> Int {
        Int(ubs_release_program_code())
    }
}
