#include <memory>
#include <string>

#include "env/sst_file_manager_impl.h"
#include "test_util/manual_clock.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

class SstFileManagerTest : public testing::Test {
 protected:
  SstFileManagerTest()
      : clock_(std::make_shared<test::ManualClock>(true)),
        stats_(CreateDBStatistics()),
        env_(Env::Default()->GetFileSystemPtr(), clock_) {}

  std::shared_ptr<SstFileManagerImpl> Make(int64_t rate, double ratio = 0.25,
                                           uint64_t chunk = 64 << 20) {
    Status s;
    auto sfm = std::static_pointer_cast<SstFileManagerImpl>(
        NewSstFileManager(&env_, nullptr, nullptr, "", rate, true, &s, ratio, chunk));
    EXPECT_OK(s);
    sfm->SetStatisticsPtr(stats_);
    return sfm;
  }
  std::string Path(const std::string& name) const { return dir_.path() + "/" + name; }
  void Write(const std::string& name, size_t n) {
    ASSERT_OK(WriteStringToFile(env_.GetFileSystem(), std::string(n, 'x'), Path(name)));
  }
  bool Exists(const std::string& name) { return env_.GetFileSystem()->FileExists(Path(name)).ok(); }
  uint64_t Ticker(uint32_t t) { return stats_->getTickerCount(t); }

  test::TempDir dir_{"sst_file_manager_test"};
  std::shared_ptr<test::ManualClock> clock_;
  std::shared_ptr<Statistics> stats_;
  Env env_;
};

TEST_F(SstFileManagerTest, TracksSizesAndTheSpaceLimit) {
  auto sfm = Make(0);
  EXPECT_FALSE(sfm->IsMaxAllowedSpaceReached());  // no limit
  sfm->OnAddFile("/d/1.sst", 100);
  sfm->OnAddFile("/d/2.sst", 200);
  sfm->OnAddFile("/d/1.sst", 150);  // a new size for a tracked path
  EXPECT_EQ(sfm->GetTotalSize(), 350u);
  EXPECT_EQ(sfm->GetTrackedFiles().size(), 2u);
  EXPECT_EQ(sfm->GetTrackedFiles()["/d/1.sst"], 150u);
  sfm->SetMaxAllowedSpaceUsage(400);
  EXPECT_FALSE(sfm->IsMaxAllowedSpaceReached());
  // Room for compactions: total + reserved + inputs + buffer <= limit.
  EXPECT_TRUE(sfm->EnoughRoomForCompaction(50));  // 350 + 50 = 400
  EXPECT_TRUE(sfm->IsMaxAllowedSpaceReachedIncludingCompactions());
  EXPECT_FALSE(sfm->EnoughRoomForCompaction(1));
  sfm->OnCompactionCompletion(50);
  EXPECT_FALSE(sfm->IsMaxAllowedSpaceReachedIncludingCompactions());
  sfm->SetCompactionBufferSize(40);
  EXPECT_FALSE(sfm->EnoughRoomForCompaction(11));
  EXPECT_TRUE(sfm->EnoughRoomForCompaction(10));
  sfm->OnCompactionCompletion(10);
  sfm->OnAddFile("/d/3.sst", 50);
  EXPECT_TRUE(sfm->IsMaxAllowedSpaceReached());  // 400 >= 400
  sfm->OnDeleteFile("/d/2.sst");
  sfm->OnDeleteFile("/d/unknown.sst");
  EXPECT_EQ(sfm->GetTotalSize(), 200u);
  EXPECT_FALSE(sfm->IsMaxAllowedSpaceReached());
  sfm->SetMaxAllowedSpaceUsage(0);
  EXPECT_TRUE(sfm->EnoughRoomForCompaction(1ull << 40));
}

TEST_F(SstFileManagerTest, WithoutARateFilesAreDeletedAtOnce) {
  auto sfm = Make(0);
  Write("000001.sst", 1000);
  ASSERT_OK(sfm->OnAddFile(Path("000001.sst")));
  EXPECT_EQ(sfm->GetTotalSize(), 1000u);
  ASSERT_OK(sfm->ScheduleFileDeletion(Path("000001.sst"), dir_.path()));
  EXPECT_FALSE(Exists("000001.sst"));
  EXPECT_FALSE(Exists("000001.sst.trash"));
  EXPECT_EQ(sfm->GetTotalSize(), 0u);
  EXPECT_EQ(Ticker(FILES_DELETED_IMMEDIATELY), 1u);
  EXPECT_EQ(Ticker(FILES_MARKED_TRASH), 0u);
}

