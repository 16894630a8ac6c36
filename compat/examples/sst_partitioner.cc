// sst_partitioner: RocksDB's SstPartitioner (a fixed-prefix partitioner
// cutting compaction outputs, and the OPTIONS file recording it),
// FlushBlockPolicy (a program's policy and the every-key one, checked
// through the tables' num_data_blocks), ConcurrentTaskLimiter (limit 0
// holds back automatic compactions, not CompactRange) and
// CompactionJobStats (seen by a listener), through RocksDB's C++ interface.
// Built twice and compared byte for byte.
// Usage: sst_partitioner DB_DIR
#include "rocksdb/sst_partitioner.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "rocksdb/compaction_job_stats.h"
#include "rocksdb/concurrent_task_limiter.h"
#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/flush_block_policy.h"
#include "rocksdb/listener.h"
#include "rocksdb/metadata.h"
#include "rocksdb/options.h"
#include "rocksdb/table.h"
#include "rocksdb/table_properties.h"
#include "rocksdb/utilities/options_util.h"

namespace rdb = ROCKSDB_NAMESPACE;

static void Check(const rdb::Status& s, const char* what) {
  if (!s.ok()) {
    std::printf("FAILED %s: %s\n", what, s.ToString().c_str());
    std::exit(1);
  }
}

// Remembers the last compaction's statistics.
class StatsListener : public rdb::EventListener {
 public:
  void OnCompactionCompleted(rdb::DB* /*db*/, const rdb::CompactionJobInfo& info) override {
    std::lock_guard<std::mutex> l(mu_);
    last_ = info.stats;
    ++count_;
  }
  rdb::CompactionJobStats last() {
    std::lock_guard<std::mutex> l(mu_);
    return last_;
  }
  int count() {
    std::lock_guard<std::mutex> l(mu_);
    return count_;
  }

 private:
  std::mutex mu_;
  rdb::CompactionJobStats last_;
  int count_ = 0;
};

// Cuts a data block before every third entry; counts the entries it saw.
static int g_updates = 0;
class EveryThird : public rdb::FlushBlockPolicy {
 public:
  bool Update(const rdb::Slice& key, const rdb::Slice& /*value*/) override {
    ++g_updates;
    if (key.size() < 8) std::printf("short internal key\n");
    return n_++ > 0 && (n_ - 1) % 3 == 0;
  }

 private:
  int n_ = 0;
};
class EveryThirdFactory : public rdb::FlushBlockPolicyFactory {
 public:
  const char* Name() const override { return "EveryThirdFactory"; }
  rdb::FlushBlockPolicy* NewFlushBlockPolicy(const rdb::BlockBasedTableOptions& /*t*/,
                                             const rdb::BlockBuilder& /*b*/) const override {
    return new EveryThird();
  }
};

static void PrintLevels(rdb::DB* db, rdb::ColumnFamilyHandle* cf) {
  rdb::ColumnFamilyMetaData meta;
  db->GetColumnFamilyMetaData(cf, &meta);
  for (const rdb::LevelMetaData& level : meta.levels) {
    if (level.files.empty()) continue;
    std::printf("  L%d: %zu files", level.level, level.files.size());
    std::map<std::string, std::string> ranges;
    for (const rdb::SstFileMetaData& f : level.files) ranges[f.smallestkey] = f.largestkey;
    for (const auto& [lo, hi] : ranges) std::printf(" [%s..%s]", lo.c_str(), hi.c_str());
    std::printf("\n");
  }
}

