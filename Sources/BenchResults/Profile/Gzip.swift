internal import CZlib

/// gzip (RFC 1952) through the system's zlib: how kept profiles are written, beside a run's files and
/// in the store.
public enum Gzip {
    /// Something that is not a whole gzip member, or that zlib could not handle.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// `bytes` as one gzip member at zlib's default level.
    public static func compress(_ bytes: [UInt8]) throws -> [UInt8] {
        var stream = z_stream()
        // deflateInit2 is a C macro: its function, with the version and size it passes. Window bits
        // 15 + 16 ask for the gzip wrapper.
        guard
            deflateInit2_(
                &stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { throw Failure(description: "zlib could not start compressing") }
        defer { deflateEnd(&stream) }
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
        guard status == Z_STREAM_END else { throw Failure(description: "zlib could not compress (status \(status))") }
        output.removeSubrange(Int(stream.total_out)...)
        return output
    }

    /// The bytes of the gzip member `bytes`, at most `limit` of them.
    ///
    /// - Throws: ``Failure`` for bytes that are not a whole gzip member (truncated, damaged, of
    ///   another format), or that would inflate beyond `limit`.
    public static func decompress(_ bytes: [UInt8], limit: Int = 256 << 20) throws -> [UInt8] {
        var stream = z_stream()
        guard inflateInit2_(&stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw Failure(description: "zlib could not start inflating")
        }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var status = Z_OK
        try bytes.withUnsafeBufferPointer { source in
            stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
            stream.avail_in = uInt(source.count)
            while status == Z_OK {
                let produced = chunk.withUnsafeMutableBufferPointer { target -> Int in
                    stream.next_out = target.baseAddress
                    stream.avail_out = uInt(target.count)
                    status = inflate(&stream, Z_NO_FLUSH)
                    return target.count - Int(stream.avail_out)
                }
                output += chunk[..<produced]
                guard output.count <= limit else { throw Failure(description: "inflates beyond \(limit) bytes") }
                if status == Z_BUF_ERROR && stream.avail_in == 0 { break }
            }
        }
        guard status == Z_STREAM_END else {
            throw Failure(
                description: status == Z_OK || status == Z_BUF_ERROR
                    ? "the gzip data ends before its end (truncated)"
                    : "not gzip data, or damaged (zlib status \(status))")
        }
        return output
    }
}
