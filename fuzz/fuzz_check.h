// FUZZ_CHECK: the fuzz targets' assertion. A failed check prints the
// condition and its place and abort()s, so libFuzzer (or the standalone
// driver's crash file) keeps the input. Unlike assert() it is never compiled
// out.
// Thread-safety: stateless.
#pragma once

#include <cstdio>
#include <cstdlib>

#define FUZZ_CHECK(cond)                                                            \
  do {                                                                              \
    if (!(cond)) {                                                                  \
      fprintf(stderr, "%s:%d: FUZZ_CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      abort();                                                                      \
    }                                                                               \
  } while (0)
