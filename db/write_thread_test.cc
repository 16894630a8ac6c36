#include "db/write_thread.h"

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "db/write_batch_internal.h"
#include "test_util/testutil.h"

namespace strata {

namespace {

// Drives WriteThread the way DBImpl does and records what each writer got.
struct Harness {
  explicit Harness(bool parallel) : wt(1 << 20), parallel(parallel) {}

  void Write(WriteBatch* batch, bool sync) {
    WriteThread::Writer w(batch, sync, false);
    const auto state = wt.JoinBatchGroup(&w);
    if (state == WriteThread::State::kCompleted) {
      ASSERT_TRUE(w.status.ok());
      completed_by_other++;
      Check(w);
      return;
    }
    if (state == WriteThread::State::kParallelMemTableWriter) {
      Insert(w);
      wt.CompleteParallelMemTableWriter(&w);
      parallel_inserts++;
      Check(w);
      return;
    }
    ASSERT_EQ(WriteThread::State::kLeader, state);
    Lead(&w);
  }

  // The leader's side of a write, for a writer that got kLeader.
  void Lead(WriteThread::Writer* wp) {
    WriteThread::Writer& w = *wp;
    // Exactly one leader at a time.
    ASSERT_EQ(0, leaders.fetch_add(1));
    WriteThread::WriteGroup group;
    wt.EnterAsBatchGroupLeader(&w, &group);
    SequenceNumber next = last_seq + 1;
    group.ForEach([&](WriteThread::Writer* m) {
      m->sequence = next;
      next += WriteBatchInternal::Count(m->batch);
    });
    group.last_sequence = next - 1;
    max_group = std::max<size_t>(max_group, group.size);
    if (group.need_sync) syncs++;
    if (parallel && group.size > 1) {
      wt.LaunchParallelMemTableWriters(&group);
      Insert(w);
      wt.WaitForParallelMemTableWriters(&group);
    } else {
      group.ForEach([&](WriteThread::Writer* m) { Insert(*m); });
    }
    // Every member has inserted before the sequence is published.
    EXPECT_EQ(group.last_sequence - last_seq, inserted_since_publish.exchange(0));
    last_seq = group.last_sequence;
    published.store(last_seq, std::memory_order_release);
    leaders.fetch_sub(1);
    wt.ExitAsBatchGroupLeader(&group, Status::OK());
    Check(w);
  }

  void Insert(const WriteThread::Writer& w) {
    const uint32_t n = WriteBatchInternal::Count(w.batch);
    std::lock_guard<std::mutex> l(mu);
    for (uint32_t i = 0; i < n; i++) {
      EXPECT_TRUE(seqs.insert(w.sequence + i).second) << "sequence used twice";
    }
    inserted_since_publish += n;
  }

  // A writer returns only after its own records are visible.
  void Check(const WriteThread::Writer& w) {
    EXPECT_GE(published.load(std::memory_order_acquire),
              w.sequence + WriteBatchInternal::Count(w.batch) - 1);
  }

