#include "table/block.h"

#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "base/dbformat.h"
#include "table/block_builder.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

std::string FromHex(const std::string& hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  }
  return out;
}

std::string IKey(const std::string& user_key, SequenceNumber seq, ValueType t = kTypeValue) {
  std::string k;
  AppendInternalKey(&k, user_key, seq, t);
  return k;
}

// Checks that iterating forwards and backwards yields exactly `model`.
void CheckIteration(const Block& block, const Comparator* cmp,
                    const std::map<std::string, std::string>& model) {
  std::unique_ptr<BlockIter> it(block.NewIterator(cmp));
  it->SeekToFirst();
  for (const auto& [k, v] : model) {
    ASSERT_TRUE(it->Valid());
    ASSERT_EQ(it->key().ToString(), k);
    ASSERT_EQ(it->value().ToString(), v);
    it->Next();
  }
  ASSERT_FALSE(it->Valid());
  ASSERT_OK(it->status());
  it->SeekToLast();
  for (auto r = model.rbegin(); r != model.rend(); ++r) {
    ASSERT_TRUE(it->Valid());
    ASSERT_EQ(it->key().ToString(), r->first);
    ASSERT_EQ(it->value().ToString(), r->second);
    it->Prev();
  }
  ASSERT_FALSE(it->Valid());
  ASSERT_OK(it->status());
}

TEST(BlockTest, EmptyBlockBytes) {
  BlockBuilder b;
  ASSERT_TRUE(b.empty());
  ASSERT_EQ(b.CurrentSizeEstimate(), 8u);
  Slice s = b.Finish();
  ASSERT_EQ(s.ToString(), std::string("\x00\x00\x00\x00\x01\x00\x00\x00", 8));
  BlockBuilder h(16, true, true);
  ASSERT_EQ(h.Finish().ToString(), std::string("\x00\x00\x00\x00\x01\x00\x00\x00", 8));

  Block block(s);
  ASSERT_TRUE(block.ok());
  std::unique_ptr<BlockIter> it(block.NewIterator(BytewiseComparator()));
  it->SeekToFirst();
  ASSERT_FALSE(it->Valid());
  it->SeekToLast();
  ASSERT_FALSE(it->Valid());
  it->Seek("a");
  ASSERT_FALSE(it->Valid());
  it->SeekForPrev("a");
  ASSERT_FALSE(it->Valid());
  ASSERT_OK(it->status());
}

// docs/format/block.md (Block contents): the data block RocksDB wrote for apple/apricot/banana.
const char* kRealBlockHex =
    "000d01"
    "6170706c65"
    "0100000000000000"
    "31"
    "020d02"
    "7269636f74"
    "0100000000000000"
    "3232"
    "000e03"
    "62616e616e61"
    "0100000000000000"
    "333333"
    "00000000"
    "01000000";

TEST(BlockTest, RealRocksDBBlock) {
  const std::string bytes = FromHex(kRealBlockHex);
  InternalKeyComparator icmp(BytewiseComparator());
  Block block{std::string(bytes)};
  ASSERT_TRUE(block.ok());
  ASSERT_EQ(block.num_restarts(), 1u);
  ASSERT_FALSE(block.has_hash_index());
  std::map<std::string, std::string> expect = {
      {IKey("apple", 0), "1"}, {IKey("apricot", 0), "22"}, {IKey("banana", 0), "333"}};
  CheckIteration(block, &icmp, expect);
  // std::map orders bytewise, which matches internal order here (one
  // version per key, same trailer).
  BlockBuilder builder(16);
  for (const auto& [k, v] : expect) builder.Add(k, v);
  ASSERT_EQ(builder.CurrentSizeEstimate(), bytes.size());
  ASSERT_EQ(builder.Finish().ToString(), bytes);
}

