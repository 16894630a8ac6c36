// stacked: a user's StackableDB wrapper, DBWithTTL (stored form, per-family
// ttls, expiry by compaction, a merge operator and a compaction filter under
// TTL, read-only and plain opens of a TTL database), SstFileReader, and
// NewLRUCache's full parameter list, through RocksDB's C++ interface. Built
// twice and compared byte for byte.
// Usage: stacked DB_DIR
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <string>
#include <vector>

#include "rocksdb/cache.h"
#include "rocksdb/compaction_filter.h"
#include "rocksdb/db.h"
#include "rocksdb/merge_operator.h"
#include "rocksdb/options.h"
#include "rocksdb/sst_file_reader.h"
#include "rocksdb/sst_file_writer.h"
#include "rocksdb/table_properties.h"
#include "rocksdb/utilities/db_ttl.h"
#include "rocksdb/utilities/stackable_db.h"

namespace rdb = ROCKSDB_NAMESPACE;

static void Check(const rdb::Status& s, const char* what) {
  if (!s.ok()) {
    std::printf("FAILED %s: %s\n", what, s.ToString().c_str());
    std::exit(1);
  }
}

static void Dump(rdb::DB* db, rdb::ColumnFamilyHandle* cf, const char* label) {
  rdb::Iterator* it = db->NewIterator(rdb::ReadOptions(), cf);
  std::printf("%s:", label);
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    std::printf(" %s=%s", it->key().ToString().c_str(), it->value().ToString().c_str());
  }
  std::printf("\n");
  Check(it->status(), "iterate");
  delete it;
}

static std::string GetOr(rdb::DB* db, rdb::ColumnFamilyHandle* cf, const std::string& k) {
  std::string v;
  rdb::Status s = db->Get(rdb::ReadOptions(), cf, k, &v);
  if (s.IsNotFound()) return "<absent>";
  if (!s.ok()) return "<" + std::string(s.IsCorruption() ? "corruption" : "error") + ">";
  return v;
}

// A user's wrapper: counts writes, upper-cases values on Put.
class Shouting : public rdb::StackableDB {
 public:
  explicit Shouting(rdb::DB* db) : rdb::StackableDB(db) {}
  using rdb::StackableDB::Put;
  rdb::Status Put(const rdb::WriteOptions& o, rdb::ColumnFamilyHandle* cf, const rdb::Slice& k,
                  const rdb::Slice& v) override {
    puts_++;
    std::string loud = v.ToString();
    for (char& c : loud) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 32 : c);
    return rdb::StackableDB::Put(o, cf, k, loud);
  }
  int puts() const { return puts_; }

 private:
  int puts_ = 0;
};

class Concat : public rdb::AssociativeMergeOperator {
 public:
  bool Merge(const rdb::Slice&, const rdb::Slice* existing, const rdb::Slice& value,
             std::string* out, rdb::Logger*) const override {
    *out = existing != nullptr ? existing->ToString() + "+" : "";
    out->append(value.data(), value.size());
    return true;
  }
  const char* Name() const override { return "Concat"; }
};

