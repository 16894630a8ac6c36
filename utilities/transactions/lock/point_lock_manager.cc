// PointLockManager (see point_lock_manager.h for the contract). The layout:
//
//   Rep
//    |- cf_table_: an immutable sorted array cf_id -> LockMap*, published
//    |  through an atomic pointer; Add/RemoveColumnFamily build a new one
//    |  under cf_mu_ and retire the old (kept until destruction), so
//    |  TryLock finds its family with one acquire load and no lock.
//    |- LockMap per family: num_stripes Stripes (cache-line aligned), the
//    |  lock count for max_num_locks, a dropped flag.
//    |   '- Stripe: mutex, condition variable, map key -> LockInfo
//    |      {holders (inline small vector), exclusive, expiration}.
//    |- the waits-for graph (wait_mu_): waiter -> {holders it waits for, cf,
//    |  key, mode}; a reverse count per holder of the deadlock-detecting
//    |  waiters waiting for it.
//    '- the deadlock buffer (dl_mu_): a ring of the newest DeadlockPaths.
//
// Lock order: a stripe mutex, then wait_mu_; dl_mu_ is a leaf; cf_mu_ is
// taken alone or before a stripe mutex (RemoveColumnFamily). The steal
// callback runs with no lock of ours held.
#include "utilities/transactions/lock/point_lock_manager.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <new>
#include <string_view>
#include <utility>

#include "util/hash.h"
#include "util/mutex.h"
#include "util/thread_annotations.h"

namespace strata {

namespace {

// The transactions holding one key: one for an exclusive lock, usually one
// or two for a shared lock, so the first kInline live inline and a grant
// allocates nothing.
class Holders {
 public:
  static constexpr uint32_t kInline = 2;

  explicit Holders(TransactionID id) : size_(1) { inline_[0] = id; }

  uint32_t size() const { return size_; }
  TransactionID operator[](uint32_t i) const {
    return i < kInline ? inline_[i] : more_[i - kInline];
  }
  bool Contains(TransactionID id) const {
    for (uint32_t i = 0; i < size_; i++) {
      if ((*this)[i] == id) return true;
    }
    return false;
  }
  void PushBack(TransactionID id) {
    if (size_ < kInline) {
      inline_[size_] = id;
    } else {
      more_.push_back(id);
    }
    size_++;
  }
  // Removes id (order is not kept); false if it is not a holder.
  bool Remove(TransactionID id) {
    for (uint32_t i = 0; i < size_; i++) {
      if ((*this)[i] != id) continue;
      Set(i, (*this)[size_ - 1]);
      size_--;
      if (size_ >= kInline) more_.pop_back();
      return true;
    }
    return false;
  }
  // Makes id the only holder.
  void Reset(TransactionID id) {
    size_ = 1;
    inline_[0] = id;
    more_.clear();
  }

 private:
  void Set(uint32_t i, TransactionID id) {
    if (i < kInline) {
      inline_[i] = id;
    } else {
      more_[i - kInline] = id;
    }
  }

  uint32_t size_;
  TransactionID inline_[kInline] = {0, 0};
  std::vector<TransactionID> more_;  // holders past kInline
};

struct LockInfo {
  LockInfo(TransactionID id, bool ex, uint64_t expiration)
      : holders(id), expiration_time_us(expiration), exclusive(ex) {}
  Holders holders;
  // The latest expiration of the holders (0: never expires).
  uint64_t expiration_time_us;
  bool exclusive;
};

// A key with its hash: one XXH3 pass per request serves both the stripe
// choice (high bits) and the stripe's table (low bits).
struct KeyRef {
  std::string_view key;
  uint64_t hash;
};

// The locked keys of one stripe: a chained hash table over the request's
// precomputed hash, power-of-two buckets (a mask, no division), one
// allocation per entry holding its key bytes. Written rather than
// std::unordered_map, which hashed every key twice on insert (the
// container re-hashes the std::string it stores) and divided by a prime
// at every find, insert and erase: a third of the grant path in the
// profile (docs/design/transaction-locks.md). Never shrinks (as RocksDB's
// map): a stripe keeps buckets for its busiest moment.
// Thread-safety: not thread-safe (its stripe's mutex guards it).
class KeyTable {
 public:
  struct Entry {
    Entry(Entry* n, const KeyRef& k, TransactionID id, bool ex, uint64_t expiration)
        : next(n), hash(k.hash), info(id, ex, expiration), key_size(k.key.size()) {}
    std::string_view key() const {
      return std::string_view(reinterpret_cast<const char*>(this + 1), key_size);
    }
    Entry* next;
    const uint64_t hash;
    LockInfo info;
    const size_t key_size;  // the key's bytes follow the Entry
  };

