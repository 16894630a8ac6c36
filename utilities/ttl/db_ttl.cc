// DBWithTTL (include/strata/utilities/db_ttl.h): a StackableDB that stamps
// values with their write time, strips the stamp on reads, and removes
// expired entries in compactions through a filter wrapped around the
// family's own.
//
// Each family's ttl lives in a TtlState shared by its wrapped filter or
// filter factory (compactions read it) and by this object (SetTtl writes
// it); the state outlives the DB's compactions because the DB is closed
// before this object's members are destroyed.
#include "strata/utilities/db_ttl.h"

#include <atomic>
#include <deque>
#include <map>
#include <mutex>
#include <utility>

#include "db/write_batch_internal.h"
#include "strata/compaction_filter.h"
#include "strata/env.h"
#include "strata/iterator.h"
#include "strata/merge_operator.h"
#include "strata/write_batch.h"
#include "util/coding.h"

namespace strata {
namespace {

constexpr size_t kTs = DBWithTTL::kTimestampSize;

// The family's ttl, shared with its compaction filters.
struct TtlState {
  TtlState(int32_t t, SystemClock* c) : ttl(t), clock(c) {}
  std::atomic<int32_t> ttl;  // relaxed: a plain setting, no data hangs on it
  SystemClock* const clock;
};

int32_t NowSeconds(SystemClock* clock, Status* s) {
  int64_t now = 0;
  *s = clock->GetCurrentTime(&now);
  return static_cast<int32_t>(now);
}

void AppendStamp(int32_t now, std::string* out) {
  char buf[kTs];
  EncodeFixed32(buf, static_cast<uint32_t>(now));
  out->append(buf, kTs);
}

std::string Stamped(const Slice& value, int32_t now) {
  std::string out;
  out.reserve(value.size() + kTs);
  out.append(value.data(), value.size());
  AppendStamp(now, &out);
  return out;
}

int32_t StampOf(const Slice& stored) {
  return static_cast<int32_t>(DecodeFixed32(stored.data() + stored.size() - kTs));
}

// RocksDB's checks (and messages) for a value read by a point lookup.
Status CheckStamp(const Slice& stored) {
  if (stored.size() < kTs) return Status::Corruption("Error: value's length less than timestamp's");
  if (StampOf(stored) < DBWithTTL::kMinTimestamp) {
    return Status::Corruption("Error: Timestamp < ttl feature release time!");
  }
  return Status::OK();
}

bool IsStale(const Slice& stored, const TtlState& state) {
  int32_t ttl = state.ttl.load(std::memory_order_relaxed);
  if (ttl <= 0 || stored.size() < kTs) return false;
  int64_t now = 0;
  if (!state.clock->GetCurrentTime(&now).ok()) return false;  // unknown time: fresh
  return static_cast<int64_t>(StampOf(stored)) + ttl < now;
}

// Removes expired values, then gives the rest (unstamped) to the user's
// filter, if any, re-stamping a changed value with its original time.
class TtlCompactionFilter final : public CompactionFilter {
 public:
  TtlCompactionFilter(std::shared_ptr<TtlState> state, const CompactionFilter* user,
                      std::unique_ptr<CompactionFilter> owned_user)
      : state_(std::move(state)), user_(user), owned_user_(std::move(owned_user)) {
    if (owned_user_ != nullptr) user_ = owned_user_.get();
  }

  Decision FilterV2(int level, const Slice& key, ValueType type, const Slice& existing,
                    std::string* new_value, std::string* skip_until) const override {
    if (type == ValueType::kValue && IsStale(existing, *state_)) return Decision::kRemove;
    if (user_ == nullptr || existing.size() < kTs) return Decision::kKeep;
    Slice bare(existing.data(), existing.size() - kTs);
    Decision d = user_->FilterV2(level, key, type, bare, new_value, skip_until);
    if (d == Decision::kChangeValue) new_value->append(existing.data() + bare.size(), kTs);
    return d;
  }
  bool FilterDuringFlush() const override { return user_ != nullptr && user_->FilterDuringFlush(); }
  const char* Name() const override { return "TtlCompactionFilter"; }

