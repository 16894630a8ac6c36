// callbacks: user subclasses called back by the engine -- an associative
// merge operator (uint64 add), a FullMergeV2 operator (list append), a
// comparator (reverse order) and a compaction filter -- through RocksDB's
// C++ interface. Built twice and compared byte for byte.
// Usage: callbacks DB_DIR
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "rocksdb/compaction_filter.h"
#include "rocksdb/comparator.h"
#include "rocksdb/db.h"
#include "rocksdb/merge_operator.h"
#include "rocksdb/options.h"

namespace rdb = ROCKSDB_NAMESPACE;

static void Check(const rdb::Status& s, const char* what) {
  if (!s.ok()) {
    std::printf("FAILED %s: %s\n", what, s.ToString().c_str());
    std::exit(1);
  }
}

// Adds decimal numbers.
class AddOperator : public rdb::AssociativeMergeOperator {
 public:
  bool Merge(const rdb::Slice&, const rdb::Slice* existing, const rdb::Slice& value,
             std::string* new_value, rdb::Logger*) const override {
    long long base = existing != nullptr ? std::atoll(existing->ToString().c_str()) : 0;
    *new_value = std::to_string(base + std::atoll(value.ToString().c_str()));
    return true;
  }
  const char* Name() const override { return "AddOperator"; }
};

// Appends operands with '|', reporting failure on an operand "bad".
class ListOperator : public rdb::MergeOperator {
 public:
  bool FullMergeV2(const MergeOperationInput& in, MergeOperationOutput* out) const override {
    std::string result = in.existing_value != nullptr ? in.existing_value->ToString() : "";
    for (const rdb::Slice& op : in.operand_list) {
      if (op == rdb::Slice("bad")) return false;
      if (!result.empty()) result += "|";
      result.append(op.data(), op.size());
    }
    out->new_value = result;
    return true;
  }
  const char* Name() const override { return "ListOperator"; }
};

// Orders keys from largest to smallest.
class ReverseComparator : public rdb::Comparator {
 public:
  int Compare(const rdb::Slice& a, const rdb::Slice& b) const override { return -a.compare(b); }
  const char* Name() const override { return "test.ReverseComparator"; }
  void FindShortestSeparator(std::string*, const rdb::Slice&) const override {}
  void FindShortSuccessor(std::string*) const override {}
};

// Drops keys starting with "tmp_", rewrites values of keys starting with
// "up_" to upper case.
class CleanupFilter : public rdb::CompactionFilter {
 public:
  bool Filter(int, const rdb::Slice& key, const rdb::Slice& value, std::string* new_value,
              bool* value_changed) const override {
    if (key.starts_with("tmp_")) return true;
    if (key.starts_with("up_")) {
      *new_value = value.ToString();
      for (char& c : *new_value) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      *value_changed = true;
    }
    return false;
  }
  const char* Name() const override { return "CleanupFilter"; }
};

