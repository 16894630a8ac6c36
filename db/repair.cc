// RepairDB (include/strata/db.h): rebuilds a database's MANIFEST and CURRENT
// from the table and WAL files found in its directory.
//
// The steps, all under the DB's LOCK:
//  1. List the directory: table files, WALs, MANIFESTs.
//  2. Read what can be read of the old MANIFESTs (the one CURRENT names
//     first, then the others, newest first; each up to its first damaged
//     record): the live column families and which family each table
//     belonged to, plus the last sequence and next file number they
//     recorded.
//  3. Replay every WAL (oldest first) record by record, skipping damaged
//     records and batches that do not decode, into one memtable per family
//     (with no readable MANIFEST, the families the tables' properties name;
//     records of a family nothing names are dropped and logged),
//     and write each memtable out as a new table (the flush path,
//     BuildTables). The WAL then goes to <db>/lost/.
//  4. Read every table completely: footer, metaindex, properties, index,
//     filter (VerifyChecksum), then every entry and range tombstone in
//     order. Its smallest/largest keys and sequence range become its
//     FileMetaData. A table that cannot be read completely goes to lost/.
//  5. Place every table in level 0 of its family (newest first by largest
//     sequence number is how a Version orders level 0). That order is right
//     for a lookup only if any two tables whose key ranges overlap have
//     disjoint sequence ranges; tables that break this (a table compacted to
//     a lower level can hold older versions of a key with a newer largest
//     sequence than a table above it) are merged into one new table, and
//     the merged inputs go to lost/.
//  6. Write a new MANIFEST: the families, their tables, a next file number
//     and last sequence past everything found, the comparator name; point
//     CURRENT at it; move the old MANIFESTs to lost/.
// Every file dropped is named in the LOG.
//
// Tables are looked for in every table path (options.db_paths, or the DB's
// directory when it is empty, as RocksDB's repairer; the tables of the DB's
// directory only when it is one of them) and keep their path id; the
// tables made from WALs or merges go to path 0.
#include <algorithm>
#include <atomic>
#include <cinttypes>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "base/dbformat.h"
#include "db/builder.h"
#include "db/compaction/compaction_range_del_aggregator.h"
#include "db/filename.h"
#include "db/log_reader.h"
#include "db/log_writer.h"
#include "db/memtable_inserter.h"
#include "db/version_edit.h"
#include "db/write_batch_internal.h"
#include "memtable/memtable.h"
#include "strata/db.h"
#include "strata/table.h"
#include "strata/write_batch.h"
#include "table/block_based_table_reader.h"
#include "table/merging_iterator.h"

namespace strata {

namespace {

// Inserts a decoded batch into one memtable per column family id.
class MemTableBuilder final : public WriteBatch::Handler {
 public:
  MemTableBuilder(const InternalKeyComparator* icmp, std::map<uint32_t, MemTable*>* mems,
                  SequenceNumber first_seq)
      : icmp_(icmp), mems_(mems), seq_(first_seq) {}

  Status PutCF(uint32_t cf, const Slice& key, const Slice& value) override {
    Add(cf, kTypeValue, key, value);
    return Status::OK();
  }
  Status DeleteCF(uint32_t cf, const Slice& key) override {
    Add(cf, kTypeDeletion, key, Slice());
    return Status::OK();
  }
  Status SingleDeleteCF(uint32_t cf, const Slice& key) override {
    Add(cf, kTypeSingleDeletion, key, Slice());
    return Status::OK();
  }
  Status DeleteRangeCF(uint32_t cf, const Slice& begin, const Slice& end) override {
    Add(cf, kTypeRangeDeletion, begin, end);
    return Status::OK();
  }
  Status MergeCF(uint32_t cf, const Slice& key, const Slice& value) override {
    Add(cf, kTypeMerge, key, value);
    return Status::OK();
  }
  SequenceNumber max_sequence() const { return max_seq_; }

