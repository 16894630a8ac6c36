// The framework and small utility headers of the compat layer:
// data_structure.h, functor_wrapper.h, unique_id.h (ids computed by Strata
// and by RocksDB for the same tables, both ways, through
// rocksdb_framework_tool), thread_status.h, threadpool.h.

#include <stdio.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "rocksdb/cache_bench_tool.h"
#include "rocksdb/compression_type.h"
#include "rocksdb/data_structure.h"
#include "rocksdb/db.h"
#include "rocksdb/db_bench_tool.h"
#include "rocksdb/db_stress_tool.h"
#include "rocksdb/env.h"
#include "rocksdb/env_encryption.h"
#include "rocksdb/functor_wrapper.h"
#include "rocksdb/options.h"
#include "rocksdb/thread_status.h"
#include "rocksdb/threadpool.h"
#include "rocksdb/unique_id.h"
#include "rocksdb/utilities/customizable_util.h"
#include "rocksdb/utilities/env_mirror.h"
#include "rocksdb/utilities/ldb_cmd.h"
#include "rocksdb/utilities/object_registry.h"
#include "rocksdb/utilities/options_type.h"
#include "rocksdb/utilities/transaction_db.h"
#include "rocksdb/utilities/transaction_db_mutex.h"

namespace rocksdb {
namespace {

#ifdef STRATA_ROCKSDB_FRAMEWORK_TOOL
constexpr const char* kTool = STRATA_ROCKSDB_FRAMEWORK_TOOL;
#else
constexpr const char* kTool = nullptr;
#endif

// Runs the RocksDB-side tool; returns its stdout, *ok = exit status 0.
std::string RunTool(const std::string& args, bool* ok) {
  std::string out;
  FILE* p = popen((std::string(kTool) + " " + args).c_str(), "r");
  if (p == nullptr) {
    *ok = false;
    return out;
  }
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), p)) > 0) out.append(buf, n);
  *ok = pclose(p) == 0;
  return out;
}

std::string FreshDir(const std::string& name) {
  const std::string dir = ::testing::TempDir() + "/" + name;
  EXPECT_TRUE(DestroyDB(dir, Options()).ok());
  return dir;
}

// "<file> <id> <extended id>" per table, sorted by file, as the tool prints.
std::string StrataIds(DB* db) {
  TablePropertiesCollection props;
  Status s = db->GetPropertiesOfAllTables(&props);
  EXPECT_TRUE(s.ok()) << s.ToString();
  std::map<std::string, std::string> lines;
  for (const auto& [file, p] : props) {
    std::string id, ext;
    s = GetUniqueIdFromTableProperties(*p, &id);
    EXPECT_TRUE(s.ok()) << s.ToString();
    EXPECT_EQ(id.size(), 16u);
    s = GetExtendedUniqueIdFromTableProperties(*p, &ext);
    EXPECT_TRUE(s.ok()) << s.ToString();
    EXPECT_EQ(ext.size(), 24u);
    EXPECT_EQ(ext.substr(0, 16), id);
    const std::string base = file.substr(file.rfind('/') + 1);
    lines[base] = base + " " + UniqueIdToHumanString(id) + " " + UniqueIdToHumanString(ext);
  }
  std::string out;
  for (const auto& [file, line] : lines) out += line + "\n";
  return out;
}

enum Color : int { kRed = 0, kGreen = 5, kBlue = 63 };

TEST(CompatFrameworkTest, SmallEnumSet) {
  SmallEnumSet<Color, kBlue> set;
  EXPECT_FALSE(set.Contains(kRed));
  EXPECT_TRUE(set.Add(kRed));
  EXPECT_FALSE(set.Add(kRed));
  EXPECT_TRUE(set.Add(kBlue));
  EXPECT_TRUE(set.Contains(kRed));
  EXPECT_TRUE(set.Contains(kBlue));
  EXPECT_FALSE(set.Contains(kGreen));
}

TEST(CompatFrameworkTest, FunctorWrapper) {
  int sum = 0;
  std::string text;
  FunctorWrapper<int, std::string> f(
      [&](int a, std::string b) {
        sum += a;
        text += b;
      },
      7, std::string("ab"));
  f.invoke();
  f.invoke();
  EXPECT_EQ(sum, 14);
  EXPECT_EQ(text, "abab");
}

