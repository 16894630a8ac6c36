#include "table/block_based_table_builder.h"

#include <algorithm>
#include <bitset>
#include <cassert>
#include <utility>
#include <vector>

#include "cache/cache_reservation_manager.h"
#include "strata/flush_block_policy.h"
#include "table/block.h"
#include "table/block_builder.h"
#include "table/compression.h"
#include "table/filter_policy.h"
#include "table/format.h"
#include "table/full_filter_block.h"
#include "table/meta_blocks.h"
#include "table/partitioned_filter_block.h"
#include "table/partitioned_index.h"
#include "util/coding.h"
#include "util/stop_watch.h"

namespace strata {

namespace {

// The "rocksdb.compression_options" property text, as RocksDB 7.8.3 writes it.
std::string CompressionOptionsString(const CompressionOptions& o) {
  return "window_bits=" + std::to_string(o.window_bits) + "; level=" + std::to_string(o.level) +
         "; strategy=" + std::to_string(o.strategy) +
         "; max_dict_bytes=" + std::to_string(o.max_dict_bytes) +
         "; zstd_max_train_bytes=" + std::to_string(o.zstd_max_train_bytes) +
         "; enabled=" + std::to_string(o.enabled ? 1 : 0) +
         "; max_dict_buffer_bytes=" + std::to_string(o.max_dict_buffer_bytes) +
         "; use_zstd_dict_trainer=" + std::to_string(o.use_zstd_dict_trainer ? 1 : 0) + "; ";
}

// A data block held back while the dictionary is not built yet, with the
// first and last keys its index entry needs.
struct BufferedBlock {
  std::string contents;
  std::string first_key;
  std::string last_key;
};

// The data block as a FlushBlockPolicy reads it.
class DataBlockViewImpl final : public DataBlockView {
 public:
  explicit DataBlockViewImpl(const BlockBuilder* block) : block_(block) {}
  bool empty() const override { return block_->empty(); }
  size_t CurrentSizeEstimate() const override { return block_->CurrentSizeEstimate(); }
  size_t EstimateSizeAfterKV(const Slice& key, const Slice& value) const override {
    return block_->EstimateSizeAfterKV(key, value);
  }

