// TableView (tools/ldb/ldb_table_view.h).

#include "tools/ldb/ldb_table_view.h"

#include <algorithm>
#include <map>

#include "base/dbformat.h"
#include "db/filename.h"
#include "db/log_reader.h"
#include "db/write_batch_internal.h"
#include "strata/comparator.h"
#include "strata/table_properties.h"
#include "strata/write_batch.h"

namespace strata::ldb {
namespace {

struct Tombstone {
  std::string begin, end;  // user keys, [begin, end)
  SequenceNumber seq;
};

// A record of a prepared section, kept until its Commit or Rollback.
struct PendingRecord {
  uint32_t cf;
  ValueType type;  // kTypeRangeDeletion: key..value is the range
  std::string key, value;
};
// The prepared sections read so far (across the WALs), by transaction name.
using PreparedSections = std::map<std::string, std::vector<PendingRecord>>;

// Turns a batch's records for one family into internal entries, as a
// WriteCommitted DB's recovery inserts them: a prepared section (between
// BeginPrepare and EndPrepare(xid)) takes no sequence numbers and waits in
// *prepared; its Commit(xid) inserts its records at the commit batch's
// sequence numbers, its Rollback(xid) drops them; a section never resolved
// is not data. A Commit whose section is not in these WALs (it went into a
// table before) inserts nothing. `flushed`: the WAL is older than the
// family's log number (kept only for its prepared sections), so its own
// records and commits are in tables already: only its sections are kept.
class EntryCollector : public WriteBatch::Handler {
 public:
  EntryCollector(uint32_t cf, SequenceNumber seq, bool flushed, std::vector<InternalEntry>* entries,
                 std::vector<Tombstone>* tombstones, PreparedSections* prepared)
      : cf_(cf),
        seq_(seq),
        flushed_(flushed),
        entries_(entries),
        tombstones_(tombstones),
        prepared_(prepared) {}
  Status PutCF(uint32_t cf, const Slice& key, const Slice& value) override {
    return Add(cf, key, kTypeValue, value);
  }
  Status MergeCF(uint32_t cf, const Slice& key, const Slice& value) override {
    return Add(cf, key, kTypeMerge, value);
  }
  Status DeleteCF(uint32_t cf, const Slice& key) override {
    return Add(cf, key, kTypeDeletion, Slice());
  }
  Status SingleDeleteCF(uint32_t cf, const Slice& key) override {
    return Add(cf, key, kTypeSingleDeletion, Slice());
  }
  Status DeleteRangeCF(uint32_t cf, const Slice& begin, const Slice& end) override {
    return Add(cf, begin, kTypeRangeDeletion, end);
  }
  Status MarkBeginPrepare(bool unprepare) override {
    if (unprepare) {
      return Status::NotSupported(
          "a WriteUnprepared transaction marker (strata reads WALs as "
          "a WriteCommitted DB)");
    }
    in_prepare_ = true;
    pending_.clear();
    return Status::OK();
  }
  Status MarkEndPrepare(const Slice& xid) override {
    in_prepare_ = false;
    (*prepared_)[xid.ToString()] = std::move(pending_);
    pending_.clear();
    return Status::OK();
  }
  Status MarkCommit(const Slice& xid) override {
    auto it = prepared_->find(xid.ToString());
    if (it == prepared_->end()) return Status::OK();
    std::vector<PendingRecord> records = std::move(it->second);
    prepared_->erase(it);
    for (const PendingRecord& r : records) Insert(r.cf, r.key, r.type, r.value);
    return Status::OK();
  }
  Status MarkRollback(const Slice& xid) override {
    prepared_->erase(xid.ToString());
    return Status::OK();
  }