TEST(CompatFrameworkTest, UniqueIdRefusals) {
  TableProperties p;
  std::string id = "stale";
  Status s = GetUniqueIdFromTableProperties(p, &id);
  EXPECT_TRUE(s.IsNotSupported());
  EXPECT_EQ(s.ToString(), "Not implemented: Missing db_id");
  EXPECT_TRUE(id.empty());
  p.db_id = "some-db";
  s = GetUniqueIdFromTableProperties(p, &id);
  EXPECT_EQ(s.ToString(), "Not implemented: Missing or bad file number");
  p.original_file_number = 12;
  s = GetUniqueIdFromTableProperties(p, &id);
  EXPECT_EQ(s.ToString(), "Not implemented: Missing db_session_id");
  p.db_session_id = "ABC";
  s = GetUniqueIdFromTableProperties(p, &id);
  EXPECT_EQ(s.ToString(), "Not implemented: Too short db_session_id");
  p.db_session_id = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  s = GetUniqueIdFromTableProperties(p, &id);
  EXPECT_EQ(s.ToString(), "Not implemented: Too long db_session_id");
  p.db_session_id = "ABCDEFGHIJKLMNOPQRS!";
  s = GetUniqueIdFromTableProperties(p, &id);
  EXPECT_EQ(s.ToString(), "Not implemented: Bad digit in db_session_id");
  p.db_session_id = "ABCDEFGHIJKLMNOPQRST";
  ASSERT_TRUE(GetUniqueIdFromTableProperties(p, &id).ok());
  EXPECT_EQ(UniqueIdToHumanString(id).size(), 33u);
  EXPECT_EQ(UniqueIdToHumanString(id)[16], '-');
  std::string other;
  p.original_file_number = 13;
  ASSERT_TRUE(GetUniqueIdFromTableProperties(p, &other).ok());
  EXPECT_NE(id, other);
  EXPECT_EQ(UniqueIdToHumanString(std::string("\x01\xab", 2)), "01AB");
}

TEST(CompatFrameworkTest, UniqueIdOfRocksDBTables) {
  if (kTool == nullptr) GTEST_SKIP() << "no librocksdb helper";
  const std::string dir = FreshDir("compat_framework_uid_rocksdb");
  bool ok = false;
  const std::string theirs = RunTool("uniqueid " + dir, &ok);
  ASSERT_TRUE(ok) << theirs;
  ASSERT_FALSE(theirs.empty());
  DB* raw = nullptr;
  Status s = DB::Open(Options(), dir, &raw);
  ASSERT_TRUE(s.ok()) << s.ToString();
  std::unique_ptr<DB> db(raw);
  EXPECT_EQ(StrataIds(db.get()), theirs);
}

TEST(CompatFrameworkTest, UniqueIdOfStrataTables) {
  if (kTool == nullptr) GTEST_SKIP() << "no librocksdb helper";
  const std::string dir = FreshDir("compat_framework_uid_strata");
  std::string ours;
  {
    Options o;
    o.create_if_missing = true;
    DB* raw = nullptr;
    Status s = DB::Open(o, dir, &raw);
    ASSERT_TRUE(s.ok()) << s.ToString();
    std::unique_ptr<DB> db(raw);
    for (int f = 0; f < 3; ++f) {
      ASSERT_TRUE(db->Put(WriteOptions(), "k" + std::to_string(f), "v").ok());
      ASSERT_TRUE(db->Flush(FlushOptions()).ok());
    }
    ours = StrataIds(db.get());
  }
  bool ok = false;
  const std::string theirs = RunTool("ids " + dir, &ok);
  ASSERT_TRUE(ok) << theirs;
  EXPECT_EQ(ours, theirs);
}

TEST(CompatFrameworkTest, ThreadStatusNames) {
  EXPECT_EQ(ThreadStatus::GetThreadTypeName(ThreadStatus::HIGH_PRIORITY), "High Pri");
  EXPECT_EQ(ThreadStatus::GetThreadTypeName(ThreadStatus::BOTTOM_PRIORITY), "Bottom Pri");
  EXPECT_EQ(ThreadStatus::GetOperationName(ThreadStatus::OP_FLUSH), "Flush");
  EXPECT_EQ(ThreadStatus::GetOperationName(ThreadStatus::NUM_OP_TYPES), "");
  EXPECT_EQ(ThreadStatus::GetOperationStageName(ThreadStatus::STAGE_COMPACTION_SYNC_FILE),
            "CompactionJob::FinishCompactionOutputFile");
  EXPECT_EQ(ThreadStatus::GetStateName(ThreadStatus::STATE_MUTEX_WAIT), "Mutex Wait");
  EXPECT_EQ(ThreadStatus::GetOperationPropertyName(ThreadStatus::OP_COMPACTION, 2),
            "Manual/Deletion/Trivial");
  EXPECT_EQ(ThreadStatus::GetOperationPropertyName(ThreadStatus::OP_FLUSH, 3), "");
  EXPECT_EQ(ThreadStatus::MicrosToString(0), "");
  EXPECT_EQ(ThreadStatus::MicrosToString(42), "42 us");
  EXPECT_EQ(ThreadStatus::MicrosToString(12345), "12.345 ms");
  EXPECT_EQ(ThreadStatus::MicrosToString(12345678), "12.346 sec");
  EXPECT_EQ(ThreadStatus::MicrosToString(61500000), "01:1.500 M:S");
  EXPECT_EQ(ThreadStatus::MicrosToString(3723000000), "01:02:3.000 H:M:S");
  uint64_t props[ThreadStatus::kNumOperationProperties] = {
      9, (uint64_t{2} << 32) | 3, 2 | 8, 100, 50, 25};
  std::map<std::string, uint64_t> m =
      ThreadStatus::InterpretOperationProperties(ThreadStatus::OP_COMPACTION, props);
  EXPECT_EQ(m.size(), 9u);
  EXPECT_EQ(m["JobID"], 9u);
  EXPECT_EQ(m["BaseInputLevel"], 2u);
  EXPECT_EQ(m["OutputLevel"], 3u);
  EXPECT_EQ(m["IsManual"], 1u);
  EXPECT_EQ(m["IsDeletion"], 0u);
  EXPECT_EQ(m["IsTrivialMove"], 1u);
  EXPECT_EQ(m["BytesWritten"], 25u);
  ThreadStatus ts(1, ThreadStatus::USER, "db", "cf", ThreadStatus::OP_FLUSH, 5,
                  ThreadStatus::STAGE_FLUSH_RUN, props, ThreadStatus::STATE_UNKNOWN);
  EXPECT_EQ(ts.op_properties[1], props[1]);
  std::vector<ThreadStatus> list;
  EXPECT_TRUE(Env::Default()->GetThreadList(&list).IsNotSupported());
}

