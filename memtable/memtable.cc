// MemTable (see memtable/memtable.h for the contract and the entry layout).
#include "memtable/memtable.h"

#include <algorithm>
#include <cassert>
#include <string>

#include "base/get_context.h"

namespace strata {

namespace {

// Which counter shard this thread adds to (concurrent Adds only).
unsigned ThreadCounterShard() {
  static std::atomic<unsigned> next{0};
  // relaxed: only spreads threads over the shards.
  thread_local const unsigned shard = next.fetch_add(1, std::memory_order_relaxed);
  return shard;
}

}  // namespace

// The iterator hands out internal keys and values straight from the arena.
class MemTableIterator final : public InternalIterator {
 public:
  explicit MemTableIterator(const MemTable::Table* table) : iter_(table) {}

  bool Valid() const override { return iter_.Valid(); }
  void SeekToFirst() override { iter_.SeekToFirst(); }
  void SeekToLast() override { iter_.SeekToLast(); }
  void Seek(const Slice& target) override {
    PERF_TIMER_GUARD(seek_on_memtable_time);
    PERF_COUNTER_ADD(seek_on_memtable_count, 1);
    iter_.SeekDecoded(MemTableKeyComparator::DecodeInternalKey(target));
  }
  void SeekForPrev(const Slice& target) override {
    PERF_TIMER_GUARD(seek_on_memtable_time);
    PERF_COUNTER_ADD(seek_on_memtable_count, 1);
    iter_.SeekForPrevDecoded(MemTableKeyComparator::DecodeInternalKey(target));
  }
  void Next() override {
    PERF_COUNTER_ADD(next_on_memtable_count, 1);
    iter_.Next();
  }
  void Prev() override {
    PERF_COUNTER_ADD(prev_on_memtable_count, 1);
    iter_.Prev();
  }
  Slice key() const override {
    const char* end;
    return MemTableKeyComparator::EntryInternalKey(iter_.key(), &end);
  }
  Slice value() const override {
    const char* p;
    MemTableKeyComparator::EntryInternalKey(iter_.key(), &p);
    uint32_t size;
    p = MemTableKeyComparator::DecodeEntryLength(p, &size);
    return Slice(p, size);
  }
  Status status() const override { return Status::OK(); }
  bool IsValuePinned() const override { return true; }