 private:
  const BlockBuilder* const block_;
};

struct RangeTombstone {
  std::string begin_ikey;  // begin user key | trailer(seq, kTypeRangeDeletion)
  std::string end_user_key;
};

}  // namespace

struct BlockBasedTableBuilder::Rep {
  Rep(const TableBuilderOptions& opts, WritableFile* f)
      : options(opts),
        table_options(options.table_options),
        user_cmp(opts.user_comparator),
        icmp(opts.user_comparator),
        file(f),
        data_block(std::max(1, table_options.block_restart_interval),
                   table_options.use_delta_encoding,
                   table_options.data_block_index_type ==
                       BlockBasedTableOptions::DataBlockIndexType::kDataBlockBinaryAndHash,
                   table_options.data_block_hash_table_util_ratio),
        index_block(std::max(1, table_options.index_block_restart_interval), true),
        user_index_block(std::max(1, table_options.index_block_restart_interval), true),
        compression(CompressionTypeSupported(opts.compression) ? opts.compression : kNoCompression),
        checksum(table_options.checksum),
        format_version(table_options.format_version),
        base_context_checksum(
            FormatVersionUsesContextChecksum(format_version) ? NewBaseContextChecksum() : 0) {
    if (checksum > kXXH3) checksum = kXXH3;
    status = ValidateFormatVersionForWrite(format_version);
    if (status.ok() &&
        table_options.index_type != BlockBasedTableOptions::IndexType::kBinarySearch &&
        table_options.index_type != BlockBasedTableOptions::IndexType::kTwoLevelIndexSearch) {
      // Not built (the DB refuses them at open; a lone builder fails).
      status = Status::InvalidArgument(
          "BlockBasedTableOptions::index_type " +
          std::to_string(static_cast<int>(table_options.index_type)) +
          (table_options.index_type == BlockBasedTableOptions::IndexType::kHashSearch
               ? " (kHashSearch)"
               : " (kBinarySearchWithFirstKey)") +
          " is not supported: use kBinarySearch or kTwoLevelIndexSearch");
    }
    if (table_options.index_type == BlockBasedTableOptions::IndexType::kTwoLevelIndexSearch) {
      pindex = std::make_unique<PartitionedIndexBuilder>(table_options.index_block_restart_interval,
                                                         table_options.metadata_block_size,
                                                         table_options.block_size_deviation);
    }
    if (table_options.whole_key_filtering || opts.prefix_extractor != nullptr) {
      FilterBuildingContext filter_context;
      filter_context.compaction_style = opts.compaction_style;
      filter_context.level_at_creation = opts.level_at_creation;
      filter_context.reason = opts.reason;
      auto bits = NewFilterBitsBuilder(table_options.filter_policy.get(), filter_context);
      if (bits != nullptr && pindex != nullptr && table_options.partition_filters) {
        // The partition target: metadata_block_size less the deviation, as
        // RocksDB sizes it (a cut lands only at the next data block).
        const uint64_t dev =
            static_cast<uint64_t>(std::clamp(table_options.block_size_deviation, 0, 100));
        const uint64_t bytes =
            std::max<uint64_t>(1, (table_options.metadata_block_size * (100 - dev) + 99) / 100);
        pfilter = std::make_unique<PartitionedFilterBlockBuilder>(
            std::move(bits), opts.prefix_extractor, table_options.whole_key_filtering,
            table_options.index_block_restart_interval, pindex.get(),
            static_cast<size_t>(std::min<uint64_t>(bytes, 0xffffffffu)));
      } else if (bits != nullptr) {
        filter =
            opts.prefix_extractor == nullptr
                ? std::make_unique<FullFilterBlockBuilder>(std::move(bits))
                : std::make_unique<FullFilterBlockBuilder>(std::move(bits), opts.prefix_extractor,
                                                           table_options.whole_key_filtering);
      }
    }
    if (opts.collector_factories != nullptr && !opts.collector_factories->empty()) {
      TablePropertiesCollectorFactory::Context context;
      context.column_family_id = opts.column_family_id;
      context.level_at_creation = opts.level_at_creation;
      collector_names = "[";
      for (const auto& factory : *opts.collector_factories) {
        if (factory == nullptr) continue;
        if (collector_names.size() > 1) collector_names += ",";
        collector_names += factory->Name();
        std::unique_ptr<TablePropertiesCollector> c(
            factory->CreateTablePropertiesCollector(context));
        if (c != nullptr) collectors.push_back(std::move(c));
      }
      collector_names += "]";
    }
    if (opts.compression_opts.max_dict_bytes > 0 && CompressionTypeUsesDictionary(compression)) {
      buffering = true;
      const uint64_t max_buffer = opts.compression_opts.max_dict_buffer_bytes;
      const uint64_t target = opts.target_file_size;
      buffer_limit =
          target == 0 ? max_buffer : (max_buffer == 0 ? target : std::min(target, max_buffer));
    }
    // Issue 19: filter construction and the dictionary sample buffer
    // charged to the block cache (per builder, as RocksDB does).
    if (table_options.block_cache != nullptr && !table_options.no_block_cache) {
      const CacheUsageOptions& c = table_options.cache_usage_options;
      if ((filter != nullptr || pfilter != nullptr) &&
          RoleCharged(c, CacheEntryRole::kFilterConstruction)) {
        filter_charge = std::make_unique<CacheReservationManager>(
            table_options.block_cache, CacheEntryRole::kFilterConstruction);
      }
      if (opts.charge_working_memory) {
        work_charge = std::make_unique<CacheReservationManager>(table_options.block_cache,
                                                                CacheEntryRole::kMisc);
        ChargeWork();
      }
      if (buffering && RoleCharged(c, CacheEntryRole::kCompressionDictionaryBuildingBuffer)) {
        dict_charge = std::make_unique<CacheReservationManager>(
            table_options.block_cache, CacheEntryRole::kCompressionDictionaryBuildingBuffer);
      }
    }
    const size_t block_size = std::max<size_t>(1, table_options.block_size);
    const int deviation = std::clamp(table_options.block_size_deviation, 0, 100);
    block_size_limit = block_size;
    block_size_deviation_limit = (block_size * static_cast<size_t>(100 - deviation) + 99) / 100;
    if (table_options.flush_block_policy_factory != nullptr) {
      flush_policy =
          table_options.flush_block_policy_factory->NewFlushBlockPolicy(table_options, data_view);
    }
  }

  const TableBuilderOptions options;
  const BlockBasedTableOptions& table_options;
  const Comparator* user_cmp;
  InternalKeyComparator icmp;
  WritableFile* file;
  uint64_t offset = 0;
  Status status;

