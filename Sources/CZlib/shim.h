#ifndef CZLIB_SHIM_H
#define CZLIB_SHIM_H

// The system's zlib: the feed server's gzip bodies (FeedServing's `GzipBody`) and the kept
// profiles' compression (BenchResults' `Gzip`).
#include <zlib.h>

#endif
