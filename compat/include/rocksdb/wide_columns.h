// rocksdb/wide_columns.h: WideColumn, WideColumns, PinnableWideColumns and
// kDefaultWideColumnName. Strata's types are the same types here
// (strata/wide_columns.h): plain data, usable to build and inspect columns;
// Strata stores no wide-column entities (PutEntity is NotSupported).
// Thread-safety: plain data.
#pragma once

#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/slice.h"
#include "rocksdb/status.h"
#include "strata/wide_columns.h"

namespace rocksdb {
using WideColumn = ::strata::WideColumn;
using WideColumns = ::strata::WideColumns;
using PinnableWideColumns = ::strata::PinnableWideColumns;
using ::strata::kDefaultWideColumnName;
using ::strata::kNoWideColumns;
// ==, != (columns, PinnableWideColumns) and << (a column as "name:value").
using ::strata::operator==;
using ::strata::operator!=;
using ::strata::operator<<;
}  // namespace rocksdb