// Five 1 MB files at 1 MB/s: renamed to .trash at once, gone after five
// seconds of (mock) time, and not before.
TEST_F(SstFileManagerTest, PacedDeletionKeepsTheRate) {
  auto sfm = Make(1000000, 0.25, /*chunk=*/0);
  sfm->OnAddFile("/elsewhere/big.sst", 100 << 20);  // keeps the trash ratio low
  for (int i = 1; i <= 5; ++i) {
    const std::string name = "00000" + std::to_string(i) + ".sst";
    Write(name, 1000000);
    ASSERT_OK(sfm->OnAddFile(Path(name)));
  }
  // A trash name already taken gets a number.
  Write("000001.sst.trash", 10);
  const uint64_t start = clock_->NowMicros();
  for (int i = 1; i <= 5; ++i) {
    const std::string name = "00000" + std::to_string(i) + ".sst";
    ASSERT_OK(sfm->ScheduleFileDeletion(Path(name), dir_.path()));
    EXPECT_FALSE(Exists(name));
  }
  EXPECT_EQ(Ticker(FILES_MARKED_TRASH), 5u);
  sfm->WaitForEmptyTrash();
  const double secs = static_cast<double>(clock_->NowMicros() - start) / 1e6;
  EXPECT_NEAR(secs, 5.0, 0.11);
  for (int i = 2; i <= 5; ++i) EXPECT_FALSE(Exists("00000" + std::to_string(i) + ".sst.trash"));
  EXPECT_FALSE(Exists("000001.sst0.trash"));
  EXPECT_TRUE(Exists("000001.sst.trash"));  // not ours: left alone
  EXPECT_EQ(sfm->GetTotalTrashSize(), 0u);
  EXPECT_EQ(sfm->GetTotalSize(), uint64_t{100} << 20);
  EXPECT_EQ(sfm->GetTrackedFiles().size(), 1u);
}

// A large trash file is cut a chunk at a time; one with another hard link
// (a checkpoint's) is deleted whole, leaving the other name intact.
TEST_F(SstFileManagerTest, LargeTrashIsTruncatedInChunks) {
  auto sfm = Make(1000000, 1.0, /*chunk=*/1000000);
  sfm->OnAddFile("/elsewhere/big.sst", 100 << 20);
  Write("000007.sst", 4000000);
  ASSERT_OK(sfm->OnAddFile(Path("000007.sst")));
  const uint64_t start = clock_->NowMicros();
  ASSERT_OK(sfm->ScheduleFileDeletion(Path("000007.sst"), dir_.path()));
  sfm->WaitForEmptyTrash();
  EXPECT_NEAR(static_cast<double>(clock_->NowMicros() - start) / 1e6, 4.0, 0.11);
  EXPECT_FALSE(Exists("000007.sst.trash"));

  Write("000008.sst", 3000000);
  ASSERT_OK(env_.GetFileSystem()->LinkFile(Path("000008.sst"), Path("checkpoint_000008.sst")));
  ASSERT_OK(sfm->OnAddFile(Path("000008.sst")));
  ASSERT_OK(sfm->ScheduleFileDeletion(Path("000008.sst"), dir_.path()));
  sfm->WaitForEmptyTrash();
  EXPECT_FALSE(Exists("000008.sst.trash"));
  uint64_t size = 0;
  ASSERT_OK(env_.GetFileSystem()->GetFileSize(Path("checkpoint_000008.sst"), &size));
  EXPECT_EQ(size, 3000000u);
}

