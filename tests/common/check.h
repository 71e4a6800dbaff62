// The host C++ unit tests' check (tests/wire, tests/fabric): a failed condition is counted
// in `failures` and printed with its place and a printf-style message; the test goes on
// (its main reports `failures` at the end).
#ifndef TESTS_COMMON_CHECK_H
#define TESTS_COMMON_CHECK_H

#include <cstdio>

static int failures = 0;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            failures++;                                                                            \
            std::printf("FAIL %s:%d: ", __FILE__, __LINE__);                                       \
            std::printf(__VA_ARGS__);                                                              \
            std::printf("\n");                                                                     \
        }                                                                                          \
    } while (0)

#endif
