// Meta blocks: the properties block codec and the metaindex builder
// (contract and layouts in table/meta_blocks.h, docs/format/table.md (Metaindex) and
// docs/format/table.md (Properties)).
//
// The properties are described once, in a table of (name, kind, field): the
// encoder walks it to produce the standard entries, the decoder looks names
// up in it, so the two cannot disagree about a name or its encoding.

#include "table/meta_blocks.h"

#include <algorithm>
#include <cassert>
#include <climits>
#include <cstring>
#include <iterator>
#include <memory>
#include <utility>
#include <vector>

#include "strata/comparator.h"
#include "table/block.h"
#include "table/block_builder.h"
#include "util/coding.h"

namespace strata {

const char kPropertiesBlockName[] = "rocksdb.properties";
const char kIndexBlockName[] = "rocksdb.index";
const char kPropertiesBlockOldName[] = "rocksdb.stats";
const char kRangeDelBlockName[] = "rocksdb.range_del";
const char kFullFilterBlockPrefix[] = "fullfilter.";
const char kPartitionedFilterBlockPrefix[] = "partitionedfilter.";
const char kCompressionDictBlockName[] = "rocksdb.compression_dict";

namespace TablePropertiesNames {
const char kDataSize[] = "rocksdb.data.size";
const char kIndexSize[] = "rocksdb.index.size";
const char kIndexPartitions[] = "rocksdb.index.partitions";
const char kTopLevelIndexSize[] = "rocksdb.top-level.index.size";
const char kIndexKeyIsUserKey[] = "rocksdb.index.key.is.user.key";
const char kIndexValueIsDeltaEncoded[] = "rocksdb.index.value.is.delta.encoded";
const char kFilterSize[] = "rocksdb.filter.size";
const char kRawKeySize[] = "rocksdb.raw.key.size";
const char kRawValueSize[] = "rocksdb.raw.value.size";
const char kNumDataBlocks[] = "rocksdb.num.data.blocks";
const char kNumEntries[] = "rocksdb.num.entries";
const char kNumFilterEntries[] = "rocksdb.num.filter_entries";
const char kDeletedKeys[] = "rocksdb.deleted.keys";
const char kMergeOperands[] = "rocksdb.merge.operands";
const char kNumRangeDeletions[] = "rocksdb.num.range-deletions";
const char kFormatVersion[] = "rocksdb.format.version";
const char kFixedKeyLen[] = "rocksdb.fixed.key.length";
const char kColumnFamilyId[] = "rocksdb.column.family.id";
const char kCreationTime[] = "rocksdb.creation.time";
const char kOldestKeyTime[] = "rocksdb.oldest.key.time";
const char kFileCreationTime[] = "rocksdb.file.creation.time";
const char kOriginalFileNumber[] = "rocksdb.original.file.number";
const char kSlowCompressionEstimatedDataSize[] = "rocksdb.sample_for_compression.slow.data.size";
const char kFastCompressionEstimatedDataSize[] = "rocksdb.sample_for_compression.fast.data.size";
const char kSequenceNumberTimeMapping[] = "rocksdb.seqno.time.map";
const char kColumnFamilyName[] = "rocksdb.column.family.name";
const char kComparator[] = "rocksdb.comparator";
const char kMergeOperator[] = "rocksdb.merge.operator";
const char kPrefixExtractorName[] = "rocksdb.prefix.extractor.name";
const char kPropertyCollectors[] = "rocksdb.property.collectors";
const char kCompression[] = "rocksdb.compression";
const char kCompressionOptions[] = "rocksdb.compression_options";
const char kFilterPolicy[] = "rocksdb.filter.policy";
const char kDbId[] = "rocksdb.creating.db.identity";
const char kDbSessionId[] = "rocksdb.creating.session.identity";
const char kDbHostId[] = "rocksdb.creating.host.identity";
const char kIndexType[] = "rocksdb.block.based.table.index.type";
const char kWholeKeyFiltering[] = "rocksdb.block.based.table.whole.key.filtering";
const char kPrefixFiltering[] = "rocksdb.block.based.table.prefix.filtering";
const char kExternalSstFileVersion[] = "rocksdb.external_sst_file.version";
const char kExternalSstFileGlobalSeqno[] = "rocksdb.external_sst_file.global_seqno";
}  // namespace TablePropertiesNames

namespace {

namespace N = TablePropertiesNames;

// How a standard property is stored and when the encoder leaves it out.
enum class Kind {
  kNumber,          // varint64, always written
  kNumberOmitZero,  // varint64, omitted when 0
  kFixed32,         // fixed32, always written
  kString,          // raw bytes, omitted when empty
};

struct PropertyDesc {
  const char* name;
  Kind kind;
  uint64_t TableProperties::*number;     // kNumber*
  uint32_t TableProperties::*fixed32;    // kFixed32
  std::string TableProperties::*string;  // kString
};

constexpr PropertyDesc Num(const char* name, uint64_t TableProperties::*field,
                           Kind kind = Kind::kNumber) {
  return {name, kind, field, nullptr, nullptr};
}
constexpr PropertyDesc Str(const char* name, std::string TableProperties::*field) {
  return {name, Kind::kString, nullptr, nullptr, field};
}

// Every property that maps to a TableProperties field (RocksDB's predefined
// properties); any other name is read into user_collected_properties and
// written back from there.
const PropertyDesc kStandardProperties[] = {
    Num(N::kDataSize, &TableProperties::data_size),
    Num(N::kIndexSize, &TableProperties::index_size),
    Num(N::kIndexPartitions, &TableProperties::index_partitions, Kind::kNumberOmitZero),
    Num(N::kTopLevelIndexSize, &TableProperties::top_level_index_size, Kind::kNumberOmitZero),
    Num(N::kIndexKeyIsUserKey, &TableProperties::index_key_is_user_key),
    Num(N::kIndexValueIsDeltaEncoded, &TableProperties::index_value_is_delta_encoded),
    Num(N::kFilterSize, &TableProperties::filter_size),
    Num(N::kRawKeySize, &TableProperties::raw_key_size),
    Num(N::kRawValueSize, &TableProperties::raw_value_size),
    Num(N::kNumDataBlocks, &TableProperties::num_data_blocks),
    Num(N::kNumEntries, &TableProperties::num_entries),
    Num(N::kNumFilterEntries, &TableProperties::num_filter_entries),
    Num(N::kDeletedKeys, &TableProperties::num_deletions),
    Num(N::kMergeOperands, &TableProperties::num_merge_operands),
    Num(N::kNumRangeDeletions, &TableProperties::num_range_deletions),
    Num(N::kFormatVersion, &TableProperties::format_version),
    Num(N::kFixedKeyLen, &TableProperties::fixed_key_len),
    Num(N::kColumnFamilyId, &TableProperties::column_family_id),
    Num(N::kCreationTime, &TableProperties::creation_time),
    Num(N::kOldestKeyTime, &TableProperties::oldest_key_time),
    Num(N::kFileCreationTime, &TableProperties::file_creation_time, Kind::kNumberOmitZero),
    Num(N::kOriginalFileNumber, &TableProperties::original_file_number),
    Num(N::kSlowCompressionEstimatedDataSize,
        &TableProperties::slow_compression_estimated_data_size, Kind::kNumberOmitZero),
    Num(N::kFastCompressionEstimatedDataSize,
        &TableProperties::fast_compression_estimated_data_size, Kind::kNumberOmitZero),
    Str(N::kSequenceNumberTimeMapping, &TableProperties::seqno_to_time_mapping),
    {N::kIndexType, Kind::kFixed32, nullptr, &TableProperties::index_type, nullptr},
    Str(N::kColumnFamilyName, &TableProperties::column_family_name),
    Str(N::kComparator, &TableProperties::comparator_name),
    Str(N::kMergeOperator, &TableProperties::merge_operator_name),
    Str(N::kPrefixExtractorName, &TableProperties::prefix_extractor_name),
    Str(N::kPropertyCollectors, &TableProperties::property_collectors_names),
    Str(N::kCompression, &TableProperties::compression_name),
    Str(N::kCompressionOptions, &TableProperties::compression_options),
    Str(N::kFilterPolicy, &TableProperties::filter_policy_name),
    Str(N::kDbId, &TableProperties::db_id),
    Str(N::kDbSessionId, &TableProperties::db_session_id),
    Str(N::kDbHostId, &TableProperties::db_host_id),
    Str(N::kWholeKeyFiltering, &TableProperties::whole_key_filtering),
    Str(N::kPrefixFiltering, &TableProperties::prefix_filtering),
};

const PropertyDesc* FindStandard(const Slice& name) {
  for (const PropertyDesc& d : kStandardProperties) {
    if (name == Slice(d.name)) return &d;
  }
  return nullptr;
}

}  // namespace

bool IsStandardPropertyName(const Slice& name) { return FindStandard(name) != nullptr; }

void EncodePropertiesBlock(const TableProperties& props, std::string* dst) {
  // (name, value) pairs; names point at static strings or into props.
  std::vector<std::pair<Slice, std::string>> entries;
  entries.reserve(std::size(kStandardProperties) + props.user_collected_properties.size());
  for (const PropertyDesc& d : kStandardProperties) {
    std::string value;
    switch (d.kind) {
      case Kind::kNumberOmitZero:
        if (props.*d.number == 0) continue;
        PutVarint64(&value, props.*d.number);
        break;
      case Kind::kNumber:
        PutVarint64(&value, props.*d.number);
        break;
      case Kind::kFixed32:
        PutFixed32(&value, props.*d.fixed32);
        break;
      case Kind::kString:
        if ((props.*d.string).empty()) continue;
        value = props.*d.string;
        break;
    }
    entries.emplace_back(Slice(d.name), std::move(value));
  }
  for (const auto& [name, value] : props.user_collected_properties) {
    // A user property may not shadow a standard one: the field wins (a
    // decoded TableProperties never holds such a name).
    if (FindStandard(name) != nullptr) {
      assert(false && "user-collected property duplicates a standard name");
      continue;
    }
    entries.emplace_back(Slice(name), value);
  }
  std::sort(entries.begin(), entries.end(),
            [](const auto& a, const auto& b) { return a.first.compare(b.first) < 0; });

  // One restart point: every key after the first is delta-encoded.
  BlockBuilder builder(INT32_MAX);
  for (const auto& [name, value] : entries) builder.Add(name, value);
  const Slice block = builder.Finish();
  dst->append(block.data(), block.size());
}

Status DecodePropertiesBlock(const Slice& contents, TableProperties* props) {
  *props = TableProperties();
  Block block(contents);
  if (!block.ok()) return Status::Corruption("properties block malformed");
  std::unique_ptr<BlockIter> iter(block.NewIterator(BytewiseComparator()));
  std::string last_key;
  bool first = true;
  for (iter->SeekToFirst(); iter->Valid(); iter->Next()) {
    const Slice key = iter->key();
    const Slice value = iter->value();
    if (!first && key.compare(Slice(last_key)) <= 0) {
      return Status::Corruption("properties unsorted", key);
    }
    first = false;
    last_key.assign(key.data(), key.size());

    const PropertyDesc* d = FindStandard(key);
    if (d == nullptr) {
      props->user_collected_properties[key.ToString()] = value.ToString();
      continue;
    }
    switch (d->kind) {
      case Kind::kNumber:
      case Kind::kNumberOmitZero: {
        Slice in = value;
        uint64_t v = 0;
        if (!GetVarint64(&in, &v) || !in.empty()) {
          return Status::Corruption("properties: malformed number in", key);
        }
        props->*d->number = v;
        break;
      }
      case Kind::kFixed32:
        if (value.size() != sizeof(uint32_t)) {
          return Status::Corruption("properties: malformed fixed32 in", key);
        }
        props->*d->fixed32 = DecodeFixed32(value.data());
        break;
      case Kind::kString:
        props->*d->string = value.ToString();
        break;
    }
  }
  if (!iter->status().ok()) return iter->status();
  props->orig_file_number = props->original_file_number;
  return Status::OK();
}

bool FindPropertyValue(const Slice& contents, const Slice& name, size_t* offset, size_t* size) {
  Block block(contents);
  if (!block.ok()) return false;
  std::unique_ptr<BlockIter> iter(block.NewIterator(BytewiseComparator()));
  for (iter->SeekToFirst(); iter->Valid(); iter->Next()) {
    if (iter->key() != name) continue;
    const Slice value = iter->value();
    // Values of an uncompressed block are views into the contents.
    if (value.data() < contents.data() ||
        value.data() + value.size() > contents.data() + contents.size()) {
      return false;
    }
    *offset = static_cast<size_t>(value.data() - contents.data());
    *size = value.size();
    return true;
  }
  return false;
}

struct MetaIndexBuilder::Rep {
  BlockBuilder block{1};
#ifndef NDEBUG
  std::string last_name;
  bool has_last = false;
#endif
};

MetaIndexBuilder::MetaIndexBuilder() : rep_(new Rep) {}
MetaIndexBuilder::~MetaIndexBuilder() { delete rep_; }

void MetaIndexBuilder::Add(const Slice& name, const std::string& encoded_handle) {
#ifndef NDEBUG
  assert(!rep_->has_last || Slice(rep_->last_name).compare(name) < 0);
  rep_->last_name.assign(name.data(), name.size());
  rep_->has_last = true;
#endif
  rep_->block.Add(name, encoded_handle);
}

Slice MetaIndexBuilder::Finish() { return rep_->block.Finish(); }

}  // namespace strata