// Past max_trash_db_ratio of the tracked total, deletion is immediate. A
// clock that only moves when told keeps the first file in the trash.
TEST_F(SstFileManagerTest, TooMuchTrashDeletesAtOnce) {
  auto clock = std::make_shared<test::ManualClock>(false);
  Env env(Env::Default()->GetFileSystemPtr(), clock);
  Status s;
  auto sfm = std::static_pointer_cast<SstFileManagerImpl>(
      NewSstFileManager(&env, nullptr, nullptr, "", 1000, true, &s, 0.25, 1000));
  ASSERT_OK(s);
  sfm->SetStatisticsPtr(stats_);
  Write("000010.sst", 10000);
  ASSERT_OK(sfm->OnAddFile(Path("000010.sst")));
  for (int i = 1; i <= 3; ++i) {
    const std::string name = "00001" + std::to_string(i) + ".sst";
    Write(name, 1000);
    ASSERT_OK(sfm->OnAddFile(Path(name)));
  }
  sfm->OnAddFile("/elsewhere/big.sst", 27000);  // total 40000
  // No trash yet: to the trash (cut 1000 bytes a second).
  ASSERT_OK(sfm->ScheduleFileDeletion(Path("000010.sst"), dir_.path()));
  EXPECT_EQ(Ticker(FILES_MARKED_TRASH), 1u);
  EXPECT_GE(sfm->GetTotalTrashSize(), 9000u);
  // Trash > 40000 * 0.2: at once.
  sfm->SetMaxTrashDBRatio(0.2);
  EXPECT_DOUBLE_EQ(sfm->GetMaxTrashDBRatio(), 0.2);
  ASSERT_OK(sfm->ScheduleFileDeletion(Path("000011.sst"), dir_.path()));
  EXPECT_FALSE(Exists("000011.sst"));
  EXPECT_FALSE(Exists("000011.sst.trash"));
  EXPECT_EQ(Ticker(FILES_DELETED_IMMEDIATELY), 1u);
  // force_bg ignores the ratio.
  ASSERT_OK(sfm->ScheduleFileDeletion(Path("000012.sst"), dir_.path(), /*force_bg=*/true));
  EXPECT_TRUE(Exists("000012.sst.trash"));
  EXPECT_EQ(Ticker(FILES_MARKED_TRASH), 2u);
  // Rate 0: at once.
  EXPECT_EQ(sfm->GetDeleteRateBytesPerSecond(), 1000);
  sfm->SetDeleteRateBytesPerSecond(0);
  EXPECT_EQ(sfm->GetDeleteRateBytesPerSecond(), 0);
  ASSERT_OK(sfm->ScheduleFileDeletion(Path("000013.sst"), dir_.path()));
  EXPECT_FALSE(Exists("000013.sst"));
  EXPECT_EQ(Ticker(FILES_DELETED_IMMEDIATELY), 2u);
  // Let time run: the queued trash goes.
  clock->SetAutoAdvance(true);
  sfm->WaitForEmptyTrash();
  EXPECT_FALSE(Exists("000010.sst.trash"));
  EXPECT_FALSE(Exists("000012.sst.trash"));
  EXPECT_EQ(sfm->GetTotalSize(), 27000u);
}

TEST_F(SstFileManagerTest, CleanupDirectoryTakesLeftoverTrash) {
  Write("000021.sst.trash", 500);
  Write("000022.sst.trash", 500);
  Write("000023.sst", 500);
  auto sfm = Make(1000000, 1.0, 0);
  ASSERT_OK(SstFileManagerImpl::CleanupDirectory(env_.GetFileSystem(), sfm.get(), dir_.path()));
  sfm->WaitForEmptyTrash();
  EXPECT_FALSE(Exists("000021.sst.trash"));
  EXPECT_FALSE(Exists("000022.sst.trash"));
  EXPECT_TRUE(Exists("000023.sst"));
  EXPECT_EQ(sfm->GetTotalSize(), 0u);
  // Without a manager: deleted directly.
  Write("000024.sst.trash", 500);
  ASSERT_OK(SstFileManagerImpl::CleanupDirectory(env_.GetFileSystem(), nullptr, dir_.path()));
  EXPECT_FALSE(Exists("000024.sst.trash"));
  EXPECT_TRUE(Exists("000023.sst"));
}

TEST_F(SstFileManagerTest, FactoryTakesTheDeprecatedTrashDir) {
  Write("a", 100);
  Write("b.trash", 100);
  Status s;
  auto sfm = NewSstFileManager(&env_, nullptr, nullptr, dir_.path(), 1000000, true, &s);
  ASSERT_OK(s);
  static_cast<SstFileManagerImpl*>(sfm.get())->WaitForEmptyTrash();
  EXPECT_FALSE(Exists("a"));
  EXPECT_FALSE(Exists("b.trash"));
  EXPECT_EQ(NewSstFileManager(&env_, nullptr, nullptr, "", 0, true, &s, -1.0), nullptr);
  EXPECT_TRUE(s.IsInvalidArgument());
  // The Env-only overload.
  auto plain = NewSstFileManager(&env_);
  ASSERT_NE(plain, nullptr);
  EXPECT_EQ(plain->GetDeleteRateBytesPerSecond(), 0);
  EXPECT_DOUBLE_EQ(plain->GetMaxTrashDBRatio(), 0.25);
}

}  // namespace
}  // namespace strata
