// rocksdb/cleanable.h: Cleanable (cleanup functions run at destruction or
// Reset) and SharedCleanablePtr. Strata's Cleanable has RocksDB's shape and
// is the same type here.
//
// SharedCleanablePtr: a reference-counted Cleanable. Its cleanups run when
// the last reference goes: the last SharedCleanablePtr reset or destroyed,
// or the last Cleanable it was registered with (RegisterCopyWith,
// MoveAsCleanupTo) cleaned up.
// Thread-safety: Cleanable is not thread-safe; distinct SharedCleanablePtr
// objects sharing one Cleanable may be used and dropped from different
// threads (the count is atomic), one object from one thread at a time.
#pragma once

#include "rocksdb/rocksdb_namespace.h"
#include "strata/pinnable_slice.h"

namespace rocksdb {
using Cleanable = ::strata::Cleanable;

class SharedCleanablePtr {
 public:
  // Holds nothing until Allocate().
  SharedCleanablePtr() {}
  SharedCleanablePtr(const SharedCleanablePtr& from);
  SharedCleanablePtr(SharedCleanablePtr&& from) noexcept;
  SharedCleanablePtr& operator=(const SharedCleanablePtr& from);
  SharedCleanablePtr& operator=(SharedCleanablePtr&& from) noexcept;
  ~SharedCleanablePtr();

  // Drops the current reference (if any) and holds a new, empty Cleanable.
  void Allocate();
  // Drops the reference held (the cleanups run if it was the last).
  void Reset();
  // The shared Cleanable (null when none is held).
  Cleanable& operator*();
  Cleanable* operator->();
  Cleanable* get();

  // Takes another reference, released by target's cleanup.
  void RegisterCopyWith(Cleanable* target);
  // Hands this object's reference to target's cleanup; this object then
  // holds nothing.
  void MoveAsCleanupTo(Cleanable* target);

 private:
  struct Impl;
  Impl* ptr_ = nullptr;
};
}  // namespace rocksdb
