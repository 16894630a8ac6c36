// Limits and bad arguments: keys and values at their size limits, slices
// of 4 GiB or more (rejected before a byte is read), a comparator that does
// not match the MANIFEST, options out of range (rejected or sanitized), bad
// DB paths, a read-only directory, running out of file descriptors, a second
// open of a locked DB, and calls after Close. Every failure must be a clear
// Status, and the DB must keep working and reopen with all earlier data.
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "strata/comparator.h"
#include "strata/db.h"
#include "strata/env.h"
#include "strata/filter_policy.h"
#include "strata/iterator.h"
#include "strata/merge_operator.h"
#include "strata/options.h"
#include "strata/table.h"
#include "strata/write_batch.h"
#include "test_util/db_test_base.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

namespace fs = std::filesystem;

using Model = std::map<std::string, std::string>;

// A slice of `size` bytes that starts at a 16-byte buffer: correct code
// rejects it by its size and never reads past the first bytes (a comparison
// with a short key reads at most the short key's length). ASan catches any
// copy of it.
char g_small[16] = "aaaaaaaaaaaaaaa";
Slice Huge(uint64_t size = uint64_t{1} << 32) { return Slice(g_small, static_cast<size_t>(size)); }

class AppendOperator final : public AssociativeMergeOperator {
 public:
  bool Merge(const Slice& /*key*/, const Slice* existing, const Slice& value,
             std::string* new_value, Logger* /*logger*/) const override {
    new_value->assign(existing == nullptr ? "" : existing->ToString());
    new_value->append(value.data(), value.size());
    return true;
  }
  const char* Name() const override { return "test.Append"; }
};

class NullLogger final : public Logger {
 public:
  void Logv(InfoLogLevel /*level*/, const char* /*format*/, va_list /*ap*/) override {}
};

bool Contains(const Status& s, const std::string& what) {
  return s.ToString().find(what) != std::string::npos;
}

// Every file of a directory (not recursive): name -> contents.
std::map<std::string, std::string> DirContents(const std::string& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.is_regular_file()) out[e.path().filename().string()] = test::ReadFileOrDie(e.path());
  }
  return out;
}

// The same without the info logs (LOG, LOG.old.*), which an open attempt
// may rotate.
std::map<std::string, std::string> DataFiles(const std::string& dir) {
  auto all = DirContents(dir);
  for (auto it = all.begin(); it != all.end();) {
    it = it->first.rfind("LOG", 0) == 0 ? all.erase(it) : std::next(it);
  }
  return all;
}

// A FileSystem that refuses every change under `dir` with an IOError naming
// the path, as a read-only directory (or file system) would; reads and locks
// pass through. With files_writable, like a directory chmod'ed 0555 under a
// user who still may write its files: only changes to its entries (new
// files, renames, deletions) are refused, and an existing file still opens
// for writing (and is truncated by it).
class ReadOnlyDirFileSystem final : public FileSystem {
 public:
  ReadOnlyDirFileSystem(std::shared_ptr<FileSystem> base, std::string dir,
                        bool files_writable = false)
      : base_(std::move(base)), dir_(std::move(dir)), files_writable_(files_writable) {}
  const char* Name() const override { return "ReadOnlyDirFileSystem"; }

  Status NewSequentialFile(const std::string& f, const FileOptions& o,
                           std::unique_ptr<SequentialFile>* r) override {
    return base_->NewSequentialFile(f, o, r);
  }
  Status NewRandomAccessFile(const std::string& f, const FileOptions& o,
                             std::unique_ptr<RandomAccessFile>* r) override {
    return base_->NewRandomAccessFile(f, o, r);
  }
  Status NewWritableFile(const std::string& f, const FileOptions& o,
                         std::unique_ptr<WritableFile>* r) override {
    if (DeniedWrite(f)) return Deny("While open a file for writing", f);
    return base_->NewWritableFile(f, o, r);
  }
  Status ReopenWritableFile(const std::string& f, const FileOptions& o,
                            std::unique_ptr<WritableFile>* r) override {
    if (DeniedWrite(f)) return Deny("While open a file for appending", f);
    return base_->ReopenWritableFile(f, o, r);
  }
  Status NewDirectory(const std::string& n, std::unique_ptr<Directory>* r) override {
    return base_->NewDirectory(n, r);
  }
  Status FileExists(const std::string& f) override { return base_->FileExists(f); }
  Status GetChildren(const std::string& d, std::vector<std::string>* r) override {
    return base_->GetChildren(d, r);
  }
  Status DeleteFile(const std::string& f) override {
    if (Denied(f)) return Deny("While unlink", f);
    return base_->DeleteFile(f);
  }
  Status CreateDir(const std::string& d) override {
    if (Denied(d)) return Deny("While mkdir", d);
    return base_->CreateDir(d);
  }
  Status CreateDirIfMissing(const std::string& d) override {
    bool is_dir = false;
    if (base_->IsDirectory(d, &is_dir).ok() && is_dir) return Status::OK();
    if (Denied(d)) return Deny("While mkdir", d);
    return base_->CreateDirIfMissing(d);
  }
  Status DeleteDir(const std::string& d) override {
    if (Denied(d)) return Deny("While rmdir", d);
    return base_->DeleteDir(d);
  }
  Status GetFileSize(const std::string& f, uint64_t* s) override {
    return base_->GetFileSize(f, s);
  }
  Status RenameFile(const std::string& s, const std::string& t) override {
    if (Denied(s) || Denied(t)) return Deny("While rename", s);
    return base_->RenameFile(s, t);
  }
  Status IsDirectory(const std::string& p, bool* r) override { return base_->IsDirectory(p, r); }
  Status Truncate(const std::string& f, uint64_t s) override {
    if (Denied(f)) return Deny("While truncate", f);
    return base_->Truncate(f, s);
  }
  Status LockFile(const std::string& f, std::unique_ptr<FileLock>* l) override {
    return base_->LockFile(f, l);
  }
  Status UnlockFile(std::unique_ptr<FileLock> l) override {
    return base_->UnlockFile(std::move(l));
  }
  Status NewLogger(const std::string& f, std::shared_ptr<Logger>* r) override {
    if (DeniedWrite(f)) return Deny("While open the info log", f);
    return base_->NewLogger(f, r);
  }

  int denials() const { return denials_; }

 private:
  bool Denied(const std::string& path) const { return path.rfind(dir_, 0) == 0; }
  bool DeniedWrite(const std::string& path) const {
    return Denied(path) && !(files_writable_ && base_->FileExists(path).ok());
  }
  Status Deny(const char* context, const std::string& path) {
    ++denials_;
    return Status::IOError(context, path + ": Permission denied");
  }

  const std::shared_ptr<FileSystem> base_;
  const std::string dir_;
  const bool files_writable_;
  int denials_ = 0;  // only the test thread opens (the DB fails before it runs jobs)
};

// Each test names its options: Open(o) closes first; Put records the
// model Verify checks (these differ from DBTestBase's on purpose).
class DBLimitsTest : public DBTestBase {
 protected:
  DBLimitsTest() : DBTestBase("db_limits") {}
  ~DBLimitsTest() override { Close(); }