  WriteThread wt;
  const bool parallel;
  std::atomic<int> leaders{0};
  SequenceNumber last_seq = 0;  // leader-only
  std::atomic<SequenceNumber> published{0};
  std::atomic<uint64_t> inserted_since_publish{0};
  std::mutex mu;
  std::set<SequenceNumber> seqs;
  size_t max_group = 0;
  std::atomic<int> completed_by_other{0};
  std::atomic<int> parallel_inserts{0};
  int syncs = 0;
};

void RunThreads(Harness* h, int threads, int per_thread) {
  std::vector<std::thread> ts;
  for (int t = 0; t < threads; t++) {
    ts.emplace_back([h, t, per_thread]() {
      for (int i = 0; i < per_thread; i++) {
        WriteBatch b;
        const int records = 1 + (i + t) % 3;
        for (int r = 0; r < records; r++) {
          ASSERT_OK(b.Put("k" + std::to_string(t) + "_" + std::to_string(i), "v"));
        }
        h->Write(&b, (i % 7) == 0);
      }
    });
  }
  for (auto& t : ts) t.join();
}

}  // namespace

TEST(WriteThreadTest, SingleWriterLeadsAlone) {
  Harness h(true);
  for (int i = 0; i < 100; i++) {
    WriteBatch b;
    ASSERT_OK(b.Put("a", "b"));
    h.Write(&b, false);
  }
  EXPECT_EQ(1u, h.max_group);
  EXPECT_EQ(100u, h.seqs.size());
  EXPECT_EQ(100u, h.last_seq);
}

TEST(WriteThreadTest, ConcurrentWritersSerialInsert) {
  Harness h(false);
  RunThreads(&h, 8, 2000);
  uint64_t total = 0;
  for (int t = 0; t < 8; t++) {
    for (int i = 0; i < 2000; i++) total += 1 + (i + t) % 3;
  }
  EXPECT_EQ(total, h.seqs.size());
  EXPECT_EQ(total, h.last_seq);
  EXPECT_EQ(*h.seqs.rbegin(), total);
}

TEST(WriteThreadTest, ConcurrentWritersParallelInsert) {
  Harness h(true);
  RunThreads(&h, 8, 2000);
  uint64_t total = 0;
  for (int t = 0; t < 8; t++) {
    for (int i = 0; i < 2000; i++) total += 1 + (i + t) % 3;
  }
  EXPECT_EQ(total, h.seqs.size());
  EXPECT_EQ(total, h.last_seq);
}

TEST(WriteThreadTest, QueuedWritersFormOneGroupAndInsertInParallel) {
  Harness h(true);
  WriteBatch lb;
  ASSERT_OK(lb.Put("leader", "v"));
  WriteThread::Writer leader(&lb, false, false);
  ASSERT_EQ(WriteThread::State::kLeader, h.wt.JoinBatchGroup(&leader));
  std::vector<std::thread> followers;
  for (int t = 0; t < 3; t++) {
    followers.emplace_back([&h, t] {
      WriteBatch b;
      ASSERT_OK(b.Put("f" + std::to_string(t), "v"));
      ASSERT_OK(b.Put("g" + std::to_string(t), "v"));
      h.Write(&b, t == 1);
    });
  }
  // Deterministic: lead only once all three wait behind us.
  while (h.wt.TEST_QueueLength() < 4) std::this_thread::yield();
  h.Lead(&leader);
  for (auto& t : followers) t.join();
  EXPECT_EQ(4u, h.max_group);
  EXPECT_EQ(3, h.parallel_inserts.load());
  EXPECT_EQ(1, h.syncs);
  EXPECT_EQ(7u, h.seqs.size());
  EXPECT_EQ(7u, h.last_seq);
}

TEST(WriteThreadTest, ErrorReachesEveryMember) {
  WriteThread wt(1 << 20);
  // Make a group of three by hand: the leader, then two queued writers.
  WriteBatch b1, b2, b3;
  ASSERT_OK(b1.Put("a", "1"));
  ASSERT_OK(b2.Put("b", "2"));
  ASSERT_OK(b3.Put("c", "3"));
  WriteThread::Writer w1(&b1, false, false);
  ASSERT_EQ(WriteThread::State::kLeader, wt.JoinBatchGroup(&w1));
  Status s2, s3;
  WriteThread::State st2, st3;
  std::thread t2([&] {
    WriteThread::Writer w(&b2, false, false);
    st2 = wt.JoinBatchGroup(&w);
    s2 = w.status;
  });
  std::thread t3([&] {
    WriteThread::Writer w(&b3, false, false);
    st3 = wt.JoinBatchGroup(&w);
    s3 = w.status;
  });
  while (wt.TEST_QueueLength() < 3) std::this_thread::yield();
  WriteThread::WriteGroup group;
  wt.EnterAsBatchGroupLeader(&w1, &group);
  EXPECT_EQ(3u, group.size);
  wt.ExitAsBatchGroupLeader(&group, Status::IOError("disk on fire"));
  t2.join();
  t3.join();
  EXPECT_EQ(WriteThread::State::kCompleted, st2);
  EXPECT_EQ(WriteThread::State::kCompleted, st3);
  EXPECT_TRUE(s2.IsIOError());
  EXPECT_TRUE(s3.IsIOError());
}

}  // namespace strata
