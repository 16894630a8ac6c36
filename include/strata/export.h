// Symbol visibility for the shared library.
//
// libstrata.so is built with -fvisibility=hidden; every public class and free
// function is marked STRATA_EXPORT so that exactly the public API is exported.
// Thread-safety: not applicable (macros only).
#pragma once

#define STRATA_EXPORT [[gnu::visibility("default")]]
