// Client requests to valgrind's callgrind, for the instruction-counting workers of
// `bench run --counter instructions` (see InstructionCounter in BenchEngine).
//
// The requests come from valgrind's own header, <valgrind/callgrind.h>, which Debian's valgrind
// package installs. Where it was not there when this was compiled, the functions do nothing and
// bench_callgrind_requests_built() says so: the counter then has callgrind instrument the whole
// worker from its start, as it must to count anything.

#ifndef C_CALLGRIND_H
#define C_CALLGRIND_H

/// 1 when this build can ask callgrind to start instrumenting (valgrind's header was found), else 0.
int bench_callgrind_requests_built(void);

/// Asks callgrind to start instrumenting (a worker run with --instr-atstart=no); outside valgrind,
/// or without its header, a few instructions that do nothing.
void bench_callgrind_start_instrumentation(void);

/// Asks callgrind to stop instrumenting (after the last counted parse); likewise a no-op elsewhere.
void bench_callgrind_stop_instrumentation(void);

#endif
