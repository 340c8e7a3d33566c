internal import CLibCrypto

/// SHA-256 through the system's libcrypto (OpenSSL's one-shot `EVP_Digest`), in lowercase hex: the
/// digests of songs (``SongDigest``), of feed files and of a stored run's content.
package enum SHA256Digest {
    /// The lowercase hexadecimal SHA-256 of `bytes`.
    package static func hex(of bytes: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let status = bytes.withUnsafeBytes { input in
            digest.withUnsafeMutableBufferPointer { output in
                EVP_Digest(input.baseAddress, input.count, output.baseAddress, &length, EVP_sha256(), nil)
            }
        }
        // EVP_Digest fails only when libcrypto cannot allocate its context or finds no SHA-256 in its
        // default provider: no input makes it fail, and no digest could be given in its place.
        precondition(status == 1 && length == 32, "OpenSSL's EVP_Digest(SHA-256) failed")
        return hex(digest.prefix(Int(length)))
    }

    private static func hex(_ digest: ArraySlice<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(digest.count * 2)
        for byte in digest {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
