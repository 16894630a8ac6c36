// Fuzz target: table/block.h. Two halves:
//  1. The input as a block's contents -- as given and with the hash-index
//     flag (bit 31 of the footer word) toggled -- iterated forward and
//     backward as a data block and as an index block (plain and
//     delta-encoded values), with Seek / SeekForPrev / SeekForGet to keys
//     taken from the input. The block must never read outside its bytes,
//     crash or loop; a bad entry ends iteration with Corruption.
//  2. Entries derived from the input built into a real block by
//     BlockBuilder (with and without the hash index): iteration in both
//     directions and every seek must give back exactly what was added.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/dbformat.h"
#include "fuzz/fuzz_check.h"
#include "strata/comparator.h"
#include "table/block.h"
#include "table/block_builder.h"
#include "util/coding.h"

namespace strata {
namespace {

// Orders internal keys, and keys too short to be internal keys bytewise
// before them: garbage blocks may hold any key, and the comparator must not
// be the thing that breaks.
class TolerantInternalComparator final : public Comparator {
 public:
  int Compare(const Slice& a, const Slice& b) const override {
    if (a.size() < 8 || b.size() < 8) {
      if (a.size() >= 8) return 1;
      if (b.size() >= 8) return -1;
      return a.compare(b);
    }
    return icmp_.Compare(a, b);
  }
  const char* Name() const override { return "fuzz.TolerantInternalComparator"; }
  void FindShortestSeparator(std::string*, const Slice&) const override {}
  void FindShortSuccessor(std::string*) const override {}