  BlockBuilder data_block;
  DataBlockViewImpl data_view{&data_block};
  // From table_options.flush_block_policy_factory; null: the size rule
  // inline in Add.
  std::unique_ptr<FlushBlockPolicy> flush_policy;
  // The index is built twice, with internal-key separators and with their
  // user-key part; Finish keeps the second unless a user key spans blocks.
  BlockBuilder index_block;
  BlockBuilder user_index_block;
  bool separator_needs_sequence = false;
  std::unique_ptr<FullFilterBlockBuilder> filter;
  // kTwoLevelIndexSearch: the index goes to pindex (index_block and
  // user_index_block stay empty), and with partition_filters the filter to
  // pfilter (filter stays null).
  std::unique_ptr<PartitionedIndexBuilder> pindex;
  std::unique_ptr<PartitionedFilterBlockBuilder> pfilter;
  std::vector<RangeTombstone> tombstones;
  // Charges to the block cache (issue 19); null when not charged.
  std::unique_ptr<CacheReservationManager> filter_charge;
  std::unique_ptr<CacheReservationManager> work_charge;
  // The working memory charged by work_charge (see
  // TableBuilderOptions::charge_working_memory).
  size_t WorkingMemory() const {
    size_t n = options.file_buffer_bytes + data_block.CurrentSizeEstimate() +
               compressed_buf.capacity() + index_block.CurrentSizeEstimate() +
               user_index_block.CurrentSizeEstimate();
    if (pindex != nullptr) n += pindex->MemoryHeld();
    return n;
  }
  // Raises the working-memory charge (only raised while building: it grows
  // with the index; Finish releases it).
  void ChargeWork() {
    if (work_charge == nullptr) return;
    const size_t bytes = WorkingMemory();
    if (bytes > work_charge->GetTotalReservedCacheSize()) {
      work_charge->UpdateCacheReservation(bytes).PermitUncheckedError();
    }
  }
  // Raises the filter charge to `bytes` (the filter builder's memory) a
  // dummy entry's worth at a time; it only falls when the filter is
  // written. A full strict cache leaves the filter built anyway.
  void ChargeFilter(size_t bytes) {
    if (filter_charge != nullptr && bytes > filter_charge->GetTotalReservedCacheSize()) {
      filter_charge->UpdateCacheReservation(bytes).PermitUncheckedError();
    }
  }
  std::unique_ptr<CacheReservationManager> dict_charge;

  CompressionType compression;
  ChecksumType checksum;
  // format_version (5, 6 or 7; validated by the options) and, for 6 and 7,
  // the file's random base for context checksums (0 otherwise).
  const uint32_t format_version;
  const uint32_t base_context_checksum;
  // Compression types of the blocks written (format_version 7 records them).
  std::bitset<256> types_used;
  size_t block_size_limit;
  size_t block_size_deviation_limit;

  // Dictionary compression (see the header): while `buffering`, finished
  // data blocks wait in `buffered` (buffered_bytes of contents; at most
  // buffer_limit, 0 = no limit); then `dict` compresses every data block.
  bool buffering = false;
  uint64_t buffer_limit = 0;
  uint64_t buffered_bytes = 0;
  std::vector<BufferedBlock> buffered;
  std::string first_key_in_block;
  std::unique_ptr<CompressionDict> dict;

  std::string last_key;
  bool pending_index_entry = false;
  BlockHandle pending_handle;
  BlockHandle last_index_handle;
  bool has_last_index_handle = false;
  std::string compressed_buf;
  std::string handle_buf;
  std::string delta_buf;
  std::string separator_buf;

  TableProperties props;
  bool closed = false;

