// Mutex's debug-build check (see the header).
#include "util/mutex.h"

#include <cstdio>
#include <cstdlib>

namespace strata {

#ifndef NDEBUG
void Mutex::AssertHeldFailed() {
  std::fprintf(stderr, "strata: Mutex::AssertHeld: the calling thread does not hold the mutex\n");
  std::abort();
}
#endif

}  // namespace strata
