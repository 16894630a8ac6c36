// rocksdb/utilities/convenience.h: the old place of rocksdb/convenience.h;
// including it gives exactly that header (as RocksDB 7.8.3's does).
// Thread-safety: see rocksdb/convenience.h.
#pragma once

#include "rocksdb/convenience.h"
