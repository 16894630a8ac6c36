// PinnableSlice: a Slice that either points into memory the DB keeps
// alive for it (a pinned block of a table, or a memtable entry) or owns a
// copy. Get and MultiGet fill one without copying the value when it can be
// pinned; the pin is released by Reset(), by the next fill, or by the
// destructor. RocksDB's names and semantics (rocksdb/slice.h).
//
// Thread-safety: one thread at a time.
#pragma once

#include <string>
#include <utility>

#include "strata/export.h"
#include "strata/slice.h"

namespace strata {

class STRATA_EXPORT PinnableSlice : public Slice {
 public:
  // The function that releases a pin, with its two arguments.
  using CleanupFunction = void (*)(void* arg1, void* arg2);

  PinnableSlice() : buf_(&self_space_) {}
  // Copies go to *buf (owned by the caller) instead of the slice's own
  // string.
  explicit PinnableSlice(std::string* buf) : buf_(buf) {}
  ~PinnableSlice() { Reset(); }

  PinnableSlice(PinnableSlice&& other) noexcept { MoveFrom(&other); }
  PinnableSlice& operator=(PinnableSlice&& other) noexcept {
    if (this != &other) {
      Reset();
      MoveFrom(&other);
    }
    return *this;
  }
  PinnableSlice(const PinnableSlice&) = delete;
  PinnableSlice& operator=(const PinnableSlice&) = delete;

  // Points at s, kept alive until release(arg1, arg2) is called.
  void PinSlice(const Slice& s, CleanupFunction release, void* arg1, void* arg2) {
    Reset();
    SetSlice(s);
    cleanup_ = release;
    arg1_ = arg1;
    arg2_ = arg2;
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
    Reset();
    SetSlice(*buf_);
  }
  std::string* GetSelf() { return buf_; }
  bool IsPinned() const { return pinned_; }

  void remove_prefix(size_t n) { Slice::remove_prefix(n); }
  void remove_suffix(size_t n) { Slice::remove_suffix(n); }

  // Releases the pin (if any) and empties the slice.
  void Reset() {
    if (cleanup_ != nullptr) cleanup_(arg1_, arg2_);
    cleanup_ = nullptr;
    pinned_ = false;
    SetSlice(Slice());
  }

 private:
  void SetSlice(const Slice& s) { *static_cast<Slice*>(this) = s; }
  void MoveFrom(PinnableSlice* other) {
    if (other->pinned_ || other->buf_ != &other->self_space_) {
      SetSlice(*other);
      buf_ = other->buf_ == &other->self_space_ ? &self_space_ : other->buf_;
    } else {
      self_space_ = std::move(other->self_space_);
      buf_ = &self_space_;
      SetSlice(self_space_);
    }
    pinned_ = other->pinned_;
    cleanup_ = other->cleanup_;
    arg1_ = other->arg1_;
    arg2_ = other->arg2_;
    other->cleanup_ = nullptr;
    other->pinned_ = false;
    other->SetSlice(Slice());
  }

  std::string self_space_;
  std::string* buf_ = &self_space_;
  bool pinned_ = false;
  CleanupFunction cleanup_ = nullptr;
  void* arg1_ = nullptr;
  void* arg2_ = nullptr;
};

}  // namespace strata
