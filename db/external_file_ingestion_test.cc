// Tests of DB::IngestExternalFile(s) and DB::CreateColumnFamilyWithImport
// through the public API: level placement (rocksdb.num-files-at-level<N>),
// global sequence numbers (in the MANIFEST and written into the file),
// memtable flushes, snapshots, every refusal leaving the directory
// byte-for-byte unchanged, move_files links, ingest_behind, atomic
// multi-family ingestion, files written by RocksDB's ldb (when installed),
// and a randomized run against a std::map model across reopens.

#include <sys/stat.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "db/db_impl.h"
#include "db/log_writer.h"
#include "db/version_edit.h"
#include "strata/db.h"
#include "strata/iterator.h"
#include "strata/listener.h"
#include "strata/options.h"
#include "strata/snapshot.h"
#include "strata/sst_file_writer.h"
#include "strata/status.h"
#include "strata/table_properties.h"
#include "table/block_based_table_builder.h"
#include "table/block_based_table_reader.h"
#include "test_util/db_test_base.h"
#include "test_util/testutil.h"
#include "util/coding.h"

namespace strata {
namespace {

using Model = std::map<std::string, std::string>;

std::string Key(int i) {
  char buf[16];
  snprintf(buf, sizeof(buf), "key%05d", i);
  return buf;
}

class ExternalFileIngestionTest : public DBTestBase {
 protected:
  ExternalFileIngestionTest()
      : DBTestBase("external_file_ingestion_test"), files_dir_("ingest_src") {
    options_ = Options();
    options_.create_if_missing = true;
  }

  // Writes a table of puts (and range deletions [b, e)) with SstFileWriter.
  std::string WriteFile(const std::string& name, const Model& puts,
                        const std::vector<std::pair<std::string, std::string>>& ranges = {},
                        const Options* opts = nullptr) {
    const std::string path = files_dir_.path() + "/" + name;
    SstFileWriter w(opts != nullptr ? *opts : options_);
    EXPECT_OK(w.Open(path));
    for (const auto& [k, v] : puts) EXPECT_OK(w.Put(k, v));
    for (const auto& [b, e] : ranges) EXPECT_OK(w.DeleteRange(b, e));
    EXPECT_OK(w.Finish());
    return path;
  }

  int Level(int n) {
    return static_cast<int>(IntProperty("rocksdb.num-files-at-level" + std::to_string(n)));
  }

  // Every key of the DB (at snapshot s) against the model.
  void CheckModel(const Model& model, const Snapshot* s = nullptr) {
    ReadOptions ro;
    ro.snapshot = s;
    std::unique_ptr<Iterator> it = db_->NewIterator(ro);
    auto m = model.begin();
    for (it->SeekToFirst(); it->Valid(); it->Next(), ++m) {
      ASSERT_NE(m, model.end()) << "extra key " << it->key().ToString();
      ASSERT_EQ(m->first, it->key().ToString());
      ASSERT_EQ(m->second, it->value().ToString()) << m->first;
    }
    ASSERT_OK(it->status());
    ASSERT_EQ(m, model.end()) << "missing key " << m->first;
    for (const auto& [k, v] : model) ASSERT_EQ(v, Get(k, s)) << k;
  }

  // The global seqno property of a table file (~0 if it has none).
  uint64_t FileGlobalSeqno(const std::string& path) {
    SstFileReader r(options_);
    EXPECT_OK(r.Open(path));
    auto props = r.GetTableProperties();
    if (props == nullptr) return ~uint64_t{0};
    auto it = props->user_collected_properties.find("rocksdb.external_sst_file.global_seqno");
    if (it == props->user_collected_properties.end()) return ~uint64_t{0};
    return DecodeFixed64(it->second.data());
  }

  // The ingested table file with the highest number in the DB directory.
  std::string NewestTable() {
    std::string best;
    for (const auto& [name, bytes] : test::DirectoryContents(dbname_)) {
      if (name.size() > 4 && name.substr(name.size() - 4) == ".sst" && name > best &&
          FileGlobalSeqno(dbname_ + "/" + name) != ~uint64_t{0}) {
        best = name;
      }
    }
    return dbname_ + "/" + best;
  }

