#ifndef CLIBCRYPTO_SHIM_H
#define CLIBCRYPTO_SHIM_H

// OpenSSL's libcrypto, the system's, for SHA-256 only (SongFeed's `SHA256Digest`: the digests of
// songs, feeds and stored runs). Its SHA-256 functions themselves, not the EVP interface: EVP's first
// use in a process loads the default provider and reads openssl.cnf, 1.2 ms measured here, and
// every worker computes a digest (a C program linked with libcrypto starts and ends in 2.46 ms
// taking one digest through EVP_Digest, 1.24 ms through SHA256_Init/Update/Final, 1.25 ms taking
// none; medians of 300 starts, 2026-12-06).
// OpenSSL 3 deprecates these functions in favour of EVP but keeps them, with the same assembly.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>

#endif
