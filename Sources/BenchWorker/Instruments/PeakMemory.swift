import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The memory of a worker process: its own peak resident set, and the peak of one parse.
///
/// On Linux the figures come from `/proc/self/status`: `VmHWM` is the high-water mark of this
/// process's own address space (which `exec` starts afresh), `VmRSS` its resident set now. The
/// parent's `wait4` figure (`ru_maxrss`) is not used: measured here (glibc 2.36, Linux 6.x), a
/// child started by `posix_spawn` with file actions reports a `ru_maxrss` that includes the
/// *parent's* high-water mark (a parent holding 200 MiB made `/bin/true` report 206 MB).
///
/// A worker's lifetime peak is dominated by loading (and hashing) its feed: at 30,000 songs
/// (89.8 MB) every worker peaks near 200 MiB whatever it parses. What a parse itself needs is a
/// ``Window``: the high-water mark is reset to the resident set just before the parse (writing `5`
/// to `/proc/self/clear_refs`), and read after it; the rise is the parse's own peak.
package enum PeakMemory {
    /// The peak resident set of this process in bytes, or `nil` when the system does not say.
    package static func currentProcessPeakBytes() -> Int? {
        #if os(Linux)
            return status()?.peak
        #else
            var usage = rusage()
            guard getrusage(RUSAGE_SELF, &usage) == 0 else { return nil }
            return Int(usage.ru_maxrss)  // bytes on Darwin
        #endif
    }

    /// A window in which the rise of the resident set above its level at the start is measured.
    ///
    /// ```swift
    /// let window = PeakMemory.Window.open()   // the worker's peak so far is kept in `lifetimePeakBefore`
    /// let songs = try parse()
    /// let parsePeak = window?.close()         // bytes above the resident set at `open()`
    /// ```
    package struct Window: Sendable {
        /// The resident set when the window opened, bytes.
        package var residentAtStart: Int
        /// The process's high-water mark before the window reset it, bytes.
        package var lifetimePeakBefore: Int

        /// Resets the high-water mark to the current resident set; `nil` where that cannot be done
        /// (not Linux, or `/proc/self/clear_refs` not writable).
        package static func open() -> Window? {
            #if os(Linux)
                guard let before = status() else { return nil }
                let descriptor = Glibc.open("/proc/self/clear_refs", O_WRONLY)
                guard descriptor >= 0 else { return nil }
                defer { Glibc.close(descriptor) }
                var five: UInt8 = 0x35  // "5": reset the peak resident set to the current one
                guard write(descriptor, &five, 1) == 1, let reset = status() else { return nil }
                return Window(residentAtStart: reset.resident, lifetimePeakBefore: before.peak)
            #else
                return nil
            #endif
        }

        /// The rise of the resident set's high-water mark since ``open()``, bytes (never negative).
        package func close() -> Int? {
            #if os(Linux)
                guard let now = PeakMemory.status() else { return nil }
                return max(0, now.peak - residentAtStart)
            #else
                return nil
            #endif
        }
    }

    #if os(Linux)
        /// `VmHWM` and `VmRSS` of this process, bytes.
        static func status() -> (peak: Int, resident: Int)? {
            guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
            var peak: Int?
            var resident: Int?
            for line in text.split(separator: "\n") {
                // "VmHWM:   27420 kB"
                if line.hasPrefix("VmHWM:") { peak = Int(line.dropFirst(6).filter(\.isNumber)).map { $0 * 1024 } }
                if line.hasPrefix("VmRSS:") { resident = Int(line.dropFirst(6).filter(\.isNumber)).map { $0 * 1024 } }
            }
            guard let peak, let resident else { return nil }
            return (peak, resident)
        }
    #endif
}