 private:
  void Add(uint32_t cf, ValueType type, const Slice& key, const Slice& value) {
    MemTable*& mem = (*mems_)[cf];
    if (mem == nullptr) mem = new MemTable(*icmp_, MemTableOptions());
    mem->Add(seq_, type, key, value, /*allow_concurrent=*/false);
    max_seq_ = std::max(max_seq_, seq_);
    seq_++;
  }
  const InternalKeyComparator* icmp_;
  std::map<uint32_t, MemTable*>* mems_;
  SequenceNumber seq_;
  SequenceNumber max_seq_ = 0;
};

struct TableInfo {
  FileMetaData meta;
  uint32_t cf_id = 0;
};

class Repairer {
 public:
  Repairer(const std::string& dbname, const Options& options)
      : dbname_(dbname),
        wal_dir_(WalDirOf(dbname, options.wal_dir)),
        paths_(TablePathsOf(dbname, options.db_paths, {})),
        options_(options),
        icmp_(options_.comparator) {
    fs_ = options_.env->GetFileSystem();
    if (options_.table_factory == nullptr) options_.table_factory = NewBlockBasedTableFactory();
    table_options_ = options_.table_factory->table_options();
  }

  Status Run() {
    std::vector<std::string> children;
    Status s = fs_->GetChildren(dbname_, &children);
    if (!s.ok()) return s;
    // The WALs are those of wal_dir (as RocksDB's repairer looks for them).
    TakeWalsFromWalDir(fs_, dbname_, wal_dir_, &children);
    s = fs_->LockFile(LockFileName(dbname_), &lock_);
    if (!s.ok()) return s;
    s = Repair(children);
    fs_->UnlockFile(std::move(lock_)).PermitUncheckedError();
    return s;
  }

 private:
  Status Repair(const std::vector<std::string>& children) {
    // The tables of each table path (the DB's directory is listed above).
    for (uint32_t id = 0; id < paths_.size(); ++id) {
      std::vector<std::string> names;
      const bool own = SameDirectory(paths_[id].path, dbname_);
      if (!own && !fs_->GetChildren(paths_[id].path, &names).ok()) continue;
      for (const std::string& name : own ? children : names) {
        uint64_t number;
        FileType type;
        if (!ParseFileName(name, &number, &type) || type != FileType::kTableFile) continue;
        if (!table_path_.emplace(number, id).second) continue;  // the first path's copy
        table_numbers_.push_back(number);
        max_number_ = std::max(max_number_, number);
      }
    }
    for (const std::string& name : children) {
      uint64_t number;
      FileType type;
      if (!ParseFileName(name, &number, &type)) continue;
      if (type == FileType::kWalFile) wal_numbers_.push_back(number);
      if (type == FileType::kDescriptorFile) manifests_.push_back(number);
      if (type == FileType::kTableFile || type == FileType::kWalFile ||
          type == FileType::kDescriptorFile || type == FileType::kOptionsFile ||
          type == FileType::kTempFile || type == FileType::kBlobFile) {
        max_number_ = std::max(max_number_, number);
      }
    }
    if (table_numbers_.empty() && wal_numbers_.empty() && manifests_.empty()) {
      return Status::Corruption(dbname_, "repair found no table, WAL or MANIFEST file");
    }
    Status s = OpenLogger();
    if (!s.ok()) return s;
    s = fs_->NewDirectory(dbname_, &db_dir_);
    if (!s.ok()) return s;
    std::sort(table_numbers_.begin(), table_numbers_.end());
    std::sort(wal_numbers_.begin(), wal_numbers_.end());
    std::sort(manifests_.rbegin(), manifests_.rend());
    s = ReadOldManifests();
    if (!s.ok()) return s;
    next_file_number_ = std::max<uint64_t>(max_number_ + 1, old_next_file_);
    next_file_number_ = std::max<uint64_t>(next_file_number_, 2);
    Log(info_log_, "repair of %s: %zu table(s), %zu WAL(s), %zu MANIFEST(s), %zu famil%s known",
        dbname_.c_str(), table_numbers_.size(), wal_numbers_.size(), manifests_.size(),
        families_.size(), families_.size() == 1 ? "y" : "ies");
    // Without a readable MANIFEST the families come from the tables'
    // properties; learn them before the WALs, whose records name families
    // by id only.
    if (!families_known_) LearnFamiliesFromTables();
    for (uint64_t number : wal_numbers_) {
      s = ConvertWAL(number);
      if (!s.ok()) return s;
    }
    for (uint64_t number : table_numbers_) {
      if (number < manifest_next_file_ && manifest_live_.count(number) == 0 &&
          produced_family_.count(number) == 0) {
        Log(InfoLogLevel::kWarn, info_log_,
            "repair: table %s is obsolete (the intact MANIFEST no longer lists it)",
            TablePath(number).c_str());
        Archive(TablePath(number));
        continue;
      }
      ScanTable(number);
    }
    s = ResolveLevel0Conflicts();
    if (!s.ok()) return s;
    s = WriteManifest();
    if (!s.ok()) return s;
    for (uint64_t number : manifests_) Archive(DescriptorFileName(dbname_, number));
    for (uint64_t number : archive_after_) Archive(TablePath(number));
    Log(info_log_, "repair of %s done: %zu table(s) kept, last sequence %" PRIu64, dbname_.c_str(),
        tables_.size(), last_sequence_);
    return Status::OK();
  }