  KeyTable() = default;
  KeyTable(const KeyTable&) = delete;
  KeyTable& operator=(const KeyTable&) = delete;
  ~KeyTable() { Clear(); }

  size_t size() const { return count_; }

  // The link (bucket head or a predecessor's next) pointing at key's
  // entry, or null when key is not in the table.
  Entry** FindLink(const KeyRef& k) {
    if (count_ == 0) return nullptr;
    for (Entry** link = &buckets_[k.hash & mask_]; *link != nullptr; link = &(*link)->next) {
      Entry* e = *link;
      if (e->hash == k.hash && e->key() == k.key) return link;
    }
    return nullptr;
  }

  // REQUIRES: k is not in the table.
  Entry* Insert(const KeyRef& k, TransactionID id, bool exclusive, uint64_t expiration) {
    if (count_ >= BucketCount()) Grow();
    Entry** head = &buckets_[k.hash & mask_];
    char* mem = static_cast<char*>(::operator new(sizeof(Entry) + k.key.size()));
    Entry* e = new (mem) Entry(*head, k, id, exclusive, expiration);
    if (!k.key.empty()) std::memcpy(mem + sizeof(Entry), k.key.data(), k.key.size());
    *head = e;
    count_++;
    return e;
  }

  // Unlinks and frees the entry *link points at.
  void Erase(Entry** link) {
    Entry* e = *link;
    *link = e->next;
    Free(e);
    count_--;
  }

  template <typename Fn>
  void ForEach(Fn&& fn) const {
    for (size_t b = 0; b < BucketCount(); b++) {
      for (const Entry* e = buckets_[b]; e != nullptr; e = e->next) fn(*e);
    }
  }

  void Clear() {
    for (size_t b = 0; b < BucketCount(); b++) {
      for (Entry* e = buckets_[b]; e != nullptr;) {
        Entry* next = e->next;
        Free(e);
        e = next;
      }
      buckets_[b] = nullptr;
    }
    count_ = 0;
  }

 private:
  static constexpr size_t kInitialBuckets = 8;

  size_t BucketCount() const { return buckets_ == nullptr ? 0 : size_t{mask_} + 1; }

  static void Free(Entry* e) {
    e->~Entry();
    ::operator delete(e);
  }

  // Doubles the buckets (load factor 1), relinking every entry.
  void Grow() {
    const size_t old_count = BucketCount();
    const size_t n = old_count == 0 ? kInitialBuckets : old_count * 2;
    std::unique_ptr<Entry*[]> fresh(new Entry*[n]());
    for (size_t b = 0; b < old_count; b++) {
      for (Entry* e = buckets_[b]; e != nullptr;) {
        Entry* next = e->next;
        Entry** head = &fresh[e->hash & (n - 1)];
        e->next = *head;
        *head = e;
        e = next;
      }
    }
    buckets_ = std::move(fresh);
    mask_ = static_cast<uint32_t>(n - 1);
  }

