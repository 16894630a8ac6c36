// The non-virtual parts of the public transaction classes and StackableDB.
#include "strata/utilities/transaction.h"

#include "strata/utilities/stackable_db.h"

namespace strata {

TransactionNotifier::~TransactionNotifier() = default;
Transaction::~Transaction() = default;

Status Transaction::Get(const ReadOptions& options, ColumnFamilyHandle* cf, const Slice& key,
                        PinnableSlice* value) {
  Status s = Get(options, cf, key, value->GetSelf());
  if (s.ok()) {
    value->PinSelf();
  } else {
    value->Reset();
  }
  return s;
}

std::vector<Status> Transaction::MultiGet(const ReadOptions& options,
                                          const std::vector<Slice>& keys,
                                          std::vector<std::string>* values) {
  return MultiGet(options, std::vector<ColumnFamilyHandle*>(keys.size(), nullptr), keys, values);
}

Status Transaction::GetForUpdate(const ReadOptions& options, ColumnFamilyHandle* cf,
                                 const Slice& key, PinnableSlice* value, bool exclusive,
                                 bool do_validate) {
  if (value == nullptr) {
    return GetForUpdate(options, cf, key, static_cast<std::string*>(nullptr), exclusive,
                        do_validate);
  }
  Status s = GetForUpdate(options, cf, key, value->GetSelf(), exclusive, do_validate);
  if (s.ok()) {
    value->PinSelf();
  } else {
    value->Reset();
  }
  return s;
}

std::vector<Status> Transaction::MultiGetForUpdate(const ReadOptions& options,
                                                   const std::vector<Slice>& keys,
                                                   std::vector<std::string>* values) {
  return MultiGetForUpdate(options, std::vector<ColumnFamilyHandle*>(keys.size(), nullptr), keys,
                           values);
}

StackableDB::~StackableDB() = default;

Status StackableDB::Close() {
  if (owned_ != nullptr) return owned_->Close();
  return Status::OK();
}

}  // namespace strata
