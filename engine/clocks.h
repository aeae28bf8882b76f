/* The benchmark modes' clocks: wall time, and this process's CPU time
 * (clock() would wrap after 36 minutes where clock_t has 32 bits, as on armhf). */
#ifndef MAXIMA_ENGINE_CLOCKS_H
#define MAXIMA_ENGINE_CLOCKS_H
#include <time.h>
static inline double wall_seconds(void) {
    struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9;
}
static inline double cpu_seconds(void) {
    struct timespec t; clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t); return t.tv_sec + t.tv_nsec * 1e-9;
}
#endif