  // User property collectors (empty: none) and the factories' names as
  // RocksDB records them ("[A,B]").
  std::vector<std::unique_ptr<TablePropertiesCollector>> collectors;
  std::string collector_names = "[]";
  bool need_compact = false;
};

BlockBasedTableBuilder::BlockBasedTableBuilder(const TableBuilderOptions& options,
                                               WritableFile* file)
    : rep_(new Rep(options, file)) {}

BlockBasedTableBuilder::~BlockBasedTableBuilder() {
  assert(rep_->closed || rep_->props.num_entries == 0);
  delete rep_;
}

Status BlockBasedTableBuilder::status() const { return rep_->status; }
uint64_t BlockBasedTableBuilder::NumEntries() const { return rep_->props.num_entries; }
bool BlockBasedTableBuilder::IsEmpty() const {
  return rep_->props.num_entries == 0 && rep_->tombstones.empty();
}
uint64_t BlockBasedTableBuilder::FileSize() const { return rep_->offset; }
const TableProperties& BlockBasedTableBuilder::GetTableProperties() const { return rep_->props; }
bool BlockBasedTableBuilder::NeedCompact() const { return rep_->need_compact; }

namespace {

EntryType EntryTypeOf(ValueType type) {
  switch (type) {
    case kTypeValue:
      return kEntryPut;
    case kTypeDeletion:
      return kEntryDelete;
    case kTypeSingleDeletion:
      return kEntrySingleDelete;
    case kTypeMerge:
      return kEntryMerge;
    case kTypeRangeDeletion:
      return kEntryRangeDeletion;
    case kTypeBlobIndex:
      return kEntryBlobIndex;
    case kTypeDeletionWithTimestamp:
      return kEntryDeleteWithTimestamp;
    default:
      return kEntryOther;
  }
}

}  // namespace

void BlockBasedTableBuilder::CollectEntry(const Slice& key, const Slice& value) {
  Rep* r = rep_;
  const uint64_t footer = ExtractInternalKeyFooter(key);
  const EntryType type = EntryTypeOf(static_cast<ValueType>(footer & 0xff));
  for (const auto& c : r->collectors) {
    // As in RocksDB, a collector's error does not fail the table.
    c->AddUserKey(ExtractUserKey(key), value, type, footer >> 8, r->offset).PermitUncheckedError();
  }
}

void BlockBasedTableBuilder::Add(const Slice& key, const Slice& value) {
  Rep* r = rep_;
  assert(!r->closed);
  if (!r->status.ok()) return;
  if (key.size() < kInternalKeyTrailerSize) {
    r->status = Status::InvalidArgument("table builder: key shorter than an internal key");
    return;
  }
  if (r->props.num_entries > 0 && r->icmp.Compare(key, r->last_key) <= 0) {
    r->status = Status::InvalidArgument("table builder: keys added out of order");
    return;
  }
  if (r->flush_policy != nullptr) {
    // Asked for every entry, as RocksDB asks; an empty block is not cut.
    if (r->flush_policy->Update(key, value) && !r->data_block.empty()) {
      FlushDataBlock();
      if (!r->status.ok()) return;
    }
  } else if (!r->data_block.empty()) {
    const size_t current = r->data_block.CurrentSizeEstimate();
    if (current >= r->block_size_limit ||
        (current > r->block_size_deviation_limit &&
         r->data_block.EstimateSizeAfterKV(key, value) > r->block_size_limit)) {
      FlushDataBlock();
      if (!r->status.ok()) return;
    }
  }
  if (r->pending_index_entry) {
    AddIndexEntry(&key);
  }
  const Slice user_key = ExtractUserKey(key);
  if (r->filter != nullptr) {
    r->filter->Add(user_key);
    // The key hashes (8 bytes each) are charged a dummy entry's worth at a
    // time.
    r->ChargeFilter(r->filter->NumAdded() * sizeof(uint64_t));
  } else if (r->pfilter != nullptr && !r->buffering) {
    // Partitions follow the index: while blocks are buffered their keys
    // wait (EnterUnbuffered adds them in RocksDB's order).
    r->pfilter->Add(user_key);
    r->ChargeFilter(r->pfilter->MemoryHeld());
  }

  if (r->buffering && r->data_block.empty()) r->first_key_in_block.assign(key.data(), key.size());
  r->data_block.Add(key, value);
  r->last_key.assign(key.data(), key.size());
  if (!r->collectors.empty()) CollectEntry(key, value);

  TableProperties& p = r->props;
  ++p.num_entries;
  p.raw_key_size += key.size();
  p.raw_value_size += value.size();
  switch (ExtractValueType(key)) {
    case kTypeDeletion:
    case kTypeSingleDeletion:
    case kTypeDeletionWithTimestamp:
      ++p.num_deletions;
      break;
    case kTypeMerge:
      ++p.num_merge_operands;
      break;
    default:
      break;
  }
}

void BlockBasedTableBuilder::AddRangeTombstone(const Slice& begin_user_key, SequenceNumber seq,
                                               const Slice& end_user_key) {
  Rep* r = rep_;
  assert(!r->closed);
  RangeTombstone t;
  AppendInternalKey(&t.begin_ikey, begin_user_key, seq, kTypeRangeDeletion);
  t.end_user_key.assign(end_user_key.data(), end_user_key.size());
  r->props.raw_key_size += t.begin_ikey.size();
  r->props.raw_value_size += t.end_user_key.size();
  r->tombstones.push_back(std::move(t));
}

void BlockBasedTableBuilder::FlushDataBlock() {
  Rep* r = rep_;
  if (r->data_block.empty()) return;
  assert(!r->pending_index_entry);
  const Slice raw = r->data_block.Finish();
  if (r->buffering) {
    BufferedBlock b;
    b.contents.assign(raw.data(), raw.size());
    b.first_key = std::move(r->first_key_in_block);
    b.last_key = r->last_key;
    r->buffered_bytes += b.contents.size();
    r->buffered.push_back(std::move(b));
    r->data_block.Reset();
    bool full = r->buffer_limit != 0 && r->buffered_bytes > r->buffer_limit;
    // A charge the cache cannot take ends the buffering (RocksDB's rule).
    if (!full && r->dict_charge != nullptr) {
      full = !r->dict_charge->UpdateCacheReservation(r->buffered_bytes).ok();
    }
    if (full) EnterUnbuffered();
    return;
  }
  EmitDataBlock(raw);
  r->data_block.Reset();
}

void BlockBasedTableBuilder::EmitDataBlock(const Slice& raw) {
  Rep* r = rep_;
  for (const auto& c : r->collectors) c->BlockAdd(raw.size(), 0, 0);
  uint64_t start = r->offset;
  r->handle_buf.clear();
  WriteBlock(raw, true, &r->handle_buf, nullptr, true);
  if (!r->status.ok()) return;
  r->pending_handle = BlockHandle(start, r->offset - start - kBlockTrailerSize);
  r->pending_index_entry = true;
  ++r->props.num_data_blocks;
  r->props.data_size = r->offset;
  r->ChargeWork();
}

void BlockBasedTableBuilder::EnterUnbuffered() {
  Rep* r = rep_;
  assert(r->buffering);
  r->buffering = false;
  const CompressionOptions& o = r->options.compression_opts;
  std::vector<BufferedBlock> blocks = std::move(r->buffered);
  r->buffered.clear();
  r->buffered_bytes = 0;
  if (r->dict_charge != nullptr) r->dict_charge->UpdateCacheReservation(0).PermitUncheckedError();
  if (blocks.empty()) return;

  // Samples: whole blocks (the last one cut to fit) until the sample budget
  // is spent, visited from the middle in steps of a large prime modulo the
  // block count, which reaches every block once and spreads the samples
  // over the key range.
  const size_t budget = o.zstd_max_train_bytes > 0 ? o.zstd_max_train_bytes : o.max_dict_bytes;
  const size_t n = blocks.size();
  const size_t step = static_cast<size_t>(uint64_t{1000000007} % n);
  std::string samples;
  std::vector<size_t> sample_lens;
  size_t idx = n / 2;
  for (size_t i = 0; i < n && samples.size() < budget; ++i) {
    const std::string& c = blocks[idx].contents;
    const size_t take = std::min(budget - samples.size(), c.size());
    samples.append(c, 0, take);
    sample_lens.push_back(take);
    idx += step;
    if (idx >= n) idx -= n;
  }
  std::string dict = BuildCompressionDictionary(o, std::move(samples), sample_lens);
  if (!dict.empty())
    r->dict = std::make_unique<CompressionDict>(std::move(dict), r->compression, o.level);

  // Write the held blocks in order; each one's index entry separates it
  // from the first key of the next. The last one's entry waits for the
  // next Add (or Finish), as for an unbuffered block.
  const std::string last_key = r->last_key;
  for (size_t i = 0; i < n && r->status.ok(); ++i) {
    if (r->pending_index_entry) {
      const Slice next(blocks[i].first_key);
      AddIndexEntry(&next);
    }
    if (r->pfilter != nullptr) {
      Block block{Slice(blocks[i].contents)};
      BlockIter it;
      block.InitIterator(&r->icmp, &it);
      for (it.SeekToFirst(); it.Valid(); it.Next()) r->pfilter->Add(ExtractUserKey(it.key()));
      r->ChargeFilter(r->pfilter->MemoryHeld());
    }
    EmitDataBlock(blocks[i].contents);
    r->last_key = blocks[i].last_key;
  }
  r->last_key = last_key;
}

void BlockBasedTableBuilder::AddIndexEntry(const Slice* next_key) {
  Rep* r = rep_;
  // A partition closes before this entry when full (judged, as RocksDB
  // does, by the unshortened last key and the full handle).
  // The table's last entry never starts a partition of its own.
  if (r->pindex != nullptr && next_key != nullptr) {
    r->pindex->MaybeCut(r->last_key, r->pending_handle, r->separator_needs_sequence);
  }
  // Separator between the last key of the finished block and next_key.
  std::string& sep = r->separator_buf;
  sep.assign(r->last_key);
  const Slice last_user = ExtractUserKey(r->last_key);
  if (next_key != nullptr) {
    const Slice next_user = ExtractUserKey(*next_key);
    if (r->user_cmp->Compare(last_user, next_user) == 0) {
      // One user key on both sides: only internal keys can separate them.
      r->separator_needs_sequence = true;
    } else {
      std::string shortened(last_user.data(), last_user.size());
      r->user_cmp->FindShortestSeparator(&shortened, next_user);
      // As RocksDB: taken when no longer (a same-length successor counts).
      if (shortened.size() <= last_user.size() && r->user_cmp->Compare(last_user, shortened) < 0) {
        sep.clear();
        AppendInternalKey(&sep, shortened, kMaxSequenceNumber, kValueTypeForSeek);
      }
    }
  }

  const BlockHandle& h = r->pending_handle;
  r->handle_buf.clear();
  h.EncodeTo(&r->handle_buf);
  r->delta_buf.clear();
  if (r->has_last_index_handle) {
    const int64_t delta =
        static_cast<int64_t>(h.size()) - static_cast<int64_t>(r->last_index_handle.size());
    PutVarint64(&r->delta_buf,
                (static_cast<uint64_t>(delta) << 1) ^ static_cast<uint64_t>(delta >> 63));
  }
  if (r->pindex != nullptr) {
    r->pindex->AddEntry(sep, r->handle_buf, r->delta_buf, next_key == nullptr);
  } else {
    r->index_block.AddIndexEntry(sep, r->handle_buf, r->delta_buf);
    r->user_index_block.AddIndexEntry(ExtractUserKey(sep), r->handle_buf, r->delta_buf);
  }
  r->last_index_handle = h;
  r->has_last_index_handle = true;
  r->pending_index_entry = false;
}

void BlockBasedTableBuilder::WriteBlock(const Slice& raw, bool may_compress,
                                        std::string* encoded_handle, uint64_t* stored_size,
                                        bool data_block) {
  Rep* r = rep_;
  Slice contents = raw;
  unsigned char type = kNoCompression;
  Statistics* stats = r->options.statistics;
  if (may_compress && r->compression != kNoCompression) {
    const bool timed = DetailedTimersEnabled(stats);
    SystemClock* clock = timed ? SystemClock::Default().get() : nullptr;
    const uint64_t start = timed ? clock->NowNanos() : 0;
    // Only data blocks (written while a dictionary exists, not the index)
    // use the dictionary: RocksDB reads other blocks without it.
    const bool compressed =
        CompressBlock(r->compression, r->options.compression_opts,
                      data_block ? r->dict.get() : nullptr, raw, &r->compressed_buf);
    if (timed) stats->reportTimeToHistogram(COMPRESSION_TIMES_NANOS, clock->NowNanos() - start);
    if (compressed) {
      contents = Slice(r->compressed_buf);
      type = r->compression;
      RecordTick(stats, NUMBER_BLOCK_COMPRESSED);
      RecordInHistogram(stats, BYTES_COMPRESSED, raw.size());
    } else {
      RecordTick(stats, NUMBER_BLOCK_NOT_COMPRESSED);
    }
  } else if (may_compress) {
    RecordTick(stats, NUMBER_BLOCK_NOT_COMPRESSED);
  }
  if (stored_size != nullptr) *stored_size = contents.size();
  WriteRawBlock(contents, type, encoded_handle);
}

void BlockBasedTableBuilder::WriteRawBlock(const Slice& contents, unsigned char type,
                                           std::string* encoded_handle) {
  Rep* r = rep_;
  if (!r->status.ok()) return;
  const BlockHandle handle(r->offset, contents.size());
  StopWatch sw(SystemClock::Default().get(), r->options.statistics, WRITE_RAW_BLOCK_MICROS);
  r->status = r->file->Append(contents);
  if (r->status.ok()) {
    char trailer[kBlockTrailerSize];
    trailer[0] = static_cast<char>(type);
    EncodeFixed32(trailer + 1, ComputeBlockChecksum(r->checksum, contents.data(), contents.size(),
                                                    static_cast<char>(type)) +
                                   ChecksumModifierForContext(r->base_context_checksum, r->offset));
    r->types_used.set(type);
    r->status = r->file->Append(Slice(trailer, kBlockTrailerSize));
  }
  if (!r->status.ok()) return;
  r->offset += contents.size() + kBlockTrailerSize;
  if (encoded_handle != nullptr) {
    encoded_handle->clear();
    handle.EncodeTo(encoded_handle);
  }
}

Status BlockBasedTableBuilder::Finish() {
  Rep* r = rep_;
  assert(!r->closed);
  r->closed = true;
  FlushDataBlock();
  if (r->buffering) EnterUnbuffered();
  if (r->pending_index_entry) AddIndexEntry(nullptr);
  if (!r->status.ok()) return r->status;
  TableProperties& p = r->props;
  p.data_size = r->offset;

  // Filter block (stored uncompressed).
  std::string filter_name;
  std::string filter_handle;
  if (r->filter != nullptr && r->filter->NumAdded() > 0) {
    p.num_filter_entries = r->filter->NumAdded();
    const Slice filter = r->filter->Finish();
    p.filter_size = filter.size();
    if (r->filter_charge != nullptr) {
      // The finished filter, while it is written; then nothing.
      r->filter_charge->UpdateCacheReservation(filter.size()).PermitUncheckedError();
    }
    WriteRawBlock(filter, kNoCompression, &filter_handle);
    if (r->filter_charge != nullptr)
      r->filter_charge->UpdateCacheReservation(0).PermitUncheckedError();
    filter_name =
        std::string(kFullFilterBlockPrefix) + r->table_options.filter_policy->CompatibilityName();
  } else if (r->pfilter != nullptr && !r->pfilter->empty()) {
    // Partitions, then the filter index over them (all raw).
    p.num_filter_entries = r->pfilter->NumAdded();
    p.filter_size = 0;
    BlockHandle last;
    Slice contents, top;
    while (r->status.ok() &&
           r->pfilter->NextPartition(r->separator_needs_sequence, last, &contents, &top)) {
      p.filter_size += contents.size();
      last = BlockHandle(r->offset, contents.size());
      WriteRawBlock(contents, kNoCompression, nullptr);
    }
    p.filter_size += top.size();
    WriteRawBlock(top, kNoCompression, &filter_handle);
    if (r->filter_charge != nullptr)
      r->filter_charge->UpdateCacheReservation(0).PermitUncheckedError();
    filter_name = std::string(kPartitionedFilterBlockPrefix) +
                  r->table_options.filter_policy->CompatibilityName();
  }

  // Index block.
  BlockHandle index_handle;
  if (r->pindex != nullptr) {
    // Partitions, then the top-level index (compressed like the index).
    const bool compress = r->table_options.enable_index_compression;
    BlockHandle last;
    Slice contents, top;
    while (r->status.ok() &&
           r->pindex->NextPartition(r->separator_needs_sequence, last, &contents, &top)) {
      const uint64_t start = r->offset;
      uint64_t stored = 0;
      std::string unused;
      WriteBlock(contents, compress, &unused, &stored);
      last = BlockHandle(start, stored);
    }
    const uint64_t start = r->offset;
    uint64_t stored = 0;
    std::string unused;
    WriteBlock(top, compress, &unused, &stored);
    index_handle = BlockHandle(start, stored);
    // RocksDB records the raw sizes of all index blocks plus one trailer.
    p.index_size = r->pindex->raw_index_size() + kBlockTrailerSize;
    p.index_partitions = r->pindex->num_partitions();
    p.top_level_index_size = r->pindex->top_level_size();
    p.index_key_is_user_key = r->separator_needs_sequence ? 0 : 1;
    p.index_value_is_delta_encoded = 1;
  } else {
    BlockBuilder& index = r->separator_needs_sequence ? r->index_block : r->user_index_block;
    const Slice raw = index.Finish();
    const uint64_t start = r->offset;
    uint64_t stored = 0;
    std::string unused;
    WriteBlock(raw, r->table_options.enable_index_compression, &unused, &stored);
    index_handle = BlockHandle(start, stored);
    // RocksDB records the uncompressed size (plus one trailer).
    p.index_size = raw.size() + kBlockTrailerSize;
    p.index_key_is_user_key = r->separator_needs_sequence ? 0 : 1;
    p.index_value_is_delta_encoded = 1;
  }

  // Compression dictionary (raw), when one was built; RocksDB writes it
  // between the index and the range deletions.
  std::string dict_handle;
  if (r->dict != nullptr && !r->dict->raw().empty()) {
    WriteRawBlock(r->dict->raw(), kNoCompression, &dict_handle);
  }

  // Range deletions: sorted by internal key, restart interval 1, raw.
  std::string range_del_handle;
  if (!r->tombstones.empty()) {
    std::sort(r->tombstones.begin(), r->tombstones.end(),
              [r](const RangeTombstone& a, const RangeTombstone& b) {
                const int c = r->icmp.Compare(a.begin_ikey, b.begin_ikey);
                if (c != 0) return c < 0;
                return r->user_cmp->Compare(a.end_user_key, b.end_user_key) < 0;
              });
    // Block keys must be distinct: of tombstones with the same begin and
    // sequence keep the widest (the last, as ends sort ascending).
    BlockBuilder range_del(1, true);
    for (size_t i = 0; i < r->tombstones.size(); ++i) {
      if (i + 1 < r->tombstones.size() &&
          r->tombstones[i + 1].begin_ikey == r->tombstones[i].begin_ikey) {
        continue;
      }
      range_del.Add(r->tombstones[i].begin_ikey, r->tombstones[i].end_user_key);
      if (!r->collectors.empty()) {
        CollectEntry(r->tombstones[i].begin_ikey, r->tombstones[i].end_user_key);
      }
      ++p.num_range_deletions;
    }
    p.num_entries += p.num_range_deletions;
    p.num_deletions += p.num_range_deletions;
    WriteRawBlock(range_del.Finish(), kNoCompression, &range_del_handle);
  }

  // Properties block (raw). RocksDB records the format_version from 6 on
  // (7.8.3 writes 0).
  p.format_version = r->format_version >= 6 ? r->format_version : 0;
  p.fixed_key_len = 0;
  p.column_family_id = r->options.column_family_id;
  p.column_family_name = r->options.column_family_name;
  p.comparator_name = r->user_cmp->Name();
  p.merge_operator_name = r->options.merge_operator_name;
  p.prefix_extractor_name = r->options.prefix_extractor != nullptr
                                ? std::string(r->options.prefix_extractor->Name())
                                : r->options.prefix_extractor_name;
  p.property_collectors_names = r->collector_names;
  p.compression_name = CompressionNameProperty(r->format_version, r->compression, r->types_used);
  p.compression_options = CompressionOptionsString(r->options.compression_opts);
  p.filter_policy_name =
      r->table_options.filter_policy != nullptr ? r->table_options.filter_policy->Name() : "";
  p.whole_key_filtering = r->table_options.whole_key_filtering ? "1" : "0";
  p.prefix_filtering = r->options.prefix_extractor != nullptr ? "1" : "0";
  p.index_type =
      r->pindex != nullptr
          ? static_cast<uint32_t>(BlockBasedTableOptions::IndexType::kTwoLevelIndexSearch)
          : 0;
  p.creation_time = r->options.creation_time;
  p.oldest_key_time = r->options.oldest_key_time;
  p.file_creation_time = r->options.file_creation_time;
  p.original_file_number = r->options.original_file_number;
  p.orig_file_number = p.original_file_number;
  p.db_id = r->options.db_id;
  p.db_session_id = r->options.db_session_id;
  p.db_host_id = r->options.db_host_id;
  p.user_collected_properties.clear();
  for (const auto& [name, value] : r->options.extra_properties) {
    p.user_collected_properties[name] = value;
  }
  for (const auto& c : r->collectors) {
    // A collector whose Finish fails adds nothing; names already taken (a
    // built-in property, an earlier collector's) keep their first value,
    // as RocksDB's property block builder does.
    UserCollectedProperties collected;
    if (!c->Finish(&collected).ok()) continue;
    for (auto& [name, value] : collected) {
      if (IsStandardPropertyName(name)) continue;
      p.user_collected_properties.emplace(name, std::move(value));
    }
    for (auto& [name, value] : c->GetReadableProperties()) {
      p.readable_properties.emplace(name, std::move(value));
    }
    if (c->NeedCompact()) r->need_compact = true;
  }
  std::string props_block;
  EncodePropertiesBlock(p, &props_block);
  std::string props_handle;
  WriteRawBlock(props_block, kNoCompression, &props_handle);

  // Metaindex, names in bytewise order: "fullfilter..." <
  // "rocksdb.compression_dict" < "rocksdb.properties" < "rocksdb.range_del".
  MetaIndexBuilder metaindex;
  if (!filter_name.empty()) metaindex.Add(filter_name, filter_handle);
  if (!dict_handle.empty()) metaindex.Add(kCompressionDictBlockName, dict_handle);
  std::string index_handle_encoding;  // format_version >= 6: the index is found here
  if (FormatVersionUsesContextChecksum(r->format_version)) {
    index_handle.EncodeTo(&index_handle_encoding);
    metaindex.Add(kIndexBlockName, index_handle_encoding);
  }
  metaindex.Add(kPropertiesBlockName, props_handle);
  if (!range_del_handle.empty()) metaindex.Add(kRangeDelBlockName, range_del_handle);
  const uint64_t metaindex_offset = r->offset;
  const Slice metaindex_contents = metaindex.Finish();
  WriteRawBlock(metaindex_contents, kNoCompression, nullptr);
  if (!r->status.ok()) return r->status;

  Footer footer;
  footer.set_checksum_type(r->checksum);
  footer.set_format_version(r->format_version);
  footer.set_base_context_checksum(r->base_context_checksum);
  footer.set_metaindex_handle(BlockHandle(metaindex_offset, metaindex_contents.size()));
  footer.set_index_handle(index_handle);
  std::string footer_bytes;
  footer.EncodeTo(&footer_bytes, r->offset);
  r->status = r->file->Append(footer_bytes);
  if (r->status.ok()) r->offset += footer_bytes.size();
  // The index and buffers are written: the working memory goes (an error
  // return above leaves it to the destructor).
  if (r->work_charge != nullptr) r->work_charge->UpdateCacheReservation(0).PermitUncheckedError();
  return r->status;
}

void BlockBasedTableBuilder::Abandon() {
  assert(!rep_->closed);
  rep_->closed = true;
  if (rep_->work_charge != nullptr) {
    rep_->work_charge->UpdateCacheReservation(0).PermitUncheckedError();
  }
}

}  // namespace strata
