// SstPartitioner: lets a program choose where compaction output files are
// cut (ColumnFamilyOptions::sst_partitioner_factory), RocksDB 7.8.3's
// interface. A compaction into level >= 1 makes one partitioner per output
// stream (per subcompaction) and, for every entry after the first of an
// output file, asks ShouldPartition with the previous and the current user
// key; kRequired closes the file before the current key (Strata never cuts
// between two versions of one user key, so a kRequired for a repeated key is
// not acted on). Flushes and compactions into level 0 are not partitioned.
// A leveled trivial move into a level above the last also asks
// CanDoTrivialMove for each file moved; false rewrites the files instead.
// Thread-safety: a factory is shared by every compaction of the family and
// must be thread-safe; a partitioner is used by one thread.
// Invariants: results depend only on the keys given, so a file cut where
// ShouldPartition says kRequired never holds keys of two partitions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "strata/export.h"
#include "strata/slice.h"

namespace strata {

// Not persisted; unscoped with RocksDB's values for source compatibility.
enum PartitionerResult : char {
  kNotRequired = 0x0,
  kRequired = 0x1,
};

// One ShouldPartition question. The pointers borrow the caller's keys for
// the duration of the call.
struct PartitionerRequest {
  PartitionerRequest(const Slice& prev_user_key_, const Slice& current_user_key_,
                     uint64_t current_output_file_size_)
      : prev_user_key(&prev_user_key_),
        current_user_key(&current_user_key_),
        current_output_file_size(current_output_file_size_) {}
  const Slice* prev_user_key;
  const Slice* current_user_key;
  // Bytes written to the current output file so far.
  uint64_t current_output_file_size;
};

class STRATA_EXPORT SstPartitioner {
 public:
  virtual ~SstPartitioner();

  virtual const char* Name() const = 0;

  // kRequired: the current key starts a new output file.
  virtual PartitionerResult ShouldPartition(const PartitionerRequest& request) = 0;

  // Whether a file whose keys span [smallest_user_key, largest_user_key] may
  // be moved to the output level unchanged.
  virtual bool CanDoTrivialMove(const Slice& smallest_user_key, const Slice& largest_user_key) = 0;

  // What the factory is told about the compaction. The key slices borrow
  // the compaction's bounds for the duration of CreatePartitioner.
  struct Context {
    bool is_full_compaction;    // every file of the family is an input
    bool is_manual_compaction;  // CompactRange / CompactFiles
    int output_level;
    Slice smallest_user_key;  // of all inputs
    Slice largest_user_key;
  };
};

class STRATA_EXPORT SstPartitionerFactory {
 public:
  virtual ~SstPartitionerFactory();
  static const char* Type() { return "SstPartitionerFactory"; }

  // A new partitioner for one compaction output stream (owned by the
  // caller). May return null: no cuts for that stream.
  virtual std::unique_ptr<SstPartitioner> CreatePartitioner(
      const SstPartitioner::Context& context) const = 0;

  // Written to the OPTIONS file; names the factory when read back.
  virtual const char* Name() const = 0;
};

// Cuts whenever the first `len` bytes of the user key (the whole key if
// shorter) change.
class STRATA_EXPORT SstPartitionerFixedPrefix : public SstPartitioner {
 public:
  explicit SstPartitionerFixedPrefix(size_t len) : len_(len) {}
  ~SstPartitionerFixedPrefix() override;

  const char* Name() const override { return "SstPartitionerFixedPrefix"; }
  PartitionerResult ShouldPartition(const PartitionerRequest& request) override;
  // True when both keys have the same prefix.
  bool CanDoTrivialMove(const Slice& smallest_user_key, const Slice& largest_user_key) override;

 private:
  size_t len_;
};

// Makes SstPartitionerFixedPrefix(len). In the OPTIONS file:
// sst_partitioner_factory={id=SstPartitionerFixedPrefixFactory;length=<len>;}
class STRATA_EXPORT SstPartitionerFixedPrefixFactory : public SstPartitionerFactory {
 public:
  explicit SstPartitionerFixedPrefixFactory(size_t len) : len_(len) {}
  ~SstPartitionerFixedPrefixFactory() override;

  static const char* kClassName() { return "SstPartitionerFixedPrefixFactory"; }
  const char* Name() const override { return kClassName(); }
  std::unique_ptr<SstPartitioner> CreatePartitioner(
      const SstPartitioner::Context& context) const override;
  size_t prefix_len() const { return len_; }

 private:
  size_t len_;
};

STRATA_EXPORT std::shared_ptr<SstPartitionerFactory> NewSstPartitionerFixedPrefixFactory(
    size_t prefix_len);

}  // namespace strata
