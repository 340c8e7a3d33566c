#include "CCallgrind.h"

#if defined(__linux__) && defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define BENCH_CALLGRIND_REQUESTS 1
#endif
#endif

int bench_callgrind_requests_built(void) {
#ifdef BENCH_CALLGRIND_REQUESTS
    return 1;
#else
    return 0;
#endif
}

void bench_callgrind_start_instrumentation(void) {
#ifdef BENCH_CALLGRIND_REQUESTS
    CALLGRIND_START_INSTRUMENTATION;
#endif
}

void bench_callgrind_stop_instrumentation(void) {
#ifdef BENCH_CALLGRIND_REQUESTS
    CALLGRIND_STOP_INSTRUMENTATION;
#endif
}