  // 16 bytes, so that with the stripe's mutex and waiter count it fits the
  // stripe's first cache line (release builds). 32-bit sizes: a stripe
  // holding 2^31 keys would need over 100 GiB of entries first.
  std::unique_ptr<Entry*[]> buckets_;
  uint32_t mask_ = 0;   // bucket count - 1 (buckets_ non-null)
  uint32_t count_ = 0;  // entries
};

// One stripe of a family's lock table. Aligned to a cache line so that
// threads working on different stripes do not share one; the mutex, the
// waiter count and the table's header fill the first line (in release
// builds, where Mutex is a bare std::mutex), the condition variable the
// second.
struct alignas(64) Stripe {
  Mutex mu;
  // Threads waiting on cv; an unlock signals only when there are some, so
  // the grant/release path never touches the condition variable.
  int waiters GUARDED_BY(mu) = 0;
  KeyTable keys GUARDED_BY(mu);
  // Signalled (all waiters) when a key of this stripe is unlocked.
  CondVar cv{&mu};
};

// Takes a stripe's mutex, spinning briefly first. A stripe is held for
// tens of nanoseconds, far less than a futex sleep and wake-up; without the
// spin, two threads meeting on one stripe (1 in num_stripes) put one to
// sleep in the kernel, which doubled the CPU time per lock with 2 threads
// (docs/design/transaction-locks.md).
void LockStripe(Stripe* s) ACQUIRE(s->mu) NO_THREAD_SAFETY_ANALYSIS {
  for (int i = 0; i < 64; i++) {
    if (s->mu.TryLock()) return;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }
  s->mu.Lock();
}

// MutexLock for a stripe, with LockStripe's spin.
class SCOPED_CAPABILITY StripeLock {
 public:
  explicit StripeLock(Stripe* s) ACQUIRE(s->mu) : s_(s) { LockStripe(s); }
  ~StripeLock() RELEASE() { s_->mu.Unlock(); }
  StripeLock(const StripeLock&) = delete;
  StripeLock& operator=(const StripeLock&) = delete;

 private:
  Stripe* const s_;
};

struct LockMap {
  LockMap(uint32_t id, size_t n) : cf_id(id), num_stripes(n), stripes(new Stripe[n]) {}

  Stripe* StripeFor(uint64_t hash) {
    // Multiply-shift range reduction (Lemire's): uses the high bits of the
    // hash, no division.
    size_t i = static_cast<size_t>((static_cast<unsigned __int128>(hash) * num_stripes) >> 64);
    return &stripes[i];
  }

  const uint32_t cf_id;
  const size_t num_stripes;
  std::unique_ptr<Stripe[]> stripes;
  // Keys locked in this family; kept only when max_num_locks > 0. Relaxed:
  // a counter that publishes no data (the keys are under the stripes).
  std::atomic<int64_t> lock_count{0};
  // Set by RemoveColumnFamily before it empties the stripes; read under a
  // stripe mutex, which orders it (relaxed is enough).
  std::atomic<bool> dropped{false};
};

// The families, sorted by id; immutable once published.
struct CfTable {
  std::vector<std::pair<uint32_t, LockMap*>> maps;

  LockMap* Find(uint32_t cf_id) const {
    auto it = std::lower_bound(
        maps.begin(), maps.end(), cf_id,
        [](const std::pair<uint32_t, LockMap*>& e, uint32_t id) { return e.first < id; });
    return it != maps.end() && it->first == cf_id ? it->second : nullptr;
  }
};

// What a waiter waits for (GetWaitingTxns) and, for deadlock-detecting
// waiters, its edges in the waits-for graph.
struct WaitInfo {
  std::vector<TransactionID> holders;
  uint32_t cf_id = 0;
  bool exclusive = false;
  bool detect = false;  // counted in the graph (rev_wait_)
  std::string key;
};

// The result of one grant attempt under the stripe mutex.
enum class Attempt {
  kGranted,
  kLimit,      // a new key past max_num_locks
  kConflict,   // held incompatibly; *wait_ids = the other holders
  kStealable,  // held incompatibly and expired; *wait_ids = holders to steal
};

Status ColumnFamilyNotFound(uint32_t cf_id) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "Column family id not found: %" PRIu32, cf_id);
  return Status::InvalidArgument(buf);
}

}  // namespace

struct PointLockManager::Rep {
  Rep(const TransactionDBOptions& options, SystemClock* c, StealLocks s)
      : num_stripes(std::max<size_t>(1, options.num_stripes)),
        max_num_locks(options.max_num_locks),
        clock(c),
        steal(std::move(s)) {
    deadlocks.resize(options.max_num_deadlocks, DeadlockPath());
  }

  ~Rep() { delete cf_table.load(std::memory_order_relaxed); }

  LockMap* FindMap(uint32_t cf_id) const {
    // acquire: pairs with the release store that published the table, so
    // the table and the LockMaps it points to are fully built.
    const CfTable* t = cf_table.load(std::memory_order_acquire);
    return t != nullptr ? t->Find(cf_id) : nullptr;
  }