// Cross-checked with /work/shared/tools/rocksfmt/writer.py block_bytes():
// keys key000..key039 (seq 100+i, kTypeValue), values v<i>, restart
// interval 16, with the data-block hash index.
const char* kHashBlockHex =
    "000e026b6579303030016400000000000076300509023101650000000000007631050902320166000000000000"
    "763205090233016700000000000076330509023401680000000000007634050902350169000000000000763505"
    "090236016a000000000000763605090237016b000000000000763705090238016c000000000000763805090239"
    "016d0000000000007639040a033130016e00000000000076313005090331016f00000000000076313105090332"
    "0170000000000000763132050903330171000000000000763133050903340172000000000000763134050903350173"
    "000000000000763135000e036b65793031360174000000000000763136050903370175000000000000763137050903"
    "380176000000000000763138050903390177000000000000763139040a033230017800000000000076323005090331"
    "017900000000000076323105090332017a00000000000076323205090333017b00000000000076323305090334017c"
    "00000000000076323405090335017d00000000000076323505090336017e00000000000076323605090337017f0000"
    "00000000763237050903380180000000000000763238050903390181000000000000763239040a0333300182000000"
    "000000763330050903310183000000000000763331000e036b65793033320184000000000000763332050903330185"
    "00"
    "0000000000763333050903340186000000000000763334050903350187000000000000763335050903360188000000"
    "00"
    "000076333605090337018900000000000076333705090338018a00000000000076333805090339018b000000000000"
    "76"
    "333900000000ec000000e3010000fffefffffffeffff00010202ff00feffff01fffffffe00feffff0100ff01fefffe"
    "02"
    "01ffff000102feff00000101ffffffff00ff02350003000080";

TEST(BlockTest, HashIndexBlockMatchesReference) {
  const std::string expect = FromHex(kHashBlockHex);
  BlockBuilder builder(16, true, /*use_hash_index=*/true);
  std::vector<std::string> keys;
  for (int i = 0; i < 40; i++) {
    char uk[16];
    snprintf(uk, sizeof(uk), "key%03d", i);
    keys.push_back(IKey(uk, 100 + i));
    builder.Add(keys.back(), "v" + std::to_string(i));
  }
  ASSERT_EQ(builder.CurrentSizeEstimate(), expect.size());
  ASSERT_EQ(builder.Finish().ToString(), expect);

  Block block(expect);
  ASSERT_TRUE(block.has_hash_index());
  ASSERT_EQ(block.num_restarts(), 3u);
  InternalKeyComparator icmp(BytewiseComparator());
  std::unique_ptr<BlockIter> it(block.NewIterator(&icmp));
  for (int i = 0; i < 40; i++) {
    // Lookup at a snapshot newer than the entry, and exactly at it.
    for (SequenceNumber snap : {SequenceNumber{1000}, SequenceNumber(100 + i)}) {
      const std::string target = IKey(ExtractUserKey(keys[i]).ToString(), snap, kValueTypeForSeek);
      ASSERT_TRUE(it->SeekForGet(target, BytewiseComparator()));
      ASSERT_TRUE(it->Valid()) << i;
      ASSERT_EQ(it->key().ToString(), keys[i]);
      ASSERT_EQ(it->value().ToString(), "v" + std::to_string(i));
    }
    // Snapshot older than the only version: positioned after it.
    const std::string old = IKey(ExtractUserKey(keys[i]).ToString(), 99 + i, kValueTypeForSeek);
    ASSERT_TRUE(it->SeekForGet(old, BytewiseComparator()));
    if (i + 1 < 40) {
      ASSERT_TRUE(it->Valid());
      ASSERT_EQ(it->key().ToString(), keys[i + 1]);
    } else {
      ASSERT_FALSE(it->Valid());
    }
  }
  // Absent keys: inside the range -> certainly absent; past the end -> may
  // be in the next block.
  int absent = 0;
  for (int i = 0; i < 39; i++) {
    char uk[16];
    snprintf(uk, sizeof(uk), "key%03da", i);
    if (!it->SeekForGet(IKey(uk, 1000, kValueTypeForSeek), BytewiseComparator())) {
      absent++;
    } else if (it->Valid()) {
      // A collision falls back to Seek: positioned on the next key.
      ASSERT_EQ(it->key().ToString(), keys[i + 1]);
    }
  }
  ASSERT_GT(absent, 0);
  ASSERT_TRUE(it->SeekForGet(IKey("zzz", 1000, kValueTypeForSeek), BytewiseComparator()));
  ASSERT_FALSE(it->Valid());
  ASSERT_OK(it->status());
}

