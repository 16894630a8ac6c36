// PinnableSlice: a Slice that either points into memory the DB keeps
// alive for it (a block of a table held in the block cache, a memory-mapped
// table whose reader it keeps open) or owns a copy. Get, MultiGet and
// GetMergeOperands fill one without copying the value when it can be
// pinned; the pin is released by Reset(), by the next fill, by a move, or
// by the destructor. RocksDB's names and semantics (rocksdb/slice.h,
// rocksdb/cleanable.h).
//
// Cleanable: a list of functions run once when the object is reset or
// destroyed (RocksDB's Cleanable). The first cleanup is stored inline, so
// pinning one resource allocates nothing; further ones go on a heap list.
//
// Thread-safety: one thread at a time.
// Invariants:
//  1. IsPinned() == the data is not in GetSelf(): it lives as long as the
//     registered cleanups have not run.
//  2. Every registered cleanup runs exactly once (Reset, destructor, or in
//     the object its cleanups were delegated or moved to).
#pragma once

#include <string>
#include <utility>

#include "strata/export.h"
#include "strata/slice.h"

namespace strata {

class STRATA_EXPORT Cleanable {
 public:
  // The function that releases a resource, with its two arguments.
  using CleanupFunction = void (*)(void* arg1, void* arg2);

  Cleanable() = default;
  ~Cleanable() { DoCleanup(); }
  Cleanable(const Cleanable&) = delete;
  Cleanable& operator=(const Cleanable&) = delete;
  Cleanable(Cleanable&& other) noexcept { TakeFrom(&other); }
  Cleanable& operator=(Cleanable&& other) noexcept {
    if (this != &other) {
      DoCleanup();
      TakeFrom(&other);
    }
    return *this;
  }

  // Adds a cleanup; function(arg1, arg2) runs at Reset or destruction.
  // A null function is ignored.
  void RegisterCleanup(CleanupFunction function, void* arg1, void* arg2) {
    if (function == nullptr) return;
    if (first_.function == nullptr) {
      first_ = Cleanup{function, arg1, arg2, nullptr};
      return;
    }
    // Later cleanups go behind the inline one (allocates).
    first_.next = new Cleanup{function, arg1, arg2, first_.next};
  }

  // Moves this object's cleanups to other (added to what it has); this
  // object is left with none.
  void DelegateCleanupsTo(Cleanable* other) {
    if (first_.function == nullptr) return;
    other->RegisterCleanup(first_.function, first_.arg1, first_.arg2);
    for (Cleanup* c = first_.next; c != nullptr;) {
      Cleanup* next = c->next;
      other->RegisterCleanup(c->function, c->arg1, c->arg2);
      delete c;
      c = next;
    }
    first_ = Cleanup{};
  }

  // Runs the cleanups; the object can be reused.
  void Reset() { DoCleanup(); }
  bool HasCleanups() const { return first_.function != nullptr; }
  // The same (RocksDB declares this one non-const).
  bool HasCleanups() { return first_.function != nullptr; }

 private:
  struct Cleanup {
    CleanupFunction function = nullptr;
    void* arg1 = nullptr;
    void* arg2 = nullptr;
    Cleanup* next = nullptr;
  };

  void DoCleanup() {
    if (first_.function == nullptr) return;
    Cleanup first = first_;
    first_ = Cleanup{};
    first.function(first.arg1, first.arg2);
    for (Cleanup* c = first.next; c != nullptr;) {
      Cleanup* next = c->next;
      c->function(c->arg1, c->arg2);
      delete c;
      c = next;
    }
  }
  void TakeFrom(Cleanable* other) {
    first_ = other->first_;
    other->first_ = Cleanup{};
  }

  Cleanup first_;
};

class STRATA_EXPORT PinnableSlice : public Slice, public Cleanable {
 public:
  PinnableSlice() : buf_(&self_space_) {}
  // Copies go to *buf (borrowed: must outlive the slice) instead of the
  // slice's own string.
  explicit PinnableSlice(std::string* buf) : buf_(buf) {}
  ~PinnableSlice() { Reset(); }

  PinnableSlice(PinnableSlice&& other) noexcept : buf_(&self_space_) { MoveFrom(&other); }
  PinnableSlice& operator=(PinnableSlice&& other) noexcept {
    if (this != &other) {
      Reset();
      MoveFrom(&other);
    }
    return *this;
  }
  PinnableSlice(const PinnableSlice&) = delete;
  PinnableSlice& operator=(const PinnableSlice&) = delete;

  // Points at s, kept alive until release(arg1, arg2) is called (releases
  // what the slice held before).
  void PinSlice(const Slice& s, CleanupFunction release, void* arg1, void* arg2) {
    Reset();
    SetSlice(s);
    RegisterCleanup(release, arg1, arg2);
    pinned_ = true;
  }
  // Points at s, kept alive by the cleanups of cleanable (moved here; may
  // be null when s outlives the slice anyway).
  void PinSlice(const Slice& s, Cleanable* cleanable) {
    Reset();
    SetSlice(s);
    if (cleanable != nullptr) cleanable->DelegateCleanupsTo(this);
    pinned_ = true;
  }
  // Points at s, which outlives the slice (no release).
  void PinSlice(const Slice& s) {
    Reset();
    SetSlice(s);
    pinned_ = true;
  }
  // Copies s into the slice's buffer.
  void PinSelf(const Slice& s) {
    Reset();
    buf_->assign(s.data(), s.size());
    SetSlice(*buf_);
  }
  // The value was written into GetSelf() directly.
  void PinSelf() {
    if (pinned_) Reset();
    SetSlice(*buf_);
  }
  std::string* GetSelf() { return buf_; }
  bool IsPinned() const { return pinned_; }

  void remove_prefix(size_t n) {
    if (pinned_) {
      Slice::remove_prefix(n);
    } else {
      buf_->erase(0, n);
      SetSlice(*buf_);
    }
  }
  void remove_suffix(size_t n) {
    if (pinned_) {
      Slice::remove_suffix(n);
    } else {
      buf_->erase(buf_->size() - n, n);
      SetSlice(*buf_);
    }
  }

  // Releases the pin (if any) and empties the slice.
  void Reset() {
    Cleanable::Reset();
    pinned_ = false;
    SetSlice(Slice());
  }

 private:
  void SetSlice(const Slice& s) { *static_cast<Slice*>(this) = s; }
  void MoveFrom(PinnableSlice* other) {
    if (other->buf_ != &other->self_space_) {
      buf_ = other->buf_;  // the caller's buffer stays where it is
      SetSlice(*other);
    } else if (other->pinned_) {
      buf_ = &self_space_;
      SetSlice(*other);
    } else {
      self_space_ = std::move(other->self_space_);
      buf_ = &self_space_;
      SetSlice(self_space_);
    }
    pinned_ = other->pinned_;
    other->DelegateCleanupsTo(this);
    other->pinned_ = false;
    other->SetSlice(Slice());
  }

  std::string self_space_;
  std::string* buf_;
  bool pinned_ = false;
};

}  // namespace strata