  Attempt AcquireLocked(LockMap* map, Stripe* stripe, const KeyRef& key, const LockRequest& req,
                        const std::vector<TransactionID>& stolen, uint64_t* expire_hint,
                        std::vector<TransactionID>* wait_ids) REQUIRES(stripe->mu);
  void UnLockKey(LockMap* map, Stripe* stripe, const KeyRef& key, TransactionID txn_id)
      REQUIRES(stripe->mu);

  // Records req.txn_id as waiting for wait_ids. With detect, also adds its
  // edges to the graph and searches for a cycle; on one (or when the search
  // passes the depth limit) records the DeadlockPath, removes the waiter
  // again and returns true.
  bool BeginWait(const LockRequest& req, const KeyRef& key,
                 const std::vector<TransactionID>& wait_ids) EXCLUDES(wait_mu);
  void EndWait(TransactionID txn_id) EXCLUDES(wait_mu);
  void RemoveWaiterLocked(TransactionID txn_id) REQUIRES(wait_mu);
  bool FindCycleLocked(const LockRequest& req) REQUIRES(wait_mu);
  void AddDeadlock(DeadlockPath path) EXCLUDES(dl_mu);
  std::vector<DeadlockPath> OrderedDeadlocksLocked() REQUIRES(dl_mu);
  int64_t NowSeconds();

  // Immutable after construction.
  const size_t num_stripes;
  const int64_t max_num_locks;
  SystemClock* const clock;
  const StealLocks steal;

  // The published family table (owned: the current one is deleted by the
  // destructor, retired ones by retired_tables).
  std::atomic<const CfTable*> cf_table{nullptr};

  Mutex cf_mu;
  // Every LockMap ever made, dropped ones included: a TryLock that found a
  // map just before it was removed may still be using it.
  std::vector<std::unique_ptr<LockMap>> all_maps GUARDED_BY(cf_mu);
  std::vector<std::unique_ptr<const CfTable>> retired_tables GUARDED_BY(cf_mu);

  Mutex wait_mu;
  std::unordered_map<TransactionID, WaitInfo> waiting GUARDED_BY(wait_mu);
  // holder -> how many deadlock-detecting waiters wait for it.
  std::unordered_map<TransactionID, int> rev_wait GUARDED_BY(wait_mu);

  Mutex dl_mu;
  // A ring of capacity deadlocks.size(); dl_next is the next slot written,
  // dl_count the slots filled.
  std::vector<DeadlockPath> deadlocks GUARDED_BY(dl_mu);
  size_t dl_next GUARDED_BY(dl_mu) = 0;
  size_t dl_count GUARDED_BY(dl_mu) = 0;
};

Attempt PointLockManager::Rep::AcquireLocked(LockMap* map, Stripe* stripe, const KeyRef& key,
                                             const LockRequest& req,
                                             const std::vector<TransactionID>& stolen,
                                             uint64_t* expire_hint,
                                             std::vector<TransactionID>* wait_ids) {
  stripe->mu.AssertHeld();
  KeyTable::Entry** link = stripe->keys.FindLink(key);
  if (link == nullptr) {
    if (max_num_locks > 0) {
      // Reserve a slot first so that racing stripes cannot overshoot.
      if (map->lock_count.fetch_add(1, std::memory_order_relaxed) >= max_num_locks) {
        map->lock_count.fetch_sub(1, std::memory_order_relaxed);
        return Attempt::kLimit;
      }
    }
    stripe->keys.Insert(key, req.txn_id, req.exclusive, req.expiration_time_us);
    return Attempt::kGranted;
  }

  LockInfo& info = (*link)->info;
  assert(info.holders.size() == 1 || !info.exclusive);
  if (!info.exclusive && !req.exclusive) {
    // Shared on shared: always compatible.
    if (!info.holders.Contains(req.txn_id)) info.holders.PushBack(req.txn_id);
    // Like RocksDB, one expiration for all holders: the latest (it never
    // goes down while the key stays locked). Unlike RocksDB's std::max, a
    // holder that never expires (0) makes the lock never expire: RocksDB
    // would let its share be stolen at the other holder's expiration.
    if (info.expiration_time_us != 0) {
      info.expiration_time_us = req.expiration_time_us == 0
                                    ? 0
                                    : std::max(info.expiration_time_us, req.expiration_time_us);
    }
    return Attempt::kGranted;
  }
  if (info.holders.size() == 1 && info.holders[0] == req.txn_id) {
    // Our own lock: a re-lock, or an upgrade with no other holder. An
    // exclusive lock stays exclusive when re-locked shared.
    info.exclusive = info.exclusive || req.exclusive;
    info.expiration_time_us = req.expiration_time_us;
    return Attempt::kGranted;
  }

  // Incompatible. Steal it if every other holder's locks were stolen by us.
  bool all_stolen = !stolen.empty();
  for (uint32_t i = 0; i < info.holders.size() && all_stolen; i++) {
    TransactionID h = info.holders[i];
    if (h != req.txn_id && std::find(stolen.begin(), stolen.end(), h) == stolen.end()) {
      all_stolen = false;
    }
  }
  if (all_stolen) {
    // The key stays locked, so the lock count does not change.
    info.holders.Reset(req.txn_id);
    info.exclusive = req.exclusive;
    info.expiration_time_us = req.expiration_time_us;
    return Attempt::kGranted;
  }

  wait_ids->clear();
  for (uint32_t i = 0; i < info.holders.size(); i++) {
    // A transaction never waits for itself (an upgrade waits for the others).
    if (info.holders[i] != req.txn_id) wait_ids->push_back(info.holders[i]);
  }
  *expire_hint = info.expiration_time_us;
  if (info.expiration_time_us != 0 && info.expiration_time_us <= clock->NowMicros()) {
    return Attempt::kStealable;
  }
  return Attempt::kConflict;
}

