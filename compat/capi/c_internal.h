// c_internal.h: the structs behind the opaque handles of rocksdb/c.h, and
// the small helpers every area file of the C API shares.
//
// The C API (compat/include/rocksdb/c.h) is a thin layer over the RocksDB
// 7.8.3 C++ interface: each handle wraps the C++ object it names, and each
// function converts C arguments to C++ ones, calls the C++ interface and
// converts the result back. The same sources compile against RocksDB's own
// headers (for development and comparison) and against Strata's compat
// headers (compat/include/rocksdb/), which is what libstrata-rocksdb ships.
//
// Ownership rules (the same as RocksDB's C API):
// - Handles created by a *_create / *_open function are freed by the
//   matching *_destroy / *_close; that frees the wrapped C++ object.
// - Callback objects (comparator, merge operator, compaction filter and its
//   factory, slice transform) call their user destructor when the C++ side
//   lets go of them. Merge operators, compaction filter factories and slice
//   transforms handed to an options object, and filter policies handed to
//   block-based table options, are owned from then on by that object and
//   the databases opened with it (shared ownership); comparators and
//   compaction filters stay owned by the caller, who must keep them alive
//   while a database uses them.
// - Errors go out through `char** errptr` as malloc'd strings (SaveError).
//
// Settings Strata cannot honour and that RocksDB's C++ Options cannot
// express either (PlainTable, cuckoo tables, hash memtables, the
// compact-on-deletion collector) are recorded in rocksdb_options_t::refused;
// every open function refuses such options by name (CheckRefused).
//
// Each area file includes only the RocksDB headers of its own area, so that
// an area the compat layer cannot back yet can be replaced by a file of
// error stubs: this header needs only the core interface (db.h, options.h,
// the callback interfaces, cache and table options). Handles used by one
// area only are defined in that area's file; the indexed write batch, used
// by c_batch_wi.cc and c_txn.cc, is in c_wbwi.h.
//
// Thread safety: the helpers are thread-safe; handles follow the rules of
// the objects they wrap.
#pragma once

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "rocksdb/c.h"
#include "rocksdb/cache.h"
#include "rocksdb/compaction_filter.h"
#include "rocksdb/comparator.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/iterator.h"
#include "rocksdb/merge_operator.h"
#include "rocksdb/options.h"
#include "rocksdb/slice_transform.h"
#include "rocksdb/statistics.h"
#include "rocksdb/table.h"
#include "rocksdb/write_batch.h"

// Classes named by handles shared between area files; each area file
// includes the header that defines the one it uses.
namespace rocksdb {
class Checkpoint;
class RateLimiter;
}  // namespace rocksdb

namespace strata_capi {

// Stores s's message in *errptr (malloc'd) when s is not OK and errptr is
// not null; a message already there is freed first. Returns true on error.
bool SaveError(char** errptr, const rocksdb::Status& s);

// Reports a fixed message through errptr (for stubs and argument checks).
void SaveErrorMessage(char** errptr, const std::string& message);

// Error for a function whose feature Strata does not provide. The message
// names the function: "Not implemented: <fn>: <why>".
void NotSupported(char** errptr, const char* fn, const char* why);

// A malloc'd copy of data[0..n) (not NUL-terminated unless n covers it).
char* CopyBytes(const char* data, size_t n);
// A malloc'd, NUL-terminated copy of s.
char* CopyString(const std::string& s);

}  // namespace strata_capi

// ---- handles ----

struct rocksdb_t {
  rocksdb::DB* rep = nullptr;
};

struct rocksdb_options_t {
  rocksdb::Options rep;
  // Settings that cannot be carried by rocksdb::Options and are refused at
  // open, by C function name (see CheckRefused).
  std::vector<std::string> refused;
};

struct rocksdb_readoptions_t {
  rocksdb::ReadOptions rep;
  // Bounds and timestamps are Slices into these copies, so the caller's
  // buffers need not outlive the call that set them.
  std::string upper_bound;
  std::string lower_bound;
  std::string timestamp;
  std::string iter_start_ts;
  rocksdb::Slice upper_bound_slice;
  rocksdb::Slice lower_bound_slice;
  rocksdb::Slice timestamp_slice;
  rocksdb::Slice iter_start_ts_slice;
};

struct rocksdb_writeoptions_t {
  rocksdb::WriteOptions rep;
};

struct rocksdb_compactoptions_t {
  rocksdb::CompactRangeOptions rep;
  std::string full_history_ts_low;
  rocksdb::Slice full_history_ts_low_slice;
};

struct rocksdb_flushoptions_t {
  rocksdb::FlushOptions rep;
};

struct rocksdb_block_based_table_options_t {
  rocksdb::BlockBasedTableOptions rep;
};

// Cuckoo tables do not exist in Strata; the fields are kept only so the
// setters have somewhere to write.
struct rocksdb_cuckoo_table_options_t {
  double hash_ratio = 0.9;
  uint32_t max_search_depth = 100;
  uint32_t cuckoo_block_size = 5;
  bool identity_as_first_hash = false;
  bool use_module_hash = true;
};

struct rocksdb_universal_compaction_options_t {
  rocksdb::CompactionOptionsUniversal rep;
};

struct rocksdb_fifo_compaction_options_t {
  rocksdb::CompactionOptionsFIFO rep;
};

struct rocksdb_iterator_t {
  rocksdb::Iterator* rep = nullptr;
};

struct rocksdb_snapshot_t {
  const rocksdb::Snapshot* rep = nullptr;
};

struct rocksdb_writebatch_t {
  rocksdb::WriteBatch rep;
};

struct rocksdb_column_family_handle_t {
  rocksdb::ColumnFamilyHandle* rep = nullptr;
};

