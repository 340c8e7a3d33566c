/// How the local feed server shapes a response: a round-trip delay before the first byte, then the
/// body at a limited bandwidth.
///
/// The named profiles take their downstream bandwidth and round-trip time from WebPageTest's
/// connectivity presets (`connectivity.ini`: "WiFi" 30 Mbps / 28 ms, "LTE" 12 Mbps / 70 ms,
/// "3G" 1.6 Mbps / 300 ms, "Edge" 240 kbps / 840 ms), the presets most web-performance studies
/// quote. `loopback` is unshaped. Download figures are comparable only within one profile, which
/// is why every stored sample carries its profile's name.
public enum NetworkProfile: Hashable, Sendable, CustomStringConvertible {
    case loopback
    case wifi
    case lte
    case threeG
    case edge
    /// Any bandwidth (kbit/s, 1000 bits) and round-trip time (ms).
    case custom(bandwidthKbps: Int, rttMs: Int)

    /// The links of their own that a feed server's requests may ask for (`link=1` … `link=64`): each
    /// has the profile's bandwidth, shared only by the requests that name it.
    public static let mostLinks = 64

    /// The profiles with a name, in order.
    public static let named: [NetworkProfile] = [.loopback, .wifi, .lte, .threeG, .edge]

    /// The profile called `name` ("wifi", "3g", …), or `nil`; `custom` needs its figures.
    public init?(name: String, bandwidthKbps: Int? = nil, rttMs: Int? = nil) {
        switch name.lowercased() {
        case "loopback": self = .loopback
        case "wifi": self = .wifi
        case "lte": self = .lte
        case "3g": self = .threeG
        case "edge": self = .edge
        case "custom":
            guard let bandwidthKbps, let rttMs, bandwidthKbps > 0, rttMs >= 0 else { return nil }
            self = .custom(bandwidthKbps: bandwidthKbps, rttMs: rttMs)
        default: return nil
        }
    }

    /// The name stored with every sample: "wifi", "3g", or "custom-800kbps-100ms".
    public var name: String {
        switch self {
        case .loopback: return "loopback"
        case .wifi: return "wifi"
        case .lte: return "lte"
        case .threeG: return "3g"
        case .edge: return "edge"
        case .custom(let kbps, let rtt): return "custom-\(kbps)kbps-\(rtt)ms"
        }
    }

    public var description: String {
        guard let kbps = bandwidthKbps else { return "\(name) (unshaped)" }
        return "\(name) (\(kbps >= 1_000 ? "\(Double(kbps) / 1_000) Mbit/s" : "\(kbps) kbit/s"), RTT \(rttMs) ms)"
    }

    /// The downstream bandwidth in kbit/s, `nil` when unshaped.
    public var bandwidthKbps: Int? {
        switch self {
        case .loopback: return nil
        case .wifi: return 30_000
        case .lte: return 12_000
        case .threeG: return 1_600
        case .edge: return 240
        case .custom(let kbps, _): return kbps
        }
    }

    /// The round-trip time in milliseconds, waited before the first byte of a response.
    public var rttMs: Int {
        switch self {
        case .loopback: return 0
        case .wifi: return 28
        case .lte: return 70
        case .threeG: return 300
        case .edge: return 840
        case .custom(_, let rtt): return rtt
        }
    }

    /// Bytes a second, `nil` when unshaped.
    public var bytesPerSecond: Double? { bandwidthKbps.map { Double($0) * 1_000 / 8 } }
}