void PointLockManager::Rep::UnLockKey(LockMap* map, Stripe* stripe, const KeyRef& key,
                                      TransactionID txn_id) {
  stripe->mu.AssertHeld();
  KeyTable::Entry** link = stripe->keys.FindLink(key);
  // Not found or not a holder: the lock was stolen (or never taken).
  if (link == nullptr) return;
  Holders& holders = (*link)->info.holders;
  if (holders.size() == 1) {
    if (holders[0] != txn_id) return;
    stripe->keys.Erase(link);
    if (max_num_locks > 0) map->lock_count.fetch_sub(1, std::memory_order_relaxed);
    return;
  }
  holders.Remove(txn_id);
}

int64_t PointLockManager::Rep::NowSeconds() {
  int64_t t = 0;
  // RocksDB records 0 when the clock fails; so do we.
  if (!clock->GetCurrentTime(&t).ok()) t = 0;
  return t;
}

bool PointLockManager::Rep::BeginWait(const LockRequest& req, const KeyRef& key,
                                      const std::vector<TransactionID>& wait_ids) {
  MutexLock l(&wait_mu);
  WaitInfo& w = waiting[req.txn_id];
  assert(w.holders.empty());
  w.holders = wait_ids;
  w.cf_id = req.cf_id;
  w.exclusive = req.exclusive;
  w.key.assign(key.key.data(), key.key.size());
  w.detect = req.deadlock_detect;
  if (!req.deadlock_detect) return false;
  for (TransactionID h : wait_ids) rev_wait[h]++;
  if (!FindCycleLocked(req)) return false;
  RemoveWaiterLocked(req.txn_id);
  return true;
}

void PointLockManager::Rep::EndWait(TransactionID txn_id) {
  MutexLock l(&wait_mu);
  RemoveWaiterLocked(txn_id);
}

void PointLockManager::Rep::RemoveWaiterLocked(TransactionID txn_id) {
  wait_mu.AssertHeld();
  auto it = waiting.find(txn_id);
  if (it == waiting.end()) return;
  if (it->second.detect) {
    for (TransactionID h : it->second.holders) {
      auto r = rev_wait.find(h);
      assert(r != rev_wait.end());
      if (r != rev_wait.end() && --r->second == 0) rev_wait.erase(r);
    }
  }
  waiting.erase(it);
}

