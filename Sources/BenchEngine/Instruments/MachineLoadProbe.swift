import BenchWorker
import BenchResults
import Foundation

/// Reads how busy the machine is while a run measures (Linux; elsewhere the figures are `nil`).
///
/// CPU pressure comes from the kernel's pressure stall information: `/proc/pressure/cpu` counts,
/// in microseconds, the time during which at least one runnable task waited for a CPU. Over a
/// run, its growth divided by the run's time is the share of the time other work (or ours)
/// competed for the cores. The load average comes from `/proc/loadavg`.
///
/// The windows ``excluding(_:)`` wraps are left out of the share, their pressure and their time
/// both: download workers side by side (`RunSettings.downloadsAtOnce`) compete with one another
/// for the cores by design, while no parse is timed, and would otherwise call every run noisy
/// (26–29% against 12% one at a time, on this 2-core machine kind).
package struct MachineLoadProbe: Sendable {
    private let pressureAtStart: UInt64?
    private let startedAt: UInt64
    private let excluded = Excluded()

    /// The pressure and the time of the windows left out, µs; added to from the thread that runs them.
    private final class Excluded: @unchecked Sendable {
        let lock = NSLock()
        var pressure: UInt64 = 0
        var elapsed: Double = 0
    }

    /// Starts watching.
    package static func start() -> MachineLoadProbe {
        MachineLoadProbe(pressureAtStart: cpuPressureMicroseconds(), startedAt: monotonicNanoseconds())
    }

    /// Runs `body`, leaving its time and the CPU pressure during it out of ``finish()``'s share.
    package func excluding<T>(_ body: () throws -> T) rethrows -> T {
        let pressure = Self.cpuPressureMicroseconds()
        let started = monotonicNanoseconds()
        defer {
            let elapsed = Double(monotonicNanoseconds() - started) / 1000
            let grown = Self.cpuPressureMicroseconds().flatMap { end in pressure.map { end >= $0 ? end - $0 : 0 } }
            excluded.lock.lock()
            excluded.pressure += grown ?? 0
            excluded.elapsed += elapsed
            excluded.lock.unlock()
        }
        return try body()
    }

    /// What was seen since ``start()``.
    package func finish() -> MachineLoad {
        let elapsed = Double(monotonicNanoseconds() - startedAt) / 1000
        var pressure: Double?
        if let start = pressureAtStart, let end = Self.cpuPressureMicroseconds(), end >= start {
            excluded.lock.lock()
            defer { excluded.lock.unlock() }
            pressure = Self.share(
                pressure: end - start, elapsed: elapsed, excludedPressure: excluded.pressure,
                excludedElapsed: excluded.elapsed)
        }
        return MachineLoad(
            cpuPressure: pressure, loadAverage: Self.loadAverage(), cores: ProcessInfo.processInfo.activeProcessorCount)
    }

    /// The share of the time (µs) outside the excluded windows during which a task waited for a CPU
    /// (µs of pressure outside them), at most 1; `nil` when no time is left.
    static func share(pressure: UInt64, elapsed: Double, excludedPressure: UInt64, excludedElapsed: Double) -> Double? {
        let time = elapsed - excludedElapsed
        guard time > 0 else { return nil }
        let waited = pressure >= excludedPressure ? pressure - excludedPressure : 0
        return min(1, Double(waited) / time)
    }

    /// The "some" total of `/proc/pressure/cpu`, µs.
    static func cpuPressureMicroseconds() -> UInt64? {
        guard let text = try? String(contentsOfFile: "/proc/pressure/cpu", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("some") }),
            let field = line.split(separator: " ").first(where: { $0.hasPrefix("total=") })
        else { return nil }
        return UInt64(field.dropFirst("total=".count))
    }

    /// The 1-minute load average.
    static func loadAverage() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8),
            let first = text.split(separator: " ").first
        else { return nil }
        return Double(first)
    }
}