  Status OpenLogger() {
    if (options_.info_log != nullptr) {
      info_log_ = options_.info_log.get();
      return Status::OK();
    }
    const std::string log_name = InfoLogFileName(dbname_);
    if (fs_->FileExists(log_name).ok()) {
      // Never truncate the old LOG of a directory that refuses the rename.
      Status s = fs_->RenameFile(log_name, OldInfoLogFileName(dbname_, options_.env->NowMicros()));
      if (!s.ok()) return s;
    }
    Status s = fs_->NewLogger(log_name, &owned_log_);
    if (!s.ok()) return s;
    info_log_ = owned_log_.get();
    return Status::OK();
  }

  // Step 2. Takes the families from the first MANIFEST that yields any
  // record; table-to-family assignments from all of them (newest wins).
  Status ReadOldManifests() {
    std::vector<uint64_t> order;
    std::string current;
    if (ReadFileToString(fs_, CurrentFileName(dbname_), &current).ok() && !current.empty() &&
        current.back() == '\n') {
      current.pop_back();
      uint64_t number;
      FileType type;
      if (ParseFileName(current, &number, &type) && type == FileType::kDescriptorFile) {
        order.push_back(number);
      }
    }
    for (uint64_t number : manifests_) {
      if (std::find(order.begin(), order.end(), number) == order.end()) order.push_back(number);
    }
    for (uint64_t number : order) {
      Status s = ReadOneManifest(number);
      if (!s.ok()) return s;
    }
    if (families_.empty()) families_[0] = kDefaultColumnFamilyName;
    return Status::OK();
  }

  Status ReadOneManifest(uint64_t number) {
    const std::string fname = DescriptorFileName(dbname_, number);
    std::unique_ptr<SequentialFile> file;
    if (!fs_->NewSequentialFile(fname, FileOptions(), &file).ok()) return Status::OK();
    log::FirstDamageReporter reporter;
    log::Reader reader(std::move(file), &reporter, /*checksum=*/true, 0, fname);
    std::map<uint32_t, std::string> families = {{0, kDefaultColumnFamilyName}};
    std::map<uint64_t, uint32_t> file_family;
    std::set<uint64_t> live;
    uint64_t next_file = 0;
    bool decoded_all = true;
    uint64_t good_end = 0;
    Slice record;
    std::string scratch;
    uint64_t records = 0;
    while (reader.ReadRecord(&record, &scratch, WALRecoveryMode::kTolerateCorruptedTailRecords) &&
           reporter.first.ok()) {
      VersionEdit edit;
      if (!edit.DecodeFrom(record).ok()) {
        decoded_all = false;
        break;
      }
      good_end = reader.LastRecordEndOffset();
      records++;
      for (const auto& [level, number] : edit.deleted_files()) live.erase(number);
      for (const auto& [level, f] : edit.new_files()) live.insert(f.number);
      if (edit.next_file_number()) next_file = *edit.next_file_number();
      const uint32_t id = edit.column_family();
      if (edit.comparator().has_value() && *edit.comparator() != options_.comparator->Name()) {
        return Status::InvalidArgument(
            options_.comparator->Name(),
            "does not match the comparator " + *edit.comparator() + " recorded in " + fname);
      }
      if (edit.column_family_add()) families[id] = *edit.column_family_add();
      if (edit.is_column_family_drop() && id != 0) families.erase(id);
      for (const auto& [level, f] : edit.new_files()) file_family[f.number] = id;
      if (edit.next_file_number()) {
        old_next_file_ = std::max(old_next_file_, *edit.next_file_number());
      }
      if (edit.last_sequence()) last_sequence_ = std::max(last_sequence_, *edit.last_sequence());
      if (edit.max_column_family()) {
        max_column_family_ = std::max(max_column_family_, *edit.max_column_family());
      }
    }
    if (!reporter.first.ok()) {
      Log(InfoLogLevel::kWarn, info_log_, "repair: %s read up to damage: %s", fname.c_str(),
          reporter.first.ToString().c_str());
    }
    if (records == 0) return Status::OK();
    if (families_.empty()) {
      families_ = families;
      families_known_ = true;
      // Read to its very end without damage: the MANIFEST knows every table
      // numbered below its next file number, and one it does not list is
      // obsolete (a compaction input or a dropped family's table whose
      // deletion a crash cut short).
      uint64_t size = 0;
      if (reporter.first.ok() && decoded_all && fs_->GetFileSize(fname, &size).ok() &&
          size == good_end) {
        manifest_live_ = std::move(live);
        manifest_next_file_ = next_file;
      }
    }
    for (const auto& [file_number, id] : file_family) file_family_.emplace(file_number, id);
    return Status::OK();
  }

