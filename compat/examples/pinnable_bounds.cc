// pinnable_bounds: Get into a PinnableSlice, ReadOptions' iterate bounds,
// a prefix extractor with prefix_same_as_start, and the array MultiGet,
// through RocksDB's C++ interface. Built twice and compared byte for byte.
// Usage: pinnable_bounds DB_DIR
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/slice.h"
#include "rocksdb/slice_transform.h"

namespace rdb = ROCKSDB_NAMESPACE;

static void Check(const rdb::Status& s, const char* what) {
  if (!s.ok()) {
    std::printf("FAILED %s: %s\n", what, s.ToString().c_str());
    std::exit(1);
  }
}

static void Scan(rdb::DB* db, const rdb::ReadOptions& ro, const char* label, const char* seek) {
  rdb::Iterator* it = db->NewIterator(ro);
  std::printf("%s:", label);
  if (seek != nullptr) {
    it->Seek(seek);
  } else {
    it->SeekToFirst();
  }
  for (; it->Valid(); it->Next()) std::printf(" %s", it->key().ToString().c_str());
  std::printf(" |");
  for (it->SeekToLast(); it->Valid(); it->Prev()) std::printf(" %s", it->key().ToString().c_str());
  std::printf("\n");
  Check(it->status(), "scan");
  delete it;
}

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  const std::string path = argv[1];
  rdb::Options options;
  options.create_if_missing = true;
  options.prefix_extractor.reset(rdb::NewFixedPrefixTransform(3));
  rdb::DB* db = nullptr;
  Check(rdb::DB::Open(options, path, &db), "open");
  for (const char* k : {"aaa1", "aaa2", "aaa3", "bbb1", "bbb2", "ccc1", "ccc2", "ccc3", "ddd"}) {
    Check(db->Put(rdb::WriteOptions(), k, std::string(k) + "-value"), "put");
  }
  Check(db->Flush(rdb::FlushOptions()), "flush");
  Check(db->Put(rdb::WriteOptions(), "bbb3", "bbb3-value"), "put");

  // PinnableSlice: filled, reused, reset.
  rdb::PinnableSlice ps;
  Check(db->Get(rdb::ReadOptions(), db->DefaultColumnFamily(), "aaa2", &ps), "get pinned");
  std::printf("pinned get aaa2 = %s (size %zu)\n", ps.ToString().c_str(), ps.size());
  ps.Reset();
  Check(db->Get(rdb::ReadOptions(), db->DefaultColumnFamily(), "bbb3", &ps), "get pinned memtable");
  std::printf("pinned get bbb3 = %s\n", ps.ToString().c_str());
  ps.Reset();
  rdb::Status s = db->Get(rdb::ReadOptions(), db->DefaultColumnFamily(), "zzz", &ps);
  std::printf("pinned get zzz: notfound=%d\n", s.IsNotFound() ? 1 : 0);
  std::string backing;
  rdb::PinnableSlice with_buffer(&backing);
  Check(db->Get(rdb::ReadOptions(), db->DefaultColumnFamily(), "ccc1", &with_buffer), "get");
  std::printf("pinned with buffer = %s\n", with_buffer.ToString().c_str());

  // Bounds.
  rdb::Slice lower("bbb"), upper("ccc2");
  rdb::ReadOptions bounded;
  bounded.iterate_lower_bound = &lower;
  bounded.iterate_upper_bound = &upper;
  Scan(db, bounded, "bounds [bbb, ccc2)", nullptr);
  Scan(db, bounded, "bounds seek aaa", "aaa");
  rdb::ReadOptions upper_only;
  upper_only.iterate_upper_bound = &upper;
  Scan(db, upper_only, "upper ccc2", nullptr);

  // Prefix iteration.
  rdb::ReadOptions prefix;
  prefix.prefix_same_as_start = true;
  Scan(db, prefix, "prefix bbb from bbb", "bbb");
  rdb::Iterator* it = db->NewIterator(prefix);
  std::printf("prefix ccc:");
  for (it->Seek("ccc"); it->Valid(); it->Next()) std::printf(" %s", it->key().ToString().c_str());
  std::printf("\n");
  delete it;
  rdb::ReadOptions total;
  total.total_order_seek = true;
  it = db->NewIterator(total);
  int n = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) n++;
  std::printf("total order: %d keys\n", n);
  delete it;

  // Array MultiGet with PinnableSlices, sorted input.
  rdb::Slice keys[4] = {"aaa1", "bbb3", "ccc9", "ddd"};
  rdb::PinnableSlice values[4];
  rdb::Status statuses[4];
  db->MultiGet(rdb::ReadOptions(), db->DefaultColumnFamily(), 4, keys, values, statuses, true);
  std::printf("multiget:");
  for (int i = 0; i < 4; i++) {
    std::printf(" %s", statuses[i].ok() ? values[i].ToString().c_str() : "<notfound>");
  }
  std::printf("\n");
  // Pinned values hold blocks of the DB's cache: release them before the DB.
  for (auto& v : values) v.Reset();
  ps.Reset();
  with_buffer.Reset();
  delete db;
  return 0;
}
