// rocksdb/memtablerep.h: RocksDB 7.8.3's memtable representation interface
// (MemTableRep) and its factories.
//
// Strata's memtable is one built-in skip list; it does not take a
// MemTableRep. So:
//   - AdvancedColumnFamilyOptions::memtable_factory defaults to a
//     SkipListFactory, as in RocksDB, and a SkipListFactory (any lookahead:
//     a search hint only) is accepted at Open: it is what Strata does;
//   - any other factory -- VectorRepFactory, NewHashSkipListRepFactory,
//     NewHashLinkListRepFactory, a program's own -- is refused at Open:
//     `Invalid argument: ColumnFamilyOptions::memtable_factory <Name()> is
//     not supported by Strata: its memtable is a skip list
//     (SkipListFactory)`;
//   - CreateMemTableRep of the built-in factories returns nullptr (no
//     engine calls it); MemTableRep's out-of-line defaults exist for
//     subclasses to link (Allocate has no arena here: it returns nullptr).
// RocksDB 7.8.3 has no NewHashCuckooRepFactory (removed earlier).
// Differences: the factories are not Customizables (compat has no
// customizable.h); Name, NickName and GetId are their own virtuals, and
// CreateFromString knows the built-in names and ids only.
// Thread-safety: factories are immutable and may be shared.
#pragma once

#include <stdint.h>
#include <stdlib.h>

#include <cassert>
#include <memory>
#include <stdexcept>
#include <string>
#include <unordered_set>

#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/slice.h"
#include "rocksdb/status.h"

namespace strata {
class Logger;
class SliceTransform;
}  // namespace strata

namespace rocksdb {

class Arena;
class Allocator;
class LookupKey;
using SliceTransform = ::strata::SliceTransform;  // as rocksdb/slice_transform.h
using Logger = ::strata::Logger;                  // as rocksdb/env.h
struct DBOptions;
struct ConfigOptions;

using KeyHandle = void*;

// The slice a varint32 length prefix at `data` announces (no bounds check).
extern Slice GetLengthPrefixedSlice(const char* data);

class MemTableRep {
 public:
  // Orders the encoded (length-prefixed internal) keys of a memtable.
  class KeyComparator {
   public:
    using DecodedType = ::rocksdb::Slice;
    virtual DecodedType decode_key(const char* key) const { return GetLengthPrefixedSlice(key); }
    virtual int operator()(const char* prefix_len_key1, const char* prefix_len_key2) const = 0;
    virtual int operator()(const char* prefix_len_key, const Slice& key) const = 0;
    virtual ~KeyComparator() {}
  };

  explicit MemTableRep(Allocator* allocator) : allocator_(allocator) {}

  // Space for an entry of len bytes (*buf) and its handle. Here: no arena
  // is offered, *buf = nullptr and the result is nullptr.
  virtual KeyHandle Allocate(const size_t len, char** buf);

  virtual void Insert(KeyHandle handle) = 0;
  virtual bool InsertKey(KeyHandle handle) {
    Insert(handle);
    return true;
  }
  virtual void InsertWithHint(KeyHandle handle, void** /*hint*/) { Insert(handle); }
  virtual bool InsertKeyWithHint(KeyHandle handle, void** hint) {
    InsertWithHint(handle, hint);
    return true;
  }
  virtual void InsertWithHintConcurrently(KeyHandle handle, void** /*hint*/) {
    InsertConcurrently(handle);
  }
  virtual bool InsertKeyWithHintConcurrently(KeyHandle handle, void** hint) {
    InsertWithHintConcurrently(handle, hint);
    return true;
  }
  // Default: as Insert (RocksDB's default throws; Strata never calls it).
  virtual void InsertConcurrently(KeyHandle handle);
  virtual bool InsertKeyConcurrently(KeyHandle handle) {
    InsertConcurrently(handle);
    return true;
  }

  virtual bool Contains(const char* key) const = 0;
  virtual void MarkReadOnly() {}
  virtual void MarkFlushed() {}

  // Default: does nothing (no LookupKey is defined here).
  virtual void Get(const LookupKey& k, void* callback_args,
                   bool (*callback_func)(void* arg, const char* entry));

  virtual uint64_t ApproximateNumEntries(const Slice& /*start_ikey*/, const Slice& /*end_key*/) {
    return 0;
  }
  virtual void UniqueRandomSample(const uint64_t num_entries, const uint64_t target_sample_size,
                                  std::unordered_set<const char*>* entries) {
    (void)num_entries;
    (void)target_sample_size;
    (void)entries;
  }

  virtual size_t ApproximateMemoryUsage() = 0;

  virtual ~MemTableRep() {}

