// Fuzz target: whole SST files through table/block_based_table_reader.h.
//
// Input: one flag byte, then the file's bytes.
//   bit 0  read with ReadOptions::verify_checksums = false
//   bit 1  a block cache (blocks are then shared between reads)
//   bit 2  a Bloom filter policy (the filter block is then consulted)
//   bit 3  recompute every block trailer's checksum before opening, found
//          through the footer, metaindex and index: mutations inside blocks
//          then reach the block parsers instead of stopping at a checksum
//   bit 4  the file is "mapped" (mapped_contents(): the zero-copy path)
//   bit 5  read through a MemFileSystem file instead of the adaptor
// Open may fail with a Status; an opened table is scanned both ways, sought,
// read with Get / MultiGet for keys it returned and keys from the input, its
// range tombstones listed, and its checksums verified. No crash, no hang,
// no read outside the file's bytes.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "base/dbformat.h"
#include "base/get_context.h"
#include "fuzz/fuzz_check.h"
#include "fuzz/fuzz_files.h"
#include "strata/cache.h"
#include "strata/env.h"
#include "strata/filter_policy.h"
#include "table/block.h"
#include "table/block_based_table_reader.h"
#include "table/format.h"
#include "util/coding.h"

namespace strata {
namespace {

// Whether block h and its trailer lie inside a file of `size` bytes (no sum
// that can wrap: handles come from fuzzed bytes).
bool Fits(const BlockHandle& h, size_t size) {
  return h.offset() <= size && h.size() <= size - h.offset() &&
         size - h.offset() - h.size() >= kBlockTrailerSize;
}

void FixTrailer(std::string* file, ChecksumType type, const BlockHandle& h) {
  if (!Fits(h, file->size())) return;
  char* p = file->data() + h.offset();
  const size_t n = static_cast<size_t>(h.size());
  EncodeFixed32(p + n + 1, ComputeBlockChecksum(type, p, n, p[n]));
}

// Handles stored as the values of a block (metaindex: plain handles; index:
// plain or delta-encoded, so both readings are tried).
void CollectHandles(const std::string& file, const BlockHandle& h, bool index,
                    std::vector<BlockHandle>* out) {
  if (!Fits(h, file.size())) return;
  if (static_cast<unsigned char>(file[h.offset() + h.size()]) != 0) return;  // compressed
  const Block block(Slice(file.data() + h.offset(), static_cast<size_t>(h.size())));
  if (!block.ok()) return;
  if (index) {
    for (const bool delta : {false, true}) {
      BlockIter it;
      block.InitIndexIterator(BytewiseComparator(), delta, &it);
      size_t n = 0;
      for (it.SeekToFirst(); it.Valid() && n < 4096; it.Next(), ++n) out->push_back(it.handle());
    }
  } else {
    std::unique_ptr<BlockIter> it(block.NewIterator(BytewiseComparator()));
    size_t n = 0;
    for (it->SeekToFirst(); it->Valid() && n < 4096; it->Next(), ++n) {
      Slice v = it->value();
      BlockHandle bh;
      if (bh.DecodeFrom(&v).ok()) out->push_back(bh);
    }
  }
}

void FixChecksums(std::string* file) {
  if (file->size() < Footer::kNewFooterLength) return;
  Footer footer;
  if (!footer
           .DecodeFrom(Slice(file->data() + file->size() - Footer::kNewFooterLength,
                             Footer::kNewFooterLength))
           .ok()) {
    return;
  }
  const ChecksumType type = footer.checksum_type();
  if (type == kNoChecksum) return;
  std::vector<BlockHandle> handles;
  CollectHandles(*file, footer.metaindex_handle(), false, &handles);
  CollectHandles(*file, footer.index_handle(), true, &handles);
  for (const BlockHandle& h : handles) FixTrailer(file, type, h);
  FixTrailer(file, type, footer.index_handle());
  FixTrailer(file, type, footer.metaindex_handle());
}

std::string IKey(const Slice& user, SequenceNumber seq, ValueType t) {
  std::string k;
  AppendInternalKey(&k, user, seq, t);
  return k;
}

std::shared_ptr<FileSystem>& MemFs() {
  static auto* fs = new std::shared_ptr<FileSystem>(NewMemFileSystem());
  return *fs;
}

}  // namespace
}  // namespace strata

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace strata;
  if (size == 0) return 0;
  const uint8_t flags = data[0];
  std::string file(reinterpret_cast<const char*>(data + 1), size - 1);
  if (flags & 8) FixChecksums(&file);

  TableReaderOptions topts;
  topts.file_name = "fuzz.sst";
  if (flags & 2) topts.table_options.block_cache = NewLRUCache(64 << 10);
  if (flags & 4) topts.table_options.filter_policy = NewBloomFilterPolicy(10);
  std::unique_ptr<RandomAccessFile> rfile;
  if (flags & 32) {
    FileSystem* fs = MemFs().get();
    FUZZ_CHECK(WriteStringToFile(fs, file, "/fuzz.sst", false).ok());
    FUZZ_CHECK(fs->NewRandomAccessFile("/fuzz.sst", FileOptions(), &rfile).ok());
  } else {
    rfile = std::make_unique<fuzz::StringRandomAccessFile>(file, (flags & 16) != 0);
  }
  std::unique_ptr<BlockBasedTable> table;
  Status s = BlockBasedTable::Open(topts, std::move(rfile), file.size(), &table);
  if (!s.ok()) return 0;

  // (fuzz/regressions/table_reader/: keys shorter than 8 bytes once made
  // InternalKeyComparator read past the block.)
  ReadOptions ro;
  ro.verify_checksums = (flags & 1) == 0;
  const size_t limit = file.size() + 16;  // entries take bytes
  std::vector<std::string> user_keys;
  {
    std::unique_ptr<InternalIterator> it(table->NewIterator(ro));
    size_t n = 0;
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      FUZZ_CHECK(++n <= limit);
      const Slice k = it->key();
      (void)it->value().ToString();
      if (k.size() >= 8 && user_keys.size() < 64) user_keys.push_back(ExtractUserKey(k).ToString());
    }
    it->status().PermitUncheckedError();
    n = 0;
    for (it->SeekToLast(); it->Valid(); it->Prev()) {
      FUZZ_CHECK(++n <= limit);
      (void)it->key().ToString();
    }
    it->status().PermitUncheckedError();
    // Probe keys from the input too (absent keys, odd sizes).
    for (size_t i = 1; i + 1 < size && user_keys.size() < 80; i += 1 + size / 8) {
      user_keys.push_back(std::string(reinterpret_cast<const char*>(data + i),
                                      std::min<size_t>(1 + data[i] % 12, size - i)));
    }
    user_keys.push_back(std::string());
    for (const std::string& u : user_keys) {
      const std::string target = IKey(u, kMaxSequenceNumber, kValueTypeForSeek);
      it->Seek(target);
      if (it->Valid()) (void)it->key().ToString();
      it->SeekForPrev(target);
      if (it->Valid()) {
        (void)it->value().ToString();
        it->Next();
      }
      it->status().PermitUncheckedError();
    }
  }
  std::vector<std::string> values(user_keys.size());
  for (size_t i = 0; i < user_keys.size(); ++i) {
    GetContext ctx(BytewiseComparator(), user_keys[i], &values[i]);
    table->Get(ro, IKey(user_keys[i], kMaxSequenceNumber, kValueTypeForSeek), &ctx)
        .PermitUncheckedError();
    (void)table->KeyMayMatch(user_keys[i]);
    (void)table->ApproximateOffsetOf(IKey(user_keys[i], kMaxSequenceNumber, kValueTypeForSeek));
  }
  {
    const size_t n = std::min<size_t>(user_keys.size(), 16);
    std::vector<std::string> ikeys;
    std::vector<Slice> keys;
    std::vector<std::string> vals(n);
    std::vector<std::unique_ptr<GetContext>> ctxs;
    std::vector<GetContext*> ctx_ptrs;
    for (size_t i = 0; i < n; ++i) ikeys.push_back(IKey(user_keys[i], 1000, kValueTypeForSeek));
    std::sort(ikeys.begin(), ikeys.end(), [](const std::string& a, const std::string& b) {
      return InternalKeyComparator(BytewiseComparator()).Compare(a, b) < 0;
    });
    for (size_t i = 0; i < n; ++i) {
      keys.emplace_back(ikeys[i]);
      ctxs.push_back(
          std::make_unique<GetContext>(BytewiseComparator(), ExtractUserKey(ikeys[i]), &vals[i]));
      ctx_ptrs.push_back(ctxs.back().get());
    }
    std::vector<Status> statuses(n);
    if (n > 0) table->MultiGet(ro, n, keys.data(), ctx_ptrs.data(), statuses.data());
    for (Status& st : statuses) st.PermitUncheckedError();
  }
  {
    std::unique_ptr<InternalIterator> rd(table->NewRangeTombstoneIterator(ro));
    if (rd != nullptr) {
      size_t n = 0;
      for (rd->SeekToFirst(); rd->Valid(); rd->Next()) {
        FUZZ_CHECK(++n <= limit);
        (void)rd->key().ToString();
        (void)rd->value().ToString();
      }
      rd->status().PermitUncheckedError();
    }
  }
  {
    std::unique_ptr<InternalIterator> idx(table->NewIndexIterator());
    size_t n = 0;
    for (idx->SeekToFirst(); idx->Valid(); idx->Next()) {
      FUZZ_CHECK(++n <= limit);
      (void)idx->key().ToString();
    }
    idx->status().PermitUncheckedError();
  }
  (void)table->GetTableProperties();
  (void)table->ApproximateMemoryUsage();
  table->VerifyChecksum().PermitUncheckedError();
  return 0;
}
