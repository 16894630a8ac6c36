// SharedCleanablePtr (rocksdb/cleanable.h): a Cleanable with an atomic
// reference count, deleted (running its cleanups) by the last reference.
#include "rocksdb/cleanable.h"

#include <atomic>
#include <utility>

namespace rocksdb {

struct SharedCleanablePtr::Impl : public Cleanable {
  // relaxed for taking a reference (the taker already holds one);
  // acq_rel for dropping one, so the deleting thread sees every write made
  // through the other references.
  std::atomic<unsigned> refs{1};

  void Ref() { refs.fetch_add(1, std::memory_order_relaxed); }
  void Unref() {
    if (refs.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
  }
  static void UnrefCleanup(void* arg1, void* /*arg2*/) { static_cast<Impl*>(arg1)->Unref(); }
};

SharedCleanablePtr::SharedCleanablePtr(const SharedCleanablePtr& from) : ptr_(from.ptr_) {
  if (ptr_ != nullptr) ptr_->Ref();
}

SharedCleanablePtr::SharedCleanablePtr(SharedCleanablePtr&& from) noexcept : ptr_(from.ptr_) {
  from.ptr_ = nullptr;
}

SharedCleanablePtr& SharedCleanablePtr::operator=(const SharedCleanablePtr& from) {
  if (this != &from) {
    Reset();
    ptr_ = from.ptr_;
    if (ptr_ != nullptr) ptr_->Ref();
  }
  return *this;
}

SharedCleanablePtr& SharedCleanablePtr::operator=(SharedCleanablePtr&& from) noexcept {
  if (this != &from) {
    Reset();
    ptr_ = from.ptr_;
    from.ptr_ = nullptr;
  }
  return *this;
}

SharedCleanablePtr::~SharedCleanablePtr() { Reset(); }

void SharedCleanablePtr::Allocate() {
  Reset();
  ptr_ = new Impl();
}

void SharedCleanablePtr::Reset() {
  if (ptr_ != nullptr) {
    ptr_->Unref();
    ptr_ = nullptr;
  }
}

Cleanable& SharedCleanablePtr::operator*() { return *ptr_; }
Cleanable* SharedCleanablePtr::operator->() { return ptr_; }
Cleanable* SharedCleanablePtr::get() { return ptr_; }

void SharedCleanablePtr::RegisterCopyWith(Cleanable* target) {
  if (ptr_ == nullptr) return;
  ptr_->Ref();
  target->RegisterCleanup(&Impl::UnrefCleanup, ptr_, nullptr);
}

void SharedCleanablePtr::MoveAsCleanupTo(Cleanable* target) {
  if (ptr_ == nullptr) return;
  target->RegisterCleanup(&Impl::UnrefCleanup, ptr_, nullptr);
  ptr_ = nullptr;
}

}  // namespace rocksdb