  class Iterator {
   public:
    virtual ~Iterator() {}
    virtual bool Valid() const = 0;
    virtual const char* key() const = 0;
    virtual void Next() = 0;
    virtual void Prev() = 0;
    virtual void Seek(const Slice& internal_key, const char* memtable_key) = 0;
    virtual void SeekForPrev(const Slice& internal_key, const char* memtable_key) = 0;
    virtual void RandomSeek() {}
    virtual void SeekToFirst() = 0;
    virtual void SeekToLast() = 0;
  };

  virtual Iterator* GetIterator(Arena* arena = nullptr) = 0;
  virtual Iterator* GetDynamicPrefixIterator(Arena* arena = nullptr) { return GetIterator(arena); }
  virtual bool IsMergeOperatorSupported() const { return true; }
  virtual bool IsSnapshotSupported() const { return true; }

 protected:
  // The user key of an encoded entry (its internal key minus 8 bytes).
  virtual Slice UserKey(const char* key) const;

  Allocator* allocator_;
};

class MemTableRepFactory {
 public:
  virtual ~MemTableRepFactory() {}

  static const char* Type() { return "MemTableRepFactory"; }
  // Knows "skip_list"/"SkipListFactory" (with an optional ":<lookahead>"),
  // "vector"/"VectorRepFactory" (":<count>"), "prefix_hash"/
  // "HashSkipListRepFactory" and "hash_linkedlist"/"HashLinkListRepFactory";
  // "" and "nullptr" give a null factory; other ids are NotSupported.
  static Status CreateFromString(const ConfigOptions& config_options, const std::string& id,
                                 std::unique_ptr<MemTableRepFactory>* factory);
  static Status CreateFromString(const ConfigOptions& config_options, const std::string& id,
                                 std::shared_ptr<MemTableRepFactory>* factory);

  virtual MemTableRep* CreateMemTableRep(const MemTableRep::KeyComparator&, Allocator*,
                                         const SliceTransform*, Logger* logger) = 0;
  virtual MemTableRep* CreateMemTableRep(const MemTableRep::KeyComparator& key_cmp,
                                         Allocator* allocator,
                                         const SliceTransform* slice_transform, Logger* logger,
                                         uint32_t /* column_family_id */) {
    return CreateMemTableRep(key_cmp, allocator, slice_transform, logger);
  }

  virtual const char* Name() const = 0;
  virtual std::string GetId() const { return Name(); }

  virtual bool IsInsertConcurrentlySupported() const { return false; }
  virtual bool CanHandleDuplicatedKey() const { return false; }

 protected:
  // Customizable's short name (protected, as there).
  virtual const char* NickName() const { return ""; }
};

// The skip list: Strata's memtable. lookahead (RocksDB's search hint) has
// no effect here.
class SkipListFactory : public MemTableRepFactory {
 public:
  explicit SkipListFactory(size_t lookahead = 0);

  static const char* kClassName() { return "SkipListFactory"; }
  static const char* kNickName() { return "skip_list"; }
  virtual const char* Name() const override { return kClassName(); }
  virtual const char* NickName() const override { return kNickName(); }
  // "SkipListFactory:<lookahead>", as RocksDB.
  std::string GetId() const override;

  using MemTableRepFactory::CreateMemTableRep;
  // nullptr: Strata's skip list is not a MemTableRep.
  virtual MemTableRep* CreateMemTableRep(const MemTableRep::KeyComparator&, Allocator*,
                                         const SliceTransform*, Logger* logger) override;

  bool IsInsertConcurrentlySupported() const override { return true; }
  bool CanHandleDuplicatedKey() const override { return true; }

 private:
  size_t lookahead_;
};

// A vector memtable: refused at Open.
class VectorRepFactory : public MemTableRepFactory {
  size_t count_;

 public:
  explicit VectorRepFactory(size_t count = 0);

  static const char* kClassName() { return "VectorRepFactory"; }
  static const char* kNickName() { return "vector"; }
  const char* Name() const override { return kClassName(); }
  const char* NickName() const override { return kNickName(); }

  using MemTableRepFactory::CreateMemTableRep;
  // nullptr.
  virtual MemTableRep* CreateMemTableRep(const MemTableRep::KeyComparator&, Allocator*,
                                         const SliceTransform*, Logger* logger) override;
};

// Hash-of-skip-lists and hash-of-linked-lists memtables (Name()
// "HashSkipListRepFactory" / "HashLinkListRepFactory"): new factories the
// caller owns, refused at Open.
extern MemTableRepFactory* NewHashSkipListRepFactory(size_t bucket_count = 1000000,
                                                     int32_t skiplist_height = 4,
                                                     int32_t skiplist_branching_factor = 4);
extern MemTableRepFactory* NewHashLinkListRepFactory(size_t bucket_count = 50000,
                                                     size_t huge_page_tlb_size = 0,
                                                     int bucket_entries_logging_threshold = 4096,
                                                     bool if_log_bucket_dist_when_flash = true,
                                                     uint32_t threshold_use_skiplist = 256);

}  // namespace rocksdb
