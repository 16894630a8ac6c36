// Direct I/O and compaction read-ahead at the DB level: use_direct_reads and
// use_direct_io_for_flush_and_compaction give the same data as buffered I/O;
// the combinations RocksDB 7.8.3 refuses are refused with its messages; a
// file system that refuses O_DIRECT fails Open cleanly; compaction inputs
// are read compaction_readahead_size bytes at a time.
//
// The databases live on a real disk (/var/tmp), where O_DIRECT means
// something; tests skip where it does not take O_DIRECT.
#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <map>
#include <random>

#include "db/db_impl.h"
#include "gtest/gtest.h"
#include "strata/db.h"
#include "strata/table.h"
#include "test_util/forwarding_file_system.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

std::string MakeDir() {
  static int counter = 0;
  const std::string path =
      "/var/tmp/strata-dbdirect-" + std::to_string(getpid()) + "-" + std::to_string(counter++);
  std::filesystem::remove_all(path);
  std::filesystem::create_directories(path);
  return path;
}

bool KernelTakesODirect(const std::string& dir) {
  const std::string probe = dir + "/probe";
  const int fd = open(probe.c_str(), O_CREAT | O_WRONLY | O_DIRECT | O_CLOEXEC, 0644);
  if (fd >= 0) close(fd);
  unlink(probe.c_str());
  return fd >= 0;
}

class DBDirectIOTest : public testing::Test {
 protected:
  DBDirectIOTest() : dir_(MakeDir()), dbname_(dir_ + "/db") {}
  ~DBDirectIOTest() override {
    db_.reset();
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  static Options SmallOptions() {
    Options o;
    o.create_if_missing = true;
    o.write_buffer_size = 64 << 10;
    o.target_file_size_base = 64 << 10;
    o.max_bytes_for_level_base = 256 << 10;
    o.level0_file_num_compaction_trigger = 2;
    o.compression = kNoCompression;
    BlockBasedTableOptions t;
    t.block_size = 1024;
    o.table_factory = NewBlockBasedTableFactory(t);
    return o;
  }

  Status Open(const Options& o) {
    db_.reset();
    return DB::Open(o, dbname_, &db_);
  }

  // Writes n random keys (some overwritten, some deleted) into the open DB
  // and the model, flushing now and then.
  void Fill(std::mt19937_64* rng, int n, std::map<std::string, std::string>* model) {
    for (int i = 0; i < n; ++i) {
      const std::string key = "key" + std::to_string((*rng)() % 5000);
      if ((*rng)() % 10 == 0) {
        ASSERT_OK(db_->Delete(WriteOptions(), key));
        model->erase(key);
      } else {
        const std::string value = test::RandomPrintable(rng, 10 + (*rng)() % 300);
        ASSERT_OK(db_->Put(WriteOptions(), key, value));
        (*model)[key] = value;
      }
    }
  }

  void Verify(const std::map<std::string, std::string>& model) {
    auto it = db_->NewIterator(ReadOptions());
    auto m = model.begin();
    for (it->SeekToFirst(); it->Valid(); it->Next(), ++m) {
      ASSERT_NE(m, model.end()) << it->key().ToString();
      ASSERT_EQ(m->first, it->key().ToString());
      ASSERT_EQ(m->second, it->value().ToString());
    }
    ASSERT_OK(it->status());
    ASSERT_EQ(m, model.end());
    for (const auto& [k, v] : model) {
      std::string got;
      ASSERT_OK(db_->Get(ReadOptions(), k, &got));
      ASSERT_EQ(v, got);
    }
  }

  const std::string dir_;
  const std::string dbname_;
  std::unique_ptr<DB> db_;
};

TEST_F(DBDirectIOTest, DirectReadsAndWritesKeepEveryKey) {
  if (!KernelTakesODirect(dir_)) GTEST_SKIP() << dir_ << " refuses O_DIRECT";
  const uint64_t seed = test::RandomSeed();
  std::mt19937_64 rng(seed);
  Options o = SmallOptions();
  o.use_direct_reads = true;
  o.table_mmap_reads = false;
  o.use_direct_io_for_flush_and_compaction = true;
  o.writable_file_max_buffer_size = 10000;  // not a multiple of the block size
  ASSERT_OK(Open(o));
  // Sanitized as RocksDB 7.8.3 does.
  EXPECT_EQ(size_t{2} << 20, db_->GetDBOptions().compaction_readahead_size);
  std::map<std::string, std::string> model;
  Fill(&rng, 20000, &model);
  ASSERT_OK(db_->Flush(FlushOptions()));
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  Verify(model);
  db_.reset();
  // RocksDB's own sst_dump verifies every table written through O_DIRECT
  // (block checksums, and the footer at the end of the cut-to-size file).
  if (access("/usr/bin/sst_dump", X_OK) == 0) {
    int rc = 0;
    const std::string out =
        test::RunCommand("/usr/bin/sst_dump --file=" + dbname_ + " --command=verify", &rc);
    EXPECT_EQ(0, rc) << out;
    EXPECT_EQ(std::string::npos, out.find("Corruption")) << out;
    EXPECT_NE(std::string::npos, out.find("The file is ok")) << out.substr(0, 2000);
  }
  // Every table file has exactly the size the MANIFEST records (the padded
  // last page was cut off at close): a reopen with paranoid checks agrees.
  o.paranoid_checks = true;
  ASSERT_OK(Open(o));
  Verify(model);
  // The same files read buffered, and through maps.
  o.use_direct_reads = false;
  o.use_direct_io_for_flush_and_compaction = false;
  o.table_mmap_reads = true;
  ASSERT_OK(Open(o));
  Verify(model);
}

TEST_F(DBDirectIOTest, RefusedCombinationsNameTheOptions) {
  struct Case {
    const char* want;  // in the message
    bool not_supported;
    std::function<void(Options*)> set;
  };
  const std::vector<Case> cases = {
      {"If memory mapped reads (allow_mmap_reads) are enabled then direct I/O reads "
       "(use_direct_reads) must be disabled.",
       true,
       [](Options* o) {
         o->use_direct_reads = true;
         o->table_mmap_reads = false;
         o->allow_mmap_reads = true;
       }},
      {"table_mmap_reads", true, [](Options* o) { o->use_direct_reads = true; }},
      {"If memory mapped writes (allow_mmap_writes) are enabled then direct I/O writes "
       "(use_direct_io_for_flush_and_compaction) must be disabled.",
       true,
       [](Options* o) {
         o->use_direct_io_for_flush_and_compaction = true;
         o->allow_mmap_writes = true;
       }},
      {"writes in direct IO require writable_file_max_buffer_size > 0", false,
       [](Options* o) {
         o->use_direct_io_for_flush_and_compaction = true;
         o->writable_file_max_buffer_size = 0;
       }},
      {"More than four DB paths are not supported yet.", true,
       [](Options* o) {
         for (int i = 0; i < 5; ++i) o->db_paths.emplace_back("/nowhere/" + std::to_string(i), 1);
       }},
      {"options.cf_paths: more than four CF paths", true,
       [](Options* o) {
         for (int i = 0; i < 5; ++i) o->cf_paths.emplace_back("/nowhere/" + std::to_string(i), 1);
       }},
      {"More than one DB paths are only supported in universal and level compaction styles.", true,
       [](Options* o) {
         o->compaction_style = kCompactionStyleFIFO;
         o->max_open_files = -1;
         o->db_paths = {DbPath("/nowhere/0", 1), DbPath("/nowhere/1", 1)};
       }},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.want);
    Options o = SmallOptions();
    c.set(&o);
    Status s = Open(o);
    EXPECT_EQ(c.not_supported, s.IsNotSupported()) << s.ToString();
    EXPECT_EQ(!c.not_supported, s.IsInvalidArgument()) << s.ToString();
    EXPECT_NE(std::string::npos, s.ToString().find(c.want)) << s.ToString();
    EXPECT_EQ(nullptr, db_);
  }
  EXPECT_FALSE(std::filesystem::exists(dbname_ + "/CURRENT"));
}

