// strata::Iterator's out-of-line members (the defaults of columns() and
// GetProperty(); the class's vtable is emitted here).
#include "strata/iterator.h"

namespace strata {

const WideColumns& Iterator::columns() const { return kNoWideColumns; }

Status Iterator::GetProperty(std::string prop_name, std::string* prop) {
  if (prop == nullptr) return Status::InvalidArgument("prop is nullptr");
  if (prop_name == "rocksdb.iterator.is-key-pinned") {
    *prop = "0";
    return Status::OK();
  }
  return Status::InvalidArgument("Unidentified property.");
}

}  // namespace strata