 private:
  std::shared_ptr<TtlState> state_;
  const CompactionFilter* user_;  // owned_user_, or the family's own filter, or null
  std::unique_ptr<CompactionFilter> owned_user_;
};

class TtlCompactionFilterFactory final : public CompactionFilterFactory {
 public:
  TtlCompactionFilterFactory(std::shared_ptr<TtlState> state,
                             std::shared_ptr<CompactionFilterFactory> user)
      : state_(std::move(state)), user_(std::move(user)) {}
  std::unique_ptr<CompactionFilter> CreateCompactionFilter(
      const CompactionFilter::Context& context) override {
    std::unique_ptr<CompactionFilter> user;
    if (user_ != nullptr) user = user_->CreateCompactionFilter(context);
    return std::make_unique<TtlCompactionFilter>(state_, nullptr, std::move(user));
  }
  bool FilterDuringFlush() const override { return user_ != nullptr && user_->FilterDuringFlush(); }
  const char* Name() const override { return "TtlCompactionFilterFactory"; }

 private:
  std::shared_ptr<TtlState> state_;
  std::shared_ptr<CompactionFilterFactory> user_;
};

// The user's operator on unstamped inputs; results stamped with the time
// of the merge.
class TtlMergeOperator final : public MergeOperator {
 public:
  TtlMergeOperator(std::shared_ptr<MergeOperator> user, SystemClock* clock)
      : user_(std::move(user)), clock_(clock) {}

  bool FullMergeV2(const MergeOperationInput& in, MergeOperationOutput* out) const override {
    if (in.existing_value != nullptr && in.existing_value->size() < kTs) return false;
    std::vector<Slice> operands;
    operands.reserve(in.operand_list.size());
    for (const Slice& op : in.operand_list) {
      if (op.size() < kTs) return false;
      operands.emplace_back(op.data(), op.size() - kTs);
    }
    Slice base;
    if (in.existing_value != nullptr) {
      base = Slice(in.existing_value->data(), in.existing_value->size() - kTs);
    }
    MergeOperationInput bare_in(in.key, in.existing_value != nullptr ? &base : nullptr, operands,
                                in.logger);
    if (!user_->FullMergeV2(bare_in, out)) return false;
    if (out->existing_operand.data() != nullptr) {
      out->new_value.assign(out->existing_operand.data(), out->existing_operand.size());
      out->existing_operand = Slice(nullptr, 0);
    }
    return Stamp(&out->new_value);
  }

  bool PartialMerge(const Slice& key, const Slice& left, const Slice& right, std::string* new_value,
                    Logger* logger) const override {
    if (left.size() < kTs || right.size() < kTs) return false;
    if (!user_->PartialMerge(key, Slice(left.data(), left.size() - kTs),
                             Slice(right.data(), right.size() - kTs), new_value, logger)) {
      return false;
    }
    return Stamp(new_value);
  }

  bool PartialMergeMulti(const Slice& key, const std::deque<Slice>& operand_list,
                         std::string* new_value, Logger* logger) const override {
    std::deque<Slice> operands;
    for (const Slice& op : operand_list) {
      if (op.size() < kTs) return false;
      operands.emplace_back(op.data(), op.size() - kTs);
    }
    if (!user_->PartialMergeMulti(key, operands, new_value, logger)) return false;
    return Stamp(new_value);
  }

  bool AllowSingleOperand() const override { return user_->AllowSingleOperand(); }
  bool ShouldMerge(const std::vector<Slice>& operands) const override {
    std::vector<Slice> bare;
    bare.reserve(operands.size());
    for (const Slice& op : operands) {
      bare.emplace_back(op.data(), op.size() < kTs ? op.size() : op.size() - kTs);
    }
    return user_->ShouldMerge(bare);
  }
  const char* Name() const override { return "TtlMergeOperator"; }

 private:
  bool Stamp(std::string* value) const {
    Status s;
    int32_t now = NowSeconds(clock_, &s);
    if (!s.ok()) return false;  // no time to stamp with: the merge fails
    AppendStamp(now, value);
    return true;
  }

  std::shared_ptr<MergeOperator> user_;
  SystemClock* clock_;
};

// Strips the stamp from each value; a value too short to hold one ends the
// iteration with Corruption naming the key.
class TtlIterator final : public Iterator {
 public:
  explicit TtlIterator(std::unique_ptr<Iterator> it) : it_(std::move(it)) {}

