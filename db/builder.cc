// BuildTables (see the header).
#include "db/builder.h"

#include <algorithm>

#include "db/compaction/compaction_range_del_aggregator.h"
#include "db/filename.h"
#include "env/checksumming_writable_file.h"
#include "env/paced_writable_file.h"
#include "memtable/dynamic_bloom.h"
#include "table/block_based_table_builder.h"
#include "util/stop_watch.h"
#include "util/sync_point.h"

namespace strata {

namespace {

// Restricts a forward iteration over `input` to user keys in [begin, end).
class RangeIterator final : public InternalIterator {
 public:
  RangeIterator(InternalIterator* input, const Comparator* ucmp, const Slice* begin,
                const Slice* end)
      : input_(input), ucmp_(ucmp), begin_(begin), end_(end) {}

  bool Valid() const override { return valid_; }
  void SeekToFirst() override {
    if (begin_ != nullptr) {
      std::string target;
      AppendInternalKey(&target, *begin_, kMaxSequenceNumber, kValueTypeForSeek);
      input_->Seek(target);
    } else {
      input_->SeekToFirst();
    }
    Update();
  }
  void SeekToLast() override { valid_ = false; }
  void Seek(const Slice& target) override {
    input_->Seek(target);
    Update();
  }
  void SeekForPrev(const Slice&) override { valid_ = false; }
  void Next() override {
    input_->Next();
    Update();
  }
  void Prev() override { valid_ = false; }
  Slice key() const override { return input_->key(); }
  Slice value() const override { return input_->value(); }
  Status status() const override { return input_->status(); }

