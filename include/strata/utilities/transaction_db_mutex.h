// TransactionDBMutex, TransactionDBCondVar and TransactionDBMutexFactory:
// RocksDB 7.8.3's interface for supplying the mutexes and condition
// variables a pessimistic TransactionDB's lock manager waits on
// (TransactionDBOptions::custom_mutex_factory).
//
// Strata's lock manager uses its own primitives: a TransactionDB opened
// with a custom factory is refused (NotSupported naming the option). The
// classes exist so that programs implementing them compile.
//
// Thread-safety: implementations must be thread-safe.
#pragma once

#include <cstdint>
#include <memory>

#include "strata/export.h"
#include "strata/status.h"

namespace strata {

class STRATA_EXPORT TransactionDBMutex {
 public:
  virtual ~TransactionDBMutex() {}
  // Blocks until the mutex is held; OK, or an error if it cannot be taken.
  virtual Status Lock() = 0;
  // Waits at most timeout_time microseconds (< 0: forever); TimedOut if the
  // mutex was not taken.
  virtual Status TryLockFor(int64_t timeout_time) = 0;
  // REQUIRES: held by this thread.
  virtual void UnLock() = 0;
};

class STRATA_EXPORT TransactionDBCondVar {
 public:
  virtual ~TransactionDBCondVar() {}
  // Releases mutex, waits for a Notify, takes mutex again.
  // REQUIRES: mutex held.
  virtual Status Wait(std::shared_ptr<TransactionDBMutex> mutex) = 0;
  // As Wait, for at most timeout_time microseconds (< 0: forever);
  // TimedOut when the time ran out (the mutex is held again either way).
  virtual Status WaitFor(std::shared_ptr<TransactionDBMutex> mutex, int64_t timeout_time) = 0;
  virtual void Notify() = 0;
  virtual void NotifyAll() = 0;
};

class STRATA_EXPORT TransactionDBMutexFactory {
 public:
  virtual std::shared_ptr<TransactionDBMutex> AllocateMutex() = 0;
  virtual std::shared_ptr<TransactionDBCondVar> AllocateCondVar() = 0;
  virtual ~TransactionDBMutexFactory() {}
};

}  // namespace strata
