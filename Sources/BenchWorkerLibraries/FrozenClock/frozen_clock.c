#include "FrozenClock.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

/// 0: the environment not read yet; 1: the real time; 2: frozen at `frozen_at`.
static atomic_int state = 0;
static atomic_llong frozen_at = 0;

/// Reads `BENCH_FROZEN_TIME` on the first call (not in a constructor: another library's
/// constructor may call `time()` before this one's would run). Two threads that race here read
/// the same variable and store the same values.
static int current_state(void) {
    int known = atomic_load_explicit(&state, memory_order_acquire);
    if (known != 0) return known;
    const char *text = getenv("BENCH_FROZEN_TIME");
    int found = 1;
    if (text != NULL && *text != '\0') {
        char *end = NULL;
        long long seconds = strtoll(text, &end, 10);
        if (end != NULL && *end == '\0' && seconds >= 0) {
            atomic_store_explicit(&frozen_at, seconds, memory_order_relaxed);
            found = 2;
        }
    }
    atomic_store_explicit(&state, found, memory_order_release);
    return found;
}

int frozen_clock_is_frozen(void) {
    return current_state() == 2;
}

time_t time(time_t *out) {
    time_t now;
    if (current_state() == 2) {
        now = (time_t)atomic_load_explicit(&frozen_at, memory_order_relaxed);
    } else {
        // What glibc's time() reads too: the coarse real-time clock's seconds.
        struct timespec spec;
        clock_gettime(CLOCK_REALTIME_COARSE, &spec);
        now = spec.tv_sec;
    }
    if (out != NULL) *out = now;
    return now;
}