  Options BaseOptions() const {
    Options o;
    o.create_if_missing = true;
    o.merge_operator = std::make_shared<AppendOperator>();
    return o;
  }

  Status TryOpen(const Options& o) {
    Close();
    return DB::Open(o, dbname_, &db_);
  }
  void Open(const Options& o) { ASSERT_OK(TryOpen(o)); }
  void Flush() { ASSERT_OK(db_->Flush(FlushOptions())); }
  void Compact() { ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr)); }

  void Put(const std::string& k, const std::string& v) {
    ASSERT_OK(db_->Put(WriteOptions(), k, v));
    model_[k] = v;
  }

  // Every key of the model by Get, and a full forward scan equal to it.
  void Verify(const std::string& where) {
    SCOPED_TRACE(where);
    ASSERT_NE(db_, nullptr);
    for (const auto& [k, v] : model_) {
      std::string got;
      ASSERT_OK(db_->Get(ReadOptions(), k, &got));
      ASSERT_TRUE(got == v) << "key of size " << k.size() << ": value of size " << got.size()
                            << ", want " << v.size();
    }
    auto it = db_->NewIterator(ReadOptions());
    auto m = model_.begin();
    for (it->SeekToFirst(); it->Valid(); it->Next(), ++m) {
      ASSERT_NE(m, model_.end()) << "extra key of size " << it->key().size();
      ASSERT_TRUE(it->key() == Slice(m->first)) << "key of size " << it->key().size();
      ASSERT_TRUE(it->value() == Slice(m->second)) << "value of key of size " << m->first.size();
    }
    ASSERT_OK(it->status());
    ASSERT_EQ(m, model_.end()) << "scan ended early";
  }

  // The checks after any rejected call: the DB (reopened with `o`) still
  // writes, and has all the data.
  void VerifyStillWorks(const Options& o, const std::string& where) {
    if (db_ == nullptr) Open(o);
    ASSERT_NO_FATAL_FAILURE(Verify(where + ", same session"));
    ASSERT_NO_FATAL_FAILURE(Put("after " + where, "v"));
    Close();
    Open(o);
    ASSERT_NO_FATAL_FAILURE(Verify(where + ", after reopen"));
  }

  Model model_;
};

// ---- keys and values at their limits ----

TEST_F(DBLimitsTest, EmptyKeyAndEmptyValue) {
  const Options o = BaseOptions();
  Open(o);
  Put("", "value of the empty key");
  Put("a", "");
  Put("b", "x");
  Verify("memtable");
  Flush();
  Verify("after flush");
  Put("", "newer value of the empty key");
  Compact();
  Verify("after compaction");
  Close();
  Open(o);
  Verify("after reopen");
  // The empty key seeks and deletes like any other.
  auto it = db_->NewIterator(ReadOptions());
  it->Seek("");
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ("", it->key().ToString());
  it->SeekForPrev("");
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ("", it->key().ToString());
  it.reset();
  ASSERT_OK(db_->Delete(WriteOptions(), ""));
  model_.erase("");
  std::string v;
  EXPECT_TRUE(db_->Get(ReadOptions(), "", &v).IsNotFound());
  Flush();
  Compact();
  EXPECT_TRUE(db_->Get(ReadOptions(), "", &v).IsNotFound());
  Close();
  Open(o);
  EXPECT_TRUE(db_->Get(ReadOptions(), "", &v).IsNotFound());
  Verify("after delete and reopen");
}

TEST_F(DBLimitsTest, LargeValueAndLargeKey) {
  std::mt19937_64 rng(test::RandomSeed());
  const Options o = BaseOptions();
  Open(o);
  const std::string big_value = test::RandomBytes(&rng, 8 << 20);      // 8 MiB
  const std::string big_key = "k" + test::RandomBytes(&rng, 1 << 20);  // 1 MiB + 1
  Put("a", "small");
  Put("big value", big_value);
  Put(big_key, "value of the big key");
  Put("z", "small");
  Verify("memtable");
  Flush();
  Verify("after flush");
  // Overwrite the big value through a merge, then compact both versions.
  ASSERT_OK(db_->Merge(WriteOptions(), "big value", "+tail"));
  model_["big value"] += "+tail";
  Flush();
  Compact();
  Verify("after compaction");
  Close();
  Open(o);
  Verify("after reopen");
  auto it = db_->NewIterator(ReadOptions());
  it->Seek(big_key);
  ASSERT_TRUE(it->Valid());
  EXPECT_TRUE(it->key() == Slice(big_key));
  it->Prev();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ("big value", it->key().ToString());
  EXPECT_EQ(big_value.size() + 5, it->value().size());
}

TEST_F(DBLimitsTest, BatchOfManyLargeValuesReplayedFromTheWAL) {
  std::mt19937_64 rng(test::RandomSeed());
  Options o = BaseOptions();
  o.write_buffer_size = 4 << 20;
  o.avoid_flush_during_shutdown = true;  // the reopen replays the 16 MiB WAL record
  Open(o);
  WriteBatch batch;
  for (int i = 0; i < 32; i++) {
    const std::string k = "key" + std::to_string(100 + i);
    const std::string v = test::RandomBytes(&rng, 512 << 10);
    ASSERT_OK(batch.Put(k, v));
    model_[k] = v;
  }
  ASSERT_OK(db_->Write(WriteOptions(), &batch));
  Verify("memtable");
  Close();
  Open(o);
  Verify("after WAL replay");
  Put("one more", "v");  // the over-full memtable switches
  Flush();
  Compact();
  Close();
  Open(o);
  Verify("after compaction and reopen");
}

// ---- slices of 4 GiB or more ----