 private:
  Status Add(uint32_t cf, const Slice& key, ValueType type, const Slice& value) {
    if (in_prepare_) {
      pending_.push_back({cf, type, key.ToString(), value.ToString()});
    } else {
      Insert(cf, key, type, value);
    }
    return Status::OK();
  }
  void Insert(uint32_t cf, const Slice& key, ValueType type, const Slice& value) {
    if (cf == cf_ && !flushed_) {
      if (type == kTypeRangeDeletion) {
        tombstones_->push_back({key.ToString(), value.ToString(), seq_});
      } else {
        InternalEntry e;
        AppendInternalKey(&e.key, key, seq_, type);
        e.value = value.ToString();
        entries_->push_back(std::move(e));
      }
    }
    ++seq_;
  }
  const uint32_t cf_;
  SequenceNumber seq_;
  const bool flushed_;
  std::vector<InternalEntry>* entries_;
  std::vector<Tombstone>* tombstones_;
  PreparedSections* prepared_;
  bool in_prepare_ = false;
  std::vector<PendingRecord> pending_;
};

struct IgnoreDamage : public log::Reader::Reporter {
  void Corruption(size_t /*bytes*/, const Status& /*s*/) override {}
};

// RocksDB pro-rates a data offset over the whole file (index and filter
// included): offset / data_size * file_size.
uint64_t ProRate(uint64_t data_offset, uint64_t data_size, uint64_t file_size) {
  return static_cast<uint64_t>(static_cast<double>(data_offset) / static_cast<double>(data_size) *
                               static_cast<double>(file_size));
}

uint64_t DataSize(const BlockBasedTable& t) {
  std::shared_ptr<const TableProperties> p = t.GetTableProperties();
  if (p != nullptr && p->data_size > 0) return p->data_size;
  return t.footer().metaindex_handle().offset();
}

}  // namespace

Status TableView::Open(const std::string& dbpath, const std::string& cf_name,
                       std::unique_ptr<TableView>* out) {
  FileSystem* fs = Env::Default()->GetFileSystem();
  std::string manifest;
  Status s = CurrentManifestPath(fs, dbpath, &manifest);
  ManifestState state;
  if (s.ok()) s = ReadManifest(fs, manifest, nullptr, &state);
  if (!s.ok()) return s;
  for (ManifestFamily& f : state.families) {
    if (f.name == cf_name) {
      auto v = std::make_unique<TableView>();
      v->dbpath_ = dbpath;
      v->family_ = std::move(f);
      *out = std::move(v);
      return Status::OK();
    }
  }
  return Status::InvalidArgument("Non-existing column family " + cf_name);
}

int TableView::num_levels() const {
  int n = Options().num_levels;
  for (int level = n; level < kDumpLevels; ++level) {
    if (!family_.levels[level].empty()) n = level + 1;
  }
  return n;
}

std::string TableView::TablePath(uint64_t number) const { return TableFileName(dbpath_, number); }

Status TableView::OpenTable(uint64_t number, std::unique_ptr<BlockBasedTable>* table) const {
  FileSystem* fs = Env::Default()->GetFileSystem();
  const std::string path = TablePath(number);
  uint64_t size = 0;
  Status s = fs->GetFileSize(path, &size);
  std::unique_ptr<RandomAccessFile> file;
  if (s.ok()) s = fs->NewRandomAccessFile(path, FileOptions(), &file);
  if (!s.ok()) return s;
  TableReaderOptions options;
  options.file_name = path;
  return BlockBasedTable::Open(options, std::move(file), size, table);
}

Status TableView::CollectEntries(std::vector<InternalEntry>* out) const {
  std::vector<InternalEntry> entries;
  std::vector<Tombstone> tombstones;
  ReadOptions ro;
  for (const auto& level : family_.levels) {
    for (const FileMetaData& m : level) {
      std::unique_ptr<BlockBasedTable> table;
      Status s = OpenTable(m.number, &table);
      if (!s.ok()) return s;
      std::unique_ptr<InternalIterator> it = table->NewIterator(ro);
      for (it->SeekToFirst(); it->Valid(); it->Next()) {
        entries.push_back({it->key().ToString(), it->value().ToString()});
      }
      if (!it->status().ok()) return it->status();
      std::unique_ptr<InternalIterator> del = table->NewRangeTombstoneIterator(ro);
      if (del != nullptr) {
        for (del->SeekToFirst(); del->Valid(); del->Next()) {
          ParsedInternalKey p;
          s = ParseInternalKey(del->key(), &p);
          if (!s.ok()) return s;
          tombstones.push_back({p.user_key.ToString(), del->value().ToString(), p.sequence});
        }
        if (!del->status().ok()) return del->status();
      }
    }
  }

  // The WALs a read-only open replays for this family: those from its log
  // number on, and the older ones still there for their prepared sections.
  FileSystem* fs = Env::Default()->GetFileSystem();
  std::vector<std::string> children;
  Status s = fs->GetChildren(dbpath_, &children);
  if (!s.ok()) return s;
  std::vector<uint64_t> wals;
  for (const std::string& name : children) {
    uint64_t number = 0;
    FileType type;
    if (ParseFileName(name, &number, &type) && type == FileType::kWalFile) {
      wals.push_back(number);
    }
  }
  std::sort(wals.begin(), wals.end());
  PreparedSections prepared;
  for (uint64_t number : wals) {
    const std::string path = LogFileName(dbpath_, number);
    std::unique_ptr<SequentialFile> file;
    s = fs->NewSequentialFile(path, FileOptions(), &file);
    if (!s.ok()) return s;
    IgnoreDamage reporter;
    log::Reader reader(std::move(file), &reporter, true, number, path);
    Slice record;
    std::string scratch;
    while (reader.ReadRecord(&record, &scratch)) {
      if (record.size() < WriteBatchInternal::kHeader) continue;
      WriteBatch batch;
      s = WriteBatchInternal::SetContents(&batch, record);
      if (!s.ok()) return s;
      EntryCollector collector(family_.id, WriteBatchInternal::Sequence(&batch),
                               number < family_.log_number, &entries, &tombstones, &prepared);
      s = batch.Iterate(&collector);
      if (!s.ok()) return s;
    }
  }

  const Comparator* ucmp = BytewiseComparator();
  auto covered = [&](const InternalEntry& e) {
    const Slice user_key = ExtractUserKey(e.key);
    const SequenceNumber seq = ExtractInternalKeyFooter(e.key) >> 8;
    for (const Tombstone& t : tombstones) {
      if (t.seq > seq && ucmp->Compare(t.begin, user_key) <= 0 &&
          ucmp->Compare(user_key, t.end) < 0) {
        return true;
      }
    }
    return false;
  };
  entries.erase(std::remove_if(entries.begin(), entries.end(), covered), entries.end());
  InternalKeyComparator icmp(ucmp);
  std::stable_sort(entries.begin(), entries.end(),
                   [&icmp](const InternalEntry& a, const InternalEntry& b) {
                     return icmp.Compare(a.key, b.key) < 0;
                   });
  *out = std::move(entries);
  return Status::OK();
}

Status TableView::ApproximateSize(const std::string& start_key, const std::string& end_key,
                                  uint64_t* size) const {
  std::string start, end;
  AppendInternalKey(&start, start_key, kMaxSequenceNumber, kValueTypeForSeek);
  AppendInternalKey(&end, end_key, kMaxSequenceNumber, kValueTypeForSeek);
  InternalKeyComparator icmp(BytewiseComparator());
  uint64_t total = 0;
  // The estimate for one file, as RocksDB makes it.
  auto estimate = [&](const FileMetaData& m, uint64_t* bytes) -> Status {
    *bytes = 0;
    if (icmp.Compare(m.largest, start) <= 0 || icmp.Compare(m.smallest, end) > 0) {
      return Status::OK();
    }
    std::unique_ptr<BlockBasedTable> table;
    Status s = OpenTable(m.number, &table);
    if (!s.ok()) return s;
    const uint64_t data_size = DataSize(*table);
    const uint64_t file_size = m.file_size;
    auto offset_of = [&](const std::string& key) {
      if (data_size == 0) return file_size / 2;
      return ProRate(table->ApproximateOffsetOf(key), data_size, file_size);
    };
    if (icmp.Compare(m.smallest, start) >= 0) {
      *bytes = offset_of(end);
    } else if (icmp.Compare(m.largest, end) < 0) {
      *bytes = file_size - offset_of(start);
    } else if (data_size != 0) {
      const uint64_t a = table->ApproximateOffsetOf(start);
      const uint64_t b = table->ApproximateOffsetOf(end);
      *bytes = ProRate(b - a, data_size, file_size);
    }
    return Status::OK();
  };
  // Level 0: every file; other levels: the files at the ends of the range
  // estimated, those between them counted whole.
  for (int level = 0; level < kDumpLevels; ++level) {
    const std::vector<FileMetaData>& files = family_.levels[level];
    if (files.empty()) continue;
    std::vector<const FileMetaData*> edges;
    if (level == 0) {
      for (const FileMetaData& m : files) edges.push_back(&m);
    } else {
      auto find = [&](const std::string& key, size_t from) {
        size_t i = from;
        while (i + 1 < files.size() && icmp.Compare(files[i].largest, key) < 0) ++i;
        return i;
      };
      const size_t first = find(start, 0);
      size_t last = first;
      if (icmp.Compare(files[last].largest, end) < 0) last = find(end, first);
      for (size_t i = first + 1; i < last; ++i) total += files[i].file_size;
      edges.push_back(&files[first]);
      if (last != first) edges.push_back(&files[last]);
    }
    for (const FileMetaData* m : edges) {
      uint64_t bytes = 0;
      Status s = estimate(*m, &bytes);
      if (!s.ok()) return s;
      total += bytes;
    }
  }
  *size = total;
  return Status::OK();
}

}  // namespace strata::ldb
