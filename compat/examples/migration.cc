// OptionChangeMigration (utilities/option_change_migration.h): a leveled
// database with data down to its last level is rewritten for universal
// compaction with fewer levels, for FIFO, and back to levels; after each
// migration it opens with the new options and holds the same data. Built
// against RocksDB and against Strata's compat layer; the output must be
// identical.
#include <cstdio>
#include <memory>
#include <string>

#include "rocksdb/db.h"
#include "rocksdb/metadata.h"
#include "rocksdb/options.h"
#include "rocksdb/utilities/option_change_migration.h"

using namespace rocksdb;

namespace {

void Must(const Status& s, const char* what) {
  if (!s.ok()) printf("%s: %s\n", what, s.ToString().c_str());
}

// Opens with opts and prints the entry count, a checksum of the data and
// the deepest level holding files.
void Check(const std::string& path, const Options& opts, const char* label) {
  DB* raw = nullptr;
  Status s = DB::Open(opts, path, &raw);
  if (!s.ok()) {
    printf("%s: open: %s\n", label, s.ToString().c_str());
    return;
  }
  std::unique_ptr<DB> db(raw);
  int count = 0;
  unsigned long long sum = 0;
  std::unique_ptr<Iterator> it(db->NewIterator(ReadOptions()));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    ++count;
    for (char c : it->value().ToString()) sum = sum * 31 + static_cast<unsigned char>(c);
  }
  Must(it->status(), "iterate");
  ColumnFamilyMetaData meta;
  db->GetColumnFamilyMetaData(&meta);
  int deepest = -1;
  for (const LevelMetaData& level : meta.levels) {
    if (!level.files.empty()) deepest = level.level;
  }
  printf("%s: entries %d checksum %llu deepest level %d\n", label, count, sum, deepest);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string path = argc > 1 ? argv[1] : "/tmp/compat_migration";
  Options level;
  level.create_if_missing = true;
  level.num_levels = 5;
  level.compaction_style = kCompactionStyleLevel;
  Must(DestroyDB(path, level), "DestroyDB");
  {
    DB* raw = nullptr;
    Status s = DB::Open(level, path, &raw);
    if (!s.ok()) {
      printf("open: %s\n", s.ToString().c_str());
      return 1;
    }
    std::unique_ptr<DB> db(raw);
    for (int i = 0; i < 2000; ++i) {
      Must(db->Put(WriteOptions(), "key" + std::to_string(i), std::string(100, 'a' + i % 26)),
           "Put");
    }
    CompactRangeOptions to_last;
    to_last.change_level = true;
    to_last.target_level = 4;
    Must(db->CompactRange(to_last, nullptr, nullptr), "CompactRange");
    for (int i = 0; i < 500; ++i) {
      Must(db->Put(WriteOptions(), "more" + std::to_string(i), "v" + std::to_string(i)), "Put");
    }
    Must(db->Flush(FlushOptions()), "Flush");
  }
  Check(path, level, "leveled");

  Options universal = level;
  universal.compaction_style = kCompactionStyleUniversal;
  universal.num_levels = 2;
  Must(OptionChangeMigration(path, level, universal), "to universal");
  Check(path, universal, "universal");

  Options fifo = universal;
  fifo.compaction_style = kCompactionStyleFIFO;
  fifo.num_levels = 1;
  fifo.compaction_options_fifo.max_table_files_size = 64 << 20;
  Must(OptionChangeMigration(path, universal, fifo), "to fifo");
  Check(path, fifo, "fifo");

  // From FIFO nothing needs doing.
  Must(OptionChangeMigration(path, fifo, level), "fifo to level");
  Check(path, level, "level again");

  Options dynamic = level;
  dynamic.level_compaction_dynamic_level_bytes = true;
  dynamic.num_levels = 7;
  Must(OptionChangeMigration(path, level, dynamic), "to dynamic");
  Check(path, dynamic, "dynamic");
  Must(DestroyDB(path, level), "DestroyDB");
  return 0;
}
