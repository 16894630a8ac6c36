// rocksdb/merge_operator.h: read-modify-write operators (Options::
// merge_operator). strata::MergeOperator and AssociativeMergeOperator carry
// RocksDB's virtual methods (FullMergeV2 with MergeOperationInput/Output,
// FullMerge, PartialMerge, PartialMergeMulti, AllowSingleOperand,
// ShouldMerge, Name) and are the same types here. Type() is
// "MergeOperator"; CreateFromString knows the built-ins ("put",
// "uint64add", "stringappend", "max" and their Name()s).
// Thread-safety: implementations must be thread-safe (const methods).
#pragma once

#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/slice.h"
#include "strata/merge_operator.h"

namespace rocksdb {
using MergeOperator = ::strata::MergeOperator;
using AssociativeMergeOperator = ::strata::AssociativeMergeOperator;
using Logger = ::strata::Logger;
}  // namespace rocksdb