// Breadth-first search of the waits-for graph from the holders req.txn_id
// waits for, visiting at most deadlock_detect_depth nodes (a node may be
// visited twice: like RocksDB, no visited set; the depth bounds the work).
// Reaching req.txn_id again is a cycle. Only deadlock-detecting waiters
// have edges; a transaction waiting without detection ends a path.
bool PointLockManager::Rep::FindCycleLocked(const LockRequest& req) {
  wait_mu.AssertHeld();
  const TransactionID self = req.txn_id;
  // Nobody (detecting) waits for us: no cycle can pass through us.
  if (rev_wait.find(self) == rev_wait.end()) return false;

  const size_t depth =
      req.deadlock_detect_depth > 0 ? static_cast<size_t>(req.deadlock_detect_depth) : 0;
  std::vector<TransactionID> queue;
  std::vector<int> parent;  // index in queue of the node that waits for it
  queue.reserve(depth);
  parent.reserve(depth);
  auto enqueue = [&](const std::vector<TransactionID>& ids, int from) {
    for (size_t i = 0; i < ids.size() && queue.size() < depth; i++) {
      queue.push_back(ids[i]);
      parent.push_back(from);
    }
  };
  enqueue(waiting[self].holders, -1);
  for (size_t head = 0; head < depth; head++) {
    if (head == queue.size()) return false;  // searched everything: no cycle
    TransactionID next = queue[head];
    if (next == self) {
      // The cycle, from the waiter that waits for self's first holder
      // round to self (the last entry).
      std::vector<DeadlockInfo> path;
      for (int i = static_cast<int>(head); i != -1; i = parent[i]) {
        const WaitInfo& w = waiting[queue[i]];
        path.push_back({queue[i], w.cf_id, w.exclusive, w.key});
      }
      std::reverse(path.begin(), path.end());
      AddDeadlock(DeadlockPath(std::move(path), NowSeconds()));
      return true;
    }
    auto it = waiting.find(next);
    if (it != waiting.end() && it->second.detect)
      enqueue(it->second.holders, static_cast<int>(head));
  }
  // Too deep to tell: assume a deadlock, as RocksDB does.
  AddDeadlock(DeadlockPath(NowSeconds(), /*limit=*/true));
  return true;
}

void PointLockManager::Rep::AddDeadlock(DeadlockPath path) {
  MutexLock l(&dl_mu);
  if (deadlocks.empty()) return;
  deadlocks[dl_next] = std::move(path);
  dl_next = (dl_next + 1) % deadlocks.size();
  dl_count = std::min(dl_count + 1, deadlocks.size());
}

std::vector<DeadlockPath> PointLockManager::Rep::OrderedDeadlocksLocked() {
  dl_mu.AssertHeld();
  std::vector<DeadlockPath> out;
  out.reserve(dl_count);
  const size_t cap = deadlocks.size();
  for (size_t i = 0; i < dl_count; i++) {
    out.push_back(deadlocks[(dl_next + cap - dl_count + i) % cap]);
  }
  return out;
}

PointLockManager::PointLockManager(const TransactionDBOptions& options, SystemClock* clock,
                                   StealLocks steal)
    : rep_(std::make_unique<Rep>(options, clock, std::move(steal))) {}

PointLockManager::~PointLockManager() = default;

void PointLockManager::AddColumnFamily(uint32_t cf_id) {
  MutexLock l(&rep_->cf_mu);
  const CfTable* old = rep_->cf_table.load(std::memory_order_relaxed);
  if (old != nullptr && old->Find(cf_id) != nullptr) return;  // already there
  auto map = std::make_unique<LockMap>(cf_id, rep_->num_stripes);
  auto table = std::make_unique<CfTable>();
  if (old != nullptr) table->maps = old->maps;
  auto pos = std::lower_bound(
      table->maps.begin(), table->maps.end(), cf_id,
      [](const std::pair<uint32_t, LockMap*>& e, uint32_t id) { return e.first < id; });
  table->maps.insert(pos, {cf_id, map.get()});
  rep_->all_maps.push_back(std::move(map));
  // release: readers that see the new table see it and its maps built.
  rep_->cf_table.store(table.release(), std::memory_order_release);
  if (old != nullptr) rep_->retired_tables.emplace_back(old);
}