class DropDrop : public rdb::CompactionFilter {
 public:
  bool Filter(int, const rdb::Slice&, const rdb::Slice& value, std::string*, bool*) const override {
    return value == rdb::Slice("drop");
  }
  const char* Name() const override { return "DropDrop"; }
};

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  const std::string path = argv[1];
  mkdir(path.c_str(), 0755);  // holds several databases and a table file
  rdb::Options options;
  options.create_if_missing = true;

  // 1. StackableDB: the wrapper's override runs; everything else forwards.
  {
    rdb::DB* base = nullptr;
    Check(rdb::DB::Open(options, path + "/stack", &base), "open stack");
    Shouting db(base);
    Check(db.Put(rdb::WriteOptions(), "k1", "quiet"), "put");
    Check(db.Put(rdb::WriteOptions(), db.DefaultColumnFamily(), "k2", "calm"), "put cf");
    Check(db.Delete(rdb::WriteOptions(), "k2"), "delete");
    Dump(&db, db.DefaultColumnFamily(), "stackable");
    std::printf("wrapper puts: %d, base is root: %d, name ok: %d\n", db.puts(),
                db.GetRootDB() == base ? 1 : 0, db.GetName() == path + "/stack" ? 1 : 0);
    std::printf("comparator: %s\n", db.DefaultColumnFamily()->GetComparator()->Name());
    Check(db.Close(), "close stack");
  }  // deletes base

  // 2. DBWithTTL: stored form, reads, per-family ttls, expiry.
  const std::string ttl_path = path + "/ttl";
  rdb::Options ttl_options = options;
  ttl_options.merge_operator = std::make_shared<Concat>();
  DropDrop drop;
  ttl_options.compaction_filter = &drop;
  const std::time_t before = std::time(nullptr);
  {
    rdb::DBWithTTL* db = nullptr;
    Check(rdb::DBWithTTL::Open(ttl_options, ttl_path, &db, 0), "open ttl");
    Check(db->Put(rdb::WriteOptions(), "a", "alpha"), "ttl put");
    Check(db->Put(rdb::WriteOptions(), "d", "drop"), "ttl put drop");
    Check(db->Merge(rdb::WriteOptions(), "m", "1"), "ttl merge");
    Check(db->Merge(rdb::WriteOptions(), "m", "2"), "ttl merge");
    rdb::WriteBatch batch;
    Check(batch.Put("b", "beta"), "batch put");
    Check(batch.Delete("a"), "batch delete");
    Check(db->Write(rdb::WriteOptions(), &batch), "ttl write");
    rdb::ColumnFamilyHandle* brief = nullptr;
    Check(db->CreateColumnFamilyWithTtl(rdb::ColumnFamilyOptions(ttl_options), "brief", &brief, 1),
          "create cf with ttl");
    Check(db->Put(rdb::WriteOptions(), brief, "t", "temporary"), "put brief");
    Dump(db, db->DefaultColumnFamily(), "ttl default");
    Dump(db, brief, "ttl brief");
    std::vector<std::string> values;
    std::vector<rdb::Status> st =
        db->MultiGet(rdb::ReadOptions(), {rdb::Slice("b"), rdb::Slice("m")}, &values);
    std::printf("multiget: %s %s / %s %s\n", st[0].ToString().c_str(), values[0].c_str(),
                st[1].ToString().c_str(), values[1].c_str());
    usleep(2100 * 1000);  // "t" is now more than 1 s old
    Check(db->CompactRange(rdb::CompactRangeOptions(), brief, nullptr, nullptr), "compact brief");
    Check(db->CompactRange(rdb::CompactRangeOptions(), nullptr, nullptr), "compact default");
    std::printf("after compaction: brief t=%s, default d=%s m=%s b=%s\n",
                GetOr(db, brief, "t").c_str(), GetOr(db, db->DefaultColumnFamily(), "d").c_str(),
                GetOr(db, db->DefaultColumnFamily(), "m").c_str(),
                GetOr(db, db->DefaultColumnFamily(), "b").c_str());
    db->SetTtl(1);
    db->SetTtl(brief, 0);
    Check(db->DestroyColumnFamilyHandle(brief), "destroy handle");
    delete db;
  }
  {
    // A plain open sees the stored form: value + int32 little-endian time.
    std::vector<rdb::ColumnFamilyDescriptor> cfs = {
        {rdb::kDefaultColumnFamilyName, rdb::ColumnFamilyOptions()},
        {"brief", rdb::ColumnFamilyOptions()}};
    std::vector<rdb::ColumnFamilyHandle*> handles;
    rdb::DB* db = nullptr;
    Check(rdb::DB::OpenForReadOnly(rdb::DBOptions(), ttl_path, cfs, &handles, &db),
          "plain read-only open");
    std::string raw;
    Check(db->Get(rdb::ReadOptions(), handles[0], "b", &raw), "raw get");
    long stamp = 0;
    if (raw.size() >= 4) {
      const unsigned char* t = reinterpret_cast<const unsigned char*>(raw.data() + raw.size() - 4);
      stamp = static_cast<long>(t[0] | t[1] << 8 | t[2] << 16 | static_cast<unsigned>(t[3]) << 24);
    }
    std::printf(
        "raw b: %zu bytes, starts %s, time in range: %d\n", raw.size(), raw.substr(0, 4).c_str(),
        stamp >= static_cast<long>(before) && stamp <= static_cast<long>(std::time(nullptr)) ? 1
                                                                                             : 0);
    for (auto* h : handles) Check(db->DestroyColumnFamilyHandle(h), "destroy");
    delete db;
  }
  {
    // Read-only through DBWithTTL: stripped again.
    std::vector<rdb::ColumnFamilyDescriptor> cfs = {
        {rdb::kDefaultColumnFamilyName, rdb::ColumnFamilyOptions(ttl_options)},
        {"brief", rdb::ColumnFamilyOptions(ttl_options)}};
    std::vector<rdb::ColumnFamilyHandle*> handles;
    rdb::DBWithTTL* db = nullptr;
    Check(rdb::DBWithTTL::Open(rdb::DBOptions(ttl_options), ttl_path, cfs, &handles, &db, {0, 0},
                               true),
          "ttl read-only open");
    Dump(db, handles[0], "read-only ttl default");
    std::printf("read-only put refused: %d\n", db->Put(rdb::WriteOptions(), "x", "y").ok() ? 0 : 1);
    for (auto* h : handles) Check(db->DestroyColumnFamilyHandle(h), "destroy");
    delete db;
  }
  std::vector<rdb::ColumnFamilyDescriptor> one = {
      {rdb::kDefaultColumnFamilyName, rdb::ColumnFamilyOptions()}};
  std::vector<rdb::ColumnFamilyHandle*> none;
  rdb::DBWithTTL* bad = nullptr;
  rdb::Status s = rdb::DBWithTTL::Open(rdb::DBOptions(options), ttl_path, one, &none, &bad, {1, 2});
  std::printf("ttls of the wrong size: %s\n", s.IsInvalidArgument() ? "InvalidArgument" : "?");

  // 3. SstFileReader over a file SstFileWriter made.
  const std::string sst = path + "/file.sst";
  {
    rdb::SstFileWriter writer(rdb::EnvOptions(), options);
    Check(writer.Open(sst), "writer open");
    for (int i = 0; i < 5; i++) {
      char k[8];
      std::snprintf(k, sizeof(k), "s%d", i);
      Check(writer.Put(k, std::string(static_cast<size_t>(i + 1), 'v')), "writer put");
    }
    Check(writer.Finish(), "writer finish");
  }
  rdb::SstFileReader reader(options);
  Check(reader.Open(sst), "reader open");
  Check(reader.VerifyChecksum(), "verify checksum");
  std::shared_ptr<const rdb::TableProperties> props = reader.GetTableProperties();
  std::printf("sst entries: %llu, deletions: %llu\n",
              static_cast<unsigned long long>(props->num_entries),
              static_cast<unsigned long long>(props->num_deletions));
  rdb::Iterator* it = reader.NewIterator(rdb::ReadOptions());
  std::printf("sst:");
  for (it->Seek("s1"); it->Valid(); it->Next()) {
    std::printf(" %s=%s", it->key().ToString().c_str(), it->value().ToString().c_str());
  }
  std::printf("\n");
  it->SeekToLast();
  std::printf("sst last: %s, status %s\n", it->Valid() ? it->key().ToString().c_str() : "-",
              it->status().ToString().c_str());
  delete it;
  rdb::SstFileReader missing(options);
  std::printf("missing file open fails: %d\n", missing.Open(path + "/nope.sst").ok() ? 0 : 1);

  // 4. NewLRUCache with RocksDB's full parameter list.
  std::shared_ptr<rdb::Cache> cache =
      rdb::NewLRUCache(1 << 20, 2, true, 0.3, nullptr, false, rdb::kDontChargeCacheMetadata, 0.2);
  std::printf("cache: capacity %zu, strict %d\n", cache->GetCapacity(),
              cache->HasStrictCapacityLimit() ? 1 : 0);
  cache->SetStrictCapacityLimit(false);
  std::printf("cache: strict %d, too many shard bits gives null: %d\n",
              cache->HasStrictCapacityLimit() ? 1 : 0,
              rdb::NewLRUCache(1 << 20, 30) == nullptr ? 1 : 0);
  std::printf("done\n");
  return 0;
}
