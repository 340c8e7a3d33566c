#ifndef CEXPAT_SHIM_H
#define CEXPAT_SHIM_H

// expat for the FeedParsers module only.
#include <expat.h>

#endif