TEST_F(DBLimitsTest, OversizedSlicesRejectedByTheDB) {
  const Options o = BaseOptions();
  Open(o);
  Put("a", "1");
  Flush();
  Put("b", "2");
  const WriteOptions wo;
  struct Case {
    const char* name;
    std::function<Status()> call;
    const char* message;
  };
  const std::vector<Case> cases = {
      {"Put key", [&] { return db_->Put(wo, Huge(), "v"); }, "key is too large"},
      {"Put value", [&] { return db_->Put(wo, "k", Huge()); }, "value is too large"},
      {"Put key + 1", [&] { return db_->Put(wo, Huge((uint64_t{1} << 32) + 1), "v"); },
       "key is too large"},
      {"Merge key", [&] { return db_->Merge(wo, Huge(), "v"); }, "key is too large"},
      {"Merge value", [&] { return db_->Merge(wo, "k", Huge()); }, "value is too large"},
      {"Delete", [&] { return db_->Delete(wo, Huge()); }, "key is too large"},
      {"SingleDelete", [&] { return db_->SingleDelete(wo, Huge()); }, "key is too large"},
      {"DeleteRange begin",
       [&] { return db_->DeleteRange(wo, db_->DefaultColumnFamily(), Huge(), "z"); },
       "begin key is too large"},
      {"DeleteRange end",
       [&] { return db_->DeleteRange(wo, db_->DefaultColumnFamily(), "a", Huge()); },
       "end key is too large"},
      // Each slice fits 32 bits, the record does not.
      {"Put key near 4 GiB", [&] { return db_->Put(wo, Huge((uint64_t{1} << 32) - 8), ""); },
       "WriteBatch would be too large"},
      {"Put key + value", [&] { return db_->Put(wo, Huge(uint64_t{3} << 30), Huge(1u << 30)); },
       "WriteBatch would be too large"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const uint64_t seq = db_->GetLatestSequenceNumber();
    const Status s = c.call();
    EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
    EXPECT_TRUE(Contains(s, c.message)) << s.ToString();
    EXPECT_EQ(seq, db_->GetLatestSequenceNumber()) << "a rejected write used a sequence number";
    // The thread's reused batch is clean: the next write holds only itself.
    ASSERT_NO_FATAL_FAILURE(Put("after", c.name));
  }
  // A batch with the large records never reached the DB either.
  WriteBatch batch;
  EXPECT_TRUE(batch.Put(Huge(), "v").IsInvalidArgument());
  ASSERT_OK(batch.Put("c", "3"));
  ASSERT_OK(db_->Write(wo, &batch));
  model_["c"] = "3";
  ASSERT_NO_FATAL_FAILURE(VerifyStillWorks(o, "oversized slices"));
}

class FakeFamily final : public ColumnFamilyHandle {
 public:
  const std::string& GetName() const override { return name_; }
  uint32_t GetID() const override { return 7; }

 private:
  const std::string name_ = "seven";
};

TEST_F(DBLimitsTest, OversizedSlicesLeaveTheWriteBatchUnchanged) {
  FakeFamily seven;
  const uint64_t k4G = uint64_t{1} << 32;
  struct Case {
    const char* name;
    std::function<Status(WriteBatch*)> call;
    const char* message;
  };
  const std::vector<Case> cases = {
      {"Put key", [&](WriteBatch* b) { return b->Put(Huge(), "v"); }, "key is too large"},
      {"Put value", [&](WriteBatch* b) { return b->Put("k", Huge()); }, "value is too large"},
      {"Put cf key", [&](WriteBatch* b) { return b->Put(&seven, Huge(), "v"); },
       "key is too large"},
      {"Put cf value", [&](WriteBatch* b) { return b->Put(&seven, "k", Huge(k4G + 100)); },
       "value is too large"},
      {"Merge key", [&](WriteBatch* b) { return b->Merge(Huge(), "v"); }, "key is too large"},
      {"Merge value", [&](WriteBatch* b) { return b->Merge("k", Huge()); }, "value is too large"},
      {"Merge cf", [&](WriteBatch* b) { return b->Merge(&seven, "k", Huge()); },
       "value is too large"},
      {"Delete", [&](WriteBatch* b) { return b->Delete(Huge()); }, "key is too large"},
      {"Delete cf", [&](WriteBatch* b) { return b->Delete(&seven, Huge()); }, "key is too large"},
      {"SingleDelete", [&](WriteBatch* b) { return b->SingleDelete(Huge()); }, "key is too large"},
      {"SingleDelete cf", [&](WriteBatch* b) { return b->SingleDelete(&seven, Huge()); },
       "key is too large"},
      {"DeleteRange begin", [&](WriteBatch* b) { return b->DeleteRange(Huge(), "z"); },
       "begin key is too large"},
      {"DeleteRange end", [&](WriteBatch* b) { return b->DeleteRange(&seven, "a", Huge()); },
       "end key is too large"},
      {"PutLogData", [&](WriteBatch* b) { return b->PutLogData(Huge()); }, "log data is too large"},
      // Slices that fit 32 bits but not in the batch.
      {"Put: batch passes 4 GiB", [&](WriteBatch* b) { return b->Put(Huge(k4G - 20), ""); },
       "WriteBatch would be too large"},
      {"Put cf: batch passes 4 GiB",
       [&](WriteBatch* b) { return b->Put(&seven, Huge(k4G / 2), Huge(k4G / 2)); },
       "WriteBatch would be too large"},
      {"Merge: batch passes 4 GiB",
       [&](WriteBatch* b) { return b->Merge(Huge(k4G - 100), Huge(99)); },
       "WriteBatch would be too large"},
      {"DeleteRange: batch passes 4 GiB",
       [&](WriteBatch* b) { return b->DeleteRange(Huge(k4G / 2), Huge(k4G / 2)); },
       "WriteBatch would be too large"},
      {"PutLogData: batch passes 4 GiB",
       [&](WriteBatch* b) { return b->PutLogData(Huge(k4G - 1)); },
       "WriteBatch would be too large"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    for (const bool empty : {true, false}) {
      WriteBatch batch;
      if (!empty) {
        ASSERT_OK(batch.Put("k", "v"));
        ASSERT_OK(batch.Delete(&seven, "d"));
      }
      const std::string before = batch.Data();
      const uint32_t count = batch.Count();
      const Status s = c.call(&batch);
      EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
      EXPECT_TRUE(Contains(s, c.message)) << s.ToString();
      EXPECT_EQ(before, batch.Data());
      EXPECT_EQ(count, batch.Count());
      ASSERT_OK(batch.Put("after", "ok"));  // still usable
      EXPECT_EQ(count + 1, batch.Count());
    }
  }
}

// ---- comparator names ----

TEST_F(DBLimitsTest, ComparatorNameMustMatchTheManifest) {
  const Options o = BaseOptions();
  Open(o);
  ColumnFamilyHandle* cf = nullptr;
  ColumnFamilyOptions reverse;
  reverse.comparator = ReverseBytewiseComparator();
  ASSERT_OK(db_->CreateColumnFamily(reverse, "rev", &cf));
  ASSERT_OK(db_->Put(WriteOptions(), cf, "x", "in rev"));
  ASSERT_OK(db_->DestroyColumnFamilyHandle(cf));
  Put("a", "1");
  Flush();
  Close();
  const std::string bytewise = BytewiseComparator()->Name();
  const std::string reversed = ReverseBytewiseComparator()->Name();
  const auto files = DataFiles(dbname_);

  auto open_families = [&](const Comparator* def, const Comparator* rev,
                           std::vector<ColumnFamilyHandle*>* handles) {
    ColumnFamilyOptions d = o, r = o;
    d.comparator = def;
    r.comparator = rev;
    return DB::Open(
        DBOptions(o), dbname_,
        {ColumnFamilyDescriptor(kDefaultColumnFamilyName, d), ColumnFamilyDescriptor("rev", r)},
        handles, &db_);
  };
  std::vector<ColumnFamilyHandle*> handles;
  {
    SCOPED_TRACE("default family");
    const Status s =
        open_families(ReverseBytewiseComparator(), ReverseBytewiseComparator(), &handles);
    EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
    EXPECT_TRUE(Contains(s, bytewise) && Contains(s, reversed)) << s.ToString();
    EXPECT_EQ(db_, nullptr);
    EXPECT_TRUE(handles.empty());
  }
  {
    SCOPED_TRACE("named family");
    const Status s = open_families(BytewiseComparator(), BytewiseComparator(), &handles);
    EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
    EXPECT_TRUE(Contains(s, bytewise) && Contains(s, reversed)) << s.ToString();
    EXPECT_EQ(db_, nullptr);
  }
  EXPECT_EQ(files, DataFiles(dbname_)) << "a rejected open changed the DB's files";
  ASSERT_OK(open_families(BytewiseComparator(), ReverseBytewiseComparator(), &handles));
  ASSERT_EQ(2u, handles.size());
  std::string v;
  ASSERT_OK(db_->Get(ReadOptions(), handles[1], "x", &v));
  EXPECT_EQ("in rev", v);
  for (ColumnFamilyHandle* h : handles) ASSERT_OK(db_->DestroyColumnFamilyHandle(h));
  Close();
}

// ---- options out of range ----

TEST_F(DBLimitsTest, OptionsRejectedByName) {
  const Options good = BaseOptions();
  Open(good);
  Put("a", "1");
  Flush();
  Put("b", "2");
  Close();
  struct Case {
    const char* option;  // the name the error must mention
    std::function<void(Options*)> set;
  };
  auto with_table = [](std::function<void(BlockBasedTableOptions*)> f) {
    return [f](Options* o) {
      BlockBasedTableOptions t;
      f(&t);
      o->table_factory = NewBlockBasedTableFactory(t);
    };
  };
  const std::vector<Case> cases = {
      {"num_levels", [](Options* o) { o->num_levels = 13; }},
      {"write_buffer_size", [](Options* o) { o->write_buffer_size = 0; }},
      {"write_buffer_size", [](Options* o) { o->write_buffer_size = 100; }},
      {"target_file_size_base", [](Options* o) { o->target_file_size_base = 0; }},
      {"target_file_size_multiplier", [](Options* o) { o->target_file_size_multiplier = 0; }},
      {"block_size", with_table([](auto* t) { t->block_size = 0; })},
      {"format_version", with_table([](auto* t) { t->format_version = 4; })},
      {"format_version", with_table([](auto* t) { t->format_version = 8; })},
      {"cache_index_and_filter_blocks", with_table([](auto* t) {
         t->cache_index_and_filter_blocks = true;
         t->no_block_cache = true;
       })},
      {"enable_pipelined_write", [](Options* o) { o->enable_pipelined_write = true; }},
      {"max_bytes_for_level_base", [](Options* o) { o->max_bytes_for_level_base = 0; }},
      {"compression", [](Options* o) { o->compression = kBZip2Compression; }},
      {"compression", [](Options* o) { o->compression = kXpressCompression; }},
      {"compression", [](Options* o) { o->compression = static_cast<CompressionType>(0x55); }},
      {"max_background_jobs", [](Options* o) { o->max_background_jobs = 0; }},
      {"comparator", [](Options* o) { o->comparator = nullptr; }},
      {"env", [](Options* o) { o->env = nullptr; }},
  };
  const auto before = DirContents(dbname_);
  for (const Case& c : cases) {
    SCOPED_TRACE(c.option);
    Options o = good;
    c.set(&o);
    Status s = TryOpen(o);
    EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
    EXPECT_TRUE(Contains(s, std::string("options.") + c.option) ||
                Contains(s, std::string("BlockBasedTableOptions::") + c.option))
        << s.ToString();
    EXPECT_EQ(db_, nullptr);
    // The same option on a named family, given at Open.
    const std::string option = c.option;
    if (option != "env" && option != "max_background_jobs" && option != "enable_pipelined_write") {
      const ColumnFamilyOptions named = o;  // o has the bad value
      std::vector<ColumnFamilyHandle*> handles;
      DBOptions dbo(good);
      dbo.create_missing_column_families = true;
      s = DB::Open(dbo, dbname_,
                   {ColumnFamilyDescriptor(kDefaultColumnFamilyName, good),
                    ColumnFamilyDescriptor("named", named)},
                   &handles, &db_);
      EXPECT_TRUE(s.IsInvalidArgument()) << "named family: " << s.ToString();
      EXPECT_TRUE(Contains(s, std::string("options.") + c.option) ||
                  Contains(s, std::string("BlockBasedTableOptions::") + c.option))
          << s.ToString();
      EXPECT_TRUE(handles.empty());
      EXPECT_EQ(db_, nullptr);
    }
  }
  // Rejected before the directory was touched (not even the info LOG).
  EXPECT_EQ(before, DirContents(dbname_));
  ASSERT_NO_FATAL_FAILURE(VerifyStillWorks(good, "rejected options"));
}

// Finds `name=value` in the newest OPTIONS file.
std::string OptionInFile(const std::string& dir, const std::string& name) {
  std::string newest;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string f = e.path().filename().string();
    if (f.rfind("OPTIONS-", 0) == 0 && f > newest) newest = f;
  }
  if (newest.empty()) return "(no OPTIONS file)";
  const std::string text = test::ReadFileOrDie(dir + "/" + newest);
  const size_t at = text.find("  " + name + "=");
  if (at == std::string::npos) return "(not in " + newest + ")";
  const size_t begin = at + name.size() + 3;
  return text.substr(begin, text.find('\n', begin) - begin);
}

TEST_F(DBLimitsTest, OptionsSanitizedOrAccepted) {
  struct Case {
    const char* name;
    std::function<void(Options*)> set;
    // Option -> value the OPTIONS file must show afterwards (the
    // sanitization), if any.
    std::map<std::string, std::string> written;
  };
  auto with_table = [](std::function<void(BlockBasedTableOptions*)> f) {
    return [f](Options* o) {
      BlockBasedTableOptions t;
      f(&t);
      o->table_factory = NewBlockBasedTableFactory(t);
    };
  };
  const std::vector<Case> cases = {
      // Level compaction needs a level below level 0 (RocksDB's rule).
      {"num_levels=1 (made 2)", [](Options* o) { o->num_levels = 1; }, {{"num_levels", "2"}}},
      {"num_levels=0 (made 2)", [](Options* o) { o->num_levels = 0; }, {{"num_levels", "2"}}},
      {"num_levels=-3 (made 2)", [](Options* o) { o->num_levels = -3; }, {{"num_levels", "2"}}},
      {"write_buffer_size=4096 (the minimum)", [](Options* o) { o->write_buffer_size = 4096; }, {}},
      {"max_write_buffer_number=1 (made 2)",
       [](Options* o) { o->max_write_buffer_number = 1; },
       {{"max_write_buffer_number", "2"}}},
      {"max_write_buffer_number=0 (made 2)",
       [](Options* o) { o->max_write_buffer_number = 0; },
       {{"max_write_buffer_number", "2"}}},
      // RocksDB's rule: compaction trigger <= slowdown <= stop. A stop
      // trigger below the compaction trigger would stop writes for good.
      {"level0 stop < slowdown < compaction trigger",
       [](Options* o) {
         o->level0_file_num_compaction_trigger = 4;
         o->level0_slowdown_writes_trigger = 2;
         o->level0_stop_writes_trigger = 1;
       },
       {{"level0_file_num_compaction_trigger", "4"},
        {"level0_slowdown_writes_trigger", "4"},
        {"level0_stop_writes_trigger", "4"}}},
      {"level0 compaction trigger 0",
       [](Options* o) {
         o->level0_file_num_compaction_trigger = 0;
         o->level0_slowdown_writes_trigger = 0;
         o->level0_stop_writes_trigger = 0;
       },
       {{"level0_file_num_compaction_trigger", "1"},
        {"level0_slowdown_writes_trigger", "1"},
        {"level0_stop_writes_trigger", "1"}}},
      {"block_restart_interval=0 (made 1)",
       with_table([](auto* t) { t->block_restart_interval = 0; }),
       {{"block_restart_interval", "1"}}},
      {"block_size_deviation=200 (made 0)",
       with_table([](auto* t) { t->block_size_deviation = 200; }),
       {{"block_size_deviation", "0"}}},
      {"bloom bits negative (no filter)",
       with_table([](auto* t) { t->filter_policy = NewBloomFilterPolicy(-5); }),
       {}},
      {"bloom bits huge (capped)",
       with_table([](auto* t) { t->filter_policy = NewBloomFilterPolicy(1e9); }),
       {}},
      // RocksDB clips max_open_files (except -1) to at least 20.
      {"max_open_files=0 (made 20)",
       [](Options* o) { o->max_open_files = 0; },
       {{"max_open_files", "20"}}},
      {"max_open_files=-5 (made 20)",
       [](Options* o) { o->max_open_files = -5; },
       {{"max_open_files", "20"}}},
      {"max_open_files=10 (made 20)",
       [](Options* o) { o->max_open_files = 10; },
       {{"max_open_files", "20"}}},
      {"max_bytes_for_level_multiplier=0 (made 1)",
       [](Options* o) { o->max_bytes_for_level_multiplier = 0; },
       {{"max_bytes_for_level_multiplier", "1.000000"}}},
      {"compression=kNoCompression", [](Options* o) { o->compression = kNoCompression; }, {}},
  };
  std::mt19937_64 rng(test::RandomSeed());
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Close();
    ASSERT_OK(DestroyDB(dbname_, BaseOptions()));
    model_.clear();
    Options o = BaseOptions();
    o.write_buffer_size = 32 << 10;
    o.target_file_size_base = 16 << 10;
    o.max_bytes_for_level_base = 64 << 10;
    c.set(&o);
    Status s = TryOpen(o);
    ASSERT_TRUE(s.ok()) << s.ToString();
    for (const auto& [name, value] : c.written) {
      EXPECT_EQ(value, OptionInFile(dbname_, name)) << name;
    }
    // Enough for several flushes and compactions. With the smallest write
    // buffer every write or two fills a memtable: fewer writes there.
    const int writes = o.write_buffer_size < (16 << 10) ? 100 : 800;
    for (int i = 0; i < writes; i++) {
      ASSERT_NO_FATAL_FAILURE(
          Put("key" + std::to_string(rng() % 3000), test::RandomPrintable(&rng, 100)));
    }
    ASSERT_NO_FATAL_FAILURE(Verify("after writes"));
    Flush();
    Compact();
    ASSERT_NO_FATAL_FAILURE(VerifyStillWorks(o, c.name));
  }
}

