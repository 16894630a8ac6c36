// Meta blocks of a block-based table: the properties block (docs/format/table.md (Properties))
// and the metaindex block (docs/format/table.md, Metaindex) that names every meta block.
//
//   properties block: generic block format, one restart point (every key
//     after the first delta-encoded), keys strictly ascending bytewise,
//     values varint64 numbers or raw strings (the index type is fixed32);
//     stored uncompressed.
//   metaindex block: generic block format, restart interval 1, keys sorted
//     bytewise, value = encoded BlockHandle.
//
// Thread-safety: value types and pure functions.
// Invariants: EncodePropertiesBlock output decodes with
// DecodePropertiesBlock to the same TableProperties (user-collected
// properties included); decoding never reads outside its input and names the
// property that is malformed.
#pragma once

#include <string>

#include "strata/slice.h"
#include "strata/status.h"
#include "strata/table_properties.h"

namespace strata {

// Metaindex keys.
extern const char kPropertiesBlockName[];           // "rocksdb.properties"
extern const char kPropertiesBlockOldName[];        // "rocksdb.stats" (read only)
extern const char kRangeDelBlockName[];             // "rocksdb.range_del"
extern const char kFullFilterBlockPrefix[];         // "fullfilter."
extern const char kPartitionedFilterBlockPrefix[];  // "partitionedfilter."
extern const char kCompressionDictBlockName[];      // "rocksdb.compression_dict"
extern const char kIndexBlockName[];                // "rocksdb.index" (format_version >= 6)

// Property names (RocksDB's), e.g. "rocksdb.data.size".
namespace TablePropertiesNames {
extern const char kDataSize[];
extern const char kIndexSize[];
extern const char kIndexPartitions[];
extern const char kTopLevelIndexSize[];
extern const char kIndexKeyIsUserKey[];
extern const char kIndexValueIsDeltaEncoded[];
extern const char kFilterSize[];
extern const char kRawKeySize[];
extern const char kRawValueSize[];
extern const char kNumDataBlocks[];
extern const char kNumEntries[];
extern const char kNumFilterEntries[];
extern const char kDeletedKeys[];
extern const char kMergeOperands[];
extern const char kNumRangeDeletions[];
extern const char kFormatVersion[];
extern const char kFixedKeyLen[];
extern const char kColumnFamilyId[];
extern const char kCreationTime[];
extern const char kOldestKeyTime[];
extern const char kFileCreationTime[];
extern const char kOriginalFileNumber[];
// "rocksdb.sample_for_compression.slow.data.size" / "...fast.data.size"
extern const char kSlowCompressionEstimatedDataSize[];
extern const char kFastCompressionEstimatedDataSize[];
extern const char kSequenceNumberTimeMapping[];  // "rocksdb.seqno.time.map"
extern const char kColumnFamilyName[];
extern const char kComparator[];
extern const char kMergeOperator[];
extern const char kPrefixExtractorName[];
extern const char kPropertyCollectors[];
extern const char kCompression[];
extern const char kCompressionOptions[];
extern const char kFilterPolicy[];
extern const char kDbId[];
extern const char kDbSessionId[];
extern const char kDbHostId[];
extern const char kIndexType[];                   // "rocksdb.block.based.table.index.type"
extern const char kWholeKeyFiltering[];           // "rocksdb.block.based.table.whole.key.filtering"
extern const char kPrefixFiltering[];             // "rocksdb.block.based.table.prefix.filtering"
extern const char kExternalSstFileVersion[];      // "rocksdb.external_sst_file.version"
extern const char kExternalSstFileGlobalSeqno[];  // "rocksdb.external_sst_file.global_seqno"
}  // namespace TablePropertiesNames

// Appends the finished properties block contents (no trailer) to *dst.
// Numbers that RocksDB omits when zero (file creation time, and the
// optional identities when empty) are omitted; user-collected properties are
// written verbatim, merged into the sorted order.
void EncodePropertiesBlock(const TableProperties& props, std::string* dst);

// True if name is one of the built-in properties EncodePropertiesBlock
// writes from TableProperties' fields (a user-collected property of that
// name is dropped by the table builder: the field wins, as in RocksDB).
bool IsStandardPropertyName(const Slice& name);

// Parses properties block contents into *props (which is reset first).
// Unknown names land in user_collected_properties. Corruption names the
// property whose value does not decode, or "properties unsorted".
Status DecodePropertiesBlock(const Slice& contents, TableProperties* props);

// Where the value of property `name` sits inside properties block
// contents (offset from the block's first byte) and its size; false if the
// block does not hold it or does not parse. Ingestion writes an external
// file's global sequence number there in place (RocksDB's
// external_sst_file_global_seqno_offset is this offset plus the block's
// file offset).
bool FindPropertyValue(const Slice& contents, const Slice& name, size_t* offset, size_t* size);

// Builds a metaindex block: Add() names in strictly ascending bytewise order.
class MetaIndexBuilder {
 public:
  MetaIndexBuilder();
  ~MetaIndexBuilder();
  MetaIndexBuilder(const MetaIndexBuilder&) = delete;
  MetaIndexBuilder& operator=(const MetaIndexBuilder&) = delete;
  void Add(const Slice& name, const std::string& encoded_handle);
  // Block contents, valid until the builder is destroyed.
  Slice Finish();

 private:
  struct Rep;
  Rep* rep_;
};

}  // namespace strata
