// AutoRollLogger: placement under db_log_dir, rolling by size and by age,
// retention of keep_log_file_num files, headers repeated after a roll.
#include "env/auto_roll_logger.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "test_util/testutil.h"

namespace strata {
namespace {

class FakeClock final : public SystemClock {
 public:
  const char* Name() const override { return "FakeClock"; }
  uint64_t NowMicros() override { return now_; }
  uint64_t NowNanos() override { return now_ * 1000; }
  void SleepForMicroseconds(int micros) override { now_ += static_cast<uint64_t>(micros); }
  Status GetCurrentTime(int64_t* t) override {
    *t = static_cast<int64_t>(now_ / 1000000);
    return Status::OK();
  }
  uint64_t now_ = 1000000000;
};

std::string ReadAll(FileSystem* fs, const std::string& fname) {
  std::unique_ptr<SequentialFile> f;
  EXPECT_OK(fs->NewSequentialFile(fname, FileOptions(), &f));
  std::string out;
  char buf[4096];
  while (true) {
    Slice chunk;
    EXPECT_OK(f->Read(sizeof(buf), &chunk, buf));
    if (chunk.empty()) break;
    out.append(chunk.data(), chunk.size());
  }
  return out;
}

std::vector<std::string> Children(FileSystem* fs, const std::string& dir) {
  std::vector<std::string> c;
  EXPECT_OK(fs->GetChildren(dir, &c));
  std::sort(c.begin(), c.end());
  return c;
}

size_t CountPrefix(const std::vector<std::string>& names, const std::string& prefix) {
  return static_cast<size_t>(std::count_if(names.begin(), names.end(), [&](const std::string& n) {
    return n.compare(0, prefix.size(), prefix) == 0;
  }));
}

class AutoRollLoggerTest : public ::testing::Test {
 protected:
  AutoRollLoggerTest() : fs_(NewMemFileSystem()) { EXPECT_OK(fs_->CreateDirIfMissing("/db")); }
  InfoLogPlacement Placement(const std::string& log_dir = "") {
    return InfoLogPlacement{"/db", "/db", log_dir};
  }
  std::shared_ptr<FileSystem> fs_;
  FakeClock clock_;
};

TEST_F(AutoRollLoggerTest, NamesUnderDbLogDirFollowRocksDB) {
  InfoLogPlacement p{"/data/my db", "/data/my db", "/logs"};
  EXPECT_EQ(InfoLogPath(p), "/logs/data_my_db_LOG");
  EXPECT_EQ(OldInfoLogPath(p, 12345), "/logs/data_my_db_LOG.old.12345");
  InfoLogPlacement plain{"/data/db", "/data/db", ""};
  EXPECT_EQ(InfoLogPath(plain), "/data/db/LOG");
  EXPECT_EQ(OldInfoLogPath(plain, 7), "/data/db/LOG.old.7");
  EXPECT_EQ(AbsoluteDBPath("/a//b/c"), "/a/b/c");
  const std::string rel = AbsoluteDBPath("rel/db");
  ASSERT_FALSE(rel.empty());
  EXPECT_EQ(rel[0], '/');
  EXPECT_EQ(rel.substr(rel.size() - 7), "/rel/db");
}

TEST_F(AutoRollLoggerTest, LogInDbLogDir) {
  std::shared_ptr<Logger> log;
  ASSERT_OK(NewDBInfoLog(fs_.get(), &clock_, Placement("/logs"), AutoRollOptions(), &log));
  Log(log.get(), "hello %d", 42);
  ASSERT_OK(log->Close());
  EXPECT_EQ(Children(fs_.get(), "/logs"), std::vector<std::string>{"db_LOG"});
  EXPECT_NE(ReadAll(fs_.get(), "/logs/db_LOG").find("hello 42\n"), std::string::npos);
  // A second logger rolls the first file aside.
  clock_.now_ += 5;
  ASSERT_OK(NewDBInfoLog(fs_.get(), &clock_, Placement("/logs"), AutoRollOptions(), &log));
  EXPECT_EQ(Children(fs_.get(), "/logs"),
            (std::vector<std::string>{"db_LOG", "db_LOG.old.1000000005"}));
  EXPECT_EQ(CountPrefix(Children(fs_.get(), "/db"), "LOG"), 0u);
}

TEST_F(AutoRollLoggerTest, RollsBySizeAndRepeatsHeaders) {
  AutoRollOptions o;
  o.max_log_file_size = 1000;
  std::shared_ptr<Logger> log;
  ASSERT_OK(NewDBInfoLog(fs_.get(), &clock_, Placement(), o, &log));
  Log(InfoLogLevel::kHeader, log.get(), "Options.header_line: %d", 7);
  const std::string line(90, 'x');
  for (int i = 0; i < 40; ++i) {
    clock_.now_ += 1;
    Log(log.get(), "%02d %s", i, line.c_str());
  }
  ASSERT_OK(log->Close());
  const std::vector<std::string> names = Children(fs_.get(), "/db");
  // About 130 bytes a line, 1000 bytes a file: 8 lines per file, 5 files.
  const size_t old = CountPrefix(names, "LOG.old.");
  EXPECT_GE(old, 4u);
  EXPECT_LE(old, 6u);
  for (const std::string& n : names) {
    if (n.compare(0, 3, "LOG") != 0) continue;
    const std::string text = ReadAll(fs_.get(), "/db/" + n);
    // Each file starts with the header and stays near the limit.
    EXPECT_NE(text.find("Options.header_line: 7"), std::string::npos) << n;
    EXPECT_LT(text.size(), 1000u + 200u) << n;
  }
  // Every line landed in exactly one file.
  std::string all;
  for (const std::string& n : names) all += ReadAll(fs_.get(), "/db/" + n);
  for (int i = 0; i < 40; ++i) {
    char want[8];
    snprintf(want, sizeof(want), " %02d x", i);
    const size_t at = all.find(want);
    ASSERT_NE(at, std::string::npos) << i;
    EXPECT_EQ(all.find(want, at + 1), std::string::npos) << i;
  }
}

TEST_F(AutoRollLoggerTest, RollsByAge) {
  AutoRollOptions o;
  o.log_file_time_to_roll = 10;  // seconds
  std::shared_ptr<Logger> log;
  ASSERT_OK(NewDBInfoLog(fs_.get(), &clock_, Placement(), o, &log));
  Log(log.get(), "first");
  clock_.now_ += 9 * 1000000;
  Log(log.get(), "second");
  EXPECT_EQ(CountPrefix(Children(fs_.get(), "/db"), "LOG.old."), 0u);
  clock_.now_ += 1 * 1000000;
  Log(log.get(), "third");
  EXPECT_EQ(CountPrefix(Children(fs_.get(), "/db"), "LOG.old."), 1u);
  ASSERT_OK(log->Close());
  EXPECT_NE(ReadAll(fs_.get(), "/db/LOG").find("third"), std::string::npos);
  EXPECT_EQ(ReadAll(fs_.get(), "/db/LOG").find("second"), std::string::npos);
}

TEST_F(AutoRollLoggerTest, KeepsKeepLogFileNumFiles) {
  AutoRollOptions o;
  o.keep_log_file_num = 3;
  std::shared_ptr<Logger> log;
  for (int i = 0; i < 6; ++i) {
    clock_.now_ += 100;
    ASSERT_OK(NewDBInfoLog(fs_.get(), &clock_, Placement(), o, &log));
    Log(log.get(), "session %d", i);
    ASSERT_OK(log->Close());
  }
  const std::vector<std::string> names = Children(fs_.get(), "/db");
  // The current LOG and the two newest old ones.
  EXPECT_EQ(names, (std::vector<std::string>{"LOG", "LOG.old.1000000500", "LOG.old.1000000600"}));
  EXPECT_NE(ReadAll(fs_.get(), "/db/LOG.old.1000000600").find("session 4"), std::string::npos);

  // Rolling by size trims as well.
  o.max_log_file_size = 100;
  o.keep_log_file_num = 2;
  ASSERT_OK(NewDBInfoLog(fs_.get(), &clock_, Placement(), o, &log));
  for (int i = 0; i < 20; ++i) {
    clock_.now_ += 1;
    Log(log.get(), "line %d of a log that rolls often", i);
  }
  ASSERT_OK(log->Close());
  EXPECT_EQ(CountPrefix(Children(fs_.get(), "/db"), "LOG.old."), 1u);
}

TEST_F(AutoRollLoggerTest, RefusesZeroKeepLogFileNum) {
  AutoRollOptions o;
  o.keep_log_file_num = 0;
  std::shared_ptr<Logger> log;
  Status s = NewDBInfoLog(fs_.get(), &clock_, Placement(), o, &log);
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.ToString().find("keep_log_file_num"), std::string::npos);
}

}  // namespace
}  // namespace strata
