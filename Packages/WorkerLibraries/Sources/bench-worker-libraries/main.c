// Prints the path of each library a counting worker of `bench` preloads, as this process loaded
// them (from beside itself: SwiftPM builds all three files into one directory).

#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>

#include <FrozenClock.h>
#include <interposer.h>

/// Prints "NAME: PATH" for the library that holds `symbol`; 1 when it is not found.
static int print_library(const char *name, void *symbol) {
    Dl_info info;
    if (dladdr(symbol, &info) == 0 || info.dli_fname == NULL) {
        fprintf(stderr, "bench-worker-libraries: %s is not loaded\n", name);
        return 1;
    }
    printf("%s: %s\n", name, info.dli_fname);
    return 0;
}

int main(void) {
    int missing = print_library("libFrozenClock.so", (void *)&frozen_clock_is_frozen);
    missing += print_library("libMallocInterposerSwift.so", (void *)&malloc_interposer_reset);
    return missing == 0 ? 0 : 1;
}