  uint64_t NewFileNumber() { return next_file_number_++; }

  BuildTablesOptions OutputOptions() {
    BuildTablesOptions o;
    o.dbname = dbname_;
    o.table_dir = paths_[0].path;  // new tables go to path 0
    o.path_id = 0;
    o.options = &options_;
    o.fs = fs_;
    o.table_options = table_options_;
    o.compression = options_.compression;
    o.output_level = 0;
    o.level_unknown = true;
    o.bottommost = false;
    // Merge operands are kept as they are (the family's operator may not be
    // the one given here).
    o.merge_operator = nullptr;
    o.new_file_number = [this]() { return NewFileNumber(); };
    o.logger = info_log_;
    return o;
  }

  // Writes the entries of input (and the tombstones in agg) as new tables
  // of family cf_id; their numbers go to table_numbers_ for the scan.
  Status WriteTables(uint32_t cf_id, InternalIterator* input, CompactionRangeDelAggregator* agg,
                     std::vector<uint64_t>* numbers) {
    BuildTablesOptions o = OutputOptions();
    o.range_del_agg = agg;
    o.column_family_id = cf_id;
    const auto name = families_.find(cf_id);
    if (name != families_.end()) o.column_family_name = name->second;
    std::vector<FileMetaData> outputs;
    BuildTablesStats stats;
    Status s = BuildTables(o, input, &outputs, &stats);
    if (!s.ok()) return s;
    for (const FileMetaData& meta : outputs) {
      numbers->push_back(meta.number);
      produced_family_[meta.number] = cf_id;
    }
    return Status::OK();
  }

  // Step 3.
  Status ConvertWAL(uint64_t number) {
    const std::string fname = LogFileName(wal_dir_, number);
    std::unique_ptr<SequentialFile> file;
    Status s = fs_->NewSequentialFile(fname, FileOptions(), &file);
    if (!s.ok()) {
      Log(InfoLogLevel::kWarn, info_log_, "repair: cannot read %s: %s", fname.c_str(),
          s.ToString().c_str());
      Archive(fname);
      return Status::OK();
    }
    log::FirstDamageReporter reporter;
    log::Reader reader(std::move(file), &reporter, /*checksum=*/true, number, fname);
    std::map<uint32_t, MemTable*> mems;
    Slice record;
    std::string scratch;
    WriteBatch batch;
    uint64_t applied = 0, skipped = 0;
    while (reader.ReadRecord(&record, &scratch, WALRecoveryMode::kSkipAnyCorruptedRecords)) {
      BatchContents contents;
      if (record.size() < WriteBatchInternal::kHeader ||
          !WriteBatchInternal::SetContents(&batch, record).ok() ||
          !InspectBatch(batch, &contents).ok()) {
        skipped++;
        continue;
      }
      const SequenceNumber seq = WriteBatchInternal::Sequence(&batch);
      MemTableBuilder builder(&icmp_, &mems, seq);
      if (!batch.Iterate(&builder).ok()) {
        // InspectBatch decoded the whole batch already; not expected.
        skipped++;
        continue;
      }
      if (WriteBatchInternal::Count(&batch) > 0) {
        last_sequence_ = std::max(last_sequence_, builder.max_sequence());
      }
      applied++;
    }
    if (!reporter.first.ok() || skipped > 0) {
      Log(InfoLogLevel::kWarn, info_log_,
          "repair: %s: %" PRIu64 " damaged record(s) dropped (%zu bytes); first: %s", fname.c_str(),
          skipped, reporter.dropped_bytes, reporter.first.ToString().c_str());
    }
    std::vector<uint64_t> numbers;
    for (auto& [id, mem] : mems) {
      // Records of a family neither the old MANIFEST nor any table knows:
      // a dropped family's, or one whose name is lost. They are not put
      // into another family (RocksDB drops them too); the WAL itself goes
      // to lost/.
      const uint32_t cf_id = id;
      if (families_.count(id) == 0) {
        Log(InfoLogLevel::kWarn, info_log_,
            "repair: %s: dropping records of unknown column family %u (the WAL is kept in lost/)",
            fname.c_str(), id);
        mem->Unref();
        continue;
      }
      if (s.ok()) {
        CompactionRangeDelAggregator agg(&icmp_, {});
        if (mem->num_range_deletes() != 0) {
          std::unique_ptr<InternalIterator> range_dels(mem->NewRangeTombstoneIterator());
          s = agg.AddTombstones(range_dels.get());
        }
        std::unique_ptr<InternalIterator> iter(mem->NewIterator());
        if (s.ok()) s = WriteTables(cf_id, iter.get(), &agg, &numbers);
      }
      mem->Unref();
    }
    if (!s.ok()) return s;
    Log(info_log_, "repair: %s: %" PRIu64 " record(s) -> %zu table(s)", fname.c_str(), applied,
        numbers.size());
    table_numbers_.insert(table_numbers_.end(), numbers.begin(), numbers.end());
    Archive(fname);
    return Status::OK();
  }