 private:
  InternalKeyComparator icmp_{BytewiseComparator()};
};

// Walks the iterator both ways and seeks to each target; bounded.
void Exercise(BlockIter* it, size_t block_size, const std::vector<std::string>& targets,
              bool internal_keys) {
  const size_t limit = block_size + 2;  // every entry takes at least one byte
  size_t n = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    FUZZ_CHECK(++n <= limit);
    (void)it->key().ToString();
    (void)it->value().ToString();
  }
  n = 0;
  for (it->SeekToLast(); it->Valid(); it->Prev()) {
    FUZZ_CHECK(++n <= limit);
    (void)it->key().ToString();
    (void)it->value().ToString();
  }
  for (const std::string& t : targets) {
    it->Seek(t);
    if (it->Valid()) {
      (void)it->key().ToString();
      it->Next();
      if (it->Valid()) it->Prev();
    }
    it->SeekForPrev(t);
    if (it->Valid()) {
      (void)it->value().ToString();
      it->Prev();
    }
    if (internal_keys && t.size() >= 8) {
      it->SeekForGet(t, BytewiseComparator());
      if (it->Valid()) (void)it->key().ToString();
    }
  }
  it->status().PermitUncheckedError();
}

void FuzzRawBlock(const std::string& contents, const std::vector<std::string>& targets) {
  static const TolerantInternalComparator icmp;
  // Exact-size heap copy: ASan then catches any read past the end.
  std::unique_ptr<char[]> buf(new char[contents.size()]);
  if (!contents.empty()) memcpy(buf.get(), contents.data(), contents.size());
  const Block block(Slice(buf.get(), contents.size()));
  if (!block.ok()) {
    std::unique_ptr<BlockIter> it(block.NewIterator(BytewiseComparator()));
    it->SeekToFirst();
    FUZZ_CHECK(!it->Valid());
    FUZZ_CHECK(!it->status().ok());
    return;
  }
  {
    std::unique_ptr<BlockIter> it(block.NewIterator(BytewiseComparator()));
    Exercise(it.get(), contents.size(), targets, false);
  }
  {
    std::unique_ptr<BlockIter> it(block.NewIterator(&icmp));
    Exercise(it.get(), contents.size(), targets, true);
  }
  for (const bool delta : {false, true}) {
    BlockIter it;
    block.InitIndexIterator(&icmp, delta, &it);
    Exercise(&it, contents.size(), targets, false);
    for (it.SeekToFirst(); it.Valid(); it.Next()) (void)it.handle().size();
  }
}

std::string IKey(const std::string& user, SequenceNumber seq, ValueType t) {
  std::string k;
  AppendInternalKey(&k, user, seq, t);
  return k;
}

void FuzzBuiltBlock(const uint8_t* data, size_t size) {
  if (size < 2) return;
  const int restart_interval = 1 + data[0] % 16;
  const bool hash = (data[1] & 1) != 0;
  const bool delta = (data[1] & 2) != 0;
  // Entries: user keys are input pieces cut at bytes with the top bits set.
  std::map<std::string, std::string, std::function<bool(const std::string&, const std::string&)>>
      entries([](const std::string& a, const std::string& b) {
        return InternalKeyComparator(BytewiseComparator()).Compare(a, b) < 0;
      });
  std::string cur;
  SequenceNumber seq = 1;
  for (size_t i = 2; i < size; ++i) {
    if ((data[i] & 0xc0) == 0xc0) {
      entries[IKey(cur, seq, (data[i] & 1) ? kTypeValue : kTypeDeletion)] =
          std::string(data[i] & 0x3f, static_cast<char>(seq));
      seq = (seq * 7 + data[i]) % 1000;
      if (data[i] & 2) cur.clear();
    } else {
      cur.push_back(static_cast<char>(data[i]));
    }
  }
  BlockBuilder builder(restart_interval, delta, hash);
  std::vector<std::pair<std::string, std::string>> added(entries.begin(), entries.end());
  for (const auto& [k, v] : added) builder.Add(k, v);
  const std::string contents = builder.Finish().ToString();
  const InternalKeyComparator icmp(BytewiseComparator());
  const Block block(contents);
  FUZZ_CHECK(block.ok());
  std::unique_ptr<BlockIter> it(block.NewIterator(&icmp));
  size_t i = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next(), ++i) {
    FUZZ_CHECK(i < added.size());
    FUZZ_CHECK(it->key() == Slice(added[i].first) && it->value() == Slice(added[i].second));
  }
  FUZZ_CHECK(it->status().ok() && i == added.size());
  for (it->SeekToLast(); it->Valid(); it->Prev()) {
    FUZZ_CHECK(i > 0);
    --i;
    FUZZ_CHECK(it->key() == Slice(added[i].first) && it->value() == Slice(added[i].second));
  }
  FUZZ_CHECK(it->status().ok() && i == 0);
  for (size_t j = 0; j < added.size(); ++j) {
    const std::string& k = added[j].first;
    it->Seek(k);
    FUZZ_CHECK(it->Valid() && it->key() == Slice(k));
    it->SeekForPrev(k);
    FUZZ_CHECK(it->Valid() && it->key() == Slice(k));
    // A lookup at a newer sequence lands on the newest version of the key.
    const Slice user = ExtractUserKey(k);
    const std::string probe = IKey(user.ToString(), kMaxSequenceNumber, kValueTypeForSeek);
    const bool maybe = it->SeekForGet(probe, BytewiseComparator());
    FUZZ_CHECK(maybe && it->Valid() && ExtractUserKey(it->key()) == user);
    size_t first = j;
    while (first > 0 && ExtractUserKey(added[first - 1].first) == user) --first;
    FUZZ_CHECK(it->key() == Slice(added[first].first));
  }
  // Absent user keys: the hash index may say so; Seek lands at the successor.
  for (size_t j = 0; j < added.size(); ++j) {
    const std::string absent = ExtractUserKey(added[j].first).ToString() + '\x01';
    const std::string probe = IKey(absent, kMaxSequenceNumber, kValueTypeForSeek);
    it->Seek(probe);
    auto lb = std::lower_bound(
        added.begin(), added.end(), probe,
        [&](const auto& e, const std::string& t) { return icmp.Compare(e.first, t) < 0; });
    if (lb == added.end()) {
      FUZZ_CHECK(!it->Valid());
    } else {
      FUZZ_CHECK(it->Valid() && it->key() == Slice(lb->first));
    }
    if (it->SeekForGet(probe, BytewiseComparator()) && it->Valid()) {
      FUZZ_CHECK(icmp.Compare(it->key(), probe) >= 0);
    }
  }
  FUZZ_CHECK(it->status().ok());
}

}  // namespace
}  // namespace strata

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace strata;
  const std::string input(reinterpret_cast<const char*>(data), size);
  // Seek targets: pieces of the input, the empty key, internal-key shaped.
  std::vector<std::string> targets = {std::string(), std::string(8, '\0'), std::string(9, '\xff')};
  for (size_t i = 0; i + 1 < size && targets.size() < 12; i += 1 + size / 8) {
    targets.push_back(input.substr(i, 1 + data[i] % 24));
  }
  FuzzRawBlock(input, targets);
  if (size >= 4) {
    std::string toggled = input;
    toggled[size - 1] = static_cast<char>(toggled[size - 1] ^ 0x80);
    FuzzRawBlock(toggled, targets);
  }
  FuzzBuiltBlock(data, size);
  return 0;
}