struct rocksdb_pinnableslice_t {
  rocksdb::PinnableSlice rep;
};

struct rocksdb_cache_t {
  std::shared_ptr<rocksdb::Cache> rep;
};

struct rocksdb_lru_cache_options_t {
  rocksdb::LRUCacheOptions rep;
};

struct rocksdb_memory_allocator_t {
  std::shared_ptr<rocksdb::MemoryAllocator> rep;
};

struct rocksdb_env_t {
  rocksdb::Env* rep = nullptr;
  bool is_default = false;
};

struct rocksdb_envoptions_t {
  rocksdb::EnvOptions rep;
};

struct rocksdb_logger_t {
  std::shared_ptr<rocksdb::Logger> rep;
};

struct rocksdb_dbpath_t {
  rocksdb::DbPath rep;
};

struct rocksdb_ratelimiter_t {
  std::shared_ptr<rocksdb::RateLimiter> rep;
};

struct rocksdb_livefiles_t {
  std::vector<rocksdb::LiveFileMetaData> rep;
};

struct rocksdb_column_family_metadata_t {
  rocksdb::ColumnFamilyMetaData rep;
};

struct rocksdb_level_metadata_t {
  const rocksdb::LevelMetaData* rep = nullptr;
};

struct rocksdb_sst_file_metadata_t {
  const rocksdb::SstFileMetaData* rep = nullptr;
};

struct rocksdb_ingestexternalfileoptions_t {
  rocksdb::IngestExternalFileOptions rep;
};

struct rocksdb_checkpoint_t {
  rocksdb::Checkpoint* rep = nullptr;
};

// ---- callbacks (c_callbacks.cc) ----

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
  bool ignore_snapshots = true;

  ~rocksdb_compactionfilter_t() override;
  bool Filter(int level, const rocksdb::Slice& key, const rocksdb::Slice& existing_value,
              std::string* new_value, bool* value_changed) const override;
  const char* Name() const override;
  bool IgnoreSnapshots() const override { return ignore_snapshots; }
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

struct rocksdb_comparator_t : public rocksdb::Comparator {
  void* state = nullptr;
  void (*destructor)(void*) = nullptr;
  int (*compare)(void*, const char* a, size_t alen, const char* b, size_t blen) = nullptr;
  int (*compare_ts)(void*, const char* a_ts, size_t a_tslen, const char* b_ts,
                    size_t b_tslen) = nullptr;
  int (*compare_without_ts)(void*, const char* a, size_t alen, unsigned char a_has_ts,
                            const char* b, size_t blen, unsigned char b_has_ts) = nullptr;
  const char* (*name)(void*) = nullptr;

  explicit rocksdb_comparator_t(size_t ts_size) : Comparator(ts_size) {}
  ~rocksdb_comparator_t() override;
  int Compare(const rocksdb::Slice& a, const rocksdb::Slice& b) const override;
  int CompareTimestamp(const rocksdb::Slice& a, const rocksdb::Slice& b) const override;
  int CompareWithoutTimestamp(const rocksdb::Slice& a, bool a_has_ts, const rocksdb::Slice& b,
                              bool b_has_ts) const override;
  const char* Name() const override;
  // A C comparator cannot shorten keys; leaving them whole is always valid.
  void FindShortestSeparator(std::string*, const rocksdb::Slice&) const override {}
  void FindShortSuccessor(std::string*) const override {}
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

// A filter policy handle. Built-in policies (bloom, ribbon) are wrapped:
// the handle holds the real policy and forwards to it, so the handle itself
// can be given to rocksdb_block_based_options_set_filter_policy, which takes
// ownership.
struct rocksdb_filterpolicy_t {
  std::shared_ptr<const rocksdb::FilterPolicy> rep;
};

// Perf contexts and the WAL iterator are not available (stubs); the
// handles exist so that callers holding them do not crash.
struct rocksdb_perfcontext_t {
  int unused = 0;
};
struct rocksdb_wal_iterator_t {
  int unused = 0;
};

// Memory usage is computed from DB properties and cache usage.
struct rocksdb_memory_consumers_t {
  std::vector<rocksdb_t*> dbs;
  std::vector<rocksdb_cache_t*> caches;
};
struct rocksdb_memory_usage_t {
  uint64_t mem_table_total = 0;
  uint64_t mem_table_unflushed = 0;
  uint64_t mem_table_readers_total = 0;
  uint64_t cache_total = 0;
};

namespace strata_capi {

// Returns false and reports an error if opts carries a setting in
// `refused` (named by the C function that set it).
bool CheckRefused(const rocksdb_options_t* opts, char** errptr);
// The same for a database's options and each of its families' options.
bool CheckRefusedAll(const rocksdb_options_t* db_options, int n,
                     const rocksdb_options_t* const* cf_options, char** errptr);

// Wraps a handle the C caller will own.
rocksdb_column_family_handle_t* WrapHandle(rocksdb::ColumnFamilyHandle* h);

// Column-family descriptors from parallel C arrays.
std::vector<rocksdb::ColumnFamilyDescriptor> Descriptors(int n, const char* const* names,
                                                         const rocksdb_options_t* const* options);

// Fills C's parallel value/length/error arrays from MultiGet results; a
// missing key gives NULL and length 0 with no error.
void FillMultiGet(const std::vector<rocksdb::Status>& statuses, std::vector<std::string>& values,
                  char** values_list, size_t* values_list_sizes, char** errs);

// A C++ iterator wrapped for the caller (null stays null).
rocksdb_iterator_t* WrapIterator(rocksdb::Iterator* it);

}  // namespace strata_capi