static uint64_t DataBlocks(rdb::DB* db) {
  rdb::TablePropertiesCollection props;
  Check(db->GetPropertiesOfAllTables(&props), "GetPropertiesOfAllTables");
  uint64_t n = 0;
  for (const auto& [name, p] : props) n += p->num_data_blocks;
  return n;
}

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DB_DIR\n", argv[0]);
    return 2;
  }
  const std::string dir = argv[1];
  // Open makes only the last path component: the four databases live in it.
  Check(rdb::Env::Default()->CreateDirIfMissing(dir), "CreateDirIfMissing");

  // 1. The fixed-prefix partitioner on its own.
  {
    rdb::SstPartitionerFixedPrefix p(2);
    rdb::Slice a("aa1"), b("aa2"), c("ab1");
    std::printf("partitioner %s: aa1|aa2 %d aa2|ab1 %d move(aa1,aa2) %d move(aa1,ab1) %d\n",
                p.Name(), p.ShouldPartition(rdb::PartitionerRequest(a, b, 0)) == rdb::kRequired,
                p.ShouldPartition(rdb::PartitionerRequest(b, c, 0)) == rdb::kRequired,
                p.CanDoTrivialMove(a, b), p.CanDoTrivialMove(a, c));
    std::shared_ptr<rdb::SstPartitionerFactory> f;
    rdb::ConfigOptions config;
    Check(rdb::SstPartitionerFactory::CreateFromString(
              config, "id=SstPartitionerFixedPrefixFactory;length=3", &f),
          "SstPartitionerFactory::CreateFromString");
    std::printf("created %s (%s)\n", f->Name(), rdb::SstPartitionerFactory::Type());
  }

  // 2. Compaction output cut at prefix boundaries.
  const std::string db1 = dir + "/partitioned";
  auto listener = std::make_shared<StatsListener>();
  {
    rdb::Options options;
    options.create_if_missing = true;
    options.disable_auto_compactions = true;
    options.sst_partitioner_factory = rdb::NewSstPartitionerFixedPrefixFactory(2);
    options.listeners.push_back(listener);
    rdb::DB* db = nullptr;
    Check(rdb::DB::Open(options, db1, &db), "Open partitioned");
    std::map<std::string, std::string> model;
    const char* prefixes[] = {"aa", "ab", "ba", "bb"};
    for (int round = 0; round < 2; ++round) {
      for (const char* prefix : prefixes) {
        for (int i = round; i < 40; i += 2) {
          char key[16];
          std::snprintf(key, sizeof(key), "%s%03d", prefix, i);
          const std::string value = std::string(100, static_cast<char>('a' + i % 26));
          Check(db->Put(rdb::WriteOptions(), key, value), "Put");
          model[key] = value;
        }
      }
      Check(db->Flush(rdb::FlushOptions()), "Flush");
    }
    std::printf("after two flushes:\n");
    PrintLevels(db, db->DefaultColumnFamily());
    Check(db->CompactRange(rdb::CompactRangeOptions(), nullptr, nullptr), "CompactRange");
    std::printf("after CompactRange:\n");
    PrintLevels(db, db->DefaultColumnFamily());
    const rdb::CompactionJobStats js = listener->last();
    std::printf(
        "last compaction: input files %zu records %llu, output files %zu records %llu, "
        "manual %d\n",
        js.num_input_files, static_cast<unsigned long long>(js.num_input_records),
        js.num_output_files, static_cast<unsigned long long>(js.num_output_records),
        js.is_manual_compaction);
    // The data against the model.
    std::unique_ptr<rdb::Iterator> it(db->NewIterator(rdb::ReadOptions()));
    auto m = model.begin();
    size_t n = 0;
    bool same = true;
    for (it->SeekToFirst(); it->Valid(); it->Next(), ++m, ++n) {
      same = same && m != model.end() && it->key().ToString() == m->first &&
             it->value().ToString() == m->second;
    }
    Check(it->status(), "iterate");
    std::printf("scan: %zu keys, matches model %d\n", n, same && m == model.end());
    it.reset();
    delete db;

    // The OPTIONS file records the partitioner with its length.
    rdb::DBOptions loaded_db;
    std::vector<rdb::ColumnFamilyDescriptor> loaded_cfs;
    rdb::ConfigOptions config;
    Check(rdb::LoadLatestOptions(config, db1, &loaded_db, &loaded_cfs), "LoadLatestOptions");
    const auto& part = loaded_cfs[0].options.sst_partitioner_factory;
    std::printf("OPTIONS: sst_partitioner_factory %s\n", part ? part->Name() : "null");
    std::string text;
    Check(rdb::GetStringFromColumnFamilyOptions(config, loaded_cfs[0].options, &text),
          "GetStringFromColumnFamilyOptions");
    const size_t at = text.find("sst_partitioner_factory=");
    const size_t end = at == std::string::npos ? at : text.find('}', at);
    std::printf("  %s\n",
                end == std::string::npos ? "(absent)" : text.substr(at, end - at + 1).c_str());
  }

  // 3. Flush-block policies: a program's (a block every three entries) and
  // RocksDB's every-key policy by name.
  {
    rdb::Options options;
    options.create_if_missing = true;
    rdb::BlockBasedTableOptions table;
    table.flush_block_policy_factory = std::make_shared<EveryThirdFactory>();
    options.table_factory.reset(rdb::NewBlockBasedTableFactory(table));
    rdb::DB* db = nullptr;
    Check(rdb::DB::Open(options, dir + "/every_third", &db), "Open every_third");
    for (int i = 0; i < 10; ++i) {
      Check(db->Put(rdb::WriteOptions(), "k" + std::to_string(i), "v"), "Put");
    }
    Check(db->Flush(rdb::FlushOptions()), "Flush");
    std::printf("every third: %d updates, %llu data blocks\n", g_updates,
                static_cast<unsigned long long>(DataBlocks(db)));
    delete db;

    rdb::ConfigOptions config;
    std::shared_ptr<rdb::FlushBlockPolicyFactory> every_key;
    Check(rdb::FlushBlockPolicyFactory::CreateFromString(config, "FlushBlockEveryKeyPolicyFactory",
                                                         &every_key),
          "FlushBlockPolicyFactory::CreateFromString");
    std::printf("created %s\n", every_key->Name());
    table.flush_block_policy_factory = every_key;
    options.table_factory.reset(rdb::NewBlockBasedTableFactory(table));
    Check(rdb::DB::Open(options, dir + "/every_key", &db), "Open every_key");
    for (int i = 0; i < 10; ++i) {
      Check(db->Put(rdb::WriteOptions(), "k" + std::to_string(i), "v"), "Put");
    }
    Check(db->Flush(rdb::FlushOptions()), "Flush");
    std::printf("every key: %llu data blocks\n", static_cast<unsigned long long>(DataBlocks(db)));
    delete db;
  }

  // 4. A limiter shared by two families: limit 0 holds back automatic
  // compactions; CompactRange still runs.
  {
    std::shared_ptr<rdb::ConcurrentTaskLimiter> limiter(rdb::NewConcurrentTaskLimiter("two", 1));
    std::printf("limiter %s: outstanding %d\n", limiter->GetName().c_str(),
                limiter->GetOutstandingTask());
    limiter->SetMaxOutstandingTask(0);
    rdb::Options options;
    options.create_if_missing = true;
    options.create_missing_column_families = true;
    options.level0_file_num_compaction_trigger = 2;
    options.compaction_thread_limiter = limiter;
    std::vector<rdb::ColumnFamilyDescriptor> cfs = {{rdb::kDefaultColumnFamilyName, options},
                                                    {"second", options}};
    std::vector<rdb::ColumnFamilyHandle*> handles;
    rdb::DB* db = nullptr;
    Check(rdb::DB::Open(options, dir + "/limited", cfs, &handles, &db), "Open limited");
    for (int round = 0; round < 3; ++round) {
      for (rdb::ColumnFamilyHandle* h : handles) {
        for (int i = 0; i < 10; ++i) {
          Check(db->Put(rdb::WriteOptions(), h, "k" + std::to_string(round * 10 + i), "v"), "Put");
        }
        Check(db->Flush(rdb::FlushOptions(), h), "Flush");
      }
    }
    std::string l0a, l0b;
    db->GetProperty(handles[0], "rocksdb.num-files-at-level0", &l0a);
    db->GetProperty(handles[1], "rocksdb.num-files-at-level0", &l0b);
    std::printf("limit 0: level-0 files %s and %s, outstanding %d\n", l0a.c_str(), l0b.c_str(),
                limiter->GetOutstandingTask());
    Check(db->CompactRange(rdb::CompactRangeOptions(), handles[1], nullptr, nullptr),
          "CompactRange");
    db->GetProperty(handles[1], "rocksdb.num-files-at-level0", &l0b);
    // (Not the outstanding count: RocksDB returns the manual job's slot
    // after CompactRange has returned, at a moment of its own.)
    std::printf("after CompactRange of the second: level-0 files %s\n", l0b.c_str());
    for (rdb::ColumnFamilyHandle* h : handles) Check(db->DestroyColumnFamilyHandle(h), "handle");
    delete db;
  }
  return 0;
}
