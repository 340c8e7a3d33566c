internal import CZlib
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

    /// `bytes` as one gzip member, or `nil` if zlib fails (the body is then sent as it is).
    static func compressed(_ bytes: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        // deflateInit2 is a C macro: its function, with the version and size it passes. Window bits
        // 15 + 16 ask for the gzip wrapper.
        let started = deflateInit2_(
            &stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
            Int32(MemoryLayout<z_stream>.size))
        guard started == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        // deflateBound (the gzip wrapper's 18 bytes included) is enough for one call with Z_FINISH
        // to write the whole member.
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))))
        let status = bytes.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                // zlib reads its input through a mutable pointer and never writes it.
                stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        output.removeSubrange(Int(stream.total_out)...)
        return output
    }
}
