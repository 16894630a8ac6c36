// wal_filter: DBOptions::wal_filter through RocksDB's C++ interface -- a
// filter that sees every WAL record at Open (with the column families'
// ids), skips some, rewrites others, stops replay, reports a record
// corrupt under two recovery modes, and returns a batch with too many
// records. Built against RocksDB and against Strata; the outputs are
// compared byte for byte.
// Usage: wal_filter DB_DIR
#include "rocksdb/wal_filter.h"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/write_batch.h"

namespace rdb = ROCKSDB_NAMESPACE;
using Option = rdb::WalFilter::WalProcessingOption;

static void Check(const rdb::Status& s, const char* what) {
  if (!s.ok()) {
    std::printf("FAILED %s: %s\n", what, s.ToString().c_str());
    std::exit(1);
  }
}

// The point writes of a batch as text: "cf:key=value" / "cf:key deleted".
static std::string Describe(const rdb::WriteBatch& batch) {
  struct Printer : rdb::WriteBatch::Handler {
    std::string text;
    rdb::Status PutCF(uint32_t cf, const rdb::Slice& k, const rdb::Slice& v) override {
      text += " " + std::to_string(cf) + ":" + k.ToString() + "=" + v.ToString();
      return rdb::Status::OK();
    }
    rdb::Status DeleteCF(uint32_t cf, const rdb::Slice& k) override {
      text += " " + std::to_string(cf) + ":" + k.ToString() + " deleted";
      return rdb::Status::OK();
    }
  } p;
  Check(batch.Iterate(&p), "iterate");
  return p.text;
}

// Answers by the batch's first key: "ignore*" is skipped, "rewrite*" is
// replaced by one put of its key, "stop*" stops replay, "corrupt*" is
// reported corrupt, "grow*" comes back with an extra record.
class Filter : public rdb::WalFilter {
 public:
  void ColumnFamilyLogNumberMap(const std::map<uint32_t, uint64_t>& logs,
                                const std::map<std::string, uint32_t>& ids) override {
    std::printf("  families:");
    for (const auto& [name, id] : ids) {
      std::printf(" %s=%u%s", name.c_str(), id, logs.count(id) == 1 ? "" : "(no log number)");
    }
    std::printf("\n");
    min_log_ = logs.begin()->second;
    for (const auto& [id, log] : logs) min_log_ = std::min(min_log_, log);
  }
  Option LogRecordFound(unsigned long long log_number, const std::string& log_file_name,
                        const rdb::WriteBatch& batch, rdb::WriteBatch* new_batch,
                        bool* batch_changed) override {
    // RocksDB writes an empty batch into the new WAL after a point-in-time
    // stop (to carry the sequence on); Strata does not. Not shown.
    if (batch.Count() == 0) return Option::kContinueProcessing;
    const std::string ops = Describe(batch);
    std::printf("  record %d (%u ops, log %s):%s", ++records_, batch.Count(),
                log_number >= min_log_ && log_file_name.find(".log") != std::string::npos
                    ? "ok"
                    : "unexpected",
                ops.c_str());
    const std::string first = ops.substr(ops.find(':') + 1);
    if (first.rfind("ignore", 0) == 0) {
      std::printf(" -> ignore\n");
      return Option::kIgnoreCurrentRecord;
    }
    if (first.rfind("rewrite", 0) == 0) {
      std::printf(" -> rewrite\n");
      Check(new_batch->Put(first.substr(0, first.find('=')), "rewritten"), "rewrite");
      *batch_changed = true;
      return Option::kContinueProcessing;
    }
    if (first.rfind("stop", 0) == 0) {
      std::printf(" -> stop\n");
      return Option::kStopReplay;
    }
    if (first.rfind("corrupt", 0) == 0) {
      std::printf(" -> corrupt\n");
      return Option::kCorruptedRecord;
    }
    if (first.rfind("grow", 0) == 0) {
      std::printf(" -> grow\n");
      for (int i = 0; i < 4; ++i) {
        Check(new_batch->Put("grow-" + std::to_string(i), "x"), "grow");
      }
      *batch_changed = true;
      return Option::kContinueProcessing;
    }
    std::printf("\n");
    return Option::kContinueProcessing;
  }
  const char* Name() const override { return "ExampleFilter"; }