// ---- the DB path ----

TEST_F(DBLimitsTest, PathIsARegularFile) {
  test::WriteFileOrDie(dbname_, "not a database");
  const Status s = TryOpen(BaseOptions());
  EXPECT_TRUE(s.IsIOError() || s.IsInvalidArgument()) << s.ToString();
  EXPECT_TRUE(Contains(s, dbname_)) << s.ToString();
  EXPECT_EQ("not a database", test::ReadFileOrDie(dbname_));
  EXPECT_TRUE(fs::is_regular_file(dbname_));
  EXPECT_EQ(1, std::distance(fs::directory_iterator(tmp_.path()), fs::directory_iterator()));
}

TEST_F(DBLimitsTest, ParentDirectoryMissing) {
  // Like RocksDB: create_if_missing makes the last path component only.
  const std::string parent = tmp_.path() + "/missing";
  const std::string path = parent + "/db";
  std::unique_ptr<DB> db;
  const Status s = DB::Open(BaseOptions(), path, &db);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_TRUE(Contains(s, path)) << s.ToString();
  EXPECT_EQ(db, nullptr);
  EXPECT_FALSE(fs::exists(parent));
}

TEST_F(DBLimitsTest, CreateIfMissingAndErrorIfExists) {
  Options o = BaseOptions();
  o.create_if_missing = false;
  Status s = TryOpen(o);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_TRUE(Contains(s, "does not exist")) << s.ToString();
  EXPECT_TRUE(Contains(s, dbname_)) << s.ToString();
  EXPECT_FALSE(fs::exists(dbname_)) << "a failed open created the directory";
  // An empty directory is not a database either.
  fs::create_directory(dbname_);
  s = TryOpen(o);
  EXPECT_TRUE(s.IsInvalidArgument() && Contains(s, "does not exist")) << s.ToString();
  EXPECT_TRUE(fs::is_empty(dbname_));

  Open(BaseOptions());
  Put("a", "1");
  Close();
  const auto files = DirContents(dbname_);
  o = BaseOptions();
  o.error_if_exists = true;
  s = TryOpen(o);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_TRUE(Contains(s, "exists")) << s.ToString();
  EXPECT_EQ(files, DirContents(dbname_));
  ASSERT_NO_FATAL_FAILURE(VerifyStillWorks(BaseOptions(), "error_if_exists"));
}