  std::unique_ptr<BlockBasedTable> OpenTable(uint64_t number, uint64_t* size, Status* s) {
    const std::string fname = TablePath(number);
    std::unique_ptr<BlockBasedTable> table;
    std::unique_ptr<RandomAccessFile> file;
    *s = fs_->GetFileSize(fname, size);
    if (s->ok()) *s = fs_->NewRandomAccessFile(fname, FileOptions(), &file);
    if (!s->ok()) return nullptr;
    TableReaderOptions tro;
    tro.table_options = table_options_;
    tro.table_options.block_cache = nullptr;
    tro.table_options.no_block_cache = true;
    tro.table_options.cache_index_and_filter_blocks = false;
    tro.user_comparator = options_.comparator;
    tro.prefix_extractor = options_.prefix_extractor.get();
    tro.file_name = fname;
    *s = BlockBasedTable::Open(tro, std::move(file), *size, &table);
    if (!s->ok()) return nullptr;
    return table;
  }

  // Step 4: a table read completely is added to tables_, any other goes
  // to lost/.
  void ScanTable(uint64_t number) {
    const std::string fname = TablePath(number);
    TableInfo info;
    Status s = ScanTableImpl(number, &info);
    if (!s.ok()) {
      Log(InfoLogLevel::kWarn, info_log_, "repair: table %s dropped: %s", fname.c_str(),
          s.ToString().c_str());
      Archive(fname);
      return;
    }
    last_sequence_ = std::max(last_sequence_, info.meta.largest_seqno);
    Log(info_log_, "repair: table %s: family %u, sequences %" PRIu64 "..%" PRIu64, fname.c_str(),
        info.cf_id, info.meta.smallest_seqno, info.meta.largest_seqno);
    tables_.push_back(std::move(info));
  }

