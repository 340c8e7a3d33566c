/// What a sample's figures depend on beyond the cell: the machine and the libraries it ran with.
///
/// Samples of unlike machines are never pooled into one figure.
public struct Machine: Codable, Sendable, Hashable, Comparable {
    public var host: String
    public var cpuModel: String
    public var cores: Int
    public var swiftVersion: String
    public var libxml2Version: String
    public var expatVersion: String

    public init(
        host: String, cpuModel: String, cores: Int, swiftVersion: String, libxml2Version: String, expatVersion: String
    ) {
        self.host = host
        self.cpuModel = cpuModel
        self.cores = cores
        self.swiftVersion = swiftVersion
        self.libxml2Version = libxml2Version
        self.expatVersion = expatVersion
    }

    public init(_ environment: RunEnvironment) {
        self.init(
            host: environment.host, cpuModel: environment.cpuModel, cores: environment.cores,
            swiftVersion: environment.swiftVersion, libxml2Version: environment.libxml2Version,
            expatVersion: environment.expatVersion)
    }

    /// "ci-x86 (AMD EPYC 7763, 2 cores; libxml2 2.9.14, expat 2.5.0, Swift 6.3.1)".
    public var label: String {
        let swift =
            swiftVersion.split(separator: " ").first { $0.first?.isNumber == true }.map(String.init) ?? swiftVersion
        return
            "\(host) (\(cpuModel), \(cores) core\(cores == 1 ? "" : "s"); libxml2 \(libxml2Version), expat \(expatVersion), Swift \(swift))"
    }

    public static func < (a: Machine, b: Machine) -> Bool { a.label < b.label }
}