// ---- a read-only directory ----

TEST_F(DBLimitsTest, ReadOnlyDirectoryThroughAFileSystemWrapper) {
  Open(BaseOptions());
  Put("a", "1");
  Flush();
  Put("b", "2");  // left in the WAL
  Options keep = BaseOptions();
  keep.avoid_flush_during_shutdown = true;
  Open(keep);  // reopen: recovery flushes the WAL; then a new WAL
  Put("c", "3");
  Close();
  const auto before = DirContents(dbname_);

  auto ro = std::make_shared<ReadOnlyDirFileSystem>(FileSystem::Default(), dbname_);
  Env env(ro, SystemClock::Default());
  for (const bool own_logger : {false, true}) {
    SCOPED_TRACE(own_logger ? "info_log given" : "info LOG in the directory");
    Options o = keep;
    o.env = &env;
    if (own_logger) o.info_log = std::make_shared<NullLogger>();
    const int denials = ro->denials();
    const Status s = TryOpen(o);
    printf("open on a read-only file system: %s\n", s.ToString().c_str());
    EXPECT_TRUE(s.IsIOError()) << s.ToString();
    EXPECT_TRUE(Contains(s, dbname_ + "/")) << "names no file: " << s.ToString();
    EXPECT_TRUE(Contains(s, "Permission denied")) << s.ToString();
    EXPECT_GT(ro->denials(), denials);
    EXPECT_EQ(db_, nullptr);
    EXPECT_EQ(before, DirContents(dbname_)) << "a failed open changed the directory";
  }
  ASSERT_NO_FATAL_FAILURE(VerifyStillWorks(BaseOptions(), "read-only directory"));
}