  Status ScanTableImpl(uint64_t number, TableInfo* info) {
    const std::string fname = TablePath(number);
    uint64_t size = 0;
    Status s;
    std::unique_ptr<BlockBasedTable> table = OpenTable(number, &size, &s);
    if (!s.ok()) return s;
    s = table->VerifyChecksum();
    if (!s.ok()) return s;
    FileMetaData& meta = info->meta;
    meta.number = number;
    const auto path = table_path_.find(number);
    meta.path_id = path != table_path_.end() ? path->second : 0;
    meta.file_size = size;
    ReadOptions ro;
    ro.verify_checksums = true;
    ro.fill_cache = false;
    uint64_t entries = 0;
    auto widen = [&](const Slice& lo, const Slice& hi, SequenceNumber seq) {
      if (meta.smallest.empty() || icmp_.Compare(lo, meta.smallest) < 0) {
        meta.smallest = lo.ToString();
      }
      if (meta.largest.empty() || icmp_.Compare(hi, meta.largest) > 0) {
        meta.largest = hi.ToString();
      }
      meta.smallest_seqno = std::min(meta.smallest_seqno, seq);
      meta.largest_seqno = std::max(meta.largest_seqno, seq);
    };
    {
      std::unique_ptr<InternalIterator> it(table->NewIterator(ro));
      std::string prev;
      for (it->SeekToFirst(); it->Valid(); it->Next()) {
        ParsedInternalKey parsed;
        s = ParseInternalKey(it->key(), &parsed);
        if (!s.ok()) return Status::Corruption(fname, "bad internal key: " + s.ToString());
        if (parsed.type == kTypeRangeDeletion) {
          return Status::Corruption(fname, "range deletion among the point entries");
        }
        if (entries > 0 && icmp_.Compare(Slice(prev), it->key()) >= 0) {
          return Status::Corruption(fname, "entries out of order");
        }
        prev.assign(it->key().data(), it->key().size());
        widen(it->key(), it->key(), parsed.sequence);
        entries++;
      }
      s = it->status();
      if (!s.ok()) return s;
    }
    std::unique_ptr<InternalIterator> rit(table->NewRangeTombstoneIterator(ro));
    if (rit != nullptr) {
      for (rit->SeekToFirst(); rit->Valid(); rit->Next()) {
        ParsedInternalKey parsed;
        s = ParseInternalKey(rit->key(), &parsed);
        if (!s.ok() || parsed.type != kTypeRangeDeletion) {
          return Status::Corruption(fname, "bad range tombstone");
        }
        std::string sentinel;
        AppendInternalKey(&sentinel, rit->value(), kMaxSequenceNumber, kTypeRangeDeletion);
        widen(rit->key(), sentinel, parsed.sequence);
        entries++;
      }
      s = rit->status();
      if (!s.ok()) return s;
    }
    if (entries == 0) return Status::Corruption(fname, "table holds no entries");
    // The family: as the old MANIFEST (or this repair) placed it, else the
    // one the table's properties name, else the default family.
    auto produced = produced_family_.find(number);
    auto listed = file_family_.find(number);
    std::shared_ptr<const TableProperties> props = table->GetTableProperties();
    if (produced != produced_family_.end()) {
      info->cf_id = produced->second;
    } else if (listed != file_family_.end() && families_.count(listed->second) > 0) {
      info->cf_id = listed->second;
    } else if (props != nullptr && !props->column_family_name.empty()) {
      info->cf_id = FamilyByName(props->column_family_name, props->column_family_id);
    }
    if (families_.count(info->cf_id) == 0) {
      // A family the old MANIFEST dropped: its data must not reappear.
      return Status::Corruption(fname, "belongs to a dropped column family");
    }
    return Status::OK();
  }

  // The families the tables' properties name (no MANIFEST was readable).
  // A table that cannot be opened is skipped here; the scan drops it.
  void LearnFamiliesFromTables() {
    for (uint64_t number : table_numbers_) {
      uint64_t size = 0;
      Status s;
      std::unique_ptr<BlockBasedTable> table = OpenTable(number, &size, &s);
      if (!s.ok()) continue;
      std::shared_ptr<const TableProperties> props = table->GetTableProperties();
      if (props != nullptr && !props->column_family_name.empty()) {
        FamilyByName(props->column_family_name, props->column_family_id);
      }
    }
  }

  // A family named by a table's properties: an existing one by name, or a
  // new one if no MANIFEST told the families; else the default family.
  uint32_t FamilyByName(const std::string& name, uint64_t id_hint) {
    for (const auto& [id, n] : families_) {
      if (n == name) return id;
    }
    if (!families_from_tables_ok()) return 0;
    uint32_t id = id_hint < 0x7fffffff && families_.count(static_cast<uint32_t>(id_hint)) == 0
                      ? static_cast<uint32_t>(id_hint)
                      : families_.rbegin()->first + 1;
    families_[id] = name;
    Log(InfoLogLevel::kWarn, info_log_,
        "repair: column family \"%s\" (id %u) recreated from tables", name.c_str(), id);
    return id;
  }
  // True when no MANIFEST record was readable (the families come from the
  // tables then).
  bool families_from_tables_ok() const { return !families_known_; }