  bool Valid() const override { return corrupt_.ok() && it_->Valid(); }
  void SeekToFirst() override {
    Moved([&] { it_->SeekToFirst(); });
  }
  void SeekToLast() override {
    Moved([&] { it_->SeekToLast(); });
  }
  void Seek(const Slice& target) override {
    Moved([&] { it_->Seek(target); });
  }
  void SeekForPrev(const Slice& target) override {
    Moved([&] { it_->SeekForPrev(target); });
  }
  void Next() override {
    Moved([&] { it_->Next(); });
  }
  void Prev() override {
    Moved([&] { it_->Prev(); });
  }
  Slice key() const override { return it_->key(); }
  Slice value() const override {
    Slice v = it_->value();
    return Slice(v.data(), v.size() - kTs);
  }
  Status status() const override { return corrupt_.ok() ? it_->status() : corrupt_; }
  Status Refresh() override {
    corrupt_ = Status::OK();
    return it_->Refresh();
  }

 private:
  template <class Move>
  void Moved(Move move) {
    corrupt_ = Status::OK();
    move();
    if (it_->Valid() && it_->value().size() < kTs) {
      corrupt_ = Status::Corruption("TTL value of key '" + it_->key().ToString(true) +
                                    "' is shorter than its timestamp");
    }
  }

  std::unique_ptr<Iterator> it_;
  Status corrupt_;
};

class DBWithTTLImpl final : public DBWithTTL {
 public:
  DBWithTTLImpl(std::unique_ptr<DB> db, SystemClock* clock)
      : DBWithTTL(std::move(db)), clock_(clock) {}
  ~DBWithTTLImpl() override {
    // The DB's compactions use filters and states held here: close it first.
    Close().PermitUncheckedError();
  }

  // The wrapped options of one family; keeps what they point at alive.
  static std::shared_ptr<TtlState> Wrap(int32_t ttl, SystemClock* clock, ColumnFamilyOptions* o,
                                        std::vector<std::unique_ptr<CompactionFilter>>* filters) {
    auto state = std::make_shared<TtlState>(ttl, clock);
    if (o->compaction_filter != nullptr) {
      filters->push_back(
          std::make_unique<TtlCompactionFilter>(state, o->compaction_filter, nullptr));
      o->compaction_filter = filters->back().get();
    } else {
      o->compaction_filter_factory =
          std::make_shared<TtlCompactionFilterFactory>(state, o->compaction_filter_factory);
    }
    if (o->merge_operator != nullptr) {
      o->merge_operator = std::make_shared<TtlMergeOperator>(o->merge_operator, clock);
    }
    return state;
  }

  // Registers a family's state, and the wrapped filters its options point at.
  void Adopt(uint32_t cf_id, std::shared_ptr<TtlState> state,
             std::vector<std::unique_ptr<CompactionFilter>>* filters) {
    std::lock_guard<std::mutex> lock(mu_);
    states_[cf_id] = std::move(state);
    for (auto& f : *filters) filters_.push_back(std::move(f));
    filters->clear();
  }

  Status CreateColumnFamilyWithTtl(const ColumnFamilyOptions& options, const std::string& name,
                                   ColumnFamilyHandle** handle, int32_t ttl) override {
    ColumnFamilyOptions wrapped = options;
    std::vector<std::unique_ptr<CompactionFilter>> filters;
    std::shared_ptr<TtlState> state = Wrap(ttl, clock_, &wrapped, &filters);
    Status s = db_->CreateColumnFamily(wrapped, name, handle);
    if (s.ok()) Adopt((*handle)->GetID(), std::move(state), &filters);
    return s;
  }
  Status CreateColumnFamily(const ColumnFamilyOptions& options, const std::string& name,
                            ColumnFamilyHandle** handle) override {
    return CreateColumnFamilyWithTtl(options, name, handle, 0);
  }

  void SetTtl(ColumnFamilyHandle* cf, int32_t ttl) override {
    if (cf == nullptr) return;
    std::lock_guard<std::mutex> lock(mu_);
    auto it = states_.find(cf->GetID());
    if (it != states_.end()) it->second->ttl.store(ttl, std::memory_order_relaxed);
  }
  Status GetTtl(ColumnFamilyHandle* cf, int32_t* ttl) override {
    if (cf == nullptr || ttl == nullptr) {
      return Status::InvalidArgument("column family handle or ttl cannot be null");
    }
    std::lock_guard<std::mutex> lock(mu_);
    auto it = states_.find(cf->GetID());
    if (it == states_.end()) {
      return Status::InvalidArgument("column family '" + cf->GetName() +
                                     "' was not opened or created with a TTL");
    }
    *ttl = it->second->ttl.load(std::memory_order_relaxed);
    return Status::OK();
  }

