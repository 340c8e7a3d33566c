#ifndef FROZEN_CLOCK_H
#define FROZEN_CLOCK_H

/// `time()`, frozen at the second named by the environment variable `BENCH_FROZEN_TIME` (whole
/// seconds since 1970) in a process that has it, and the real time elsewhere.
///
/// Why: libxml2 2.9 seeds the hashes of its dictionaries from `time(NULL)` and has no switch to
/// fix the seed; a different seed moves the instructions of a parse by thousands. The counted
/// worker of `bench run --counter instructions` runs with this library first in `LD_PRELOAD` and
/// the variable set, so two runs a second apart count the same. Only `time()` is replaced: the
/// monotonic and real-time clocks read with `clock_gettime` are left alone.

/// Whether `time()` is frozen in this process: 1 when it is, 0 when it is the real time.
int frozen_clock_is_frozen(void);

#endif
