import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The peak resident memory of the calling process, as a worker reports it at its end.
///
/// On Linux this is `VmHWM` from `/proc/self/status`: the high-water mark of this process's own
/// address space, which `exec` starts afresh. The parent's `wait4` figure (`ru_maxrss`) is not used
/// for it: measured here (glibc 2.36, Linux 6.x), a child started by `posix_spawn` with file actions
/// reports a `ru_maxrss` that includes the *parent's* high-water mark (a parent holding 200 MiB made
/// `/bin/true` report 206 MB), so it is only an upper bound.
public enum PeakMemory {
    /// The peak resident set of this process in bytes, or `nil` when the system does not say.
    public static func currentProcessPeakBytes() -> Int? {
        #if os(Linux)
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let digits = line.dropFirst("VmHWM:".count).filter(\.isNumber)
            return Int(digits).map { $0 * 1024 }  // "VmHWM:   27420 kB"
        }
        return nil
        #else
        var usage = rusage()
        guard getrusage(RUSAGE_SELF, &usage) == 0 else { return nil }
        return Int(usage.ru_maxrss)  // bytes on Darwin
        #endif
    }
}
