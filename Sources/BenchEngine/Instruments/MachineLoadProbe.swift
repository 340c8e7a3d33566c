import BenchResults
import Foundation

/// Reads how busy the machine is while a run measures (Linux; elsewhere the figures are `nil`).
///
/// CPU pressure comes from the kernel's pressure stall information: `/proc/pressure/cpu` counts,
/// in microseconds, the time during which at least one runnable task waited for a CPU. Over a
/// run, its growth divided by the run's time is the share of the time other work (or ours)
/// competed for the cores. The load average comes from `/proc/loadavg`.
public struct MachineLoadProbe: Sendable {
    private let pressureAtStart: UInt64?
    private let startedAt: UInt64

    /// Starts watching.
    public static func start() -> MachineLoadProbe {
        MachineLoadProbe(pressureAtStart: cpuPressureMicroseconds(), startedAt: monotonicNanoseconds())
    }

    /// What was seen since ``start()``.
    public func finish() -> MachineLoad {
        let elapsed = Double(monotonicNanoseconds() - startedAt) / 1000
        var pressure: Double?
        if let start = pressureAtStart, let end = Self.cpuPressureMicroseconds(), elapsed > 0, end >= start {
            pressure = min(1, Double(end - start) / elapsed)
        }
        return MachineLoad(
            cpuPressure: pressure, loadAverage: Self.loadAverage(), cores: ProcessInfo.processInfo.activeProcessorCount)
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