static void DumpAll(rdb::DB* db, rdb::ColumnFamilyHandle* cf, const char* label) {
  rdb::Iterator* it = db->NewIterator(rdb::ReadOptions(), cf);
  std::printf("%s:", label);
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    std::printf(" %s=%s", it->key().ToString().c_str(), it->value().ToString().c_str());
  }
  std::printf("\n");
  Check(it->status(), "iterate");
  delete it;
}

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  const std::string path = argv[1];

  // 1. Merge operators, before and after a flush and a compaction.
  {
    rdb::Options options;
    options.create_if_missing = true;
    options.merge_operator = std::make_shared<AddOperator>();
    rdb::DB* db = nullptr;
    Check(rdb::DB::Open(options, path + "_add", &db), "open add");
    Check(db->Put(rdb::WriteOptions(), "counter", "10"), "put");
    for (int i = 1; i <= 5; i++) {
      Check(db->Merge(rdb::WriteOptions(), "counter", std::to_string(i)), "merge");
    }
    Check(db->Merge(rdb::WriteOptions(), "fresh", "7"), "merge fresh");
    std::string v;
    Check(db->Get(rdb::ReadOptions(), "counter", &v), "get");
    std::printf("counter after merges = %s\n", v.c_str());
    Check(db->Flush(rdb::FlushOptions()), "flush");
    Check(db->Merge(rdb::WriteOptions(), "counter", "100"), "merge");
    Check(db->Get(rdb::ReadOptions(), "counter", &v), "get");
    std::printf("counter after flush + merge = %s\n", v.c_str());
    Check(db->CompactRange(rdb::CompactRangeOptions(), nullptr, nullptr), "compact");
    Check(db->Get(rdb::ReadOptions(), "counter", &v), "get");
    std::printf("counter after compaction = %s\n", v.c_str());
    Check(db->Get(rdb::ReadOptions(), "fresh", &v), "get fresh");
    std::printf("fresh = %s\n", v.c_str());
    delete db;
  }
  {
    rdb::Options options;
    options.create_if_missing = true;
    options.merge_operator = std::make_shared<ListOperator>();
    rdb::DB* db = nullptr;
    Check(rdb::DB::Open(options, path + "_list", &db), "open list");
    Check(db->Put(rdb::WriteOptions(), "l", "a"), "put");
    Check(db->Merge(rdb::WriteOptions(), "l", "b"), "merge");
    Check(db->Merge(rdb::WriteOptions(), "l", "c"), "merge");
    std::string v;
    Check(db->Get(rdb::ReadOptions(), "l", &v), "get");
    std::printf("list = %s\n", v.c_str());
    Check(db->Merge(rdb::WriteOptions(), "broken", "bad"), "merge bad");
    rdb::Status s = db->Get(rdb::ReadOptions(), "broken", &v);
    std::printf("failed merge: ok=%d corruption=%d\n", s.ok() ? 1 : 0, s.IsCorruption() ? 1 : 0);
    delete db;
  }

  // 2. A reverse comparator: iteration order and Seek follow it.
  {
    rdb::Options options;
    options.create_if_missing = true;
    static ReverseComparator reverse;
    options.comparator = &reverse;
    rdb::DB* db = nullptr;
    Check(rdb::DB::Open(options, path + "_reverse", &db), "open reverse");
    for (const char* k : {"b", "d", "a", "c", "e"})
      Check(db->Put(rdb::WriteOptions(), k, k), "put");
    Check(db->Flush(rdb::FlushOptions()), "flush");
    Check(db->Put(rdb::WriteOptions(), "bb", "bb"), "put");
    DumpAll(db, db->DefaultColumnFamily(), "reverse order");
    rdb::Iterator* it = db->NewIterator(rdb::ReadOptions());
    it->Seek("c");
    std::printf("reverse seek c -> %s\n", it->Valid() ? it->key().ToString().c_str() : "(end)");
    it->Next();
    std::printf("then next -> %s\n", it->Valid() ? it->key().ToString().c_str() : "(end)");
    delete it;
    delete db;
    // Reopening with another comparator is refused.
    rdb::Options bytewise;
    rdb::Status s = rdb::DB::Open(bytewise, path + "_reverse", &db);
    std::printf("reopen with bytewise comparator: ok=%d invalid_argument=%d\n", s.ok() ? 1 : 0,
                s.IsInvalidArgument() ? 1 : 0);
    if (s.ok()) delete db;
  }

  // 3. A compaction filter.
  {
    rdb::Options options;
    options.create_if_missing = true;
    static CleanupFilter filter;
    options.compaction_filter = &filter;
    rdb::DB* db = nullptr;
    Check(rdb::DB::Open(options, path + "_filter", &db), "open filter");
    for (const char* k : {"keep_1", "tmp_1", "up_1", "keep_2", "tmp_2", "up_2"}) {
      Check(db->Put(rdb::WriteOptions(), k, std::string("value of ") + k), "put");
    }
    DumpAll(db, db->DefaultColumnFamily(), "before compaction");
    Check(db->Flush(rdb::FlushOptions()), "flush");
    Check(db->CompactRange(rdb::CompactRangeOptions(), nullptr, nullptr), "compact");
    DumpAll(db, db->DefaultColumnFamily(), "after compaction");
    delete db;
  }
  return 0;
}