// A file system that refuses O_DIRECT, as tmpfs did before Linux 6.6.
class NoDirectIOFileSystem : public test::ForwardingFileSystem {
 public:
  using ForwardingFileSystem::ForwardingFileSystem;
  Status NewRandomAccessFile(const std::string& f, const FileOptions& o,
                             std::unique_ptr<RandomAccessFile>* r) override {
    if (o.use_direct_reads) return Status::InvalidArgument("O_DIRECT refused", f);
    return ForwardingFileSystem::NewRandomAccessFile(f, o, r);
  }
  Status NewWritableFile(const std::string& f, const FileOptions& o,
                         std::unique_ptr<WritableFile>* r) override {
    if (o.use_direct_writes) return Status::InvalidArgument("O_DIRECT refused", f);
    return ForwardingFileSystem::NewWritableFile(f, o, r);
  }
};

TEST_F(DBDirectIOTest, FileSystemWithoutDirectIOFailsOpenCleanly) {
  auto env = std::make_unique<Env>(std::make_shared<NoDirectIOFileSystem>(FileSystem::Default()),
                                   SystemClock::Default());
  for (int which = 0; which < 2; ++which) {
    Options o = SmallOptions();
    o.env = env.get();
    if (which == 0) {
      o.use_direct_reads = true;
      o.table_mmap_reads = false;
    } else {
      o.use_direct_io_for_flush_and_compaction = true;
    }
    Status s = Open(o);
    EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
    EXPECT_NE(std::string::npos,
              s.ToString().find("Direct I/O is not supported by the specified DB."))
        << s.ToString();
    EXPECT_NE(std::string::npos, s.ToString().find(which == 0 ? "use_direct_reads"
                                                              : "use_direct_io_for_flush_and_"
                                                                "compaction"))
        << s.ToString();
    EXPECT_EQ(nullptr, db_);
  }
  // Without direct I/O the same DB opens. It is closed here, before env
  // (a local) goes.
  Options o = SmallOptions();
  o.env = env.get();
  ASSERT_OK(Open(o));
  ASSERT_OK(db_->Close());
  db_.reset();
}

