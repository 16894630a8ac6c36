// listeners: an EventListener told of flushes, compactions, table files and
// sealed memtables, through RocksDB's C++ interface; the DB* each callback
// gets is the one Open returned. Built twice and compared byte for byte.
// Usage: listeners DB_DIR
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "rocksdb/db.h"
#include "rocksdb/listener.h"
#include "rocksdb/options.h"

namespace rdb = ROCKSDB_NAMESPACE;

static void Check(const rdb::Status& s, const char* what) {
  if (!s.ok()) {
    std::printf("FAILED %s: %s\n", what, s.ToString().c_str());
    std::exit(1);
  }
}

static bool EndsWith(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

class Recorder : public rdb::EventListener {
 public:
  const char* Name() const override { return "Recorder"; }

  void OnFlushBegin(rdb::DB* db, const rdb::FlushJobInfo& info) override {
    flush_begin++;
    Note(db, "flush begin cf=" + info.cf_name);
  }
  void OnFlushCompleted(rdb::DB* db, const rdb::FlushJobInfo& info) override {
    flush_completed++;
    Note(db, "flush completed cf=" + info.cf_name + " seqno " +
                 std::to_string(info.smallest_seqno) + ".." + std::to_string(info.largest_seqno) +
                 " sst=" + (EndsWith(info.file_path, ".sst") ? "yes" : "no") +
                 " entries=" + std::to_string(info.table_properties.num_entries) +
                 " manual=" + (info.flush_reason == rdb::FlushReason::kManualFlush ? "yes" : "no"));
  }
  void OnCompactionBegin(rdb::DB* db, const rdb::CompactionJobInfo& info) override {
    compaction_begin++;
    Note(db, "compaction begin inputs=" + std::to_string(info.input_files.size()));
  }
  void OnCompactionCompleted(rdb::DB* db, const rdb::CompactionJobInfo& info) override {
    compaction_completed++;
    Note(db,
         "compaction completed status=" + info.status.ToString() +
             " inputs=" + std::to_string(info.input_files.size()) +
             " outputs=" + std::to_string(info.output_files.size()) +
             " output_level=" + std::to_string(info.output_level) + " manual=" +
             (info.compaction_reason == rdb::CompactionReason::kManualCompaction ? "yes" : "no") +
             " records in/out=" + std::to_string(info.stats.num_input_records) + "/" +
             std::to_string(info.stats.num_output_records));
  }
  void OnTableFileCreated(const rdb::TableFileCreationInfo& info) override {
    if (info.status.ok() && EndsWith(info.file_path, ".sst")) tables_created++;
  }
  void OnTableFileDeleted(const rdb::TableFileDeletionInfo& info) override {
    if (info.status.ok() && EndsWith(info.file_path, ".sst")) tables_deleted++;
  }
  void OnMemTableSealed(const rdb::MemTableInfo& info) override {
    sealed++;
    Note(nullptr, "memtable sealed cf=" + info.cf_name +
                      " entries=" + std::to_string(info.num_entries) +
                      " deletes=" + std::to_string(info.num_deletes));
  }

  // The callbacks' DB* must be the opened DB (null when none is given).
  std::atomic<rdb::DB*> expected{nullptr};
  std::atomic<int> flush_begin{0}, flush_completed{0}, compaction_begin{0}, compaction_completed{0},
      tables_created{0}, tables_deleted{0}, sealed{0}, wrong_db{0};

  // Lines recorded so far, cleared.
  std::vector<std::string> Take() {
    std::lock_guard<std::mutex> l(mu_);
    std::vector<std::string> out;
    out.swap(lines_);
    return out;
  }

 private:
  void Note(rdb::DB* db, const std::string& line) {
    if (db != nullptr && db != expected.load()) wrong_db++;
    std::lock_guard<std::mutex> l(mu_);
    lines_.push_back(line);
  }

  std::mutex mu_;
  std::vector<std::string> lines_;
};

static void Print(Recorder* r) {
  for (const std::string& line : r->Take()) std::printf("  %s\n", line.c_str());
}

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  const std::string path = argv[1];
  auto recorder = std::make_shared<Recorder>();

  rdb::Options options;
  options.create_if_missing = true;
  options.disable_auto_compactions = true;
  options.listeners.push_back(recorder);
  rdb::DB* db = nullptr;
  Check(rdb::DB::Open(options, path, &db), "open");
  recorder->expected = db;

  Check(db->Put(rdb::WriteOptions(), "a", "1"), "put");
  Check(db->Put(rdb::WriteOptions(), "b", "2"), "put");
  Check(db->Delete(rdb::WriteOptions(), "c"), "delete");
  Check(db->Flush(rdb::FlushOptions()), "flush");
  std::printf("after the first flush:\n");
  Print(recorder.get());

  Check(db->Put(rdb::WriteOptions(), "a", "3"), "put");
  Check(db->Put(rdb::WriteOptions(), "d", "4"), "put");
  Check(db->Flush(rdb::FlushOptions()), "flush");
  std::printf("after the second flush:\n");
  Print(recorder.get());

  Check(db->CompactRange(rdb::CompactRangeOptions(), nullptr, nullptr), "compact");
  std::printf("after CompactRange:\n");
  Print(recorder.get());

  std::string v;
  Check(db->Get(rdb::ReadOptions(), "a", &v), "get");
  std::printf("a = %s\n", v.c_str());
  delete db;

  std::printf(
      "flushes %d/%d, compactions %d/%d, tables created %d, deleted %d, "
      "memtables sealed %d, callbacks with another DB* %d\n",
      recorder->flush_begin.load(), recorder->flush_completed.load(),
      recorder->compaction_begin.load(), recorder->compaction_completed.load(),
      recorder->tables_created.load(), recorder->tables_deleted.load(), recorder->sealed.load(),
      recorder->wrong_db.load());
  Check(rdb::DestroyDB(path, rdb::Options()), "destroy");
  return 0;
}
