#ifndef CLIBCRYPTO_SHIM_H
#define CLIBCRYPTO_SHIM_H

// OpenSSL's libcrypto, the system's, for SHA-256 only (SongFeed's `SHA256Digest`: the digests of
// songs, feeds and stored runs). Its EVP interface, which OpenSSL 3 keeps undeprecated.
#include <openssl/evp.h>

#endif