// Random internal keys with several versions per user key.
std::map<std::string, std::string, std::function<bool(const std::string&, const std::string&)>>
RandomModel(std::mt19937_64* rng, const InternalKeyComparator* icmp, int n) {
  std::map<std::string, std::string, std::function<bool(const std::string&, const std::string&)>>
      model([icmp](const std::string& a, const std::string& b) { return icmp->Compare(a, b) < 0; });
  std::vector<std::string> users;
  for (int i = 0; i < n; i++) {
    std::string uk;
    if (!users.empty() && (*rng)() % 4 == 0) {
      uk = users[(*rng)() % users.size()];  // another version
    } else if (!users.empty() && (*rng)() % 3 == 0) {
      uk = users[(*rng)() % users.size()] + test::RandomBytes(rng, 1 + (*rng)() % 4);
    } else {
      uk = test::RandomBytes(rng, (*rng)() % 20);
    }
    users.push_back(uk);
    const ValueType t = (*rng)() % 5 == 0 ? kTypeDeletion : kTypeValue;
    model[IKey(uk, (*rng)() % 1000000, t)] =
        t == kTypeDeletion ? "" : test::RandomBytes(rng, (*rng)() % 200 == 0 ? 300 : (*rng)() % 30);
  }
  return model;
}

TEST(BlockTest, RandomRoundTrip) {
  const uint64_t seed = test::RandomSeed();
  std::mt19937_64 rng(seed);
  InternalKeyComparator icmp(BytewiseComparator());
  for (int interval : {1, 2, 16}) {
    for (bool delta : {true, false}) {
      for (bool hash : {false, true}) {
        SCOPED_TRACE("interval " + std::to_string(interval) + " delta " + std::to_string(delta) +
                     " hash " + std::to_string(hash) + " seed " + std::to_string(seed));
        auto model = RandomModel(&rng, &icmp, 1 + static_cast<int>(rng() % 300));
        BlockBuilder builder(interval, delta, hash);
        for (const auto& [k, v] : model) builder.Add(k, v);
        const size_t estimate = builder.CurrentSizeEstimate();
        const std::string contents = builder.Finish().ToString();
        ASSERT_EQ(estimate, contents.size());
        Block block(contents);
        ASSERT_TRUE(block.ok());
        ASSERT_EQ(block.has_hash_index(), hash && (model.size() + interval - 1) / interval <= 254);
        std::vector<std::pair<std::string, std::string>> ordered(model.begin(), model.end());
        std::unique_ptr<BlockIter> it(block.NewIterator(&icmp));
        it->SeekToFirst();
        for (const auto& [k, v] : ordered) {
          ASSERT_TRUE(it->Valid());
          ASSERT_EQ(it->key().ToString(), k);
          ASSERT_EQ(it->value().ToString(), v);
          it->Next();
        }
        ASSERT_FALSE(it->Valid());
        it->SeekToLast();
        for (auto r = ordered.rbegin(); r != ordered.rend(); ++r) {
          ASSERT_TRUE(it->Valid());
          ASSERT_EQ(it->key().ToString(), r->first);
          it->Prev();
        }
        ASSERT_FALSE(it->Valid());

        for (size_t i = 0; i < ordered.size(); i++) {
          const std::string& k = ordered[i].first;
          it->Seek(k);
          ASSERT_TRUE(it->Valid());
          ASSERT_EQ(it->key().ToString(), k);
          it->SeekForPrev(k);
          ASSERT_TRUE(it->Valid());
          ASSERT_EQ(it->key().ToString(), k);
          // Between keys: the trailer one lower sorts right after k.
          const uint64_t packed = ExtractInternalKeyFooter(k);
          if (packed > 0) {
            std::string between = k;
            EncodeFixed64(&between[between.size() - 8], packed - 1);
            auto lb = model.lower_bound(between);
            it->Seek(between);
            if (lb == model.end()) {
              ASSERT_FALSE(it->Valid());
            } else {
              ASSERT_TRUE(it->Valid());
              ASSERT_EQ(it->key().ToString(), lb->first);
            }
            it->SeekForPrev(between);
            ASSERT_TRUE(it->Valid());
            ASSERT_EQ(it->key().ToString(), std::prev(model.upper_bound(between))->first);
          }
          // Point lookup at the newest snapshot: first version of the user key.
          const std::string target =
              IKey(ExtractUserKey(k).ToString(), kMaxSequenceNumber, kValueTypeForSeek);
          ASSERT_TRUE(it->SeekForGet(target, BytewiseComparator()));
          ASSERT_TRUE(it->Valid());
          ASSERT_EQ(it->key().ToString(), model.lower_bound(target)->first);
        }
        // Random targets, including ones outside the key range.
        for (int i = 0; i < 200; i++) {
          const std::string target =
              IKey(test::RandomBytes(&rng, rng() % 6), rng() % 1000000, kTypeValue);
          auto lb = model.lower_bound(target);
          it->Seek(target);
          ASSERT_EQ(it->Valid(), lb != model.end());
          if (it->Valid()) {
            ASSERT_EQ(it->key().ToString(), lb->first);
          }
          auto ub = model.upper_bound(target);
          it->SeekForPrev(target);
          ASSERT_EQ(it->Valid(), ub != model.begin());
          if (it->Valid()) {
            ASSERT_EQ(it->key().ToString(), std::prev(ub)->first);
          }
          const bool maybe = it->SeekForGet(target, BytewiseComparator());
          bool present = false;
          for (const auto& e : model) {
            if (ExtractUserKey(e.first) == ExtractUserKey(target)) present = true;
          }
          if (present) {
            ASSERT_TRUE(maybe);
          }
          if (maybe && it->Valid()) {
            ASSERT_EQ(it->key().ToString(), lb->first);
          }
          ASSERT_OK(it->status());
        }
        ASSERT_OK(it->status());
      }
    }
  }
}

