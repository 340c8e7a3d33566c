internal import CLibCrypto

/// SHA-256 through the system's libcrypto (OpenSSL's `SHA256_Init`/`Update`/`Final`, which need no
/// provider loaded first: see CLibCrypto's shim), in lowercase hex: the digests of songs
/// (``SongDigest``), of feed files and of a stored run's content.
package enum SHA256Digest {
    /// The lowercase hexadecimal SHA-256 of `bytes`.
    package static func hex(of bytes: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        var context = SHA256_CTX()
        let status = bytes.withUnsafeBytes { input in
            digest.withUnsafeMutableBufferPointer { output in
                SHA256_Init(&context) == 1 && SHA256_Update(&context, input.baseAddress, input.count) == 1
                    && SHA256_Final(output.baseAddress, &context) == 1
            }
        }
        // The three fail only on a null context or output, which these never are: no input makes
        // them fail, and no digest could be given in its place.
        precondition(status, "OpenSSL's SHA256_Init/Update/Final failed")
        return hex(digest[...])
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