TEST(CompatFrameworkTest, ThreadPoolRunsEveryJob) {
  std::unique_ptr<ThreadPool> pool(NewThreadPool(4));
  EXPECT_EQ(pool->GetBackgroundThreads(), 4);
  std::atomic<int> done{0};
  std::function<void()> job = [&] { done.fetch_add(1); };
  for (int i = 0; i < 500; ++i) {
    if (i % 2 == 0) {
      pool->SubmitJob(job);
    } else {
      pool->SubmitJob([&] { done.fetch_add(1); });
    }
  }
  pool->WaitForJobsAndJoinAllThreads();
  EXPECT_EQ(done.load(), 500);
  EXPECT_EQ(pool->GetQueueLen(), 0u);
  // The pool starts again after a join.
  pool->SubmitJob(job);
  pool->WaitForJobsAndJoinAllThreads();
  EXPECT_EQ(done.load(), 501);
}

TEST(CompatFrameworkTest, ThreadPoolQueueAndJoin) {
  std::unique_ptr<ThreadPool> pool(NewThreadPool(0));
  std::atomic<int> done{0};
  for (int i = 0; i < 3; ++i) pool->SubmitJob([&] { done.fetch_add(1); });
  EXPECT_EQ(pool->GetQueueLen(), 3u);
  pool->JoinAllThreads();  // drops the jobs never started
  EXPECT_EQ(pool->GetQueueLen(), 0u);
  EXPECT_EQ(done.load(), 0);

  // Work runs in parallel on as many threads as set.
  pool->SetBackgroundThreads(3);
  std::atomic<int> running{0};
  std::atomic<int> peak{0};
  for (int i = 0; i < 6; ++i) {
    pool->SubmitJob([&] {
      const int now = running.fetch_add(1) + 1;
      int p = peak.load();
      while (now > p && !peak.compare_exchange_weak(p, now)) {
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      running.fetch_sub(1);
      done.fetch_add(1);
    });
  }
  pool->WaitForJobsAndJoinAllThreads();
  EXPECT_EQ(done.load(), 6);
  EXPECT_EQ(peak.load(), 3);

  // Shrunk to one thread, jobs run one at a time.
  pool->SetBackgroundThreads(1);
  EXPECT_EQ(pool->GetBackgroundThreads(), 1);
  peak = 0;
  for (int i = 0; i < 4; ++i) {
    pool->SubmitJob([&] {
      const int now = running.fetch_add(1) + 1;
      int p = peak.load();
      while (now > p && !peak.compare_exchange_weak(p, now)) {
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      running.fetch_sub(1);
    });
  }
  pool->WaitForJobsAndJoinAllThreads();
  EXPECT_EQ(peak.load(), 1);
}

TEST(CompatFrameworkTest, ThreadPoolReserve) {
  std::unique_ptr<ThreadPool> pool(NewThreadPool(2));
  // Both threads go idle, then both are reserved: no job runs.
  int reserved = 0;
  for (int i = 0; i < 200 && reserved < 2; ++i) {
    reserved += pool->ReserveThreads(2 - reserved);
    if (reserved < 2) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_EQ(reserved, 2);
  EXPECT_EQ(pool->ReserveThreads(1), 0);
  std::atomic<int> done{0};
  pool->SubmitJob([&] { done.fetch_add(1); });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(done.load(), 0);
  EXPECT_EQ(pool->GetQueueLen(), 1u);
  EXPECT_EQ(pool->ReleaseThreads(5), 2);
  pool->WaitForJobsAndJoinAllThreads();
  EXPECT_EQ(done.load(), 1);
}

// A Customizable base class whose CreateFromString uses customizable_util.h
// (RocksDB's installed copy of that header does not compile, so the
// compared program registry.cc cannot use it).
class Part : public Customizable {
 public:
  static const char* Type() { return "Part"; }
  static Status CreateFromString(const ConfigOptions& opts, const std::string& value,
                                 std::shared_ptr<Part>* result);
  static Status CreateUnique(const ConfigOptions& opts, const std::string& value,
                             std::unique_ptr<Part>* result) {
    return LoadUniqueObject<Part>(opts, value, nullptr, result);
  }
  static Status CreateManaged(const ConfigOptions& opts, const std::string& value,
                              std::shared_ptr<Part>* result) {
    return LoadManagedObject<Part>(opts, value, result);
  }

  class Bolt;
};

struct BoltOptions {
  static const char* kName() { return "BoltOptions"; }
  int size = 3;
  CompressionType compression = kNoCompression;
};

const std::unordered_map<std::string, OptionTypeInfo> kBoltInfo = {
    {"size", OptionTypeInfo(offsetof(BoltOptions, size), OptionType::kInt)},
    {"compression",
     OptionTypeInfo(offsetof(BoltOptions, compression), OptionType::kCompressionType)},
};

class Part::Bolt : public Part {
 public:
  explicit Bolt(const std::string& id) : id_(id) { RegisterOptions(&options_, &kBoltInfo); }
  const char* Name() const override { return "Bolt"; }
  std::string GetId() const override { return id_; }
  BoltOptions options_;

 private:
  std::string id_;
};

Status Part::CreateFromString(const ConfigOptions& opts, const std::string& value,
                              std::shared_ptr<Part>* result) {
  return LoadSharedObject<Part>(
      opts, value,
      [](const std::string& id, std::shared_ptr<Part>* r) {
        if (id != "Builtin") return false;
        r->reset(new Bolt("Builtin"));
        return true;
      },
      result);
}

TEST(CompatFrameworkTest, CustomizableUtil) {
  ConfigOptions config;
  ASSERT_NE(config.registry, nullptr);
  EXPECT_EQ(config.registry, ObjectRegistry::Default());
  config.registry = ObjectRegistry::NewInstance();
  config.ignore_unsupported_options = false;
  config.registry->AddLibrary("test")->AddFactory<Part>(
      ObjectLibrary::PatternEntry("Bolt").AddSeparator("#"),
      [](const std::string& uri, std::unique_ptr<Part>* guard, std::string*) {
        guard->reset(new Part::Bolt(uri));
        return guard->get();
      });

  std::shared_ptr<Part> part;
  ASSERT_TRUE(Part::CreateFromString(config, "{id=Bolt#1;size=8}", &part).ok());
  ASSERT_NE(part, nullptr);
  EXPECT_EQ(part->GetId(), "Bolt#1");
  EXPECT_EQ(part->GetOptions<BoltOptions>()->size, 8);
  // The program's own function goes first.
  ASSERT_TRUE(Part::CreateFromString(config, "Builtin", &part).ok());
  EXPECT_EQ(part->GetId(), "Builtin");
  Status s = Part::CreateFromString(config, "Washer", &part);
  EXPECT_EQ(s.ToString(), "Not implemented: Could not load Part: Washer");
  ASSERT_TRUE(Part::CreateFromString(config, "", &part).ok());
  EXPECT_EQ(part, nullptr);

  std::unique_ptr<Part> unique;
  ASSERT_TRUE(Part::CreateUnique(config, "id=Bolt;size=5", &unique).ok());
  EXPECT_EQ(unique->GetOptions<BoltOptions>()->size, 5);

  std::shared_ptr<Part> m1, m2;
  ASSERT_TRUE(Part::CreateManaged(config, "Bolt#7", &m1).ok());
  ASSERT_TRUE(Part::CreateManaged(config, "Bolt#7", &m2).ok());
  EXPECT_EQ(m1, m2);

  // A RocksDB-specific option type is refused by name.
  auto* bolt = static_cast<Part::Bolt*>(m1.get());
  s = bolt->ConfigureFromString(config, "compression=kSnappyCompression");
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  EXPECT_NE(s.ToString().find("kCompressionType"), std::string::npos) << s.ToString();
  std::string text;
  s = bolt->GetOption(config, "compression", &text);
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
}

TEST(CompatFrameworkTest, EnvMirrorUnderADatabase) {
  std::unique_ptr<Env> a(NewMemEnv(Env::Default()));
  std::unique_ptr<Env> b(NewMemEnv(Env::Default()));
  EnvMirror mirror(a.get(), b.get());
  const std::string dir = "/mirror_db";
  Options o;
  o.create_if_missing = true;
  o.env = &mirror;
  {
    DB* raw = nullptr;
    Status s = DB::Open(o, dir, &raw);
    ASSERT_TRUE(s.ok()) << s.ToString();
    std::unique_ptr<DB> db(raw);
    for (int i = 0; i < 100; ++i) {
      ASSERT_TRUE(db->Put(WriteOptions(), "key" + std::to_string(i), std::string(100, 'v')).ok());
    }
    ASSERT_TRUE(db->Flush(FlushOptions()).ok());
    ASSERT_TRUE(db->Put(WriteOptions(), "last", "in the wal").ok());
  }
  // Both Envs hold the same files with the same bytes.
  std::vector<std::string> af, bf;
  ASSERT_TRUE(a->GetChildren(dir, &af).ok());
  ASSERT_TRUE(b->GetChildren(dir, &bf).ok());
  std::sort(af.begin(), af.end());
  std::sort(bf.begin(), bf.end());
  EXPECT_EQ(af, bf);
  bool saw_table = false;
  for (const std::string& f : af) {
    if (f == "." || f == ".." || f == "LOCK") continue;
    saw_table |= f.size() > 4 && f.substr(f.size() - 4) == ".sst";
    uint64_t as = 0, bs = 0;
    ASSERT_TRUE(a->GetFileSize(dir + "/" + f, &as).ok()) << f;
    ASSERT_TRUE(b->GetFileSize(dir + "/" + f, &bs).ok()) << f;
    EXPECT_EQ(as, bs) << f;
  }
  EXPECT_TRUE(saw_table);
  // Reopened through the mirror, every read is checked against b.
  {
    DB* raw = nullptr;
    Status s = DB::Open(o, dir, &raw);
    ASSERT_TRUE(s.ok()) << s.ToString();
    std::unique_ptr<DB> db(raw);
    std::string v;
    ASSERT_TRUE(db->Get(ReadOptions(), "key42", &v).ok());
    EXPECT_EQ(v, std::string(100, 'v'));
    ASSERT_TRUE(db->Get(ReadOptions(), "last", &v).ok());
    EXPECT_EQ(v, "in the wal");
  }
  // Reopened on b alone: b is a full copy.
  {
    Options ob = o;
    ob.env = b.get();
    DB* raw = nullptr;
    Status s = DB::Open(ob, dir, &raw);
    ASSERT_TRUE(s.ok()) << s.ToString();
    std::unique_ptr<DB> db(raw);
    std::string v;
    ASSERT_TRUE(db->Get(ReadOptions(), "key7", &v).ok());
  }
}

TEST(CompatFrameworkTest, EnvMirrorReportsDisagreement) {
  std::unique_ptr<Env> a(NewMemEnv(Env::Default()));
  std::unique_ptr<Env> b(NewMemEnv(Env::Default()));
  EnvMirror mirror(a.get(), b.get());
  ASSERT_TRUE(mirror.CreateDirIfMissing("/d").ok());
  std::unique_ptr<WritableFile> w;
  ASSERT_TRUE(mirror.NewWritableFile("/d/f", &w, EnvOptions()).ok());
  ASSERT_TRUE(w->Append("same bytes").ok());
  ASSERT_TRUE(w->Close().ok());
  EXPECT_TRUE(mirror.FileExists("/d/f").ok());
  uint64_t size = 0;
  ASSERT_TRUE(mirror.GetFileSize("/d/f", &size).ok());
  EXPECT_EQ(size, 10u);
  std::unique_ptr<SequentialFile> r;
  ASSERT_TRUE(mirror.NewSequentialFile("/d/f", &r, EnvOptions()).ok());
  char scratch[64];
  Slice got;
  ASSERT_TRUE(r->Read(64, &got, scratch).ok());
  EXPECT_EQ(got.ToString(), "same bytes");

  // A file only a has.
  std::unique_ptr<WritableFile> only_a;
  ASSERT_TRUE(a->NewWritableFile("/d/g", &only_a, EnvOptions()).ok());
  ASSERT_TRUE(only_a->Append("x").ok());
  ASSERT_TRUE(only_a->Close().ok());
  Status s = mirror.FileExists("/d/g");
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  std::vector<std::string> children;
  EXPECT_TRUE(mirror.GetChildren("/d", &children).IsCorruption());

  // The same name with different bytes.
  std::unique_ptr<WritableFile> wa, wb;
  ASSERT_TRUE(a->NewWritableFile("/d/h", &wa, EnvOptions()).ok());
  ASSERT_TRUE(b->NewWritableFile("/d/h", &wb, EnvOptions()).ok());
  ASSERT_TRUE(wa->Append("abc").ok());
  ASSERT_TRUE(wb->Append("abd").ok());
  ASSERT_TRUE(wa->Close().ok());
  ASSERT_TRUE(wb->Close().ok());
  std::unique_ptr<RandomAccessFile> ra;
  ASSERT_TRUE(mirror.NewRandomAccessFile("/d/h", &ra, EnvOptions()).ok());
  s = ra->Read(0, 3, &got, scratch);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();

  FileLock* lock = nullptr;
  ASSERT_TRUE(mirror.LockFile("/d/lock", &lock).ok());
  ASSERT_TRUE(mirror.UnlockFile(lock).ok());
}

std::unique_ptr<Env> Rot13Env() {
  auto provider = EncryptionProvider::NewCTRProvider(BlockCipher::NewROT13Cipher(32));
  return std::unique_ptr<Env>(NewEncryptedEnv(Env::Default(), provider));
}

// Every "key=value" of the database, in order.
std::string Dump(DB* db) {
  std::string out;
  std::unique_ptr<Iterator> it(db->NewIterator(ReadOptions()));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    out += it->key().ToString() + "=" + it->value().ToString() + "\n";
  }
  EXPECT_TRUE(it->status().ok()) << it->status().ToString();
  return out;
}

// True if a file of dir holds text in the clear.
bool PlainTextOnDisk(const std::string& dir, const std::string& text) {
  std::vector<std::string> files;
  EXPECT_TRUE(Env::Default()->GetChildren(dir, &files).ok());
  for (const std::string& f : files) {
    std::string data;
    if (!ReadFileToString(Env::Default(), dir + "/" + f, &data).ok()) continue;
    if (data.find(text) != std::string::npos) return true;
  }
  return false;
}

TEST(CompatFrameworkTest, EncryptedEnvRoundTrip) {
  const std::string dir = FreshDir("compat_framework_enc_strata");
  std::unique_ptr<Env> env = Rot13Env();
  Options o;
  o.create_if_missing = true;
  o.env = env.get();
  std::string before;
  {
    DB* raw = nullptr;
    Status s = DB::Open(o, dir, &raw);
    ASSERT_TRUE(s.ok()) << s.ToString();
    std::unique_ptr<DB> db(raw);
    for (int i = 0; i < 300; ++i) {
      ASSERT_TRUE(
          db->Put(WriteOptions(), "key" + std::to_string(i), "secret-" + std::to_string(i)).ok());
    }
    ASSERT_TRUE(db->Flush(FlushOptions()).ok());
    ASSERT_TRUE(db->Put(WriteOptions(), "tail", "secret-tail").ok());
    before = Dump(db.get());
  }
  EXPECT_FALSE(PlainTextOnDisk(dir, "secret-"));
  // Sizes through the encrypted Env leave the 4096-byte prefix out.
  std::vector<std::string> files;
  ASSERT_TRUE(env->GetChildren(dir, &files).ok());
  for (const std::string& f : files) {
    if (f.find(".sst") == std::string::npos) continue;
    uint64_t plain = 0, raw_size = 0;
    ASSERT_TRUE(env->GetFileSize(dir + "/" + f, &plain).ok());
    ASSERT_TRUE(Env::Default()->GetFileSize(dir + "/" + f, &raw_size).ok());
    EXPECT_EQ(raw_size, plain + 4096) << f;
  }
  DB* raw = nullptr;
  Status s = DB::Open(o, dir, &raw);
  ASSERT_TRUE(s.ok()) << s.ToString();
  std::unique_ptr<DB> db(raw);
  EXPECT_EQ(Dump(db.get()), before);
  db.reset();
  // Without the provider the files do not make sense.
  Options plain = o;
  plain.env = Env::Default();
  s = DB::Open(plain, dir, &raw);
  EXPECT_FALSE(s.ok());
  if (s.ok()) delete raw;
}

TEST(CompatFrameworkTest, EncryptedDatabaseWrittenByRocksDB) {
  if (kTool == nullptr) GTEST_SKIP() << "no librocksdb helper";
  const std::string dir = FreshDir("compat_framework_enc_rocksdb");
  bool ok = false;
  std::string out = RunTool("encwrite " + dir, &ok);
  ASSERT_TRUE(ok) << out;
  EXPECT_FALSE(PlainTextOnDisk(dir, "secret-"));
  std::unique_ptr<Env> env = Rot13Env();
  Options o;
  o.env = env.get();
  DB* raw = nullptr;
  Status s = DB::Open(o, dir, &raw);
  ASSERT_TRUE(s.ok()) << s.ToString();
  std::unique_ptr<DB> db(raw);
  std::string v;
  ASSERT_TRUE(db->Get(ReadOptions(), "k123", &v).ok());
  EXPECT_EQ(v, "secret-value-k123");
  ASSERT_TRUE(db->Get(ReadOptions(), "tail", &v).ok());
  EXPECT_EQ(v, "secret-tail");
  const std::string ours = Dump(db.get());
  // Strata writes more (a flush of its own at close) and RocksDB reads it back.
  ASSERT_TRUE(db->Put(WriteOptions(), "from-strata", "secret-strata").ok());
  ASSERT_TRUE(db->Flush(FlushOptions()).ok());
  db.reset();
  out = RunTool("encread " + dir, &ok);
  ASSERT_TRUE(ok) << out;
  EXPECT_NE(out.find("from-strata=secret-strata\n"), std::string::npos);
  EXPECT_NE(out.find("k000=secret-value-k000\n"), std::string::npos);
  EXPECT_EQ(ours.size() + std::string("from-strata=secret-strata\n").size(), out.size());
}

TEST(CompatFrameworkTest, EncryptedDatabaseWrittenByStrata) {
  if (kTool == nullptr) GTEST_SKIP() << "no librocksdb helper";
  const std::string dir = FreshDir("compat_framework_enc_to_rocksdb");
  std::unique_ptr<Env> env = Rot13Env();
  Options o;
  o.create_if_missing = true;
  o.env = env.get();
  std::string ours;
  {
    DB* raw = nullptr;
    Status s = DB::Open(o, dir, &raw);
    ASSERT_TRUE(s.ok()) << s.ToString();
    std::unique_ptr<DB> db(raw);
    for (int i = 0; i < 500; ++i) {
      ASSERT_TRUE(
          db->Put(WriteOptions(), "s" + std::to_string(i), std::string(50, 'a' + i % 26)).ok());
    }
    ASSERT_TRUE(db->Flush(FlushOptions()).ok());
    ASSERT_TRUE(db->Put(WriteOptions(), "wal-only", "still in the log").ok());
    ours = Dump(db.get());
  }
  bool ok = false;
  const std::string theirs = RunTool("encread " + dir, &ok);
  ASSERT_TRUE(ok) << theirs;
  EXPECT_EQ(theirs, ours);
}

TEST(CompatFrameworkTest, EncryptionProvidersByName) {
  ConfigOptions config;
  std::shared_ptr<EncryptionProvider> provider;
  ASSERT_TRUE(EncryptionProvider::CreateFromString(config, "CTR://test", &provider).ok());
  ASSERT_NE(provider, nullptr);
  EXPECT_STREQ(provider->Name(), "CTR");
  EXPECT_EQ(provider->GetPrefixLength(), 4096u);
  EXPECT_TRUE(provider->AddCipher("", "ROT13", 32, true).IsNotSupported());
  // RocksDB's answers, seen from a program linked with librocksdb 7.8.3.
  EXPECT_EQ(provider->ToString(config), "{id=CTR;cipher={id=ROT13;block_size=32;};}");
  std::shared_ptr<EncryptionProvider> bare;
  Status s = EncryptionProvider::CreateFromString(config, "CTR", &bare);
  EXPECT_EQ(s.ToString(), "NotFound: Missing configurable object: cipher");
  ASSERT_NE(bare, nullptr);
  char prefix[4096];
  EXPECT_TRUE(bare->CreateNewPrefix("f", prefix, sizeof(prefix)).IsInvalidArgument());
  ASSERT_TRUE(bare->AddCipher("", "ROT13", 16, true).ok());
  ASSERT_TRUE(bare->CreateNewPrefix("f", prefix, sizeof(prefix)).ok());
  std::shared_ptr<BlockCipher> cipher;
  ASSERT_TRUE(BlockCipher::CreateFromString(config, "ROT13:8", &cipher).ok());
  EXPECT_EQ(cipher->BlockSize(), 8u);
  char block[8] = {'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'};
  ASSERT_TRUE(cipher->Encrypt(block).ok());
  EXPECT_EQ(block[0], 'a' + 13);

  // The stream round-trips across unaligned offsets and lengths.
  Slice p(prefix, sizeof(prefix));
  std::unique_ptr<BlockAccessCipherStream> stream;
  ASSERT_TRUE(bare->CreateCipherStream("f", EnvOptions(), p, &stream).ok());
  std::string text = "the quick brown fox jumps over the lazy dog, twice over";
  std::string data = text;
  ASSERT_TRUE(stream->Encrypt(4101, &data[0], data.size()).ok());
  EXPECT_NE(data, text);
  std::string head = data.substr(0, 7), rest = data.substr(7);
  ASSERT_TRUE(stream->Decrypt(4101, &head[0], head.size()).ok());
  ASSERT_TRUE(stream->Decrypt(4108, &rest[0], rest.size()).ok());
  EXPECT_EQ(head + rest, text);
}

// Runs a command line through LDBCommand; its state, stdout in *out.
LDBCommandExecuteResult RunLdb(const std::vector<std::string>& args, std::string* out) {
  std::unique_ptr<LDBCommand> cmd(
      LDBCommand::InitFromCmdLineArgs(args, Options(), LDBOptions(), nullptr));
  if (cmd == nullptr) return LDBCommandExecuteResult::Failed("no command");
  ::testing::internal::CaptureStdout();
  cmd->Run();
  fflush(stdout);
  *out = ::testing::internal::GetCapturedStdout();
  return cmd->GetExecuteState();
}

TEST(CompatFrameworkTest, LdbCommandRunsStrataTool) {
  const std::string dir = FreshDir("compat_framework_ldb");
  std::string out;
  LDBCommandExecuteResult r =
      RunLdb({"--db=" + dir, "--create_if_missing", "put", "apple", "red"}, &out);
  EXPECT_TRUE(r.IsSucceed()) << r.ToString();
  r = RunLdb({"--db=" + dir, "get", "apple"}, &out);
  EXPECT_TRUE(r.IsSucceed()) << r.ToString();
  EXPECT_EQ(out, "red\n");
  r = RunLdb({"--db=" + dir, "--hex", "scan"}, &out);
  EXPECT_TRUE(r.IsSucceed()) << r.ToString();
  EXPECT_EQ(out, "0x6170706C65 : 0x726564\n");
  r = RunLdb({"--db=" + dir, "no_such_command"}, &out);
  EXPECT_TRUE(r.IsFailed());
  EXPECT_EQ(r.ToString(), "Failed: no_such_command: Strata's ldb tool exited with status 1");
  EXPECT_EQ(LDBCommand::InitFromCmdLineArgs(std::vector<std::string>{"--db=x"}, Options(),
                                            LDBOptions(), nullptr),
            nullptr);

  const char* argv[] = {"ldb", "--db=", "get", "apple"};
  std::string db_arg = "--db=" + dir;
  argv[1] = db_arg.c_str();
  ::testing::internal::CaptureStdout();
  const int rc = LDBCommandRunner::RunCommand(4, argv, Options(), LDBOptions(), nullptr);
  EXPECT_EQ(::testing::internal::GetCapturedStdout(), "red\n");
  EXPECT_EQ(rc, 0);

  EXPECT_EQ(LDBCommand::StringToHex("AB"), "0x4142");
  EXPECT_EQ(LDBCommand::HexToString("0x4142"), "AB");
  EXPECT_THROW(LDBCommand::HexToString("4142"), const char*);
  LDBCommandExecuteResult fresh;
  EXPECT_EQ(fresh.ToString(), "Not started: ");
}

// A program's own command over LDBCommand's database handling.
class CountCommand : public LDBCommand {
 public:
  CountCommand(const std::map<std::string, std::string>& options,
               const std::vector<std::string>& flags)
      : LDBCommand(options, flags, /*is_read_only=*/true, BuildCmdLineOptions({"prefix"})) {}
  void DoCommand() override {
    if (db_ == nullptr) return;
    std::string prefix;
    ParseStringOption(option_map_, "prefix", &prefix);
    int n = 0;
    std::unique_ptr<Iterator> it(db_->NewIterator(ReadOptions(), GetCfHandle()));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      if (it->key().starts_with(prefix)) ++n;
    }
    exec_state_ = LDBCommandExecuteResult::Succeed(std::to_string(n));
  }
};

TEST(CompatFrameworkTest, LdbCommandSubclass) {
  const std::string dir = FreshDir("compat_framework_ldb_own");
  {
    Options o;
    o.create_if_missing = true;
    DB* raw = nullptr;
    ASSERT_TRUE(DB::Open(o, dir, &raw).ok());
    std::unique_ptr<DB> db(raw);
    for (const char* k : {"a1", "a2", "b1"}) ASSERT_TRUE(db->Put(WriteOptions(), k, "v").ok());
  }
  auto select = [](const LDBCommand::ParsedParams& p) -> LDBCommand* {
    if (p.cmd != "count") return nullptr;
    return new CountCommand(p.option_map, p.flags);
  };
  std::unique_ptr<LDBCommand> cmd(LDBCommand::InitFromCmdLineArgs(
      {"--db=" + dir, "--prefix=a", "count"}, Options(), LDBOptions(), nullptr, select));
  ASSERT_NE(cmd, nullptr);
  EXPECT_TRUE(cmd->ValidateCmdLineOptions());
  cmd->Run();
  EXPECT_TRUE(cmd->GetExecuteState().IsSucceed()) << cmd->GetExecuteState().ToString();
  EXPECT_EQ(cmd->GetExecuteState().ToString(), "2");

  cmd.reset(LDBCommand::InitFromCmdLineArgs({"--db=" + dir, "--bogus=1", "count"}, Options(),
                                            LDBOptions(), nullptr, select));
  EXPECT_FALSE(cmd->ValidateCmdLineOptions());
  cmd.reset(LDBCommand::InitFromCmdLineArgs({"--db=" + dir + "_none", "count"}, Options(),
                                            LDBOptions(), nullptr, select));
  cmd->Run();
  EXPECT_TRUE(cmd->GetExecuteState().IsFailed());
}

TEST(CompatFrameworkTest, ToolEntryPointsAndMutexFactory) {
  char name[] = "db_bench";
  char* argv[] = {name, nullptr};
  EXPECT_EQ(db_bench_tool(1, argv), 1);
  EXPECT_EQ(db_stress_tool(1, argv), 1);
  EXPECT_EQ(cache_bench_tool(1, argv), 1);

  struct Factory : TransactionDBMutexFactory {
    std::shared_ptr<TransactionDBMutex> AllocateMutex() override { return nullptr; }
    std::shared_ptr<TransactionDBCondVar> AllocateCondVar() override { return nullptr; }
  };
  const std::string dir = FreshDir("compat_framework_txn_mutex");
  Options o;
  o.create_if_missing = true;
  TransactionDBOptions t;
  t.custom_mutex_factory = std::make_shared<Factory>();
  TransactionDB* db = nullptr;
  Status s = TransactionDB::Open(o, t, dir, &db);
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  EXPECT_NE(s.ToString().find("custom_mutex_factory"), std::string::npos);
  EXPECT_EQ(db, nullptr);
}

}  // namespace
}  // namespace rocksdb