TEST(BlockTest, HashIndexOmittedForLargeBlocks) {
  InternalKeyComparator icmp(BytewiseComparator());
  // Over 64 KiB: written without the index, bit 31 clear.
  BlockBuilder big(16, true, true);
  std::vector<std::pair<std::string, std::string>> entries;
  for (int i = 0; i < 10; i++) {
    entries.emplace_back(IKey("k" + std::to_string(i), 1), std::string(7000, 'a' + i));
    big.Add(entries.back().first, entries.back().second);
  }
  const std::string contents = big.Finish().ToString();
  ASSERT_GT(contents.size(), kMaxBlockSizeSupportedByHashIndex);
  ASSERT_EQ(DecodeFixed32(contents.data() + contents.size() - 4), 1u);
  Block block(contents);
  ASSERT_TRUE(block.ok());
  ASSERT_FALSE(block.has_hash_index());
  std::unique_ptr<BlockIter> it(block.NewIterator(&icmp));
  for (const auto& [k, v] : entries) {
    ASSERT_TRUE(it->SeekForGet(IKey(ExtractUserKey(k).ToString(), 5, kValueTypeForSeek),
                               BytewiseComparator()));
    ASSERT_TRUE(it->Valid());
    ASSERT_EQ(it->key().ToString(), k);
    ASSERT_EQ(it->value().ToString(), v);
  }
  // Restart index 254 (the 255th interval) cannot be indexed.
  BlockBuilder many(1, true, true);
  for (int i = 0; i < 255; i++) many.Add(IKey("k" + std::to_string(1000 + i), 1), "v");
  const std::string m = many.Finish().ToString();
  ASSERT_EQ(DecodeFixed32(m.data() + m.size() - 4), 255u);
  BlockBuilder fits(1, true, true);
  for (int i = 0; i < 254; i++) fits.Add(IKey("k" + std::to_string(1000 + i), 1), "v");
  const std::string f = fits.Finish().ToString();
  ASSERT_EQ(DecodeFixed32(f.data() + f.size() - 4), 254u | (1u << 31));
}

TEST(BlockTest, EstimateSizeAfterKV) {
  BlockBuilder b(2);
  const std::string k = IKey("key", 1);
  ASSERT_EQ(b.EstimateSizeAfterKV(k, "value"), 8u + k.size() + 5 + 4 + 1 + 1);
  b.Add(k, "value");
  b.Add(IKey("key2", 1), "value");
  // The third entry starts a restart interval: 4 more bytes.
  ASSERT_EQ(b.EstimateSizeAfterKV(k, "v"), b.CurrentSizeEstimate() + k.size() + 1 + 4 + 4 + 1 + 1);
}

TEST(BlockTest, ResetReusesBuilder) {
  BlockBuilder b(2);
  b.Add(IKey("a", 1), "x");
  b.Finish();
  b.Reset();
  ASSERT_TRUE(b.empty());
  b.Add(IKey("apple", 0), "1");
  b.Add(IKey("apricot", 0), "22");
  b.Add(IKey("banana", 0), "333");
  Block block(b.Finish());
  InternalKeyComparator icmp(BytewiseComparator());
  CheckIteration(block, &icmp,
                 {{IKey("apple", 0), "1"}, {IKey("apricot", 0), "22"}, {IKey("banana", 0), "333"}});
}

