// DBImpl's support for transactions (utilities/transactions): the
// conflict check of optimistic and snapshot-validated pessimistic
// transactions, and the hand-over of the prepared transactions recovered
// from the WALs. The write path's transaction hooks (callbacks, WAL-only
// prepared sections, commit log references) are in db_impl_write.cc; the
// WAL retention of two-phase commit in MinLogNumberInUse.
#include <cinttypes>

#include "base/get_context.h"
#include "db/db_impl.h"

namespace strata {

Status DBImpl::CheckKeysForConflicts(uint32_t cf_id, const KeyToCheck* keys, size_t n,
                                     bool cache_only) {
  ColumnFamilyData* cfd = default_cfd_;
  if (cf_id != 0) {
    cfd = versions_->column_families()->Lookup(cf_id);
    if (cfd == nullptr || cfd->dropped()) {
      return Status::InvalidArgument("transaction: column family was dropped",
                                     "id " + std::to_string(cf_id));
    }
  }
  SuperVersion* sv = AcquireSuperVersion(cfd);
  if (sv == nullptr) return Status::ShutdownInProgress("transaction commit on a closed database");
  // Every write with a sequence >= earliest is in these memtables.
  const MemTable* oldest = sv->imm.empty() ? sv->mem : sv->imm.back();
  SequenceNumber earliest = oldest->GetEarliestSequenceNumber();
  if (earliest == 0) earliest = kMaxSequenceNumber;
  Status result;
  for (size_t i = 0; i < n && result.ok(); i++) {
    const Slice& key = keys[i].key;
    const SequenceNumber seq = keys[i].seq;
    const bool memtables_suffice = seq + 1 >= earliest;
    if (!memtables_suffice && cache_only) {
      char buf[256];
      snprintf(buf, sizeof(buf),
               "Transaction could not check for conflicts for operation at SequenceNumber %" PRIu64
               " as the memtables only hold changes from SequenceNumber %" PRIu64
               " on; take a snapshot (set_snapshot) to have the tables checked",
               seq, earliest == kMaxSequenceNumber ? uint64_t{0} : earliest);
      result = Status::TryAgain(buf);
      break;
    }
    const LookupKey lkey(key, kMaxSequenceNumber);
    GetContext ctx(cfd->user_comparator(), key, nullptr, nullptr, nullptr, kMaxSequenceNumber);
    ctx.find_newest_entry();
    bool done = sv->mem->Get(lkey, &ctx);
    for (size_t m = 0; !done && m < sv->imm.size(); m++) done = sv->imm[m]->Get(lkey, &ctx);
    if (!done && !memtables_suffice) {
      ReadOptions ro;
      ro.fill_cache = true;
      result = sv->current->Get(ro, lkey.internal_key(), &ctx);
      if (!result.ok()) break;
    }
    SequenceNumber newest = ctx.max_covering_tombstone_seq();
    if (ctx.state() == GetContext::kFound) newest = std::max(newest, ctx.newest_seq());
    // RocksDB's answer to a write-write conflict: Busy with no message.
    if (newest > seq) result = Status::Busy(Status::kNone);
  }
  ReleaseSuperVersion(cfd, sv);
  return result;
}

void DBImpl::MemtablesHoldHistoryFrom(ColumnFamilyData* cfd, SequenceNumber seq) {
  mu_.AssertHeld();
  auto raise = [seq](MemTable* m) {
    if (m != nullptr && m->GetEarliestSequenceNumber() < seq) m->SetEarliestSequenceNumber(seq);
  };
  raise(cfd->mem());
  for (const ImmMemTable& m : cfd->imm()) raise(m.mem);
}

RecoveredTransactions DBImpl::TakeRecoveredTransactions() {
  MutexLock l(&mu_);
  RecoveredTransactions out;
  out.swap(recovered_txns_);
  return out;
}

}  // namespace strata