  // Writes: values and operands stamped.
  Status Put(const WriteOptions& o, ColumnFamilyHandle* cf, const Slice& k,
             const Slice& v) override {
    Status s;
    int32_t now = NowSeconds(clock_, &s);
    return s.ok() ? db_->Put(o, cf, k, Stamped(v, now)) : s;
  }
  Status Merge(const WriteOptions& o, ColumnFamilyHandle* cf, const Slice& k,
               const Slice& v) override {
    Status s;
    int32_t now = NowSeconds(clock_, &s);
    return s.ok() ? db_->Merge(o, cf, k, Stamped(v, now)) : s;
  }
  Status Write(const WriteOptions& o, WriteBatch* updates) override {
    if (updates == nullptr) return db_->Write(o, updates);
    Status s;
    int32_t now = NowSeconds(clock_, &s);
    if (!s.ok()) return s;
    Restamper restamp(now);
    s = updates->Iterate(&restamp);
    return s.ok() ? db_->Write(o, &restamp.out) : s;
  }

  // Point reads: stamp checked and stripped.
  Status Get(const ReadOptions& o, ColumnFamilyHandle* cf, const Slice& k,
             std::string* value) override {
    Status s = db_->Get(o, cf, k, value);
    if (s.ok()) s = CheckStamp(*value);
    if (s.ok()) value->resize(value->size() - kTs);
    return s;
  }
  Status Get(const ReadOptions& o, ColumnFamilyHandle* cf, const Slice& k,
             PinnableSlice* value) override {
    Status s = db_->Get(o, cf, k, value);
    if (s.ok()) s = CheckStamp(*value);
    if (s.ok()) value->remove_suffix(kTs);
    return s;
  }
  std::vector<Status> MultiGet(const ReadOptions& o, const std::vector<Slice>& keys,
                               std::vector<std::string>* values) override {
    std::vector<Status> st = db_->MultiGet(o, keys, values);
    StripAll(&st, values);
    return st;
  }
  std::vector<Status> MultiGet(const ReadOptions& o, const std::vector<ColumnFamilyHandle*>& cfs,
                               const std::vector<Slice>& keys,
                               std::vector<std::string>* values) override {
    std::vector<Status> st = db_->MultiGet(o, cfs, keys, values);
    StripAll(&st, values);
    return st;
  }
  void MultiGet(const ReadOptions& o, ColumnFamilyHandle* cf, size_t n, const Slice* keys,
                PinnableSlice* values, Status* statuses, bool sorted_input = false) override {
    db_->MultiGet(o, cf, n, keys, values, statuses, sorted_input);
    StripAll(n, values, statuses);
  }
  void MultiGet(const ReadOptions& o, size_t n, ColumnFamilyHandle** cfs, const Slice* keys,
                PinnableSlice* values, Status* statuses, bool sorted_input = false) override {
    db_->MultiGet(o, n, cfs, keys, values, statuses, sorted_input);
    StripAll(n, values, statuses);
  }
  bool KeyMayExist(const ReadOptions& o, ColumnFamilyHandle* cf, const Slice& k, std::string* value,
                   bool* value_found = nullptr) override {
    bool may = db_->KeyMayExist(o, cf, k, value, value_found);
    if (may && value != nullptr && value_found != nullptr && *value_found) {
      if (!CheckStamp(*value).ok()) return false;
      value->resize(value->size() - kTs);
    }
    return may;
  }
  Status GetMergeOperands(const ReadOptions& o, ColumnFamilyHandle* cf, const Slice& k,
                          PinnableSlice* operands, GetMergeOperandsOptions* opts, int* n) override {
    Status s = db_->GetMergeOperands(o, cf, k, operands, opts, n);
    if (!s.ok()) return s;
    for (int i = 0; i < *n; i++) {
      s = CheckStamp(operands[i]);
      if (!s.ok()) return s;
      operands[i].remove_suffix(kTs);
    }
    return s;
  }

  std::unique_ptr<Iterator> NewIterator(const ReadOptions& o, ColumnFamilyHandle* cf) override {
    return std::make_unique<TtlIterator>(db_->NewIterator(o, cf));
  }
  Status NewIterators(const ReadOptions& o, const std::vector<ColumnFamilyHandle*>& cfs,
                      std::vector<std::unique_ptr<Iterator>>* iterators) override {
    Status s = db_->NewIterators(o, cfs, iterators);
    if (!s.ok()) return s;
    for (auto& it : *iterators) it = std::make_unique<TtlIterator>(std::move(it));
    return s;
  }