// Exercises every operation on a possibly corrupt block; must not crash.
void Exercise(const Block& block, const Comparator* cmp, const std::vector<std::string>& keys) {
  std::unique_ptr<BlockIter> it(block.NewIterator(cmp));
  int steps = 0;
  for (it->SeekToFirst(); it->Valid() && steps < 1000; it->Next()) steps++;
  for (it->SeekToLast(); it->Valid() && steps < 2000; it->Prev()) steps++;
  for (const auto& k : keys) {
    BlockIter iter;
    block.InitIterator(cmp, &iter);
    iter.Seek(k);
    if (iter.Valid()) iter.Prev();
    iter.SeekForPrev(k);
    if (iter.Valid()) iter.Next();
    if (k.size() >= 8) (void)iter.SeekForGet(k, BytewiseComparator());
    (void)iter.key();
    (void)iter.value();
    iter.status().PermitUncheckedError();
  }
  it->status().PermitUncheckedError();
}

TEST(BlockTest, CorruptedAndTruncatedBlocksNeverCrash) {
  const uint64_t seed = test::RandomSeed();
  std::mt19937_64 rng(seed);
  InternalKeyComparator icmp(BytewiseComparator());
  for (bool hash : {false, true}) {
    BlockBuilder builder(4, true, hash);
    std::vector<std::string> keys;
    for (int i = 0; i < 30; i++) {
      keys.push_back(IKey("key" + std::to_string(100 + i * 3), 5));
      builder.Add(keys.back(), "value" + std::to_string(i));
    }
    const std::string good = builder.Finish().ToString();
    keys.push_back(IKey("a", 1));
    keys.push_back(IKey("zzzz", 1));
    // Truncation at every length: each copy is an exact-size heap buffer so
    // ASan catches any read past the end.
    for (size_t n = 0; n <= good.size(); n++) {
      Block block{std::string(good.data(), n)};
      Exercise(block, &icmp, keys);
    }
    // Every byte flipped to a few values.
    for (size_t i = 0; i < good.size(); i++) {
      for (int v : {0x00, 0xFF, 0x80, 0x7F, static_cast<int>(rng() & 0xFF)}) {
        std::string bad = good;
        bad[i] = static_cast<char>(v);
        Block block{std::move(bad)};
        Exercise(block, &icmp, keys);
      }
    }
  }
  // Malformed headers report Corruption.
  for (const std::string& bad :
       {std::string(), std::string(3, '\0'), std::string(4, '\0'),
        std::string("\x00\x00\x00\x00\x05\x00\x00\x00", 8), std::string("\x00\x00\x00\x80", 4)}) {
    Block block(bad);
    ASSERT_FALSE(block.ok());
    std::unique_ptr<BlockIter> it(block.NewIterator(&icmp));
    it->SeekToFirst();
    ASSERT_FALSE(it->Valid());
    ASSERT_TRUE(it->status().IsCorruption());
  }
  // A bad entry: non_shared runs past the restart array.
  const std::string bad_entry(
      "\x00\x40\x00"
      "abc"
      "\x00\x00\x00\x00\x01\x00\x00\x00",
      14);
  Block block(bad_entry);
  ASSERT_TRUE(block.ok());
  std::unique_ptr<BlockIter> it(block.NewIterator(BytewiseComparator()));
  it->SeekToFirst();
  ASSERT_FALSE(it->Valid());
  ASSERT_TRUE(it->status().IsCorruption());
}

// The block cache is charged a block's memory: its buffer's capacity (a
// recycled buffer may be up to 1.5x the block), not only its size.
TEST(BlockTest, MemoryUsageCountsTheBufferCapacity) {
  BlockBuilder builder(16);
  std::string ikey;
  AppendInternalKey(&ikey, "key", 1, kTypeValue);
  builder.Add(ikey, std::string(900, 'v'));
  const Slice raw = builder.Finish();
  BlockBuffer buf;
  buf.Allocate(raw.size());
  memcpy(buf.data(), raw.data(), raw.size());
  const size_t capacity = buf.capacity();
  ASSERT_GE(capacity, raw.size());
  Block block(std::move(buf));
  ASSERT_TRUE(block.ok());
  EXPECT_EQ(block.ApproximateMemoryUsage(), sizeof(Block) + capacity);
  EXPECT_GE(block.ApproximateMemoryUsage(), sizeof(Block) + block.size());
  // A borrowed block holds no buffer.
  Block borrowed{Slice(raw)};
  EXPECT_EQ(borrowed.ApproximateMemoryUsage(), sizeof(Block));
}

}  // namespace
}  // namespace strata