// The chmod 0555 case as root sees it too: the directory refuses new
// entries and renames, but its existing files open for writing. The LOG
// cannot be rotated, so it must not be truncated either: the failed open
// leaves every file as it was.
TEST_F(DBLimitsTest, ReadOnlyDirectoryWithWritableFilesKeepsTheLog) {
  Open(BaseOptions());
  Put("a", "1");
  Flush();
  Put("b", "2");
  Close();
  const auto before = DirContents(dbname_);
  ASSERT_GT(before.count("LOG"), 0u);
  ASSERT_FALSE(before.at("LOG").empty());
  auto ro = std::make_shared<ReadOnlyDirFileSystem>(FileSystem::Default(), dbname_,
                                                    /*files_writable=*/true);
  Env env(ro, SystemClock::Default());
  Options o = BaseOptions();
  o.env = &env;
  const Status s = TryOpen(o);
  printf("open in a directory that refuses new entries: %s\n", s.ToString().c_str());
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_TRUE(Contains(s, dbname_ + "/")) << "names no file: " << s.ToString();
  EXPECT_EQ(db_, nullptr);
  EXPECT_EQ(before, DirContents(dbname_)) << "a failed open changed the directory (the LOG?)";
  ASSERT_NO_FATAL_FAILURE(VerifyStillWorks(BaseOptions(), "directory refusing new entries"));
}

TEST_F(DBLimitsTest, ReadOnlyDirectoryByChmod) {
  Open(BaseOptions());
  Put("a", "1");
  Flush();
  Put("b", "2");
  Close();
  ASSERT_EQ(0, chmod(dbname_.c_str(), 0555));
  const std::string probe = dbname_ + "/probe";
  const int fd = open(probe.c_str(), O_CREAT | O_WRONLY, 0644);
  if (fd >= 0) {
    close(fd);
    unlink(probe.c_str());
    chmod(dbname_.c_str(), 0755);
    GTEST_SKIP() << "chmod 0555 does not stop writes here (running as root?); "
                    "ReadOnlyDirectoryThroughAFileSystemWrapper covers the case";
  }
  const auto before = DirContents(dbname_);
  const Status s = TryOpen(BaseOptions());
  ASSERT_EQ(0, chmod(dbname_.c_str(), 0755));
  printf("open in a 0555 directory: %s\n", s.ToString().c_str());
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_TRUE(Contains(s, dbname_ + "/")) << s.ToString();
  EXPECT_EQ(db_, nullptr);
  // Existing files stay writable in a 0555 directory, but the open fails
  // before it writes any (the LOG is not rotated, so not truncated either).
  EXPECT_EQ(before, DirContents(dbname_));
  ASSERT_NO_FATAL_FAILURE(VerifyStillWorks(BaseOptions(), "chmod 0555"));
}

// ---- file descriptors ----

// Writes ~100 table files (small target size, one compaction).
// 4000 keys in one batch, flushed and rewritten into files of
// target_file_size_base (~100 with the tests' 2 KiB target), into family
// cf (null: the default one); values start with the family's name.
void FillManyTables(DB* db, Model* model, ColumnFamilyHandle* cf = nullptr) {
  std::mt19937_64 rng(test::RandomSeed());
  const std::string prefix = cf != nullptr ? cf->GetName() : "";
  WriteBatch batch;
  for (int i = 0; i < 4000; i++) {
    char k[16];
    snprintf(k, sizeof(k), "key%06d", i);
    const std::string v = prefix + test::RandomPrintable(&rng, 100);
    ASSERT_OK(batch.Put(cf, k, v));
    (*model)[k] = v;
  }
  ASSERT_OK(db->Write(WriteOptions(), &batch));
  ASSERT_OK(db->Flush(FlushOptions(), cf));
  // Rewritten (not moved) into files of target_file_size_base.
  CompactRangeOptions cro;
  cro.bottommost_level_compaction = BottommostLevelCompaction::kForce;
  ASSERT_OK(db->CompactRange(cro, cf, nullptr, nullptr));
}

// Options that give FillManyTables its many small tables, each reader
// holding a descriptor, under max_open_files = 20.
Options ManyTablesOptions(Options o) {
  o.max_open_files = 20;
  o.table_mmap_reads = false;  // every reader keeps its descriptor
  o.target_file_size_base = 2 << 10;
  o.compression = kNoCompression;
  o.disable_auto_compactions = true;
  return o;
}

uint64_t TotalTableFiles(DB* db) {
  uint64_t total = 0;
  for (int level = 0; level < 7; level++) {
    uint64_t n = 0;
    if (db->GetIntProperty("rocksdb.num-files-at-level" + std::to_string(level), &n)) total += n;
  }
  return total;
}

int CountTableFds(const std::string& dir) {
  int n = 0;
  for (const auto& e : fs::directory_iterator("/proc/self/fd")) {
    std::error_code ec;
    const std::string target = fs::read_symlink(e.path(), ec).string();
    if (!ec && target.rfind(dir, 0) == 0 && target.ends_with(".sst")) n++;
  }
  return n;
}

TEST_F(DBLimitsTest, SmallMaxOpenFilesEvictsTableReaders) {
  const Options o = ManyTablesOptions(BaseOptions());
  Open(o);
  ASSERT_NO_FATAL_FAILURE(FillManyTables(db_.get(), &model_));
  const uint64_t files = TotalTableFiles(db_.get());
  EXPECT_GE(files, 80u);
  Close();
  Open(o);
  ASSERT_NO_FATAL_FAILURE(Verify("max_open_files 20"));
  // Reverse scan and point reads in a shuffled order too.
  {
    auto it = db_->NewIterator(ReadOptions());
    auto m = model_.rbegin();
    for (it->SeekToLast(); it->Valid(); it->Prev(), ++m) {
      ASSERT_NE(m, model_.rend());
      ASSERT_EQ(m->first, it->key().ToString());
    }
    ASSERT_OK(it->status());
    EXPECT_EQ(m, model_.rend());
  }
  int table_fds = CountTableFds(dbname_);
  EXPECT_LE(table_fds, 20) << "the table cache holds more readers than its bound";
  printf("table files: %llu; open table descriptors: %d\n", static_cast<unsigned long long>(files),
         table_fds);
}

