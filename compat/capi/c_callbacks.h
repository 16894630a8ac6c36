// c_callbacks.h: the handles of user callbacks (comparator, merge operator,
// compaction filter and its factory, slice transform): subclasses of the
// RocksDB interfaces that call the C function pointers given at creation.
// Shared by c_callbacks.cc (which implements them) and c_options.cc (which
// installs them in options).
// Thread safety: as the interfaces they implement (called concurrently by
// the database; the user's callbacks must allow that).
#pragma once

#include <deque>
#include <memory>
#include <string>

#include "compat/capi/c_internal.h"
#include "rocksdb/compaction_filter.h"
#include "rocksdb/comparator.h"
#include "rocksdb/merge_operator.h"
#include "rocksdb/slice_transform.h"

struct rocksdb_compactionfiltercontext_t {
  rocksdb::CompactionFilter::Context rep;
};

struct rocksdb_compactionfilter_t : public rocksdb::CompactionFilter {
  void* state = nullptr;
  void (*destructor)(void*) = nullptr;
  unsigned char (*filter)(void*, int level, const char* key, size_t key_length,
                          const char* existing_value, size_t value_length, char** new_value,
                          size_t* new_value_length, unsigned char* value_changed) = nullptr;
  const char* (*name)(void*) = nullptr;
  // Strata's compaction filters always see only entries no snapshot can
  // read (RocksDB's IgnoreSnapshots() == true, its default and, since
  // RocksDB 6, its only supported value); false is refused at open
  // (c_options.cc).
  bool ignore_snapshots = true;

  ~rocksdb_compactionfilter_t() override;
  bool Filter(int level, const rocksdb::Slice& key, const rocksdb::Slice& existing_value,
              std::string* new_value, bool* value_changed) const override;
  const char* Name() const override;
};

struct rocksdb_compactionfilterfactory_t : public rocksdb::CompactionFilterFactory {
  void* state = nullptr;
  void (*destructor)(void*) = nullptr;
  rocksdb_compactionfilter_t* (*create)(void*,
                                        rocksdb_compactionfiltercontext_t* context) = nullptr;
  const char* (*name)(void*) = nullptr;

  ~rocksdb_compactionfilterfactory_t() override;
  std::unique_ptr<rocksdb::CompactionFilter> CreateCompactionFilter(
      const rocksdb::CompactionFilter::Context& context) override;
  const char* Name() const override;
};

// A comparator handle. It owns the C++ comparator that calls the user's
// functions (a plain one from c_callbacks.cc, or one with user timestamps
// from c_timestamp.cc); options borrow `rep`.
struct rocksdb_comparator_t {
  std::unique_ptr<rocksdb::Comparator> rep;
};

struct rocksdb_mergeoperator_t : public rocksdb::MergeOperator {
  void* state = nullptr;
  void (*destructor)(void*) = nullptr;
  char* (*full_merge)(void*, const char* key, size_t key_length, const char* existing_value,
                      size_t existing_value_length, const char* const* operands_list,
                      const size_t* operands_list_length, int num_operands, unsigned char* success,
                      size_t* new_value_length) = nullptr;
  char* (*partial_merge)(void*, const char* key, size_t key_length,
                         const char* const* operands_list, const size_t* operands_list_length,
                         int num_operands, unsigned char* success,
                         size_t* new_value_length) = nullptr;
  void (*delete_value)(void*, const char* value, size_t value_length) = nullptr;
  const char* (*name)(void*) = nullptr;

  ~rocksdb_mergeoperator_t() override;
  bool FullMergeV2(const MergeOperationInput& in, MergeOperationOutput* out) const override;
  bool PartialMergeMulti(const rocksdb::Slice& key, const std::deque<rocksdb::Slice>& operands,
                         std::string* new_value, rocksdb::Logger* logger) const override;
  const char* Name() const override;
};

struct rocksdb_slicetransform_t : public rocksdb::SliceTransform {
  // Set for the built-in transforms (fixed prefix, noop): every call is
  // forwarded to it and the callbacks below are unused.
  std::unique_ptr<const rocksdb::SliceTransform> builtin;
  void* state = nullptr;
  void (*destructor)(void*) = nullptr;
  const char* (*name)(void*) = nullptr;
  char* (*transform)(void*, const char* key, size_t length, size_t* dst_length) = nullptr;
  unsigned char (*in_domain)(void*, const char* key, size_t length) = nullptr;
  unsigned char (*in_range)(void*, const char* key, size_t length) = nullptr;

  ~rocksdb_slicetransform_t() override;
  const char* Name() const override;
  rocksdb::Slice Transform(const rocksdb::Slice& src) const override;
  bool InDomain(const rocksdb::Slice& src) const override;
  bool InRange(const rocksdb::Slice& src) const override;
};
