// Checkpoint::ExportColumnFamily followed by DB::CreateColumnFamilyWithImport
// (db/db_impl_import.cc): a family with data at several levels and
// sequence numbers (overwrites, deletions, an ingested file with a global
// sequence number) exported and imported into another DB and into the same
// DB under a new name; every key equal, before and after a reopen and a
// compaction; move_files links the exported files; an import into a DB
// whose last sequence is lower raises it.

#include <sys/stat.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "strata/db.h"
#include "strata/iterator.h"
#include "strata/options.h"
#include "strata/sst_file_writer.h"
#include "strata/utilities/checkpoint.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

using Model = std::map<std::string, std::string>;

std::string Key(int i) {
  char buf[16];
  snprintf(buf, sizeof(buf), "key%05d", i);
  return buf;
}

Model Contents(DB* db, ColumnFamilyHandle* cf) {
  Model m;
  std::unique_ptr<Iterator> it = db->NewIterator(ReadOptions(), cf);
  for (it->SeekToFirst(); it->Valid(); it->Next()) m[it->key().ToString()] = it->value().ToString();
  EXPECT_OK(it->status());
  return m;
}

class ExportImportTest : public ::testing::Test {
 protected:
  ExportImportTest() : dir_("export_import_test") {
    options_.create_if_missing = true;
    options_.write_buffer_size = 64 << 10;
    options_.target_file_size_base = 64 << 10;
    options_.level0_file_num_compaction_trigger = 2;
  }

  // A source DB: overwrites across flushes and compactions, deletions, and
  // an ingested file over existing keys (a global sequence number).
  void MakeSource(Model* model) {
    ASSERT_OK(DB::Open(options_, dir_.path() + "/src", &src_));
    for (int round = 0; round < 4; round++) {
      for (int i = 0; i < 2000; i += 1 + round) {
        const std::string v = "r" + std::to_string(round) + "_" + std::to_string(i);
        ASSERT_OK(src_->Put(WriteOptions(), Key(i), v));
        (*model)[Key(i)] = v;
      }
      for (int i = round; i < 2000; i += 97) {
        ASSERT_OK(src_->Delete(WriteOptions(), Key(i)));
        model->erase(Key(i));
      }
      ASSERT_OK(src_->Flush(FlushOptions()));
      if (round == 1) ASSERT_OK(src_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
    }
    const std::string ext = dir_.path() + "/ext.sst";
    SstFileWriter w(options_);
    ASSERT_OK(w.Open(ext));
    for (int i = 100; i < 200; i++) {
      ASSERT_OK(w.Put(Key(i), "ingested"));
      (*model)[Key(i)] = "ingested";
    }
    ASSERT_OK(w.Finish());
    ASSERT_OK(src_->IngestExternalFile({ext}, IngestExternalFileOptions()));
    ASSERT_EQ(*model, Contents(src_.get(), src_->DefaultColumnFamily()));
  }

  test::TempDir dir_;
  Options options_;
  std::unique_ptr<DB> src_;
};

TEST_F(ExportImportTest, IntoAnotherDbAndTheSameDb) {
  Model model;
  MakeSource(&model);
  std::unique_ptr<Checkpoint> cp;
  ASSERT_OK(Checkpoint::Create(src_.get(), &cp));
  std::unique_ptr<ExportImportFilesMetaData> meta;
  ASSERT_OK(cp->ExportColumnFamily(src_->DefaultColumnFamily(), dir_.path() + "/export", &meta));
  ASSERT_FALSE(meta->files.empty());

  // Another DB, empty: its last sequence rises to the imported files'.
  std::unique_ptr<DB> dst;
  ASSERT_OK(DB::Open(options_, dir_.path() + "/dst", &dst));
  ColumnFamilyHandle* cf = nullptr;
  ASSERT_OK(dst->CreateColumnFamilyWithImport(ColumnFamilyOptions(), "imported",
                                              ImportColumnFamilyOptions(), *meta, &cf));
  EXPECT_EQ(model, Contents(dst.get(), cf));
  EXPECT_GE(dst->GetLatestSequenceNumber(), src_->GetLatestSequenceNumber() - 1);
  ASSERT_OK(dst->Put(WriteOptions(), cf, Key(5), "after"));
  model[Key(5)] = "after";
  ASSERT_OK(dst->DestroyColumnFamilyHandle(cf));
  dst.reset();
  std::vector<ColumnFamilyDescriptor> cfs = {{kDefaultColumnFamilyName, options_},
                                             {"imported", options_}};
  std::vector<ColumnFamilyHandle*> handles;
  ASSERT_OK(DB::Open(options_, dir_.path() + "/dst", cfs, &handles, &dst));
  EXPECT_EQ(model, Contents(dst.get(), handles[1]));
  ASSERT_OK(dst->CompactRange(CompactRangeOptions(), handles[1], nullptr, nullptr));
  EXPECT_EQ(model, Contents(dst.get(), handles[1]));
  for (auto* h : handles) ASSERT_OK(dst->DestroyColumnFamilyHandle(h));
  dst.reset();

  // The same DB under a new name, moving (linking) the exported files.
  model.erase(Key(5));
  Model source = Contents(src_.get(), src_->DefaultColumnFamily());
  const std::string first = dir_.path() + "/export" + meta->files[0].name;
  struct stat before;
  ASSERT_EQ(0, stat(first.c_str(), &before));
  ImportColumnFamilyOptions move;
  move.move_files = true;
  ASSERT_OK(src_->CreateColumnFamilyWithImport(ColumnFamilyOptions(), "copy", move, *meta, &cf));
  EXPECT_EQ(source, Contents(src_.get(), cf));
  struct stat after;
  EXPECT_NE(0, stat(first.c_str(), &after));  // moved: the exported name is gone
  // A second import of the same (now moved) files fails and leaves no family.
  ColumnFamilyHandle* again = nullptr;
  EXPECT_FALSE(src_->CreateColumnFamilyWithImport(ColumnFamilyOptions(), "again",
                                                  ImportColumnFamilyOptions(), *meta, &again)
                   .ok());
  EXPECT_EQ(nullptr, again);
  std::vector<std::string> names;
  ASSERT_OK(DB::ListColumnFamilies(DBOptions(), dir_.path() + "/src", &names));
  EXPECT_EQ((std::vector<std::string>{"default", "copy"}), names);
  ASSERT_OK(src_->DestroyColumnFamilyHandle(cf));
}

}  // namespace
}  // namespace strata
