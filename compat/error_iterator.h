// compat/error_iterator.h: an iterator that is never valid and reports a
// fixed status; returned where RocksDB's interface must hand out an
// Iterator* but a refused option means none can be made.
// Thread-safety: not thread-safe (as every iterator).
#pragma once

#include <utility>

#include "strata/iterator.h"
#include "strata/status.h"

namespace rocksdb {
namespace compat {

class ErrorIterator final : public ::strata::Iterator {
 public:
  explicit ErrorIterator(::strata::Status status) : status_(std::move(status)) {}
  bool Valid() const override { return false; }
  void SeekToFirst() override {}
  void SeekToLast() override {}
  void Seek(const ::strata::Slice&) override {}
  void SeekForPrev(const ::strata::Slice&) override {}
  void Next() override {}
  void Prev() override {}
  ::strata::Slice key() const override { return ::strata::Slice(); }
  ::strata::Slice value() const override { return ::strata::Slice(); }
  ::strata::Status status() const override { return status_; }

 private:
  ::strata::Status status_;
};

}  // namespace compat
}  // namespace rocksdb
