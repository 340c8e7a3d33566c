import BenchResults
import Foundation

/// The feed server's gzip bodies: which requests take one, and the body compressed.
///
/// A body is compressed whole, before its first byte is sent, as one gzip member (RFC 1952) at
/// zlib's default level; the link then paces the compressed bytes. gzip is the only coding offered:
/// the suite's client asks for `gzip` or `identity`, and a client that lists several (curl's
/// `--compressed`: `deflate, gzip, br, zstd`) gets gzip.
enum GzipBody {
    /// Whether a request's `Accept-Encoding` takes a gzip body (RFC 9110, 12.5.3): `gzip` or
    /// `x-gzip` listed with a weight above 0, or `*` above 0 when gzip is not listed at all.
    ///
    /// - Parameter fields: the request's `Accept-Encoding` field values, as sent.
    /// - Returns: `true` where a gzip body may be sent.
    static func accepted(_ fields: [String]) -> Bool {
        var gzip: Double?
        var any: Double?
        for field in fields.flatMap({ $0.split(separator: ",") }) {
            let parameters = field.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let coding = parameters.first?.lowercased() else { continue }
            var weight = 1.0
            for parameter in parameters.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map {
                    $0.trimmingCharacters(in: .whitespaces)
                }
                if pair.count == 2, pair[0].lowercased() == "q" { weight = Double(pair[1]) ?? 0 }
            }
            switch coding {
            case "gzip", "x-gzip": gzip = max(gzip ?? 0, weight)
            case "*": any = max(any ?? 0, weight)
            default: break
            }
        }
        return (gzip ?? any ?? 0) > 0
    }

    /// `bytes` as one gzip member (``Gzip/compress(_:)``), or `nil` if zlib fails (the body is then
    /// sent as it is).
    static func compressed(_ bytes: [UInt8]) -> [UInt8]? { try? Gzip.compress(bytes) }
}
