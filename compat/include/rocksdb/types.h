// rocksdb/types.h: small shared types of the RocksDB interface. FileType
// (the kinds of files in a DB directory) and EntryType (what a table
// properties collector is handed) are Strata's enums, with RocksDB's
// enumerators and order; their constants are declared here too.
// Thread-safety: plain data.
#pragma once

#include <cstdint>

#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/slice.h"
#include "strata/metadata.h"
#include "strata/table_properties.h"

namespace rocksdb {
using ColumnFamilyId = uint32_t;
using SequenceNumber = uint64_t;
const SequenceNumber kMinUnCommittedSeq = 1;

using FileType = ::strata::FileType;
using ::strata::kBlobFile;
using ::strata::kCurrentFile;
using ::strata::kDBLockFile;
using ::strata::kDescriptorFile;
using ::strata::kIdentityFile;
using ::strata::kInfoLogFile;
using ::strata::kMetaDatabase;
using ::strata::kOptionsFile;
using ::strata::kTableFile;
using ::strata::kTempFile;
using ::strata::kWalFile;

using EntryType = ::strata::EntryType;
using ::strata::kEntryBlobIndex;
using ::strata::kEntryDelete;
using ::strata::kEntryDeleteWithTimestamp;
using ::strata::kEntryMerge;
using ::strata::kEntryOther;
using ::strata::kEntryPut;
using ::strata::kEntryRangeDeletion;
using ::strata::kEntrySingleDelete;
using ::strata::kEntryWideColumnEntity;
}  // namespace rocksdb
