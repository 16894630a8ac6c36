// compat/options_convert.h: converts RocksDB 7.8.3's option structs (the
// ones in compat/include/rocksdb/) to Strata's, field by field. Every field
// is converted, accepted as advisory (listed in the headers' comments), or
// refused: when set to anything but RocksDB's default, the conversion
// returns InvalidArgument naming it as "<Struct>::<field>".
// Thread-safety: pure functions.
#pragma once

#include "rocksdb/options.h"
#include "rocksdb/table.h"
#include "strata/options.h"
#include "strata/status.h"
#include "strata/table.h"

namespace rocksdb {
namespace compat {

::strata::Status ConvertDBOptions(const DBOptions& in, ::strata::DBOptions* out);
::strata::Status ConvertCFOptions(const ColumnFamilyOptions& in,
                                  ::strata::ColumnFamilyOptions* out);
::strata::Status ConvertOptions(const Options& in, ::strata::Options* out);
::strata::Status ConvertTableOptions(const BlockBasedTableOptions& in,
                                     ::strata::BlockBasedTableOptions* out);
::strata::Status ConvertReadOptions(const ReadOptions& in, ::strata::ReadOptions* out);
::strata::Status ConvertWriteOptions(const WriteOptions& in, ::strata::WriteOptions* out);
::strata::Status ConvertCompactRangeOptions(const CompactRangeOptions& in,
                                            ::strata::CompactRangeOptions* out);
::strata::Status ConvertIngestOptions(const IngestExternalFileOptions& in,
                                      ::strata::IngestExternalFileOptions* out);
::strata::CompressionOptions ConvertCompressionOptions(const CompressionOptions& in);

}  // namespace compat
}  // namespace rocksdb
