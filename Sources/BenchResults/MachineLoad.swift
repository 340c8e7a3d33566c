/// The machine's load while a run measured, as the engine read it.
public struct MachineLoad: Codable, Sendable, Equatable {
    /// The share of the measuring time during which at least one task was waiting for a CPU
    /// (Linux pressure stall information, `/proc/pressure/cpu` "some"), 0…1; `nil` where the system
    /// does not say.
    ///
    /// The time download workers ran side by side is left out: they compete with one another by
    /// design, and no parse is timed then.
    public var cpuPressure: Double?
    /// The 1-minute load average when the measuring ended.
    public var loadAverage: Double?
    /// The machine's cores.
    public var cores: Int

    public init(cpuPressure: Double?, loadAverage: Double?, cores: Int) {
        self.cpuPressure = cpuPressure
        self.loadAverage = loadAverage
        self.cores = cores
    }
}