 private:
  int records_ = 0;
  uint64_t min_log_ = 0;
};

struct Session {
  rdb::DB* db = nullptr;
  std::vector<rdb::ColumnFamilyHandle*> handles;
  ~Session() { Close(); }
  void Close() {
    for (auto* h : handles) Check(db->DestroyColumnFamilyHandle(h), "destroy handle");
    handles.clear();
    delete db;
    db = nullptr;
  }
};

static std::vector<rdb::ColumnFamilyDescriptor> Families() {
  return {{rdb::kDefaultColumnFamilyName, rdb::ColumnFamilyOptions()},
          {"other", rdb::ColumnFamilyOptions()}};
}

static rdb::Status Open(const std::string& path, rdb::WalFilter* filter, rdb::WALRecoveryMode mode,
                        Session* s, bool keep_wals = false) {
  rdb::DBOptions options;
  options.avoid_flush_during_recovery = keep_wals;
  options.create_if_missing = true;
  options.create_missing_column_families = true;
  options.wal_filter = filter;
  options.wal_recovery_mode = mode;
  return rdb::DB::Open(options, path, Families(), &s->handles, &s->db);
}

static void Dump(Session* s) {
  for (auto* h : s->handles) {
    std::printf("  [%s]", h->GetName().c_str());
    std::unique_ptr<rdb::Iterator> it(s->db->NewIterator(rdb::ReadOptions(), h));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      std::printf(" %s=%s", it->key().ToString().c_str(), it->value().ToString().c_str());
    }
    Check(it->status(), "iterate");
    std::printf("\n");
  }
}

static void WriteBatches(Session* s, const std::vector<std::string>& keys) {
  for (const std::string& k : keys) {
    rdb::WriteBatch b;
    Check(b.Put(k, "v-" + k), "put");
    Check(b.Put(s->handles[1], "o-" + k, "w-" + k), "put other");
    if (k == keys.front()) Check(b.Delete("nothing"), "delete");
    Check(s->db->Write(rdb::WriteOptions(), &b), "write");
  }
}

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  const std::string path = argv[1];
  const auto pit = rdb::WALRecoveryMode::kPointInTimeRecovery;
  {
    Session s;
    Check(Open(path, nullptr, pit, &s), "create");
    WriteBatches(&s, {"a", "ignore-b", "rewrite-c", "d"});
  }
  std::printf("open with the filter:\n");
  {
    Filter f;
    Session s;
    Check(Open(path, &f, pit, &s), "open filtered");
    Dump(&s);
    WriteBatches(&s, {"e", "stop-f", "g"});
  }
  std::printf("a stop:\n");
  {
    Filter f;
    Session s;
    Check(Open(path, &f, pit, &s), "open stop");
    Dump(&s);
  }
  std::printf("reopened without a filter:\n");
  {
    Session s;
    Check(Open(path, nullptr, pit, &s), "open plain");
    Dump(&s);
    WriteBatches(&s, {"h", "corrupt-i", "j"});
  }
  {
    // A second WAL after that one (the first is kept: no flush at open).
    Session s;
    Check(Open(path, nullptr, pit, &s, /*keep_wals=*/true), "open keeping WALs");
    WriteBatches(&s, {"k"});
  }
  std::printf("a corrupt record, absolute consistency:\n");
  {
    Filter f;
    Session s;
    const rdb::Status st = Open(path, &f, rdb::WALRecoveryMode::kAbsoluteConsistency, &s);
    std::printf("  open: %s\n", st.ToString().c_str());
  }
  std::printf("a corrupt record, point in time:\n");
  {
    Filter f;
    Session s;
    Check(Open(path, &f, pit, &s), "open pit");
    Dump(&s);
    WriteBatches(&s, {"grow-l"});
  }
  std::printf("too many records:\n");
  {
    Filter f;
    Session s;
    const rdb::Status st = Open(path, &f, pit, &s);
    std::printf("  open: %s\n", st.ToString().c_str());
  }
  std::printf("finally:\n");
  {
    Session s;
    Check(Open(path, nullptr, pit, &s), "open final");
    Dump(&s);
  }
  return 0;
}