  // Step 5.
  Status ResolveLevel0Conflicts() {
    for (int round = 0; round < 64; round++) {
      bool merged = false;
      std::map<uint32_t, std::vector<size_t>> by_family;
      for (size_t i = 0; i < tables_.size(); i++) by_family[tables_[i].cf_id].push_back(i);
      std::set<size_t> drop;
      std::vector<TableInfo> added;
      for (auto& [cf_id, idx] : by_family) {
        // Union-find over conflicting pairs.
        std::vector<size_t> parent(idx.size());
        for (size_t i = 0; i < parent.size(); i++) parent[i] = i;
        auto find = [&](size_t x) {
          while (parent[x] != x) x = parent[x] = parent[parent[x]];
          return x;
        };
        for (size_t a = 0; a < idx.size(); a++) {
          for (size_t b = a + 1; b < idx.size(); b++) {
            if (Conflict(tables_[idx[a]].meta, tables_[idx[b]].meta)) parent[find(a)] = find(b);
          }
        }
        std::map<size_t, std::vector<size_t>> groups;
        for (size_t i = 0; i < idx.size(); i++) groups[find(i)].push_back(idx[i]);
        for (auto& [root, members] : groups) {
          if (members.size() < 2) continue;
          Status s = MergeTables(cf_id, members, &added);
          if (!s.ok()) return s;
          for (size_t m : members) drop.insert(m);
          merged = true;
        }
      }
      if (!merged) return Status::OK();
      std::vector<TableInfo> kept;
      for (size_t i = 0; i < tables_.size(); i++) {
        if (drop.count(i) == 0) kept.push_back(std::move(tables_[i]));
      }
      for (TableInfo& t : added) kept.push_back(std::move(t));
      tables_ = std::move(kept);
    }
    return Status::Corruption(dbname_, "repair could not order the level-0 tables");
  }

  // Key ranges overlap and sequence ranges overlap.
  bool Conflict(const FileMetaData& a, const FileMetaData& b) const {
    const Comparator* ucmp = options_.comparator;
    if (ucmp->Compare(ExtractUserKey(a.largest), ExtractUserKey(b.smallest)) < 0 ||
        ucmp->Compare(ExtractUserKey(b.largest), ExtractUserKey(a.smallest)) < 0) {
      return false;
    }
    return !(a.largest_seqno < b.smallest_seqno || b.largest_seqno < a.smallest_seqno);
  }

  Status MergeTables(uint32_t cf_id, const std::vector<size_t>& members,
                     std::vector<TableInfo>* added) {
    std::vector<std::unique_ptr<BlockBasedTable>> readers;
    std::vector<std::unique_ptr<InternalIterator>> children;
    CompactionRangeDelAggregator agg(&icmp_, {});
    ReadOptions ro;
    ro.fill_cache = false;
    Status s;
    for (size_t m : members) {
      uint64_t size = 0;
      readers.push_back(OpenTable(tables_[m].meta.number, &size, &s));
      if (!s.ok()) return s;
      children.emplace_back(readers.back()->NewIterator(ro));
      std::unique_ptr<InternalIterator> rit(readers.back()->NewRangeTombstoneIterator(ro));
      if (rit != nullptr) {
        s = agg.AddTombstones(rit.get());
        if (!s.ok()) return s;
      }
    }
    std::unique_ptr<InternalIterator> merged(NewMergingIterator(&icmp_, std::move(children)));
    std::vector<uint64_t> numbers;
    s = WriteTables(cf_id, merged.get(), &agg, &numbers);
    merged.reset();
    readers.clear();
    if (!s.ok()) return s;
    for (uint64_t number : numbers) {
      TableInfo info;
      s = ScanTableImpl(number, &info);
      if (!s.ok()) return s;
      added->push_back(std::move(info));
    }
    std::string list;
    for (size_t m : members) {
      list += " " + std::to_string(tables_[m].meta.number);
      archive_after_.push_back(tables_[m].meta.number);
    }
    Log(InfoLogLevel::kWarn, info_log_,
        "repair: tables%s overlap in keys and sequences; merged into %zu new table(s), the "
        "inputs go to lost/",
        list.c_str(), numbers.size());
    return Status::OK();
  }