 private:
  // Rebuilds a batch with stamped values (same families, same order).
  struct Restamper final : WriteBatch::Handler {
    explicit Restamper(int32_t t) : now(t) {}
    Status PutCF(uint32_t cf, const Slice& k, const Slice& v) override {
      return WriteBatchInternal::Put(&out, cf, k, Stamped(v, now));
    }
    Status MergeCF(uint32_t cf, const Slice& k, const Slice& v) override {
      return WriteBatchInternal::Merge(&out, cf, k, Stamped(v, now));
    }
    Status DeleteCF(uint32_t cf, const Slice& k) override {
      return WriteBatchInternal::Delete(&out, cf, k);
    }
    Status SingleDeleteCF(uint32_t cf, const Slice& k) override {
      return WriteBatchInternal::SingleDelete(&out, cf, k);
    }
    Status DeleteRangeCF(uint32_t cf, const Slice& b, const Slice& e) override {
      return WriteBatchInternal::DeleteRange(&out, cf, b, e);
    }
    void LogData(const Slice& blob) override { out.PutLogData(blob).PermitUncheckedError(); }

    const int32_t now;
    WriteBatch out;
  };

  static void StripAll(std::vector<Status>* st, std::vector<std::string>* values) {
    for (size_t i = 0; i < st->size(); i++) {
      if (!(*st)[i].ok()) continue;
      (*st)[i] = CheckStamp((*values)[i]);
      if ((*st)[i].ok()) (*values)[i].resize((*values)[i].size() - kTs);
    }
  }
  static void StripAll(size_t n, PinnableSlice* values, Status* statuses) {
    for (size_t i = 0; i < n; i++) {
      if (!statuses[i].ok()) continue;
      statuses[i] = CheckStamp(values[i]);
      if (statuses[i].ok()) values[i].remove_suffix(kTs);
    }
  }

  SystemClock* const clock_;
  std::mutex mu_;
  std::map<uint32_t, std::shared_ptr<TtlState>> states_;    // by family ID; guarded by mu_
  std::vector<std::unique_ptr<CompactionFilter>> filters_;  // wrapped raw filters; guarded by mu_
};

}  // namespace

Status DBWithTTL::Open(const Options& options, const std::string& path,
                       std::unique_ptr<DBWithTTL>* db, int32_t ttl, bool read_only) {
  std::vector<ColumnFamilyDescriptor> cfs;
  cfs.emplace_back(kDefaultColumnFamilyName, ColumnFamilyOptions(options));
  std::vector<ColumnFamilyHandle*> handles;
  Status s = Open(DBOptions(options), path, cfs, &handles, db, {ttl}, read_only);
  // The DB keeps the default family alive without this handle.
  for (ColumnFamilyHandle* h : handles) delete h;
  return s;
}

Status DBWithTTL::Open(const DBOptions& db_options, const std::string& path,
                       const std::vector<ColumnFamilyDescriptor>& column_families,
                       std::vector<ColumnFamilyHandle*>* handles, std::unique_ptr<DBWithTTL>* db,
                       const std::vector<int32_t>& ttls, bool read_only) {
  db->reset();
  if (ttls.size() != column_families.size()) {
    return Status::InvalidArgument("ttls size has to be the same as number of column families");
  }
  SystemClock* clock =
      (db_options.env != nullptr ? db_options.env : Env::Default())->GetSystemClock();
  std::vector<ColumnFamilyDescriptor> wrapped = column_families;
  std::vector<std::shared_ptr<TtlState>> states;
  std::vector<std::unique_ptr<CompactionFilter>> filters;
  for (size_t i = 0; i < wrapped.size(); i++) {
    states.push_back(DBWithTTLImpl::Wrap(ttls[i], clock, &wrapped[i].options, &filters));
  }
  std::unique_ptr<DB> base;
  Status s = read_only ? DB::OpenForReadOnly(db_options, path, wrapped, handles, &base)
                       : DB::Open(db_options, path, wrapped, handles, &base);
  if (!s.ok()) return s;
  auto impl = std::make_unique<DBWithTTLImpl>(std::move(base), clock);
  for (size_t i = 0; i < handles->size(); i++) {
    impl->Adopt((*handles)[i]->GetID(), states[i], &filters);
  }
  *db = std::move(impl);
  return s;
}

std::shared_ptr<MergeOperator> NewTtlMergeOperator(std::shared_ptr<MergeOperator> user,
                                                   SystemClock* clock) {
  if (user == nullptr) return nullptr;
  if (clock == nullptr) clock = Env::Default()->GetSystemClock();
  return std::make_shared<TtlMergeOperator>(std::move(user), clock);
}

}  // namespace strata
