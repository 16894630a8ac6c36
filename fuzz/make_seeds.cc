// make_seeds: writes the seed corpora of the fuzz targets (fuzz/corpus/
// <target>/<name>) from real encodings made by Strata's own writers:
// varints, WriteBatches, WAL files, blocks, whole SSTs and VersionEdits,
// plus hand-made db_ops programs. Deterministic: the same binary writes the
// same bytes.
//   make_seeds <corpus-dir>
// Thread-safety: a program, single-threaded.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "base/dbformat.h"
#include "db/log_writer.h"
#include "db/version_edit.h"
#include "db/write_batch_internal.h"
#include "fuzz/fuzz_files.h"
#include "strata/env.h"
#include "strata/filter_policy.h"
#include "strata/options.h"
#include "strata/table.h"
#include "strata/write_batch.h"
#include "table/block_based_table_builder.h"
#include "table/block_builder.h"
#include "table/format.h"
#include "util/coding.h"

namespace strata {
namespace {

std::filesystem::path g_root;
size_t g_total = 0;

void Write(const std::string& target, const std::string& name, const std::string& bytes) {
  const std::filesystem::path dir = g_root / target;
  std::filesystem::create_directories(dir);
  std::ofstream out(dir / name, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) {
    fprintf(stderr, "cannot write %s\n", (dir / name).c_str());
    exit(1);
  }
  g_total += bytes.size();
  printf("%-14s %-28s %6zu bytes\n", target.c_str(), name.c_str(), bytes.size());
}

void Check(const Status& s) {
  if (!s.ok()) {
    fprintf(stderr, "make_seeds: %s\n", s.ToString().c_str());
    exit(1);
  }
}

std::string IKey(const std::string& user, SequenceNumber seq, ValueType t) {
  std::string k;
  AppendInternalKey(&k, user, seq, t);
  return k;
}

void Varints() {
  std::string s;
  for (uint64_t v : {0ull, 1ull, 127ull, 128ull, 300ull, 16383ull, 16384ull, 0xffffffffull,
                     0x100000000ull, ~0ull}) {
    PutVarint64(&s, v);
  }
  Write("varint", "varint64_mix", s);
  s.clear();
  for (uint32_t v : {0u, 5u, 200u, 70000u, 0xffffffffu}) PutVarint32(&s, v);
  Write("varint", "varint32_mix", s);
  s.clear();
  PutLengthPrefixedSlice(&s, "hello");
  PutLengthPrefixedSlice(&s, "");
  PutLengthPrefixedSlice(&s, std::string(130, 'x'));
  Write("varint", "length_prefixed", s);
  s.clear();
  PutFixed64(&s, 0x0123456789abcdefull);
  PutFixed32(&s, 0xdeadbeef);
  PutVarint32Varint32(&s, 1000, 7);
  Write("varint", "fixed_and_pair", s);
}

WriteBatch MixedBatch() {
  WriteBatch b;
  Check(b.Put("apple", "red"));
  Check(b.Put("banana", std::string(40, 'y')));
  Check(b.Delete("cherry"));
  Check(b.SingleDelete("date"));
  Check(b.DeleteRange("e", "g"));
  Check(b.Merge("fig", "+1"));
  Check(b.PutLogData("blob"));
  WriteBatchInternal::SetSequence(&b, 100);
  return b;
}

void Batches() {
  WriteBatch b = MixedBatch();
  Write("write_batch", "mixed", WriteBatchInternal::Contents(&b).ToString());
  WriteBatch puts;
  for (int i = 0; i < 20; ++i) Check(puts.Put("key" + std::to_string(i), std::to_string(i * i)));
  WriteBatchInternal::SetSequence(&puts, 1);
  Write("write_batch", "puts", WriteBatchInternal::Contents(&puts).ToString());
  WriteBatch cf;
  Check(WriteBatchInternal::Put(&cf, 0, "a", "1"));
  Check(WriteBatchInternal::Put(&cf, 3, "b", "2"));
  Check(WriteBatchInternal::Delete(&cf, 3, "c"));
  Check(WriteBatchInternal::DeleteRange(&cf, 2, "d", "e"));
  Check(WriteBatchInternal::Merge(&cf, 5, "f", "g"));
  Check(WriteBatchInternal::SingleDelete(&cf, 7, "h"));
  Write("write_batch", "column_families", WriteBatchInternal::Contents(&cf).ToString());
  WriteBatch empty;
  Write("write_batch", "empty", WriteBatchInternal::Contents(&empty).ToString());
}

std::string LogFile(const std::vector<std::string>& records, bool recycle, uint64_t number) {
  std::string file;
  log::Writer w(std::make_unique<fuzz::StringWritableFile>(&file), number, recycle);
  for (const std::string& r : records) Check(w.AddRecord(r));
  Check(w.Close());
  return file;
}

void Logs() {
  WriteBatch b = MixedBatch();
  const std::string batch = WriteBatchInternal::Contents(&b).ToString();
  Write("log_reader", "wal_batches", LogFile({batch, batch, "", "tail"}, false, 7));
  Write("log_reader", "wal_recyclable", LogFile({batch, "second record", batch}, true, 7));
  // A record that needs First/Middle/Last fragments is too big for a seed;
  // the target's own round trip writes those. A short file ending mid-record:
  std::string torn = LogFile({batch, std::string(300, 'z')}, false, 7);
  torn.resize(torn.size() - 100);
  Write("log_reader", "wal_torn_tail", torn);
  VersionEdit e;
  e.SetComparatorName("leveldb.BytewiseComparator");
  e.SetLogNumber(5);
  e.SetNextFile(9);
  e.SetLastSequence(77);
  std::string edit;
  e.EncodeTo(&edit);
  Write("log_reader", "manifest", LogFile({edit, edit}, false, 1));
}

void Blocks() {
  {
    BlockBuilder bb(4, true, false);
    for (int i = 0; i < 30; ++i) {
      bb.Add(IKey("key" + std::to_string(100 + i), 1000 - i, kTypeValue), "v" + std::to_string(i));
    }
    Write("block", "data_restart4", bb.Finish().ToString());
  }
  {
    BlockBuilder bb(2, true, true);
    for (int i = 0; i < 20; ++i) {
      bb.Add(IKey("user" + std::to_string(i / 2), 500 - i, i % 3 ? kTypeValue : kTypeDeletion),
             std::string(i % 7, 'q'));
    }
    Write("block", "data_hash_index", bb.Finish().ToString());
  }
  {
    BlockBuilder bb(1, true, false);
    uint64_t offset = 0;
    for (int i = 0; i < 12; ++i) {
      const uint64_t size = 200 + i * 13;
      std::string full;
      BlockHandle(offset, size).EncodeTo(&full);
      std::string delta;
      PutVarint64(&delta, size);  // the size alone, as delta-encoded entries hold
      bb.AddIndexEntry("sep" + std::to_string(10 + i), full, i == 0 ? full : delta);
      offset += size + kBlockTrailerSize;
    }
    Write("block", "index_delta", bb.Finish().ToString());
  }
  {
    BlockBuilder bb(16, false, false);
    for (int i = 0; i < 10; ++i) bb.Add("k" + std::to_string(i), "no delta encoding");
    Write("block", "bytewise_no_delta", bb.Finish().ToString());
  }
  // Built by the target itself from raw bytes (first two bytes = options).
  Write("block", "builder_program",
        std::string("\x03\x01") + "alpha\xc1" + "beta\xc3" + "gamma\xd0");
}

std::string Table(const BlockBasedTableOptions& topts, CompressionType compression, int n,
                  bool tombstone) {
  std::string file;
  fuzz::StringWritableFile wf(&file);
  TableBuilderOptions bo;
  bo.table_options = topts;
  bo.compression = compression;
  BlockBasedTableBuilder builder(bo, &wf);
  for (int i = 0; i < n; ++i) {
    const std::string user = "key" + std::to_string(1000 + i * 3);
    builder.Add(
        IKey(user, 500 - i, i % 7 == 3 ? kTypeDeletion : kTypeValue),
        i % 7 == 3 ? std::string() : std::string(8 + i % 11, static_cast<char>('a' + i % 26)));
  }
  if (tombstone) builder.AddRangeTombstone("key1010", 600, "key1030");
  Check(builder.Finish());
  return file;
}

void Tables() {
  // The first byte is the target's flag byte (see table_reader_fuzzer.cc).
  BlockBasedTableOptions plain;
  plain.block_size = 256;
  plain.checksum = kNoChecksum;
  Write("table_reader", "nochecksum",
        std::string(1, '\x00') + Table(plain, kNoCompression, 40, false));
  BlockBasedTableOptions full = plain;
  full.checksum = kCRC32c;
  full.filter_policy = NewBloomFilterPolicy(10);
  full.data_block_index_type = BlockBasedTableOptions::DataBlockIndexType::kDataBlockBinaryAndHash;
  Write("table_reader", "crc_filter_hash_fix",
        std::string(1, '\x0c') + Table(full, kNoCompression, 40, true));
  BlockBasedTableOptions xx = plain;
  xx.checksum = kXXH3;
  xx.index_block_restart_interval = 4;
  Write("table_reader", "xxh3_snappy_fix",
        std::string(1, '\x08') + Table(xx, kSnappyCompression, 60, true));
  Write("table_reader", "nochecksum_lz4_mapped",
        std::string(1, '\x16') + Table(plain, kLZ4Compression, 30, true));
  Write("table_reader", "nochecksum_zstd_memfs",
        std::string(1, '\x21') + Table(plain, kZSTD, 30, false));
}

void Edits() {
  VersionEdit e;
  e.SetComparatorName("leveldb.BytewiseComparator");
  e.SetLogNumber(12);
  e.SetPrevLogNumber(0);
  e.SetNextFile(40);
  e.SetLastSequence(123456);
  e.SetMinLogNumberToKeep(11);
  e.SetMaxColumnFamily(2);
  e.SetDBId("00000000-1111-2222-3333-444444444444");
  FileMetaData f;
  f.number = 17;
  f.file_size = 4096;
  f.smallest = IKey("aaa", 10, kTypeValue);
  f.largest = IKey("zzz", 99, kTypeDeletion);
  f.smallest_seqno = 10;
  f.largest_seqno = 99;
  f.oldest_ancester_time = 1700000000;
  f.file_creation_time = 1700000001;
  f.file_checksum = "abcd";
  f.file_checksum_func_name = "crc32c";
  f.unique_id = std::string(16, '\x42');
  e.AddFile(1, f);
  f.number = 18;
  f.marked_for_compaction = true;
  f.temperature = 2;
  e.AddFile(0, f);
  e.DeleteFile(2, 5);
  std::string s;
  e.EncodeTo(&s);
  Write("version_edit", "full", s);
  VersionEdit cf;
  cf.SetColumnFamily(3);
  cf.AddColumnFamily("logs");
  s.clear();
  cf.EncodeTo(&s);
  Write("version_edit", "add_column_family", s);
  VersionEdit drop;
  drop.SetColumnFamily(3);
  drop.DropColumnFamily();
  s.clear();
  drop.EncodeTo(&s);
  Write("version_edit", "drop_column_family", s);
}

void DbOps() {
  // Opcodes (op % 16): 0-2 Put k v, 3 Delete k, 4 DeleteRange k k, 5 batch,
  // 6-7 Get k, 8 scan, 9 Seek k n, 10 Flush, 11 CompactRange b [k],
  // 12 reopen, 13 snapshot, 14 read at snapshot i b, 15 release i.
  std::string p;
  p += '\x00';  // options
  for (int i = 0; i < 24; ++i) p += {'\x00', static_cast<char>(i), static_cast<char>(i * 5)};
  p += {'\x06', '\x03', '\x03', '\x04', '\x08', '\x04', '\x02', '\x0a'};
  p += {'\x0d', '\x01', '\x05', '\x00', '\x09', '\x02', '\x06', '\x04', '\x0e', '\x00', '\x01'};
  p += {'\x0b', '\x01', '\x08', '\x0c', '\x08', '\x0f', '\x00'};
  Write("db_ops", "put_delete_flush_compact", p);
  std::string q;
  q += '\x01';  // 4 KiB write buffer
  for (int i = 0; i < 40; ++i) q += {'\x01', static_cast<char>(i % 13), static_cast<char>(0x90)};
  q += {'\x05', '\x04', '\x02', '\x01', '\x11', '\x00', '\x02',
        '\x01', '\x05', '\x06', '\x02', '\x07', '\x00'};
  q += {'\x08', '\x0c', '\x09', '\x85', '\x04', '\x0b', '\x06', '\x20', '\x08'};
  Write("db_ops", "big_values_batches_reopen", q);
  std::string r;
  r += '\x04';  // no auto compactions
  for (int round = 0; round < 4; ++round) {
    for (int i = 0; i < 8; ++i) r += {'\x02', static_cast<char>(i + round), '\x03'};
    r += {'\x0d', '\x0a'};
  }
  r += {'\x04', '\x01', '\x06', '\x0e', '\x01', '\x01',
        '\x0e', '\x02', '\x04', '\x0b', '\x01', '\x08'};
  Write("db_ops", "snapshots_overwrites", r);
}

}  // namespace
}  // namespace strata

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s <corpus-dir>\n", argv[0]);
    return 2;
  }
  strata::g_root = argv[1];
  strata::Varints();
  strata::Batches();
  strata::Logs();
  strata::Blocks();
  strata::Tables();
  strata::Edits();
  strata::DbOps();
  printf("total %zu bytes\n", strata::g_total);
  return 0;
}