  // Step 6.
  Status WriteManifest() {
    const uint64_t manifest_number = NewFileNumber();
    const uint64_t log_number = NewFileNumber();  // past every WAL (all moved away)
    std::vector<std::string> records;
    uint32_t max_cf = max_column_family_;
    for (const auto& [id, name] : families_) {
      max_cf = std::max(max_cf, id);
      VersionEdit edit;
      edit.SetColumnFamily(id);
      if (id != 0) edit.AddColumnFamily(name);
      edit.SetComparatorName(options_.comparator->Name());
      edit.SetLogNumber(log_number);
      for (const TableInfo& t : tables_) {
        if (t.cf_id == id) edit.AddFile(0, t.meta);
      }
      records.emplace_back();
      edit.EncodeTo(&records.back());
    }
    VersionEdit last;
    last.SetNextFile(next_file_number_);
    last.SetLastSequence(last_sequence_);
    last.SetMaxColumnFamily(max_cf);
    records.emplace_back();
    last.EncodeTo(&records.back());

    const std::string fname = DescriptorFileName(dbname_, manifest_number);
    std::unique_ptr<WritableFile> file;
    FileOptions file_options;
    file_options.use_fsync = options_.use_fsync;
    Status s = fs_->NewWritableFile(fname, file_options, &file);
    if (!s.ok()) return s;
    log::Writer writer(std::move(file), 0, /*recycle_log_files=*/false);
    for (const std::string& r : records) {
      if (s.ok()) s = writer.AddRecord(r);
    }
    if (s.ok()) s = writer.Sync();
    Status c = writer.Close();
    if (s.ok()) s = c;
    if (s.ok()) s = db_dir_->Fsync();
    if (s.ok())
      s = SetCurrentFile(fs_, dbname_, manifest_number, db_dir_.get(), options_.use_fsync);
    if (!s.ok()) {
      fs_->DeleteFile(fname).PermitUncheckedError();
      return s;
    }
    manifests_.erase(std::remove(manifests_.begin(), manifests_.end(), manifest_number),
                     manifests_.end());
    Log(info_log_, "repair: wrote %s: %zu table(s), next file %" PRIu64 ", last sequence %" PRIu64,
        fname.c_str(), tables_.size(), next_file_number_, last_sequence_);
    return Status::OK();
  }

  // Moves a file to <db>/lost/ (kept for inspection, out of the DB's way).
  // Where table `number` is: its path's directory (path 0 for tables this
  // repair wrote).
  std::string TablePath(uint64_t number) const {
    const auto it = table_path_.find(number);
    return TableFileName(paths_[it != table_path_.end() ? it->second : 0].path, number);
  }

  void Archive(const std::string& fname) {
    const std::string lost = dbname_ + "/lost";
    fs_->CreateDirIfMissing(lost).PermitUncheckedError();
    const size_t slash = fname.rfind('/');
    const std::string target =
        lost + "/" + fname.substr(slash == std::string::npos ? 0 : slash + 1);
    Status s = fs_->RenameFile(fname, target);
    Log(s.ok() ? InfoLogLevel::kInfo : InfoLogLevel::kWarn, info_log_,
        "repair: moving %s to lost/: %s", fname.c_str(), s.ToString().c_str());
  }

  const std::string dbname_;
  const std::string wal_dir_;                // WalDirOf(dbname_, options.wal_dir)
  const std::vector<DbPath> paths_;          // TablePathsOf(dbname_, options.db_paths)
  std::map<uint64_t, uint32_t> table_path_;  // table number -> path id (absent: 0)
  Options options_;
  const InternalKeyComparator icmp_;
  FileSystem* fs_ = nullptr;
  BlockBasedTableOptions table_options_;
  std::unique_ptr<FileLock> lock_;
  std::unique_ptr<Directory> db_dir_;
  std::shared_ptr<Logger> owned_log_;
  Logger* info_log_ = nullptr;

  std::vector<uint64_t> table_numbers_;
  std::vector<uint64_t> wal_numbers_;
  std::vector<uint64_t> manifests_;  // newest first
  uint64_t max_number_ = 0;
  uint64_t old_next_file_ = 0;
  uint64_t next_file_number_ = 2;
  SequenceNumber last_sequence_ = 0;
  uint32_t max_column_family_ = 0;

  // With an intact MANIFEST: the tables it lists and its next file number
  // (0: no table is known to be obsolete).
  std::set<uint64_t> manifest_live_;
  uint64_t manifest_next_file_ = 0;
  std::map<uint32_t, std::string> families_;      // live families by id
  bool families_known_ = false;                   // from a readable MANIFEST
  std::map<uint64_t, uint32_t> file_family_;      // table -> family, old MANIFESTs
  std::map<uint64_t, uint32_t> produced_family_;  // tables written by this repair
  std::vector<TableInfo> tables_;
  std::vector<uint64_t> archive_after_;  // merged inputs
};

}  // namespace

Status RepairDB(const std::string& path, const Options& options) {
  if (options.env == nullptr) return Status::InvalidArgument("options.env must not be null");
  if (options.comparator == nullptr) {
    return Status::InvalidArgument("options.comparator must not be null");
  }
  Repairer repairer(path, options);
  return repairer.Run();
}

}  // namespace strata