void PointLockManager::RemoveColumnFamily(uint32_t cf_id) {
  LockMap* map = nullptr;
  {
    MutexLock l(&rep_->cf_mu);
    const CfTable* old = rep_->cf_table.load(std::memory_order_relaxed);
    map = old != nullptr ? old->Find(cf_id) : nullptr;
    if (map == nullptr) return;
    auto table = std::make_unique<CfTable>();
    for (const auto& e : old->maps) {
      if (e.first != cf_id) table->maps.push_back(e);
    }
    rep_->cf_table.store(table.release(), std::memory_order_release);
    rep_->retired_tables.emplace_back(old);
  }
  // The map itself stays allocated (all_maps): a concurrent TryLock may
  // hold a pointer to it. Its locks go, and its waiters wake to find it
  // dropped.
  map->dropped.store(true, std::memory_order_relaxed);
  for (size_t i = 0; i < map->num_stripes; i++) {
    Stripe* s = &map->stripes[i];
    {
      StripeLock l(s);
      s->keys.Clear();
    }
    s->cv.SignalAll();
  }
  map->lock_count.store(0, std::memory_order_relaxed);
}

Status PointLockManager::TryLock(const LockRequest& req, const Slice& key) {
  Rep* r = rep_.get();
  LockMap* map = r->FindMap(req.cf_id);
  if (map == nullptr) return ColumnFamilyNotFound(req.cf_id);

  const KeyRef ref{std::string_view(key.data(), key.size()), XXH3_64(key.data(), key.size())};
  Stripe* stripe = map->StripeFor(ref.hash);

  // The deadline on the clock's time (0: none yet). Set at the first
  // conflict, so a lock granted at once never reads the clock.
  uint64_t end_time = 0;

  // Empty unless we wait: no allocation on the grant path.
  std::vector<TransactionID> wait_ids;
  std::vector<TransactionID> stolen;  // holders whose locks we stole
  Status result;
  LockStripe(stripe);
  for (;;) {
    if (map->dropped.load(std::memory_order_relaxed)) {
      result = ColumnFamilyNotFound(req.cf_id);
      break;
    }
    uint64_t expire_hint = 0;
    Attempt a = r->AcquireLocked(map, stripe, ref, req, stolen, &expire_hint, &wait_ids);
    if (a == Attempt::kGranted) break;
    if (a == Attempt::kLimit) {
      result = Status::Busy(Status::kLockLimit);
      break;
    }
    if (a == Attempt::kStealable) {
      // Ask the owner of each expired holder, without our mutex: the
      // callback takes the transaction layer's locks.
      stripe->mu.Unlock();
      bool all = true;
      for (TransactionID h : wait_ids) {
        if (std::find(stolen.begin(), stolen.end(), h) != stolen.end()) continue;
        if (!r->steal(h)) {
          all = false;
          break;
        }
        stolen.push_back(h);
      }
      LockStripe(stripe);
      if (all) continue;  // the retry takes the key (or sees it moved on)
      // A holder that cannot be stolen: wait for it as for any holder,
      // with no expiration to wake for.
      expire_hint = 0;
    }

    // Not grantable now.
    if (req.timeout_us == 0) {
      result = Status::TimedOut(Status::kLockTimeout);
      break;
    }
    uint64_t now = 0;
    uint64_t wake = 0;  // when to wake on our own (0: only when signalled)
    if (req.timeout_us > 0 || expire_hint > 0) {
      now = r->clock->NowMicros();
      if (req.timeout_us > 0 && end_time == 0) {
        end_time = now + static_cast<uint64_t>(req.timeout_us);
      }
      if (end_time > 0 && now >= end_time) {
        result = Status::TimedOut(Status::kLockTimeout);
        break;
      }
      wake = end_time;
      if (expire_hint > 0 && (wake == 0 || expire_hint < wake)) wake = expire_hint;
    }
    if (r->BeginWait(req, ref, wait_ids)) {
      result = Status::Busy(Status::kDeadlock);
      break;
    }
    stripe->waiters++;
    if (wake == 0) {
      stripe->cv.Wait();
    } else if (wake > now) {
      stripe->cv.TimedWaitMicros(wake - now);
    }
    stripe->waiters--;
    r->EndWait(req.txn_id);
  }
  stripe->mu.Unlock();
  return result;
}

void PointLockManager::UnLock(TransactionID txn_id, uint32_t cf_id, const Slice& key) {
  Rep* r = rep_.get();
  LockMap* map = r->FindMap(cf_id);
  if (map == nullptr) return;  // dropped: its locks went with it
  const KeyRef ref{std::string_view(key.data(), key.size()), XXH3_64(key.data(), key.size())};
  Stripe* stripe = map->StripeFor(ref.hash);
  bool wake;
  {
    StripeLock l(stripe);
    r->UnLockKey(map, stripe, ref, txn_id);
    wake = stripe->waiters > 0;
  }
  // After the release: woken waiters find the mutex free.
  if (wake) stripe->cv.SignalAll();
}