 private:
  MemTable::Table::Iterator iter_;
};

MemTable::MemTable(const InternalKeyComparator& cmp, const MemTableOptions& opts)
    : comparator_(cmp),
      wbm_(opts.write_buffer_manager),
      arena_(opts.arena_block_size),
      table_(MemTableKeyComparator(cmp.user_comparator()), &arena_),
      range_del_table_(MemTableKeyComparator(cmp.user_comparator()), &arena_),
      // The index matches keys by bytes, so it is only sound when the user
      // comparator's equality is byte equality.
      point_index_allowed_(opts.point_index &&
                           (cmp.user_comparator() == BytewiseComparator() ||
                            cmp.user_comparator() == ReverseBytewiseComparator())),
      write_buffer_size_(opts.write_buffer_size),
      prefix_extractor_(opts.prefix_extractor),
      bloom_whole_keys_(opts.whole_key_filtering) {
  clock_ = opts.clock;
  if (opts.bloom_bits > 0 && (prefix_extractor_ != nullptr || bloom_whole_keys_)) {
    bloom_ = std::make_unique<DynamicBloom>(&arena_, opts.bloom_bits);
  }
}

MemTable::~MemTable() {
  if (wbm_ != nullptr) {
    const size_t reserved = wbm_reserved_.load(std::memory_order_relaxed);
    if (!wbm_immutable_.load(std::memory_order_relaxed)) wbm_->ScheduleFreeMem(reserved);
    wbm_->FreeMem(reserved);
  }
  delete building_index_.load(std::memory_order_relaxed);
  // relaxed: only a sanity check; 0 after the last Unref, 1 if the creator
  // deletes an unshared memtable directly.
  assert(refs_.load(std::memory_order_relaxed) <= 1);
}

void MemTable::UpdateWriteBufferManager() {
  if (wbm_ == nullptr) return;
  const size_t usage = ApproximateMemoryUsage();
  const size_t reserved = wbm_reserved_.load(std::memory_order_relaxed);
  if (usage <= reserved) return;
  wbm_reserved_.store(usage, std::memory_order_relaxed);
  wbm_->ReserveMem(usage - reserved);
  // Growth after the switch (a point index built by a reader) is counted
  // as being freed already.
  if (wbm_immutable_.load(std::memory_order_relaxed)) wbm_->ScheduleFreeMem(usage - reserved);
}

void MemTable::MarkImmutableForWriteBufferManager() {
  if (wbm_ == nullptr || wbm_immutable_.load(std::memory_order_relaxed)) return;
  UpdateWriteBufferManager();
  wbm_immutable_.store(true, std::memory_order_relaxed);
  wbm_->ScheduleFreeMem(wbm_reserved_.load(std::memory_order_relaxed));
}

void MemTable::Add(SequenceNumber seq, ValueType type, const Slice& user_key, const Slice& value,
                   bool allow_concurrent) {
  const size_t ikey_size = user_key.size() + kInternalKeyTrailerSize;
  const size_t value_size = value.size();
  assert(ikey_size <= UINT32_MAX && value_size <= UINT32_MAX);
  const size_t encoded_size = static_cast<size_t>(VarintLength(ikey_size)) + ikey_size +
                              static_cast<size_t>(VarintLength(value_size)) + value_size;

  Table& table = type == kTypeRangeDeletion ? range_del_table_ : table_;
  char* entry = table.AllocateKey(encoded_size);
  char* p = EncodeVarint32(entry, static_cast<uint32_t>(ikey_size));
  memcpy(p, user_key.data(), user_key.size());
  p += user_key.size();
  EncodeFixed64(p, PackSequenceAndType(seq, type));
  p += kInternalKeyTrailerSize;
  p = EncodeVarint32(p, static_cast<uint32_t>(value_size));
  memcpy(p, value.data(), value_size);
  assert(p + value_size == entry + encoded_size);

  const uint64_t is_delete = (type == kTypeDeletion || type == kTypeSingleDeletion) ? 1 : 0;
  if (type == kTypeRangeDeletion) {
    if (allow_concurrent ? !range_del_table_.InsertConcurrently(entry)
                         : !range_del_table_.Insert(entry)) {
      return;
    }
    // release: readers that see the count see the entry (GetRangeTombstones).
    num_range_deletes_.fetch_add(1, std::memory_order_release);
    Counters& c = counters_[allow_concurrent ? ThreadCounterShard() % kCounterShards : 0];
    c.entries.fetch_add(1, std::memory_order_relaxed);
    c.deletes.fetch_add(1, std::memory_order_relaxed);
    UpdateFirstSequence(seq);
    return;
  }
  if (bloom_ != nullptr) AddToBloom(user_key, allow_concurrent);
  if (allow_concurrent) {
    if (!table_.InsertConcurrently(entry)) return;
    IndexAddedEntry(user_key, seq, entry);
    Counters& c = counters_[ThreadCounterShard() % kCounterShards];
    // relaxed: see Counters.
    c.entries.fetch_add(1, std::memory_order_relaxed);
    c.bytes.fetch_add(encoded_size, std::memory_order_relaxed);
    if (is_delete) c.deletes.fetch_add(1, std::memory_order_relaxed);
  } else {
    if (!table_.Insert(entry)) return;
    IndexAddedEntry(user_key, seq, entry);
    // The only writer: a plain read-modify-write of shard 0 is enough (no
    // locked instruction), and readers see either value.
    Counters& c = counters_[0];
    c.entries.store(c.entries.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    c.bytes.store(c.bytes.load(std::memory_order_relaxed) + encoded_size,
                  std::memory_order_relaxed);
    if (is_delete) {
      c.deletes.store(c.deletes.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    }
  }
  UpdateFirstSequence(seq);
}

void MemTable::AddToBloom(const Slice& user_key, bool concurrent) {
  // Added before the entry is linked: a reader that can see the entry (its
  // sequence published after this) also sees the bits.
  if (prefix_extractor_ != nullptr && prefix_extractor_->InDomain(user_key)) {
    const Slice prefix = prefix_extractor_->Transform(user_key);
    concurrent ? bloom_->AddConcurrently(prefix) : bloom_->Add(prefix);
  }
  if (bloom_whole_keys_) concurrent ? bloom_->AddConcurrently(user_key) : bloom_->Add(user_key);
}

bool MemTable::BloomMayContain(const Slice& user_key) const {
  if (bloom_whole_keys_) return bloom_->MayContain(user_key);
  if (prefix_extractor_->InDomain(user_key)) {
    return bloom_->MayContain(prefix_extractor_->Transform(user_key));
  }
  return true;
}

void MemTable::IndexAddedEntry(const Slice& user_key, SequenceNumber seq, const char* entry) {
  if (!point_index_allowed_) return;
  // Pairs with the fence in BuildPointIndex: either this load sees the
  // index, or the builder's scan sees the entry just linked.
  std::atomic_thread_fence(std::memory_order_seq_cst);
  PointIndex* index = building_index_.load(std::memory_order_acquire);
  if (index != nullptr) {
    // Concurrent even for a single writer: the builder may be adding too.
    index->Add(PointIndex::Hash(user_key), user_key, seq, entry, /*concurrent=*/true);
  }
}

void MemTable::BuildPointIndex() {
  // Sized for the entries this memtable will hold when full: the write
  // buffer over the average entry so far (its encoding plus about 32 bytes
  // of index slots and padding), and never less than what it holds now.
  uint64_t entries = 0, bytes = 0;
  for (const Counters& c : counters_) {
    entries += c.entries.load(std::memory_order_relaxed);
    bytes += c.bytes.load(std::memory_order_relaxed);
  }
  uint64_t expected = entries;
  if (write_buffer_size_ > 0 && entries > 0) {
    const uint64_t per_entry = bytes / entries + 32;
    expected = std::max<uint64_t>(expected, write_buffer_size_ / per_entry);
  }
  auto* index = new PointIndex(static_cast<size_t>(expected));
  building_index_.store(index, std::memory_order_seq_cst);
  std::atomic_thread_fence(std::memory_order_seq_cst);
  Table::Iterator iter(&table_);
  for (iter.SeekToFirst(); iter.Valid(); iter.Next()) {
    const char* entry = iter.key();
    const Slice ikey = PointIndex::EntryInternalKey(entry);
    const Slice user_key = ExtractUserKey(ikey);
    index->Add(PointIndex::Hash(user_key), user_key, ExtractInternalKeyFooter(ikey) >> 8, entry,
               /*concurrent=*/true);
  }
  // release: lookups that see the index see every Add the scan made.
  ready_index_.store(index, std::memory_order_release);
}

void MemTable::UpdateFirstSequence(SequenceNumber seq) {
  // relaxed: a statistic (see GetFirstSequenceNumber). Written only while it
  // is 0 or larger than seq, so the steady state is a read.
  SequenceNumber current = first_seqno_.load(std::memory_order_relaxed);
  if (current == 0 && clock_ != nullptr &&
      oldest_key_time_.load(std::memory_order_relaxed) == ~uint64_t{0}) {
    // The first write: stamp the time once (a racing writer's stamp is as
    // good; the steady state never reads the clock).
    int64_t now = 0;
    if (clock_->GetCurrentTime(&now).ok()) {
      uint64_t expected = ~uint64_t{0};
      oldest_key_time_.compare_exchange_strong(expected, static_cast<uint64_t>(now),
                                               std::memory_order_relaxed);
    }
  }
  while ((current == 0 || seq < current) &&
         !first_seqno_.compare_exchange_weak(current, seq, std::memory_order_relaxed)) {
  }
}

bool MemTable::Get(const LookupKey& key, GetContext* ctx) {
  if (num_range_deletes() != 0) {
    std::shared_ptr<const FragmentedRangeTombstoneList> tombstones = GetRangeTombstones();
    if (tombstones != nullptr) ctx->AddRangeTombstones(*tombstones);
  }
  if (bloom_ != nullptr) {
    if (!BloomMayContain(key.user_key())) {
      PERF_COUNTER_ADD(bloom_memtable_miss_count, 1);
      return false;
    }
    PERF_COUNTER_ADD(bloom_memtable_hit_count, 1);
  }
  const PointIndex* index = ready_index_.load(std::memory_order_acquire);
  if (index == nullptr && point_index_allowed_ &&
      !index_build_started_.load(std::memory_order_relaxed) &&
      num_entries() >= kMinEntriesForIndex &&
      !index_build_started_.exchange(true, std::memory_order_relaxed)) {
    // The first lookup of a big enough memtable builds the index.
    BuildPointIndex();
    index = ready_index_.load(std::memory_order_acquire);
  }
  if (index != nullptr) {
    // See memtable/point_index.h for why these conclusions are sound.
    const char* entry = nullptr;
    switch (index->Find(PointIndex::Hash(key.user_key()), key.user_key(), &entry)) {
      case PointIndex::Result::kAbsent:
        return false;
      case PointIndex::Result::kFound: {
        const char* value_start;
        const Slice ikey = MemTableKeyComparator::EntryInternalKey(entry, &value_start);
        const uint64_t footer = ExtractInternalKeyFooter(ikey);
        const auto type = static_cast<ValueType>(footer & 0xff);
        if (type != kTypeMerge && ctx->state() != GetContext::kMerge &&
            (footer >> 8) <= ctx->read_seq()) {
          // The newest version is visible and decides on its own.
          uint32_t size;
          const char* data = MemTableKeyComparator::DecodeEntryLength(value_start, &size);
          ctx->SaveEntry(footer >> 8, type, Slice(data, size), /*value_pinned=*/true);
          return ctx->done();
        }
        break;  // a merge, or newer than the snapshot: walk the versions
      }
      case PointIndex::Result::kUnknown:
        break;
    }
  }

  Table::Iterator iter(&table_);
  iter.SeekDecoded(MemTableKeyComparator::DecodeInternalKey(key.internal_key()));
  const MemTableKeyComparator& cmp = table_.comparator();
  for (; iter.Valid(); iter.Next()) {
    // Entries at or after (user_key, sequence): the versions of user_key
    // visible at the sequence, newest first -- while the user key matches.
    const char* value_start;
    const Slice ikey = MemTableKeyComparator::EntryInternalKey(iter.key(), &value_start);
    if (!cmp.UserKeysEqual(ExtractUserKey(ikey), key.user_key())) return false;
    const uint64_t footer = ExtractInternalKeyFooter(ikey);
    uint32_t size;
    const char* data = MemTableKeyComparator::DecodeEntryLength(value_start, &size);
    // The arena outlives the lookup (the caller holds the memtable), so
    // merge operands are kept by reference.
    if (!ctx->SaveEntry(footer >> 8, static_cast<ValueType>(footer & 0xff), Slice(data, size),
                        /*value_pinned=*/true)) {
      return ctx->done();
    }
  }
  return false;
}

std::shared_ptr<const FragmentedRangeTombstoneList> MemTable::GetRangeTombstones() {
  const uint64_t count = num_range_deletes();
  if (count == 0) return nullptr;
  std::lock_guard<std::mutex> l(range_del_mu_);
  if (fragmented_ == nullptr || fragmented_count_ < count) {
    // Count first, then scan: the scan sees at least `count` tombstones.
    std::unique_ptr<InternalIterator> iter(NewRangeTombstoneIterator());
    fragmented_ = std::make_shared<const FragmentedRangeTombstoneList>(
        iter.get(), comparator_.user_comparator());
    fragmented_count_ = count;
  }
  return fragmented_;
}

std::unique_ptr<InternalIterator> MemTable::NewRangeTombstoneIterator() {
  return std::make_unique<MemTableIterator>(&range_del_table_);
}

std::unique_ptr<InternalIterator> MemTable::NewIterator() {
  return std::make_unique<MemTableIterator>(&table_);
}

MemTable::ApproximateStatsResult MemTable::ApproximateStats(const Slice& start_ikey,
                                                            const Slice& end_ikey) const {
  ApproximateStatsResult r;
  uint64_t entries = 0;
  uint64_t bytes = 0;
  for (const Counters& c : counters_) {
    entries += c.entries.load(std::memory_order_relaxed);
    bytes += c.bytes.load(std::memory_order_relaxed);
  }
  if (entries == 0 || comparator_.Compare(start_ikey, end_ikey) >= 0) return r;
  // The index compares encoded entries: length-prefixed internal keys.
  std::string target;
  PutVarint32(&target, static_cast<uint32_t>(start_ikey.size()));
  target.append(start_ikey.data(), start_ikey.size());
  const double from = table_.ApproximateRankFraction(target.data());
  target.clear();
  PutVarint32(&target, static_cast<uint32_t>(end_ikey.size()));
  target.append(end_ikey.data(), end_ikey.size());
  const double to = table_.ApproximateRankFraction(target.data());
  if (to <= from) return r;
  r.count = std::min<uint64_t>(entries, static_cast<uint64_t>((to - from) * entries + 0.5));
  r.size = r.count * (bytes / entries);
  return r;
}

uint64_t MemTable::num_entries() const {
  uint64_t n = 0;
  for (const Counters& c : counters_) n += c.entries.load(std::memory_order_relaxed);
  return n;
}

uint64_t MemTable::num_deletes() const {
  uint64_t n = 0;
  for (const Counters& c : counters_) n += c.deletes.load(std::memory_order_relaxed);
  return n;
}

bool MemTable::IsEmpty() const {
  Table::Iterator iter(&table_);
  iter.SeekToFirst();
  return !iter.Valid();
}

}  // namespace strata