// max_open_files bounds the open tables of the whole DB, not of each column
// family (the families share one reader cache, as in RocksDB): three
// families of ~100 tables each, read in full, keep at most 20 open.
TEST_F(DBLimitsTest, SmallMaxOpenFilesBoundsAllFamiliesTogether) {
  if (test::kThreadSanitizer)
    GTEST_SKIP() << "TSan forbids threads in a multi-threaded fork's child";
  Options o = ManyTablesOptions(BaseOptions());
  o.create_missing_column_families = true;
  const std::vector<std::string> names = {kDefaultColumnFamilyName, "one", "two"};
  std::vector<ColumnFamilyDescriptor> descs;
  for (const std::string& n : names) descs.emplace_back(n, o);
  std::map<std::string, Model> models;
  {
    std::vector<ColumnFamilyHandle*> h;
    std::unique_ptr<DB> db;
    ASSERT_OK(DB::Open(o, dbname_, descs, &h, &db));
    for (ColumnFamilyHandle* cf : h) {
      ASSERT_NO_FATAL_FAILURE(FillManyTables(db.get(), &models[cf->GetName()], cf));
    }
    for (ColumnFamilyHandle* cf : h) ASSERT_OK(db->DestroyColumnFamilyHandle(cf));
    ASSERT_OK(db->Close());
  }
  std::vector<ColumnFamilyHandle*> h;
  std::unique_ptr<DB> db;
  ASSERT_OK(DB::Open(o, dbname_, descs, &h, &db));
  for (ColumnFamilyHandle* cf : h) {
    const Model& model = models[cf->GetName()];
    for (const auto& [k, v] : model) {
      std::string got;
      ASSERT_OK(db->Get(ReadOptions(), cf, k, &got));
      ASSERT_EQ(got, v) << cf->GetName() << " " << k;
    }
    std::unique_ptr<Iterator> it(db->NewIterator(ReadOptions(), cf));
    auto m = model.begin();
    for (it->SeekToFirst(); it->Valid(); it->Next(), ++m) {
      ASSERT_NE(m, model.end());
      ASSERT_EQ(it->key().ToString(), m->first);
      ASSERT_EQ(it->value().ToString(), m->second);
    }
    ASSERT_OK(it->status());
    ASSERT_EQ(m, model.end());
  }
  const int table_fds = CountTableFds(dbname_);
  EXPECT_LE(table_fds, 20) << "the families' table caches hold more readers than the DB's bound";
  printf("open table descriptors after reading three families: %d\n", table_fds);
  for (ColumnFamilyHandle* cf : h) ASSERT_OK(db->DestroyColumnFamilyHandle(cf));
  ASSERT_OK(db->Close());
}

// Runs fn in a forked child and returns what it reports ("" = success).
// The child gets its own Env (the parent's thread pools do not survive a
// fork) and never returns into gtest.
std::string RunInChild(const std::function<std::string()>& fn) {
  int fds[2];
  if (pipe(fds) != 0) return "pipe failed";
  fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) return "fork failed";
  if (pid == 0) {
    close(fds[0]);
    const std::string msg = fn();
    size_t off = 0;
    while (off < msg.size()) {
      const ssize_t n = write(fds[1], msg.data() + off, msg.size() - off);
      if (n <= 0) break;
      off += static_cast<size_t>(n);
    }
    close(fds[1]);
    _exit(0);
  }
  close(fds[1]);
  std::string out;
  char buf[512];
  ssize_t n;
  while ((n = read(fds[0], buf, sizeof(buf))) > 0) out.append(buf, static_cast<size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    out += " (child ended with status " + std::to_string(status) + ")";
  }
  return out;
}

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

TEST_F(DBLimitsTest, OutOfFileDescriptorsInAChild) {
  if (kSanitized) {
    // UBSan's vptr check tests memory with a pipe(2); with no descriptor
    // left it reports every virtual call as a bad object and aborts.
    GTEST_SKIP() << "the sanitizer runtime itself needs free descriptors";
  }
  Options o = BaseOptions();
  o.target_file_size_base = 2 << 10;
  o.compression = kNoCompression;
  o.disable_auto_compactions = true;
  Open(o);
  ASSERT_NO_FATAL_FAILURE(FillManyTables(db_.get(), &model_));
  EXPECT_GE(TotalTableFiles(db_.get()), 80u);
  Put("in the memtable", "m");
  Close();
  const std::string path = dbname_;
  const Model model = model_;

  const std::string result = RunInChild([&]() -> std::string {
    Env env(FileSystem::Default(), SystemClock::Default());
    Options co = o;
    co.env = &env;
    std::unique_ptr<DB> db;
    Status s = DB::Open(co, path, &db);
    if (!s.ok()) return "child open: " + s.ToString();
    rlimit old{};
    getrlimit(RLIMIT_NOFILE, &old);
    // The lowest free descriptor: every one below it is in use, so with
    // the limit there no file can be opened at all.
    const int lowest = dup(0);
    if (lowest < 0) return "dup failed";
    close(lowest);
    rlimit low = old;
    low.rlim_cur = static_cast<rlim_t>(lowest);
    if (setrlimit(RLIMIT_NOFILE, &low) != 0) return "setrlimit failed";
    std::string errors;
    int io_errors = 0;
    // Point reads: the value or an IOError naming a table file; never a
    // wrong value, never NotFound for a present key.
    for (const auto& [k, v] : model) {
      std::string got;
      s = db->Get(ReadOptions(), k, &got);
      if (s.ok()) {
        if (got != v) errors += "wrong value for " + k + "; ";
      } else if (s.IsIOError() && s.ToString().find(".sst") != std::string::npos &&
                 s.ToString().find("Too many open files") != std::string::npos) {
        io_errors++;
      } else {
        errors += "Get " + k + ": " + s.ToString() + "; ";
        break;
      }
    }
    if (io_errors == 0) errors += "no read failed with the descriptor limit; ";
    {
      auto it = db->NewIterator(ReadOptions());
      auto m = model.begin();
      for (it->SeekToFirst(); it->Valid(); it->Next(), ++m) {
        if (m == model.end() || it->key() != Slice(m->first) || it->value() != Slice(m->second)) {
          errors += "iterator returned wrong data; ";
          break;
        }
      }
      if (it->status().ok() && m != model.end()) errors += "iterator ended early with OK; ";
      if (!it->status().ok() && !it->status().IsIOError()) {
        errors += "iterator: " + it->status().ToString() + "; ";
      }
    }
    if (setrlimit(RLIMIT_NOFILE, &old) != 0) return "setrlimit (restore) failed";
    // Descriptors back: everything reads again, in the same session.
    for (const auto& [k, v] : model) {
      std::string got;
      s = db->Get(ReadOptions(), k, &got);
      if (!s.ok() || got != v) {
        errors += "after the limit was raised, Get " + k + ": " + s.ToString() + "; ";
        break;
      }
    }
    s = db->Put(WriteOptions(), "written by the child", "c");
    if (!s.ok()) errors += "Put after the limit was raised: " + s.ToString() + "; ";
    s = db->Close();
    if (!s.ok()) errors += "Close: " + s.ToString() + "; ";
    return errors;
  });
  EXPECT_EQ("", result);
  model_["written by the child"] = "c";
  Open(o);
  ASSERT_NO_FATAL_FAILURE(Verify("after the child"));
}

// ---- the LOCK ----

TEST_F(DBLimitsTest, SecondOpenInTheSameProcessFailsOnTheLock) {
  Open(BaseOptions());
  Put("a", "1");
  const auto files = DirContents(dbname_);
  std::unique_ptr<DB> second;
  const Status s = DB::Open(BaseOptions(), dbname_, &second);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_TRUE(Contains(s, "LOCK")) << s.ToString();
  EXPECT_EQ(second, nullptr);
  // Nothing of the running instance was touched (its info LOG included).
  EXPECT_EQ(files.size(), DirContents(dbname_).size());
  EXPECT_FALSE(fs::exists(dbname_ + "/LOG.old")) << "the second open rotated the LOG";
  for (const auto& e : fs::directory_iterator(dbname_)) {
    EXPECT_NE(0u, e.path().filename().string().rfind("LOG.old", 0))
        << "the second open rotated the LOG: " << e.path();
  }
  ASSERT_NO_FATAL_FAILURE(VerifyStillWorks(BaseOptions(), "second open"));
}

