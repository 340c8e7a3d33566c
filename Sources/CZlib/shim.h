#ifndef CZLIB_SHIM_H
#define CZLIB_SHIM_H

// The system's zlib, for the feed server's gzip bodies only (FeedServing's `GzipBody`).
#include <zlib.h>

#endif
