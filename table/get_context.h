// GetContext: the state of one point lookup as it descends the sources of a
// read (memtables, then tables newest first). A table hands it, in
// internal-key order, every entry whose user key equals the lookup's and
// whose sequence is visible at the lookup's snapshot; the context decides
// what the entry means and whether the search goes on.
//
// Thread-safety: one lookup, one thread.
// Invariants: once state() is not kNotFound, SaveValue returns false and the
// search stops; *value is written only when the state becomes kFound.
#pragma once

#include <string>

#include "db/dbformat.h"
#include "strata/comparator.h"
#include "strata/slice.h"

namespace strata {

class GetContext {
 public:
  enum State {
    kNotFound,  // nothing seen yet: keep looking in older sources
    kFound,     // a value: *value holds it
    kDeleted,   // a deletion hides every older entry
    kCorrupt,   // an entry that cannot be interpreted
    kMerge,     // a merge operand (not supported yet: reported by the caller)
  };

  // user_key and value must outlive the context. value may be null (a
  // KeyMayExist-style probe).
  GetContext(const Comparator* user_cmp, const Slice& user_key, std::string* value)
      : user_cmp_(user_cmp), user_key_(user_key), value_(value) {}

  const Slice& user_key() const { return user_key_; }
  State state() const { return state_; }

  // Feeds one entry. Returns true when the lookup must continue with older
  // entries, false when it is decided. Entries of other user keys are
  // ignored (returns false: the caller went past the key).
  bool SaveValue(const ParsedInternalKey& key, const Slice& value);

 private:
  const Comparator* user_cmp_;
  Slice user_key_;
  std::string* value_;
  State state_ = kNotFound;
};

}  // namespace strata