TEST_F(DBLimitsTest, SecondOpenInAnotherProcessFailsOnTheLock) {
  Open(BaseOptions());
  Put("a", "1");
  const std::string path = dbname_;
  // exec a fresh copy of this binary: nothing of this process's lock
  // bookkeeping is inherited, only the fcntl lock on the file counts.
  const std::string result = RunInChild([&]() -> std::string {
    setenv("STRATA_LIMITS_LOCK_CHILD", path.c_str(), 1);
    execl("/proc/self/exe", "db_limits_test", "--gtest_filter=DBLimitsTest.LockChildHelper",
          "--gtest_brief=1", static_cast<char*>(nullptr));
    return std::string("exec failed: ") + strerror(errno);
  });
  EXPECT_EQ("", result);
  ASSERT_NO_FATAL_FAILURE(VerifyStillWorks(BaseOptions(), "second process"));
}

// Runs only as the child of the test above (exits 0 when the open fails on
// the LOCK, 1 otherwise).
TEST_F(DBLimitsTest, LockChildHelper) {
  const char* path = getenv("STRATA_LIMITS_LOCK_CHILD");
  if (path == nullptr) GTEST_SKIP() << "helper of SecondOpenInAnotherProcessFailsOnTheLock";
  std::unique_ptr<DB> db;
  const Status s = DB::Open(BaseOptions(), path, &db);
  const bool good = s.IsIOError() && Contains(s, "LOCK") && db == nullptr;
  if (!good) fprintf(stderr, "second open in another process: %s\n", s.ToString().c_str());
  fflush(nullptr);
  _exit(good ? 0 : 1);
}

// ---- after Close ----

TEST_F(DBLimitsTest, CallsAfterClose) {
  const Options o = BaseOptions();
  Open(o);
  Put("a", "1");
  ColumnFamilyHandle* cf = nullptr;
  ASSERT_OK(db_->CreateColumnFamily(ColumnFamilyOptions(), "cf", &cf));
  ASSERT_OK(db_->Close());
  EXPECT_OK(db_->Close());  // a second Close is a no-op
  const WriteOptions wo;
  std::string v;
  auto expect_error = [](const char* what, const Status& s) {
    EXPECT_FALSE(s.ok()) << what << " after Close returned OK";
  };
  expect_error("Put", db_->Put(wo, "k", "v"));
  expect_error("Put cf", db_->Put(wo, cf, "k", "v"));
  expect_error("Delete", db_->Delete(wo, "a"));
  expect_error("Merge", db_->Merge(wo, "a", "x"));
  expect_error("DeleteRange", db_->DeleteRange(wo, db_->DefaultColumnFamily(), "a", "b"));
  WriteBatch batch;
  ASSERT_OK(batch.Put("k", "v"));
  expect_error("Write", db_->Write(wo, &batch));
  expect_error("Get", db_->Get(ReadOptions(), "a", &v));
  expect_error("Get cf", db_->Get(ReadOptions(), cf, "a", &v));
  std::vector<std::string> values;
  for (const Status& s : db_->MultiGet(ReadOptions(), {Slice("a")}, &values)) {
    expect_error("MultiGet", s);
  }
  {
    auto it = db_->NewIterator(ReadOptions());
    it->SeekToFirst();
    EXPECT_FALSE(it->Valid());
    expect_error("NewIterator", it->status());
  }
  expect_error("Flush", db_->Flush(FlushOptions()));
  expect_error("CompactRange", db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  EXPECT_OK(db_->DestroyColumnFamilyHandle(cf));
  db_.reset();  // the destructor after Close
  std::vector<ColumnFamilyHandle*> handles;
  ASSERT_OK(DB::Open(DBOptions(o), dbname_,
                     {ColumnFamilyDescriptor(kDefaultColumnFamilyName, o),
                      ColumnFamilyDescriptor("cf", ColumnFamilyOptions())},
                     &handles, &db_));
  for (ColumnFamilyHandle* h : handles) ASSERT_OK(db_->DestroyColumnFamilyHandle(h));
  model_["a"] = "1";
  ASSERT_NO_FATAL_FAILURE(Verify("reopened after calls after Close"));
}

// CreateColumnFamily after Close fails and records nothing (it used to
// return OK and write the family into the MANIFEST, so the next Open
// without it failed with "Column families not opened").
TEST_F(DBLimitsTest, CreateColumnFamilyAfterCloseFails) {
  const Options o = BaseOptions();
  Open(o);
  Put("a", "1");
  ASSERT_OK(db_->Close());
  ColumnFamilyHandle* cf = nullptr;
  const Status s = db_->CreateColumnFamily(ColumnFamilyOptions(), "late", &cf);
  EXPECT_FALSE(s.ok()) << "CreateColumnFamily after Close returned OK";
  EXPECT_EQ(cf, nullptr);
  if (cf != nullptr) EXPECT_OK(db_->DestroyColumnFamilyHandle(cf));
  db_.reset();
  ASSERT_NO_FATAL_FAILURE(Open(o));  // the DB has no family "late"
  ASSERT_NO_FATAL_FAILURE(Verify("after CreateColumnFamily on a closed DB"));
}

// A family created at run time gets the checks and adjustments DB::Open
// applies (ValidateColumnFamilyOptions, SanitizeColumnFamilyOptions). It
// used to get fewer: num_levels = 1 then made CompactRange fail with
// Corruption "new file N at level 1 beyond num_levels 1" and stopped writes.
TEST_F(DBLimitsTest, CreateColumnFamilyChecksOptionsLikeOpen) {
  Open(BaseOptions());
  ColumnFamilyOptions bad;
  bad.compression = kBZip2Compression;  // not linked
  ColumnFamilyHandle* cf = nullptr;
  Status s = db_->CreateColumnFamily(bad, "bzip2", &cf);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  if (cf != nullptr) ASSERT_OK(db_->DestroyColumnFamilyHandle(cf));
  cf = nullptr;
  ColumnFamilyOptions one_level;
  one_level.num_levels = 1;
  ASSERT_OK(db_->CreateColumnFamily(one_level, "one", &cf));
  for (int i = 0; i < 3; i++) {
    ASSERT_OK(db_->Put(WriteOptions(), cf, "k" + std::to_string(i), "v"));
    ASSERT_OK(db_->Flush(FlushOptions(), cf));
  }
  s = db_->CompactRange(CompactRangeOptions(), cf, nullptr, nullptr);
  EXPECT_OK(s);
  EXPECT_OK(db_->Put(WriteOptions(), "after", "v"));
  ASSERT_OK(db_->DestroyColumnFamilyHandle(cf));
}

}  // namespace
}  // namespace strata
