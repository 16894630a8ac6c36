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
// cache.h, env.h, iterator.h, write_batch.h) and names no RocksDB class it
// does not include. Handles used by one area only are defined in that
// area's file; handles shared by a few have their own header: callbacks
// (c_callbacks.h), indexed write batches (c_wbwi.h), checkpoints
// (c_checkpoint.h), SST file writers (c_ingest.h). The functions that need
// user-defined timestamps are all in c_timestamp.cc.
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
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/iterator.h"
#include "rocksdb/options.h"
#include "rocksdb/write_batch.h"

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

// db: the DB the handle came from; the handle is released through its
// DestroyColumnFamilyHandle (c.h's destroy takes no DB), which must happen
// before that DB is closed, as with RocksDB.
struct rocksdb_column_family_handle_t {
  rocksdb::ColumnFamilyHandle* rep = nullptr;
  rocksdb::DB* db = nullptr;
};

struct rocksdb_pinnableslice_t {
  rocksdb::PinnableSlice rep;
};

struct rocksdb_cache_t {
  std::shared_ptr<rocksdb::Cache> rep;
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

namespace strata_capi {

// Returns false and reports an error if opts carries a setting in
// `refused` (named by the C function that set it).
bool CheckRefused(const rocksdb_options_t* opts, char** errptr);
// The same for a database's options and each of its families' options.
bool CheckRefusedAll(const rocksdb_options_t* db_options, int n,
                     const rocksdb_options_t* const* cf_options, char** errptr);

// The C++ object behind a callback handle, as options take it; defined by
// the callbacks area (c_callbacks.cc), so that c_options.cc needs no
// callback interface. The Take* functions give the options shared
// ownership of the handle (RocksDB's C API rules); the others borrow.
const rocksdb::Comparator* ComparatorOf(rocksdb_comparator_t* cmp);
const rocksdb::CompactionFilter* CompactionFilterOf(rocksdb_compactionfilter_t* filter);
// False when rocksdb_compactionfilter_set_ignore_snapshots(filter, 0) was
// called (refused by the options that take the filter).
bool CompactionFilterIgnoresSnapshots(rocksdb_compactionfilter_t* filter);
std::shared_ptr<rocksdb::CompactionFilterFactory> TakeCompactionFilterFactory(
    rocksdb_compactionfilterfactory_t* factory);
std::shared_ptr<rocksdb::MergeOperator> TakeMergeOperator(rocksdb_mergeoperator_t* op);
std::shared_ptr<const rocksdb::SliceTransform> TakeSliceTransform(rocksdb_slicetransform_t* st);

// Wraps a database the C caller will own.
rocksdb_t* WrapDB(rocksdb::DB* db);

// Hands out the handles DB::Open filled in, in the caller's order.
void StoreHandles(rocksdb::DB* db, const std::vector<rocksdb::ColumnFamilyHandle*>& handles,
                  rocksdb_column_family_handle_t** out);

// Wraps a handle the C caller will own.
rocksdb_column_family_handle_t* WrapHandle(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* h);

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