 private:
  void Update() {
    valid_ = input_->Valid() &&
             (end_ == nullptr || ucmp_->Compare(ExtractUserKey(input_->key()), *end_) < 0);
  }
  InternalIterator* input_;
  const Comparator* ucmp_;
  const Slice* begin_;
  const Slice* end_;
  bool valid_ = false;
};

}  // namespace

Status BuildTables(const BuildTablesOptions& o, InternalIterator* input,
                   std::vector<FileMetaData>* outputs, BuildTablesStats* stats) {
  outputs->clear();
  const Comparator* ucmp = o.options->comparator;
  const InternalKeyComparator icmp(ucmp);
  RangeIterator ranged(input, ucmp, o.begin, o.end);
  CompactionIteratorOptions copts;
  copts.user_cmp = ucmp;
  copts.snapshots = o.snapshots;
  copts.bottommost = o.bottommost;
  copts.key_may_exist_below = o.key_may_exist_below;
  copts.single_delete_key_may_exist_below = o.single_delete_key_may_exist_below;
  copts.merge_operator = o.merge_operator;
  copts.compaction_filter = o.compaction_filter;
  copts.filter_level = o.filter_level;
  copts.range_del_agg = o.range_del_agg;
  copts.logger = o.logger;
  copts.statistics = o.statistics;
  CompactionIterator citer(&ranged, std::move(copts));

  // Range tombstones: file i owns user keys [file_lower, next file's first
  // user key); see the header.
  CompactionRangeDelAggregator* const agg =
      o.range_del_agg != nullptr && !o.range_del_agg->empty() ? o.range_del_agg : nullptr;
  std::string file_lower;
  bool file_has_lower = o.begin != nullptr;
  if (file_has_lower) file_lower.assign(o.begin->data(), o.begin->size());
  std::vector<RangeTombstone> tombstones;
  std::string tkey;
  // The current file's user-key hashes, for its key filter (if wanted).
  std::vector<uint64_t> key_hashes;

  std::vector<std::string> created;
  std::unique_ptr<WritableFile> file;
  // The current file's full-file checksum in the making (null without
  // DBOptions::file_checksum_gen_factory, or when it gives no generator).
  std::unique_ptr<FileChecksumGenerator> checksum_gen;
  std::unique_ptr<BlockBasedTableBuilder> builder;
  FileMetaData meta;
  std::string last_user_key;
  size_t gp_index = 0;
  uint64_t gp_overlapped = 0;
  bool gp_seen_key = false;
  const uint64_t max_gp_overlap =
      o.max_output_file_size > (~0ull / 16) ? ~0ull : 10 * o.max_output_file_size;
  std::unique_ptr<SstPartitioner> partitioner;
  if (o.partitioner_factory != nullptr) {
    partitioner = o.partitioner_factory->CreatePartitioner(o.partitioner_context);
  }
  Status s;

  // Fills `tombstones` with what the current file's range must carry.
  auto collect_tombstones = [&](const Slice* upper) {
    tombstones.clear();
    if (agg == nullptr) return;
    const Slice lower(file_lower);
    agg->GetTombstonesForOutput(file_has_lower ? &lower : nullptr, upper, o.bottommost,
                                &tombstones);
  };
  // Writes `tombstones` into the current file and widens its bounds.
  auto add_tombstones = [&]() {
    for (const RangeTombstone& t : tombstones) {
      builder->AddRangeTombstone(t.start, t.seq, t.end);
      tkey.clear();
      AppendInternalKey(&tkey, t.start, t.seq, kTypeRangeDeletion);
      if (meta.smallest.empty() || icmp.Compare(tkey, meta.smallest) < 0) meta.smallest = tkey;
      tkey.clear();
      AppendInternalKey(&tkey, t.end, kMaxSequenceNumber, kTypeRangeDeletion);
      if (meta.largest.empty() || icmp.Compare(tkey, meta.largest) > 0) meta.largest = tkey;
      meta.smallest_seqno = std::min(meta.smallest_seqno, t.seq);
      meta.largest_seqno = std::max(meta.largest_seqno, t.seq);
      stats->num_output_range_tombstones++;
    }
  };

  // The outcome of the current file, to the LOG and the listeners.
  std::string current_fname;
  auto report_file = [&](const Status& fs, const TableProperties* props) {
    if (o.event_log == nullptr && (o.listeners == nullptr || o.listeners->empty())) return;
    const uint64_t now = o.clock != nullptr ? o.clock->NowMicros() : 0;
    LogAndNotifyTableFileCreationFinished(
        o.event_log, now, o.listeners, o.dbname, o.column_family_name, current_fname, o.job_id,
        meta.number, fs.ok() ? meta.file_size : 0,
        meta.smallest_seqno == kMaxSequenceNumber ? 0 : meta.smallest_seqno, meta.largest_seqno,
        props, o.reason, fs, meta.file_checksum, meta.file_checksum_func_name);
  };

  // upper: the first user key of the next file, or o.end for the last.
  auto finish_file = [&](const Slice* upper) -> Status {
    collect_tombstones(upper);
    add_tombstones();
    TEST_SYNC_POINT("BuildTables:BeforeFinish");
    Status fs = builder->Finish();
    if (fs.ok()) {
      StopWatch sw(o.options->env->GetSystemClock(), o.statistics, o.sync_histogram);
      fs = file->Sync();
    }
    if (fs.ok()) fs = file->Close();
    if (fs.ok() && checksum_gen != nullptr) {
      // The closed file holds exactly the bytes the generator saw.
      checksum_gen->Finalize();
      meta.file_checksum = checksum_gen->GetChecksum();
      meta.file_checksum_func_name = checksum_gen->Name();
    }
    if (fs.ok() && o.key_filter_bits_per_key > 0 && tombstones.empty() && !key_hashes.empty()) {
      const uint64_t bits = key_hashes.size() * uint64_t{o.key_filter_bits_per_key};
      auto filter = std::make_shared<DynamicBloom>(
          nullptr, static_cast<uint32_t>(std::min<uint64_t>(bits, uint64_t{1} << 31)));
      for (uint64_t h : key_hashes) filter->AddHash(h);
      meta.key_filter = std::move(filter);
    }
    key_hashes.clear();
    if (fs.ok()) {
      meta.file_size = builder->FileSize();
      if (o.refine_oldest_ancester_time && !meta.smallest.empty() && !meta.largest.empty()) {
        const uint64_t t = o.refine_oldest_ancester_time(ExtractUserKey(meta.smallest),
                                                         ExtractUserKey(meta.largest));
        if (t != ~uint64_t{0}) meta.oldest_ancester_time = t;
      }
      // A collector's NeedCompact marks the file, recorded in the MANIFEST.
      meta.marked_for_compaction = builder->NeedCompact();
      const TableProperties& tp = builder->GetTableProperties();
      meta.num_entries = tp.num_entries;
      meta.num_deletions = tp.num_deletions;
      meta.raw_key_size = tp.raw_key_size;
      meta.raw_value_size = tp.raw_value_size;
      stats->bytes_written += meta.file_size;
      stats->num_output_files++;
      outputs->push_back(meta);
      stats->table_properties.push_back(
          std::make_shared<const TableProperties>(builder->GetTableProperties()));
    }
    report_file(fs, fs.ok() ? &builder->GetTableProperties() : nullptr);
    builder.reset();
    file.reset();
    checksum_gen.reset();
    return fs;
  };

  auto open_file = [&]() -> Status {
    meta = FileMetaData();
    meta.number = o.new_file_number();
    meta.path_id = o.path_id;
    const std::string fname =
        TableFileName(o.table_dir.empty() ? o.dbname : o.table_dir, meta.number);
    current_fname = fname;
    NotifyTableFileCreationStarted(o.listeners, o.dbname, o.column_family_name, fname, o.job_id,
                                   o.reason);
    FileOptions file_options;
    file_options.use_fsync = o.options != nullptr && o.options->use_fsync;
    if (o.options != nullptr && o.options->use_direct_io_for_flush_and_compaction) {
      // O_DIRECT through an aligned buffer of RocksDB's size option.
      file_options.use_direct_writes = true;
      file_options.writable_file_max_buffer_size = o.options->writable_file_max_buffer_size;
    }
    file_options.strict_bytes_per_sync = o.options != nullptr && o.options->strict_bytes_per_sync;
    Status os = o.fs->NewWritableFile(fname, file_options, &file);
    if (!os.ok()) {
      report_file(os, nullptr);
      return os;
    }
    if (o.options != nullptr) {
      // Rate limiting and range syncs (env/paced_writable_file.h).
      PacedWriteOptions pw;
      pw.rate_limiter = o.options->rate_limiter.get();
      pw.priority = o.io_priority;
      pw.statistics = o.statistics;
      pw.bytes_per_sync = o.options->bytes_per_sync;
      file = NewPacedWritableFile(std::move(file), pw);
    }
    checksum_gen.reset();
    if (o.options != nullptr && o.options->file_checksum_gen_factory != nullptr) {
      // RocksDB's context for a new table file: its name, no requested
      // function.
      FileChecksumGenContext context;
      context.file_name = fname;
      checksum_gen = o.options->file_checksum_gen_factory->CreateFileChecksumGenerator(context);
      if (checksum_gen != nullptr) {
        file = NewChecksummingWritableFile(std::move(file), checksum_gen.get());
      }
    }
    created.push_back(fname);
    TableBuilderOptions bo;
    bo.table_options = o.table_options;
    bo.user_comparator = ucmp;
    bo.compression = o.compression;
    bo.compression_opts = o.compression_opts;
    // The dictionary's sample buffer is bounded by the target size of a
    // compaction's outputs (RocksDB's target_file_size; none for flushes).
    bo.target_file_size = o.max_output_file_size == ~0ull ? 0 : o.max_output_file_size;
    if (o.merge_operator != nullptr) bo.merge_operator_name = o.merge_operator->Name();
    if (o.options != nullptr) bo.prefix_extractor = o.options->prefix_extractor.get();
    bo.column_family_name = o.column_family_name;
    bo.column_family_id = o.column_family_id;
    const uint64_t ancester_time =
        o.oldest_ancester_time != 0 ? o.oldest_ancester_time : o.creation_time;
    bo.creation_time = o.creation_property_is_file_time ? o.creation_time : ancester_time;
    bo.oldest_key_time = o.oldest_key_time;
    bo.file_creation_time = o.creation_time;
    bo.original_file_number = meta.number;
    bo.db_id = o.db_id;
    bo.db_session_id = o.db_session_id;
    bo.statistics = o.statistics;
    if (o.options != nullptr) {
      bo.collector_factories = &o.options->table_properties_collector_factories;
    }
    bo.level_at_creation = o.level_unknown ? -1 : o.output_level;
    bo.reason = o.reason;
    if (o.options != nullptr) bo.compaction_style = o.options->compaction_style;
    if (o.options != nullptr && o.options->memory_budget > 0) {
      // Under a budget, flush and compaction buffers count in its cache.
      bo.charge_working_memory = true;
      bo.file_buffer_bytes = file_options.writable_file_max_buffer_size;
    }
    meta.file_creation_time = o.creation_time;
    meta.oldest_ancester_time = ancester_time;
    builder = std::make_unique<BlockBasedTableBuilder>(bo, file.get());
    return Status::OK();
  };

  for (citer.SeekToFirst(); citer.Valid(); citer.Next()) {
    const Slice key = citer.key();
    const Slice user_key = ExtractUserKey(key);
    // Grandparent overlap accumulates as keys pass grandparent files.
    bool cut_for_grandparents = false;
    while (gp_index < o.grandparents.size() &&
           icmp.Compare(key, o.grandparents[gp_index]->largest) > 0) {
      if (gp_seen_key) gp_overlapped += o.grandparents[gp_index]->file_size;
      ++gp_index;
    }
    gp_seen_key = true;
    if (gp_overlapped > max_gp_overlap) cut_for_grandparents = true;
    // The partitioner is asked first, for every entry after a file's first
    // (RocksDB's order).
    bool cut_for_partitioner = false;
    if (partitioner != nullptr && builder != nullptr) {
      const Slice prev(last_user_key);
      cut_for_partitioner = partitioner->ShouldPartition(PartitionerRequest(
                                prev, user_key, builder->FileSize())) == kRequired;
    }

    if (builder != nullptr && ucmp->Compare(user_key, last_user_key) != 0 &&
        (cut_for_partitioner || builder->FileSize() >= o.max_output_file_size ||
         cut_for_grandparents)) {
      s = finish_file(&user_key);
      if (!s.ok()) break;
      gp_overlapped = 0;
      file_lower.assign(user_key.data(), user_key.size());
      file_has_lower = true;
    }
    if (builder == nullptr) {
      s = open_file();
      if (!s.ok()) break;
      meta.smallest.assign(key.data(), key.size());
    }
    if (o.key_filter_bits_per_key > 0 &&
        (key_hashes.empty() || ucmp->Compare(user_key, last_user_key) != 0)) {
      key_hashes.push_back(DynamicBloom::Hash(user_key));
    }
    builder->Add(key, citer.value());
    meta.largest.assign(key.data(), key.size());
    const SequenceNumber seq = ExtractInternalKeyFooter(key) >> 8;
    meta.smallest_seqno = std::min(meta.smallest_seqno, seq);
    meta.largest_seqno = std::max(meta.largest_seqno, seq);
    last_user_key.assign(user_key.data(), user_key.size());
    stats->num_output_records++;
    if (!builder->status().ok()) {
      s = builder->status();
      break;
    }
  }
  if (s.ok()) s = citer.status();
  if (s.ok() && builder != nullptr) s = finish_file(o.end);
  if (s.ok() && builder == nullptr && outputs->empty() && agg != nullptr) {
    // No point key survived: the range's tombstones may still need a file.
    collect_tombstones(o.end);
    if (!tombstones.empty()) {
      s = open_file();
      if (s.ok()) s = finish_file(o.end);
    }
  }
  stats->iter = citer.stats();
  if (Statistics* st = o.statistics) {
    const CompactionIteratorStats& is = stats->iter;
    st->recordTick(COMPACTION_KEY_DROP_NEWER_ENTRY, is.num_dropped_hidden + is.num_merge_absorbed);
    st->recordTick(COMPACTION_KEY_DROP_OBSOLETE, is.num_dropped_deletions + is.num_dropped_covered);
    st->recordTick(COMPACTION_KEY_DROP_RANGE_DEL, is.num_dropped_range_del);
    st->recordTick(COMPACTION_KEY_DROP_USER, is.num_filter_removed);
  }
  if (!s.ok()) {
    if (builder != nullptr) {
      builder->Abandon();
      report_file(s, nullptr);
    }
    builder.reset();
    file.reset();
    checksum_gen.reset();
    for (const std::string& fname : created) o.fs->DeleteFile(fname).PermitUncheckedError();
    outputs->clear();
  }
  return s;
}

}  // namespace strata