TEST_F(DBDirectIOTest, MemEnvIgnoresDirectIO) {
  std::unique_ptr<Env> env = NewMemEnv();
  Options o = SmallOptions();
  o.env = env.get();
  o.use_direct_reads = true;
  o.table_mmap_reads = false;
  o.use_direct_io_for_flush_and_compaction = true;
  std::mt19937_64 rng(test::RandomSeed());
  ASSERT_OK(Open(o));
  std::map<std::string, std::string> model;
  Fill(&rng, 3000, &model);
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  Verify(model);
  db_.reset();  // before env, a local, goes
}

// Records the sizes of reads of table files.
class ReadSizeFileSystem : public test::ForwardingFileSystem {
 public:
  using ForwardingFileSystem::ForwardingFileSystem;
  Status NewRandomAccessFile(const std::string& f, const FileOptions& o,
                             std::unique_ptr<RandomAccessFile>* r) override {
    Status s = ForwardingFileSystem::NewRandomAccessFile(f, o, r);
    if (s.ok() && f.size() > 4 && f.compare(f.size() - 4, 4, ".sst") == 0) {
      *r = std::make_unique<Counting>(std::move(*r), this);
    }
    return s;
  }
  std::atomic<uint64_t> reads{0};
  std::atomic<uint64_t> largest{0};

 private:
  class Counting : public RandomAccessFile {
   public:
    Counting(std::unique_ptr<RandomAccessFile> base, ReadSizeFileSystem* fs)
        : base_(std::move(base)), fs_(fs) {}
    Status Read(uint64_t offset, size_t n, Slice* result, char* scratch) const override {
      fs_->reads.fetch_add(1, std::memory_order_relaxed);
      uint64_t cur = fs_->largest.load(std::memory_order_relaxed);
      while (n > cur && !fs_->largest.compare_exchange_weak(cur, n, std::memory_order_relaxed)) {
      }
      return base_->Read(offset, n, result, scratch);
    }

   private:
    std::unique_ptr<RandomAccessFile> base_;
    ReadSizeFileSystem* fs_;
  };
};

TEST_F(DBDirectIOTest, CompactionReadsAheadByTheOption) {
  auto fs = std::make_shared<ReadSizeFileSystem>(FileSystem::Default());
  auto env = std::make_unique<Env>(fs, SystemClock::Default());
  std::mt19937_64 rng(test::RandomSeed());
  std::map<std::string, std::string> model;
  uint64_t reads_by_size[2] = {0, 0};
  for (size_t readahead : {size_t{0}, size_t{256} << 10}) {
    SCOPED_TRACE("compaction_readahead_size " + std::to_string(readahead));
    db_.reset();
    ASSERT_OK(DestroyDB(dbname_, Options()));
    Options o = SmallOptions();
    o.env = env.get();
    o.table_mmap_reads = false;
    o.disable_auto_compactions = true;
    o.target_file_size_base = 4 << 20;  // one output file per compaction
    o.write_buffer_size = 1 << 20;
    o.compaction_readahead_size = readahead;
    ASSERT_OK(Open(o));
    std::mt19937_64 fill_rng(1);
    model.clear();
    Fill(&fill_rng, 6000, &model);
    ASSERT_OK(db_->Flush(FlushOptions()));
    Fill(&fill_rng, 6000, &model);
    ASSERT_OK(db_->Flush(FlushOptions()));
    fs->reads = 0;
    fs->largest = 0;
    ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
    reads_by_size[readahead == 0 ? 0 : 1] = fs->reads.load();
    if (readahead > 0) {
      // The inputs (each under readahead bytes) are read in one go each,
      // plus the footer and meta blocks at open.
      EXPECT_GE(fs->largest.load(), uint64_t{100} << 10);
    }
    Verify(model);
  }
  EXPECT_LT(reads_by_size[1], reads_by_size[0]);
  // Changed online, as RocksDB allows.
  ASSERT_OK(db_->SetDBOptions({{"compaction_readahead_size", "1048576"}}));
  EXPECT_EQ(size_t{1} << 20, db_->GetDBOptions().compaction_readahead_size);
  db_.reset();  // before env, a local, goes
}

}  // namespace
}  // namespace strata