  test::TempDir files_dir_;
};

// The table reader alone: a global seqno written into the file (or given
// by the MANIFEST) is every key's sequence number.
TEST_F(ExternalFileIngestionTest, ReaderAppliesGlobalSeqno) {
  const std::string path =
      WriteFile("g.sst", {{Key(1), "a"}, {Key(2), "b"}, {Key(3), "c"}}, {{Key(5), Key(7)}});
  auto open = [&](SequenceNumber largest, std::unique_ptr<BlockBasedTable>* t) {
    uint64_t size = 0;
    ASSERT_OK(FileSystem::Default()->GetFileSize(path, &size));
    std::unique_ptr<RandomAccessFile> file;
    ASSERT_OK(FileSystem::Default()->NewRandomAccessFile(path, FileOptions(), &file));
    TableReaderOptions tro;
    tro.table_options.no_block_cache = true;
    tro.file_name = path;
    tro.largest_seqno = largest;
    Status st = BlockBasedTable::Open(tro, std::move(file), size, t);
    ASSERT_OK(st);
  };
  std::unique_ptr<BlockBasedTable> t;
  open(kMaxSequenceNumber, &t);
  EXPECT_EQ(0u, t->global_seqno());
  const uint64_t offset = t->global_seqno_offset();
  ASSERT_NE(0u, offset);
  // The MANIFEST's number applies when the file holds 0.
  open(9, &t);
  EXPECT_EQ(9u, t->global_seqno());
  // Write 7 in place (as ingestion does): the checksum of the properties
  // block is left alone and the file still verifies.
  {
    std::unique_ptr<RandomRWFile> rw;
    ASSERT_OK(FileSystem::Default()->NewRandomRWFile(path, FileOptions(), &rw));
    std::string v;
    PutFixed64(&v, 7);
    ASSERT_OK(rw->Write(offset, v));
    ASSERT_OK(rw->Close());
  }
  open(kMaxSequenceNumber, &t);
  EXPECT_EQ(7u, t->global_seqno());
  ASSERT_OK(t->VerifyChecksum());
  {
    // A MANIFEST number that disagrees with the file's is Corruption.
    uint64_t size = 0;
    ASSERT_OK(FileSystem::Default()->GetFileSize(path, &size));
    std::unique_ptr<RandomAccessFile> file;
    ASSERT_OK(FileSystem::Default()->NewRandomAccessFile(path, FileOptions(), &file));
    TableReaderOptions tro;
    tro.file_name = path;
    tro.largest_seqno = 8;
    std::unique_ptr<BlockBasedTable> bad;
    Status st = BlockBasedTable::Open(tro, std::move(file), size, &bad);
    EXPECT_TRUE(st.IsCorruption()) << st.ToString();
  }
  // Iterators: every key at 7, in order, both directions.
  ReadOptions ro;
  std::unique_ptr<InternalIterator> it = t->NewIterator(ro);
  std::vector<std::string> keys;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    ParsedInternalKey p;
    ASSERT_OK(ParseInternalKey(it->key(), &p));
    EXPECT_EQ(7u, p.sequence);
    keys.push_back(p.user_key.ToString());
  }
  EXPECT_EQ((std::vector<std::string>{Key(1), Key(2), Key(3)}), keys);
  auto ikey = [](const std::string& k, SequenceNumber seq, ValueType type) {
    std::string r;
    AppendInternalKey(&r, k, seq, type);
    return r;
  };
  // Seek at a sequence below 7 passes the key; at or above lands on it.
  it->Seek(ikey(Key(2), 6, kValueTypeForSeek));
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(Key(3), ExtractUserKey(it->key()).ToString());
  it->Seek(ikey(Key(2), 7, kValueTypeForSeek));
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(Key(2), ExtractUserKey(it->key()).ToString());
  it->SeekForPrev(ikey(Key(2), 8, kValueTypeForSeek));
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(Key(1), ExtractUserKey(it->key()).ToString());
  it->SeekForPrev(ikey(Key(2), 0, kValueTypeForSeekForPrev));
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(Key(2), ExtractUserKey(it->key()).ToString());
  it->SeekToLast();
  it->Prev();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(Key(2), ExtractUserKey(it->key()).ToString());
  // Range tombstones carry 7 too.
  std::unique_ptr<InternalIterator> rd = t->NewRangeTombstoneIterator(ro);
  ASSERT_NE(nullptr, rd);
  rd->SeekToFirst();
  ASSERT_TRUE(rd->Valid());
  EXPECT_EQ(7u, ExtractInternalKeyFooter(rd->key()) >> 8);
  // Get: nothing below 7, the value from 7 on.
  std::string value;
  const std::string k2 = Key(2);  // the contexts keep a view of it
  GetContext below(BytewiseComparator(), k2, &value, nullptr, nullptr, 6);
  ASSERT_OK(t->Get(ro, ikey(Key(2), 6, kValueTypeForSeek), &below));
  EXPECT_EQ(GetContext::kNotFound, below.state());
  GetContext at(BytewiseComparator(), k2, &value, nullptr, nullptr, 7);
  ASSERT_OK(t->Get(ro, ikey(Key(2), 7, kValueTypeForSeek), &at));
  EXPECT_EQ(GetContext::kFound, at.state());
  EXPECT_EQ("b", value);
}

TEST_F(ExternalFileIngestionTest, IntoEmptyDbGoesToLastLevelWithoutSeqno) {
  Open();
  Model m;
  for (int i = 0; i < 100; i++) m[Key(i)] = "v" + std::to_string(i);
  const std::string f = WriteFile("a.sst", m);
  const SequenceNumber before = db_->GetLatestSequenceNumber();
  ASSERT_OK(db_->IngestExternalFile({f}, IngestExternalFileOptions()));
  EXPECT_EQ(1, Level(6));
  EXPECT_EQ(before, db_->GetLatestSequenceNumber());  // no sequence consumed
  CheckModel(m);
  EXPECT_EQ(0u, FileGlobalSeqno(NewestTable()));
  std::ifstream still(f);
  EXPECT_TRUE(still.good());  // copied, not moved
  Reopen();
  CheckModel(m);
}

TEST_F(ExternalFileIngestionTest, OverlapWithMemtableFlushesAndAssignsSeqno) {
  Open();
  ASSERT_OK(Put(Key(5), "old"));
  ASSERT_OK(Put(Key(500), "other"));
  const std::string f = WriteFile("a.sst", {{Key(5), "new"}, {Key(6), "six"}});
  ASSERT_OK(db_->IngestExternalFile({f}, IngestExternalFileOptions()));
  EXPECT_EQ(3u, db_->GetLatestSequenceNumber());
  EXPECT_EQ("new", Get(Key(5)));
  EXPECT_EQ("six", Get(Key(6)));
  EXPECT_EQ("other", Get(Key(500)));
  // The memtable was flushed to level 0; the file went above it.
  EXPECT_EQ(2, Level(0));
  EXPECT_EQ(3u, FileGlobalSeqno(NewestTable()));
  ASSERT_OK(Put(Key(5), "newest"));
  EXPECT_EQ("newest", Get(Key(5)));
  Reopen();
  EXPECT_EQ("newest", Get(Key(5)));
  EXPECT_EQ("six", Get(Key(6)));
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  EXPECT_EQ("newest", Get(Key(5)));
  EXPECT_EQ("six", Get(Key(6)));
  EXPECT_EQ("other", Get(Key(500)));
}

// format_version 6/7 files (issue 19): the global seqno written into the
// properties block leaves its context checksum valid to a reader that
// zeroes the value first, as for older versions.
TEST_F(ExternalFileIngestionTest, GlobalSeqnoInFormatVersion6And7Files) {
  for (uint32_t fv : {6u, 7u}) {
    BlockBasedTableOptions t;
    t.format_version = fv;
    options_.table_factory = NewBlockBasedTableFactory(t);
    DestroyAndReopen();
    ASSERT_OK(Put(Key(5), "old"));
    const std::string f =
        WriteFile("fv" + std::to_string(fv) + ".sst", {{Key(5), "new"}, {Key(6), "six"}});
    ASSERT_OK(db_->IngestExternalFile({f}, IngestExternalFileOptions()));
    EXPECT_EQ(2u, FileGlobalSeqno(NewestTable()));
    EXPECT_EQ("new", Get(Key(5)));
    Reopen();
    ASSERT_OK(db_->VerifyChecksum());
    EXPECT_EQ("new", Get(Key(5)));
    EXPECT_EQ("six", Get(Key(6)));
  }
}

TEST_F(ExternalFileIngestionTest, SeqnoOnlyInManifestWithoutWriteGlobalSeqno) {
  Open();
  ASSERT_OK(Put(Key(1), "old"));
  ASSERT_OK(Flush());
  const std::string f = WriteFile("a.sst", {{Key(1), "new"}});
  IngestExternalFileOptions o;
  o.write_global_seqno = false;
  ASSERT_OK(db_->IngestExternalFile({f}, o));
  EXPECT_EQ(0u, FileGlobalSeqno(NewestTable()));
  EXPECT_EQ("new", Get(Key(1)));
  Reopen();
  EXPECT_EQ("new", Get(Key(1)));
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  EXPECT_EQ("new", Get(Key(1)));
}

TEST_F(ExternalFileIngestionTest, SnapshotsDoNotSeeIngestedKeys) {
  Open();
  ASSERT_OK(Put(Key(900), "x"));
  const Snapshot* snap = db_->GetSnapshot();
  const std::string f = WriteFile("a.sst", {{Key(1), "a"}, {Key(2), "b"}});
  ASSERT_OK(db_->IngestExternalFile({f}, IngestExternalFileOptions()));
  EXPECT_EQ("NOT_FOUND", Get(Key(1), snap));
  CheckModel({{Key(900), "x"}}, snap);
  CheckModel({{Key(1), "a"}, {Key(2), "b"}, {Key(900), "x"}});
  db_->ReleaseSnapshot(snap);
  // Without snapshot consistency the same file gets no sequence number.
  const Snapshot* snap2 = db_->GetSnapshot();
  const std::string g = WriteFile("b.sst", {{Key(3), "c"}});
  IngestExternalFileOptions o;
  o.snapshot_consistency = false;
  ASSERT_OK(db_->IngestExternalFile({g}, o));
  EXPECT_EQ("c", Get(Key(3), snap2));
  db_->ReleaseSnapshot(snap2);
}

TEST_F(ExternalFileIngestionTest, RefusalsLeaveTheDirectoryUnchanged) {
  Open();
  ASSERT_OK(Put(Key(1), "mem"));
  ASSERT_OK(Put(Key(50), "x"));
  const std::string overlapping = WriteFile("o.sst", {{Key(1), "file"}});
  auto check_refused = [&](const std::vector<std::string>& files,
                           const IngestExternalFileOptions& o, const std::string& want) {
    const auto before = test::DirectoryContents(dbname_);
    const SequenceNumber seq = db_->GetLatestSequenceNumber();
    Status s = db_->IngestExternalFile(files, o);
    EXPECT_FALSE(s.ok());
    EXPECT_NE(std::string::npos, s.ToString().find(want)) << s.ToString();
    EXPECT_EQ(before, test::DirectoryContents(dbname_)) << s.ToString();
    EXPECT_EQ(seq, db_->GetLatestSequenceNumber());
    EXPECT_EQ("mem", Get(Key(1)));
  };
  IngestExternalFileOptions no_flush;
  no_flush.allow_blocking_flush = false;
  check_refused({overlapping}, no_flush, "External file requires flush");

  ASSERT_OK(Flush());
  IngestExternalFileOptions no_seqno;
  no_seqno.allow_global_seqno = false;
  check_refused({overlapping}, no_seqno, "Global seqno is required, but disabled");

  // A comparator the DB does not use.
  Options rev = options_;
  rev.comparator = ReverseBytewiseComparator();
  const std::string reversed = WriteFile("r.sst", {{Key(2), "r"}}, {}, &rev);
  check_refused({reversed}, IngestExternalFileOptions(), "comparator");

  // A truncated file: Corruption naming it.
  const std::string good = WriteFile("g.sst", {{Key(3), "g"}, {Key(4), "h"}});
  std::string bytes;
  {
    std::ifstream in(good, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  const std::string truncated = files_dir_.path() + "/t.sst";
  {
    std::ofstream out(truncated, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size() - 20));
  }
  {
    const auto before = test::DirectoryContents(dbname_);
    Status s = db_->IngestExternalFile({good, truncated}, IngestExternalFileOptions());
    EXPECT_TRUE(s.IsCorruption()) << s.ToString();
    EXPECT_NE(std::string::npos, s.ToString().find("t.sst")) << s.ToString();
    EXPECT_EQ(before, test::DirectoryContents(dbname_));
  }
  // A damaged data block is found by verify_checksums_before_ingest.
  std::string damaged_bytes = bytes;
  damaged_bytes[10] ^= 0x5a;
  const std::string damaged = files_dir_.path() + "/d.sst";
  {
    std::ofstream out(damaged, std::ios::binary);
    out.write(damaged_bytes.data(), static_cast<std::streamsize>(damaged_bytes.size()));
  }
  IngestExternalFileOptions verify;
  verify.verify_checksums_before_ingest = true;
  check_refused({damaged}, verify, "d.sst");
  // A missing file.
  check_refused({files_dir_.path() + "/missing.sst"}, IngestExternalFileOptions(), "missing.sst");
  // ingest_behind without allow_ingest_behind.
  IngestExternalFileOptions behind;
  behind.ingest_behind = true;
  check_refused({good}, behind, "allow_ingest_behind=false");
  // Nothing to ingest.
  check_refused({}, IngestExternalFileOptions(), "empty");
  // The DB still works.
  ASSERT_OK(db_->IngestExternalFile({good}, IngestExternalFileOptions()));
  EXPECT_EQ("g", Get(Key(3)));
}

TEST_F(ExternalFileIngestionTest, EmptyFileIsRefused) {
  Open();
  // A file with nothing in it (written with the table builder: SstFileWriter
  // refuses to finish one).
  const std::string empty = files_dir_.path() + "/empty.sst";
  {
    std::unique_ptr<WritableFile> file;
    ASSERT_OK(FileSystem::Default()->NewWritableFile(empty, FileOptions(), &file));
    TableBuilderOptions bo;
    std::string version, global_seqno;
    PutFixed32(&version, 2);
    PutFixed64(&global_seqno, 0);
    bo.extra_properties["rocksdb.external_sst_file.version"] = version;
    bo.extra_properties["rocksdb.external_sst_file.global_seqno"] = global_seqno;
    BlockBasedTableBuilder builder(bo, file.get());
    ASSERT_OK(builder.Finish());
    ASSERT_OK(file->Close());
  }
  const auto before = test::DirectoryContents(dbname_);
  Status s = db_->IngestExternalFile({empty}, IngestExternalFileOptions());
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("File contain no entries")) << s.ToString();
  EXPECT_EQ(before, test::DirectoryContents(dbname_));
  // A file of range deletions only is not empty.
  const std::string only_range = WriteFile("r.sst", {}, {{Key(1), Key(3)}});
  ASSERT_OK(Put(Key(2), "x"));
  ASSERT_OK(Flush());
  ASSERT_OK(db_->IngestExternalFile({only_range}, IngestExternalFileOptions()));
  EXPECT_EQ("NOT_FOUND", Get(Key(2)));
}

TEST_F(ExternalFileIngestionTest, RangeDeletionsInTheFile) {
  Open();
  Model m;
  for (int i = 0; i < 50; i++) {
    ASSERT_OK(Put(Key(i), "db"));
    m[Key(i)] = "db";
  }
  ASSERT_OK(Flush());
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  const std::string f =
      WriteFile("a.sst", {{Key(10), "file"}, {Key(60), "file"}}, {{Key(5), Key(20)}});
  ASSERT_OK(db_->IngestExternalFile({f}, IngestExternalFileOptions()));
  for (int i = 5; i < 20; i++) m.erase(Key(i));
  m[Key(10)] = "file";  // same sequence as the tombstone: not covered by it
  m[Key(60)] = "file";
  CheckModel(m);
  Reopen();
  CheckModel(m);
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  CheckModel(m);
}

TEST_F(ExternalFileIngestionTest, LevelPlacementWithDynamicLevels) {
  // Levels between 0 and the base level are skipped (RocksDB's rule): with
  // all data in the last level, an overlapping file goes to level 0.
  options_.disable_auto_compactions = true;
  options_.level_compaction_dynamic_level_bytes = true;
  Open();
  ASSERT_OK(db_->IngestExternalFile({WriteFile("a.sst", {{Key(0), "a"}, {Key(10), "a"}})},
                                    IngestExternalFileOptions()));
  EXPECT_EQ(1, Level(6));
  ASSERT_OK(
      db_->IngestExternalFile({WriteFile("b.sst", {{Key(10), "b"}})}, IngestExternalFileOptions()));
  EXPECT_EQ(1, Level(0));
  EXPECT_EQ(1u, db_->GetLatestSequenceNumber());
  EXPECT_EQ("b", Get(Key(10)));
}

TEST_F(ExternalFileIngestionTest, LevelPlacement) {
  options_.disable_auto_compactions = true;
  options_.level_compaction_dynamic_level_bytes = false;
  Open();
  // Two files at the last level with a gap between them.
  ASSERT_OK(db_->IngestExternalFile({WriteFile("a.sst", {{Key(0), "a"}, {Key(10), "a"}})},
                                    IngestExternalFileOptions()));
  ASSERT_OK(db_->IngestExternalFile({WriteFile("b.sst", {{Key(90), "b"}, {Key(99), "b"}})},
                                    IngestExternalFileOptions()));
  EXPECT_EQ(2, Level(6));
  // In the gap: last level too.
  ASSERT_OK(
      db_->IngestExternalFile({WriteFile("c.sst", {{Key(50), "c"}})}, IngestExternalFileOptions()));
  EXPECT_EQ(3, Level(6));
  EXPECT_EQ(0u, db_->GetLatestSequenceNumber());
  // Overlapping a key of the last level: one level above, with a seqno.
  ASSERT_OK(
      db_->IngestExternalFile({WriteFile("d.sst", {{Key(10), "d"}})}, IngestExternalFileOptions()));
  EXPECT_EQ(1, Level(5));
  EXPECT_EQ(1u, db_->GetLatestSequenceNumber());
  EXPECT_EQ("d", Get(Key(10)));
  // Inside a file's range at level 6 but on no key: level 5 (does not fit
  // level 6), and no seqno needed.
  ASSERT_OK(
      db_->IngestExternalFile({WriteFile("e.sst", {{Key(5), "e"}})}, IngestExternalFileOptions()));
  EXPECT_EQ(1u, db_->GetLatestSequenceNumber());
  EXPECT_EQ(2, Level(5));
  // Overlapping files of one call: level 0, each with its own seqno, the
  // later file winning.
  ASSERT_OK(db_->IngestExternalFile({WriteFile("f.sst", {{Key(20), "f"}, {Key(30), "f"}}),
                                     WriteFile("g.sst", {{Key(25), "g"}, {Key(30), "g"}})},
                                    IngestExternalFileOptions()));
  EXPECT_EQ(2, Level(0));
  EXPECT_EQ(3u, db_->GetLatestSequenceNumber());
  EXPECT_EQ("g", Get(Key(30)));
  // fail_if_not_bottommost_level.
  IngestExternalFileOptions bottom;
  bottom.fail_if_not_bottommost_level = true;
  Status s = db_->IngestExternalFile({WriteFile("h.sst", {{Key(10), "h"}})}, bottom);
  EXPECT_TRUE(s.IsTryAgain()) << s.ToString();
  ASSERT_OK(db_->IngestExternalFile({WriteFile("i.sst", {{Key(200), "i"}})}, bottom));
  EXPECT_EQ(4, Level(6));
  Reopen();
  EXPECT_EQ("d", Get(Key(10)));
  EXPECT_EQ("e", Get(Key(5)));
  EXPECT_EQ("g", Get(Key(30)));
  EXPECT_EQ("f", Get(Key(20)));
  EXPECT_EQ("i", Get(Key(200)));
}

TEST_F(ExternalFileIngestionTest, MoveFilesLinksAndCopyDoesNot) {
  Open();
  const std::string f = WriteFile("a.sst", {{Key(1), "a"}});
  struct stat before;
  ASSERT_EQ(0, stat(f.c_str(), &before));
  EXPECT_EQ(1u, before.st_nlink);
  IngestExternalFileOptions o;
  o.move_files = true;
  ASSERT_OK(db_->IngestExternalFile({f}, o));
  struct stat inside;
  ASSERT_EQ(0, stat(NewestTable().c_str(), &inside));
  EXPECT_EQ(before.st_ino, inside.st_ino);  // the same file, linked
  EXPECT_NE(0, stat(f.c_str(), &before));   // the caller's name is gone
  EXPECT_EQ("a", Get(Key(1)));

  const std::string g = WriteFile("b.sst", {{Key(2), "b"}});
  struct stat g_before;
  ASSERT_EQ(0, stat(g.c_str(), &g_before));
  ASSERT_OK(db_->IngestExternalFile({g}, IngestExternalFileOptions()));
  struct stat g_inside, g_after;
  ASSERT_EQ(0, stat(NewestTable().c_str(), &g_inside));
  ASSERT_EQ(0, stat(g.c_str(), &g_after));
  EXPECT_NE(g_before.st_ino, g_inside.st_ino);
  EXPECT_EQ(1u, g_after.st_nlink);
  EXPECT_EQ(1u, g_inside.st_nlink);
  Reopen();
  EXPECT_EQ("a", Get(Key(1)));
  EXPECT_EQ("b", Get(Key(2)));
}

TEST_F(ExternalFileIngestionTest, IngestBehind) {
  options_.allow_ingest_behind = true;
  options_.disable_auto_compactions = true;
  Open();
  ASSERT_OK(Put(Key(1), "new"));
  ASSERT_OK(Flush());
  IngestExternalFileOptions o;
  o.ingest_behind = true;
  const std::string f = WriteFile("a.sst", {{Key(1), "old"}, {Key(2), "old2"}});
  Status s = db_->IngestExternalFile({f}, o);
  ASSERT_OK(s);
  EXPECT_EQ(1, Level(6));
  EXPECT_EQ("new", Get(Key(1)));
  EXPECT_EQ("old2", Get(Key(2)));
  // Not under a file that overlaps it at the last level.
  Status again = db_->IngestExternalFile({WriteFile("b.sst", {{Key(2), "older"}})}, o);
  EXPECT_TRUE(again.IsInvalidArgument()) << again.ToString();
  // Compactions keep what the old data could still need (nothing is
  // bottommost): the newer value survives a full compaction.
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  EXPECT_EQ("new", Get(Key(1)));
  Reopen();
  EXPECT_EQ("new", Get(Key(1)));
  EXPECT_EQ("old2", Get(Key(2)));
}

TEST_F(ExternalFileIngestionTest, ListenerHearsOfEachFile) {
  struct Recorder : EventListener {
    std::vector<ExternalFileIngestionInfo> seen;
    void OnExternalFileIngested(DB*, const ExternalFileIngestionInfo& info) override {
      seen.push_back(info);
    }
  };
  auto rec = std::make_shared<Recorder>();
  options_.listeners.push_back(rec);
  Open();
  ASSERT_OK(Put(Key(1), "x"));
  const std::string f = WriteFile("a.sst", {{Key(1), "a"}});
  ASSERT_OK(db_->IngestExternalFile({f}, IngestExternalFileOptions()));
  ASSERT_EQ(1u, rec->seen.size());
  EXPECT_EQ("default", rec->seen[0].cf_name);
  EXPECT_EQ(f, rec->seen[0].external_file_path);
  EXPECT_EQ(2u, rec->seen[0].global_seqno);
  EXPECT_EQ(1u, rec->seen[0].table_properties.num_entries);
  Close();
}

// A MANIFEST ending inside an atomic group (a crash between the records of
// an IngestExternalFiles commit): recovery drops the whole group.
TEST_F(ExternalFileIngestionTest, TornAtomicGroupIsDropped) {
  Open();
  ASSERT_OK(Put(Key(1), "v"));
  ASSERT_OK(Flush());
  Close();
  std::string current;
  {
    std::ifstream in(dbname_ + "/CURRENT");
    std::getline(in, current);
  }
  {
    std::unique_ptr<WritableFile> file;
    ASSERT_OK(
        FileSystem::Default()->ReopenWritableFile(dbname_ + "/" + current, FileOptions(), &file));
    log::Writer writer(std::move(file), 0, false);
    VersionEdit edit;
    edit.SetColumnFamily(0);
    FileMetaData f;
    f.number = 999;
    f.file_size = 1000;
    AppendInternalKey(&f.smallest, "a", 50, kTypeValue);
    AppendInternalKey(&f.largest, "b", 50, kTypeValue);
    f.smallest_seqno = f.largest_seqno = 50;
    edit.AddFile(6, f);
    edit.SetLastSequence(50);
    edit.MarkAtomicGroup(1);  // one more record was to follow
    std::string record;
    edit.EncodeTo(&record);
    ASSERT_OK(writer.AddRecord(record));
    ASSERT_OK(writer.Sync());
    ASSERT_OK(writer.Close());
  }
  Open();
  EXPECT_EQ(0, Level(6));
  EXPECT_EQ("v", Get(Key(1)));
  EXPECT_EQ(1u, db_->GetLatestSequenceNumber());
}

class ExternalFileIngestionCFTest : public ExternalFileIngestionTest {};

TEST_F(ExternalFileIngestionCFTest, AtomicAcrossFamilies) {
  Open();
  ColumnFamilyHandle* cf = nullptr;
  ASSERT_OK(db_->CreateColumnFamily(ColumnFamilyOptions(), "two", &cf));
  const std::string a = WriteFile("a.sst", {{Key(1), "one"}});
  const std::string b = WriteFile("b.sst", {{Key(2), "two"}});
  // The second family's file is damaged: nothing of the first gets in.
  const std::string bad = files_dir_.path() + "/bad.sst";
  {
    std::ofstream out(bad, std::ios::binary);
    out << "not a table at all, just some bytes that are long enough to be read as a footer";
  }
  std::vector<IngestExternalFileArg> args(2);
  args[0].column_family = db_->DefaultColumnFamily();
  args[0].external_files = {a};
  args[1].column_family = cf;
  args[1].external_files = {bad};
  const auto before = test::DirectoryContents(dbname_);
  Status s = db_->IngestExternalFiles(args);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_EQ(before, test::DirectoryContents(dbname_));
  EXPECT_EQ("NOT_FOUND", Get(Key(1)));
  // A failure after both families' files were copied in (the second needs
  // a sequence number it may not have): nothing of either stays.
  ASSERT_OK(db_->Put(WriteOptions(), cf, Key(2), "cf-old"));
  ASSERT_OK(db_->Flush(FlushOptions(), cf));
  args[1].external_files = {b};
  args[1].options.allow_global_seqno = false;
  const auto before2 = test::DirectoryContents(dbname_);
  s = db_->IngestExternalFiles(args);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_EQ(before2, test::DirectoryContents(dbname_));
  EXPECT_EQ("NOT_FOUND", Get(Key(1)));
  args[1].options.allow_global_seqno = true;
  // Both good: both in, one MANIFEST group.
  ASSERT_OK(Put(Key(1), "mem"));  // overlaps: the default family flushes
  ASSERT_OK(db_->IngestExternalFiles(args));
  EXPECT_EQ("one", Get(Key(1)));
  std::string v;
  ASSERT_OK(db_->Get(ReadOptions(), cf, Key(2), &v));
  EXPECT_EQ("two", v);
  // Duplicate families and null handles are refused.
  args[1].column_family = db_->DefaultColumnFamily();
  EXPECT_TRUE(db_->IngestExternalFiles(args).IsInvalidArgument());
  args[1].column_family = nullptr;
  EXPECT_TRUE(db_->IngestExternalFiles(args).IsInvalidArgument());
  ASSERT_OK(db_->DestroyColumnFamilyHandle(cf));
  Close();
  std::vector<ColumnFamilyDescriptor> cfs = {{kDefaultColumnFamilyName, options_},
                                             {"two", ColumnFamilyOptions()}};
  std::vector<ColumnFamilyHandle*> handles;
  ASSERT_OK(DB::Open(options_, dbname_, cfs, &handles, &db_));
  EXPECT_EQ("one", Get(Key(1)));
  ASSERT_OK(db_->Get(ReadOptions(), handles[1], Key(2), &v));
  EXPECT_EQ("two", v);
  for (auto* h : handles) ASSERT_OK(db_->DestroyColumnFamilyHandle(h));
}

TEST_F(ExternalFileIngestionTest, ImportColumnFamily) {
  Open();
  const std::string a = WriteFile("a.sst", {{Key(1), "a1"}, {Key(2), "a2"}});
  const std::string b = WriteFile("b.sst", {{Key(3), "b3"}, {Key(4), "b4"}});
  const std::string c = WriteFile("c.sst", {{Key(2), "c2"}});
  ExportImportFilesMetaData meta;
  meta.db_comparator_name = BytewiseComparator()->Name();
  auto file = [&](const std::string& path, int level) {
    LiveFileMetaData f;
    f.db_path = files_dir_.path();
    f.name = path.substr(files_dir_.path().size());
    f.level = level;
    return f;
  };
  meta.files = {file(a, 6), file(b, 6), file(c, 6)};
  ColumnFamilyHandle* cf = nullptr;
  // Overlapping files at one level >= 1.
  Status s = db_->CreateColumnFamilyWithImport(ColumnFamilyOptions(), "imp",
                                               ImportColumnFamilyOptions(), meta, &cf);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_EQ(nullptr, cf);
  // Comparator mismatch.
  ExportImportFilesMetaData wrong = meta;
  wrong.db_comparator_name = "leveldb.OtherComparator";
  s = db_->CreateColumnFamilyWithImport(ColumnFamilyOptions(), "imp", ImportColumnFamilyOptions(),
                                        wrong, &cf);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  // c at level 5 above the others: fine, and it wins for Key(2) only if
  // its seqno is newer -- all are 0 here, so level order decides reads.
  meta.files = {file(a, 6), file(b, 6), file(c, 5)};
  ASSERT_OK(db_->CreateColumnFamilyWithImport(ColumnFamilyOptions(), "imp",
                                              ImportColumnFamilyOptions(), meta, &cf));
  std::string v;
  ASSERT_OK(db_->Get(ReadOptions(), cf, Key(1), &v));
  EXPECT_EQ("a1", v);
  ASSERT_OK(db_->Get(ReadOptions(), cf, Key(2), &v));
  EXPECT_EQ("c2", v);
  ASSERT_OK(db_->Get(ReadOptions(), cf, Key(4), &v));
  EXPECT_EQ("b4", v);
  uint64_t n = 0;
  ASSERT_TRUE(db_->GetIntProperty(cf, "rocksdb.num-files-at-level6", &n));
  EXPECT_EQ(2u, n);
  ASSERT_OK(db_->DestroyColumnFamilyHandle(cf));
}

#ifndef STRATA_NO_ROCKSDB_TOOLS
TEST_F(ExternalFileIngestionTest, FileWrittenByRocksDbLdb) {
  if (access("/usr/bin/ldb", X_OK) != 0) GTEST_SKIP() << "/usr/bin/ldb not installed";
  const std::string path = files_dir_.path() + "/rocks.sst";
  const std::string input = files_dir_.path() + "/in.txt";
  Model m;
  {
    std::ofstream out(input);
    for (int i = 0; i < 200; i++) {
      m[Key(i)] = "rv" + std::to_string(i);
      out << Key(i) << " ==> " << m[Key(i)] << "\n";
    }
  }
  const std::string cmd = "/usr/bin/ldb --db=" + files_dir_.path() +
                          "/scratch --create_if_missing write_extern_sst " + path + " < " + input +
                          " > /dev/null 2>&1";
  ASSERT_EQ(0, std::system(cmd.c_str()));
  Open();
  ASSERT_OK(Put(Key(7), "mine"));
  ASSERT_OK(db_->IngestExternalFile({path}, IngestExternalFileOptions()));
  CheckModel(m);
  Reopen();
  CheckModel(m);
}
#endif

// Ingestions while other threads write and flushes and compactions run:
// every ingested key ends with the file's value unless a later write of the
// same key came after the ingestion returned.
TEST_F(ExternalFileIngestionTest, ConcurrentWithWritesAndCompactions) {
  options_ = SmallOptions();
  Open();
  std::atomic<bool> stop{false};
  std::thread writer([&]() {
    int i = 0;
    while (!stop.load()) {
      // Keys of their own ("w..."), plus reads of the ingested ones.
      EXPECT_OK(Put("w" + Key(i % 3000), std::string(100, 'w')));
      ++i;
    }
  });
  Model model;
  for (int round = 0; round < 30; round++) {
    Model puts;
    const int lo = (round * 37) % 900;
    for (int i = lo; i < lo + 100; i++) puts[Key(i)] = "r" + std::to_string(round);
    ASSERT_OK(db_->IngestExternalFile({WriteFile("c" + std::to_string(round) + ".sst", puts)},
                                      IngestExternalFileOptions()));
    for (const auto& [k, v] : puts) model[k] = v;
    if (round % 5 == 4) ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  }
  stop.store(true);
  writer.join();
  for (const auto& [k, v] : model) ASSERT_EQ(v, Get(k)) << k;
  ASSERT_OK(WaitForCompact());
  EXPECT_EQ("", CheckNewerAboveOlder());
  Reopen();
  for (const auto& [k, v] : model) ASSERT_EQ(v, Get(k)) << k;
}

TEST_F(ExternalFileIngestionTest, Randomized) {
  const uint64_t seed = test::RandomSeed();
  std::mt19937_64 rng(seed);
  options_ = SmallOptions();
  Open();
  Model model;
  std::vector<std::pair<const Snapshot*, Model>> snaps;
  int file_no = 0;
  const int kKeys = 400;
  for (int step = 0; step < 120; step++) {
    SCOPED_TRACE("seed " + std::to_string(seed) + " step " + std::to_string(step));
    const int op = static_cast<int>(rng() % 10);
    if (op <= 2) {
      for (int i = 0; i < 20; i++) {
        const std::string k = Key(static_cast<int>(rng() % kKeys));
        if (rng() % 5 == 0) {
          ASSERT_OK(Delete(k));
          model.erase(k);
        } else {
          const std::string v = "p" + std::to_string(step) + "_" + std::to_string(i);
          ASSERT_OK(Put(k, v));
          model[k] = v;
        }
      }
    } else if (op == 3) {
      ASSERT_OK(Flush());
    } else if (op == 4) {
      ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
    } else if (op == 5) {
      if (snaps.size() < 3 && rng() % 2 == 0) {
        snaps.emplace_back(db_->GetSnapshot(), model);
      } else if (!snaps.empty()) {
        db_->ReleaseSnapshot(snaps.back().first);
        snaps.pop_back();
      }
    } else {
      // One or two files of a random range (dense or sparse), sometimes
      // with a range deletion.
      const int nfiles = 1 + static_cast<int>(rng() % 2);
      std::vector<std::string> paths;
      Model ingested;
      std::vector<std::pair<std::string, std::string>> deleted;
      for (int f = 0; f < nfiles; f++) {
        const int lo = static_cast<int>(rng() % kKeys);
        const int span = 1 + static_cast<int>(rng() % 60);
        const int stride = 1 + static_cast<int>(rng() % 4);
        Model puts;
        for (int i = lo; i < std::min(kKeys, lo + span); i += stride) {
          puts[Key(i)] = "f" + std::to_string(file_no) + "_" + std::to_string(i);
        }
        std::vector<std::pair<std::string, std::string>> ranges;
        if (rng() % 4 == 0) {
          const int b = static_cast<int>(rng() % kKeys);
          ranges.emplace_back(Key(b), Key(b + 1 + static_cast<int>(rng() % 20)));
        }
        paths.push_back(WriteFile("r" + std::to_string(file_no++) + ".sst", puts, ranges));
        // Later files of a call win over earlier ones where they overlap
        // (they get larger sequence numbers); within a file a put is not
        // covered by the file's own tombstone.
        for (const auto& [b, e] : ranges) {
          for (auto it = ingested.lower_bound(b); it != ingested.end() && it->first < e;) {
            it = ingested.erase(it);
          }
          deleted.emplace_back(b, e);
        }
        for (const auto& [k, v] : puts) ingested[k] = v;
      }
      IngestExternalFileOptions o;
      o.move_files = rng() % 2 == 0;
      o.write_global_seqno = rng() % 2 == 0;
      ASSERT_OK(db_->IngestExternalFile(paths, o));
      // The model: tombstones first, then the puts.
      for (const auto& [b, e] : deleted) {
        for (auto it = model.lower_bound(b); it != model.end() && it->first < e;) {
          it = model.erase(it);
        }
      }
      for (const auto& [k, v] : ingested) model[k] = v;
    }
    CheckModel(model);
    for (const auto& [snap, snap_model] : snaps) CheckModel(snap_model, snap);
    if (step % 40 == 39) {
      for (const auto& [snap, snap_model] : snaps) db_->ReleaseSnapshot(snap);
      snaps.clear();
      Reopen();
      CheckModel(model);
    }
  }
  for (const auto& [snap, snap_model] : snaps) db_->ReleaseSnapshot(snap);
  snaps.clear();
  ASSERT_OK(WaitForCompact());
  Reopen();
  CheckModel(model);
}

}  // namespace
}  // namespace strata
