// What `--try_load_options` takes from a database's newest OPTIONS-NNNNNN
// file (RocksDB's or ours, same text format): the column families it
// lists and, per family, the merge operator and the comparator, and from
// [DBOptions] allow_2pc (a TransactionDB's WALs may hold prepared sections,
// which only an allow_2pc open accepts; ldb loads it with the rest) and
// wal_dir (where the WALs to replay are). Strata
// builds the other options itself (docs/tools/ldb.md); a comparator other
// than the bytewise one (or the caller's `known` one, by name), or a merge
// operator Strata does not have, is an error naming it (with ignore_unknown, such a merge operator
// is replaced by ldb's default StringAppend(':') instead). Thread-safety: plain function.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "strata/comparator.h"
#include "strata/merge_operator.h"
#include "strata/status.h"

namespace strata::ldb {

struct LoadedFamily {
  std::string name;
  std::shared_ptr<MergeOperator> merge_operator;  // null: none named
};

// NotFound if dbpath has no OPTIONS file. *allow_2pc (if not null) gets
// the file's DBOptions allow_2pc (false when absent), *wal_dir (if not
// null) its wal_dir (empty when absent). known (may be null): a
// comparator accepted besides the bytewise one (the base options' of
// LDBTool::Run).
Status LoadOptionsFile(const std::string& dbpath, bool ignore_unknown,
                       std::vector<LoadedFamily>* families, bool* allow_2pc = nullptr,
                       std::string* wal_dir = nullptr, const Comparator* known = nullptr);

}  // namespace strata::ldb
