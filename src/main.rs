fn main() -> std::process::ExitCode {
    keep_freed_memory();
    evidence::cli::main()
}

/// A build allocates and frees a page's HTML and a table's rows by the hundred kilobytes,
/// a page after another on each thread. glibc gives the top of a thread's heap back to
/// the system as soon as it is free, and the next page faults those pages in again: with
/// 10^5 probe cases a third of the build's time went to page faults. Keeping 64 MiB of
/// freed heap per arena (`M_TOP_PAD`) ends that without raising the peak, which counts
/// only the pages touched (measured: 170,000 page faults down to 48,000, peak RSS the same).
/// A block above glibc's mmap threshold (128 KiB at first, raised as such blocks are freed)
/// is mapped for itself and unmapped when freed, so those pages fault in anew each time:
/// a fixed threshold of 32 MiB keeps page-sized blocks in the heap (10^6 probe cases:
/// 107,000 to 317,000 page faults from one build to the next, 103,000 every time with it;
/// peak RSS the same, at 10^4 pages too).
fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` sets one parameter of glibc's allocator, before any thread starts;
    // a value it refuses leaves the default in place (its return value says so).
    unsafe {
        libc::mallopt(libc::M_TOP_PAD, 64 << 20);
        libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
    }
}
