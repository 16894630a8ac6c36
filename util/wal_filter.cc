// WalFilter's loader by id (strata/wal_filter.h): Strata registers no
// filters, so only the empty ids name one (none).
#include "strata/wal_filter.h"

#include "strata/convenience.h"

namespace strata {

Status WalFilter::CreateFromString(const ConfigOptions& options, const std::string& value,
                                   WalFilter** result) {
  if (value.empty() || value == "nullptr") {
    *result = nullptr;
    return Status::OK();
  }
  if (options.ignore_unsupported_options) return Status::OK();
  return Status::NotSupported("WalFilter::CreateFromString: unknown filter", value);
}

}  // namespace strata