void PointLockManager::UnLock(TransactionID txn_id, uint32_t cf_id,
                              const std::vector<std::string>& keys) {
  Rep* r = rep_.get();
  LockMap* map = r->FindMap(cf_id);
  if (map == nullptr || keys.empty()) return;
  if (keys.size() == 1) {
    UnLock(txn_id, cf_id, keys[0]);
    return;
  }
  // Sort the keys by stripe, then visit each stripe once.
  struct Item {
    size_t stripe;
    KeyRef ref;
  };
  std::vector<Item> items;
  items.reserve(keys.size());
  for (const std::string& k : keys) {
    uint64_t h = XXH3_64(k.data(), k.size());
    items.push_back({static_cast<size_t>(map->StripeFor(h) - map->stripes.get()), {k, h}});
  }
  std::sort(items.begin(), items.end(),
            [](const Item& a, const Item& b) { return a.stripe < b.stripe; });
  for (size_t i = 0; i < items.size();) {
    Stripe* stripe = &map->stripes[items[i].stripe];
    bool wake;
    {
      StripeLock l(stripe);
      size_t s = items[i].stripe;
      for (; i < items.size() && items[i].stripe == s; i++) {
        r->UnLockKey(map, stripe, items[i].ref, txn_id);
      }
      wake = stripe->waiters > 0;
    }
    if (wake) stripe->cv.SignalAll();
  }
}

std::unordered_multimap<uint32_t, KeyLockInfo> PointLockManager::GetLockStatusData() {
  std::unordered_multimap<uint32_t, KeyLockInfo> data;
  const CfTable* t = rep_->cf_table.load(std::memory_order_acquire);
  if (t == nullptr) return data;
  // One stripe at a time (never two stripe mutexes at once): each stripe's
  // view is exact, the whole is not one instant.
  for (const auto& e : t->maps) {
    LockMap* map = e.second;
    for (size_t i = 0; i < map->num_stripes; i++) {
      Stripe* s = &map->stripes[i];
      StripeLock l(s);
      s->keys.ForEach([&](const KeyTable::Entry& entry) {
        KeyLockInfo info;
        info.key.assign(entry.key().data(), entry.key().size());
        info.exclusive = entry.info.exclusive;
        for (uint32_t j = 0; j < entry.info.holders.size(); j++) {
          info.ids.push_back(entry.info.holders[j]);
        }
        data.emplace(e.first, std::move(info));
      });
    }
  }
  return data;
}

std::vector<DeadlockPath> PointLockManager::GetDeadlockInfoBuffer() {
  MutexLock l(&rep_->dl_mu);
  return rep_->OrderedDeadlocksLocked();
}

void PointLockManager::SetDeadlockInfoBufferSize(uint32_t target_size) {
  Rep* r = rep_.get();
  MutexLock l(&r->dl_mu);
  std::vector<DeadlockPath> kept = r->OrderedDeadlocksLocked();
  // Keep the newest target_size.
  if (kept.size() > target_size) kept.erase(kept.begin(), kept.end() - target_size);
  r->dl_count = kept.size();
  kept.resize(target_size, DeadlockPath());
  r->deadlocks = std::move(kept);
  r->dl_next = target_size == 0 ? 0 : r->dl_count % target_size;
}

std::vector<TransactionID> PointLockManager::GetWaitingTxns(TransactionID txn_id, uint32_t* cf_id,
                                                            std::string* key) {
  MutexLock l(&rep_->wait_mu);
  auto it = rep_->waiting.find(txn_id);
  if (it == rep_->waiting.end()) return {};
  if (cf_id != nullptr) *cf_id = it->second.cf_id;
  if (key != nullptr) *key = it->second.key;
  return it->second.holders;
}

size_t PointLockManager::TEST_LockCount(uint32_t cf_id) {
  LockMap* map = rep_->FindMap(cf_id);
  if (map == nullptr) return 0;
  size_t n = 0;
  for (size_t i = 0; i < map->num_stripes; i++) {
    MutexLock l(&map->stripes[i].mu);
    n += map->stripes[i].keys.size();
  }
  return n;
}

}  // namespace strata
