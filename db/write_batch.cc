// WriteBatch and WriteBatchInternal; the wire format is documented in
// db/write_batch_internal.h.

#include "strata/write_batch.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <string>

#include "base/dbformat.h"
#include "db/write_batch_internal.h"
#include "strata/db.h"
#include "util/coding.h"

namespace strata {

namespace {

constexpr size_t kHeader = WriteBatchInternal::kHeader;
constexpr size_t kMaxSliceSize = std::numeric_limits<uint32_t>::max();

inline uint32_t CfId(ColumnFamilyHandle* cf) { return cf == nullptr ? 0 : cf->GetID(); }

// Starts a record: makes sure the header exists (a batch built from short
// bytes), bumps the count when the record is counted, and writes the tag --
// the plain one for family 0, the column-family one (followed by the id)
// otherwise.
inline void BeginRecord(std::string* rep, ValueType plain_tag, ValueType cf_tag, uint32_t cf_id) {
  if (rep->size() < kHeader) rep->resize(kHeader);
  char* count = rep->data() + 8;
  EncodeFixed32(count, DecodeFixed32(count) + 1);
  if (cf_id == 0) {
    rep->push_back(static_cast<char>(plain_tag));
  } else {
    char buf[1 + kMaxVarint32Length];
    buf[0] = static_cast<char>(cf_tag);
    rep->append(buf, EncodeVarint32(buf + 1, cf_id) - buf);
  }
}

// The size checks run before anything is copied, so a rejected call leaves
// the batch as it was (and never reads the caller's bytes).
Status TooLarge(const char* what, uint64_t size) {
  return Status::InvalidArgument(std::string(what) + " is too large",
                                 std::to_string(size) + " bytes; the limit is 4 GiB - 1");
}

// A whole batch is limited to 4 GiB - 1 bytes as well: a record's lengths
// are 32-bit, and so are the internal key (user key + 8) and value lengths
// of a memtable entry; a batch under the limit keeps every one of them in
// range.
constexpr uint64_t kMaxBatchSize = std::numeric_limits<uint32_t>::max();

// Checks one record of up to two slices (size2 is ignored when what2 is
// null) for family cf_id against the limits above.
Status CheckRecord(const std::string& rep, uint32_t cf_id, const char* what1, size_t size1,
                   const char* what2 = nullptr, size_t size2 = 0) {
  if (size1 > kMaxSliceSize) return TooLarge(what1, size1);
  if (what2 != nullptr && size2 > kMaxSliceSize) return TooLarge(what2, size2);
  // Upper bound of the encoded record: tag, family id, length prefixes.
  uint64_t record = 1 + (cf_id == 0 ? 0 : kMaxVarint32Length) + kMaxVarint32Length + size1;
  if (what2 != nullptr) record += kMaxVarint32Length + size2;
  const uint64_t now = std::max(rep.size(), kHeader);
  if (now + record > kMaxBatchSize) {
    return Status::InvalidArgument("WriteBatch would be too large",
                                   std::to_string(now) + " bytes plus a record of " +
                                       std::to_string(record) + " bytes passes 4 GiB - 1");
  }
  return Status::OK();
}

std::string OffsetText(size_t offset) { return "offset " + std::to_string(offset); }

Status BadRecord(const char* what, size_t offset) {
  return Status::Corruption(what, OffsetText(offset));
}

}  // namespace

// ---- WriteBatchInternal ----

uint32_t WriteBatchInternal::Count(const WriteBatch* batch) {
  if (batch->rep_.size() < kHeader) return 0;
  return DecodeFixed32(batch->rep_.data() + 8);
}

void WriteBatchInternal::SetCount(WriteBatch* batch, uint32_t n) {
  if (batch->rep_.size() < kHeader) batch->rep_.resize(kHeader);
  EncodeFixed32(batch->rep_.data() + 8, n);
}

SequenceNumber WriteBatchInternal::Sequence(const WriteBatch* batch) {
  if (batch->rep_.size() < kHeader) return 0;
  return DecodeFixed64(batch->rep_.data());
}

void WriteBatchInternal::SetSequence(WriteBatch* batch, SequenceNumber seq) {
  if (batch->rep_.size() < kHeader) batch->rep_.resize(kHeader);
  EncodeFixed64(batch->rep_.data(), seq);
}

Status WriteBatchInternal::SetContents(WriteBatch* batch, const Slice& contents) {
  if (contents.size() < kHeader) return Status::Corruption("log record too small");
  batch->rep_.assign(contents.data(), contents.size());
  batch->save_points_.clear();  // their offsets mean nothing in the new bytes
  return Status::OK();
}

void WriteBatchInternal::Append(WriteBatch* dst, const WriteBatch* src, bool wal_only) {
  if (src->rep_.size() < kHeader) return;
  size_t size = src->rep_.size();
  uint32_t count = Count(src);
  if (wal_only && HasWalTerminationPoint(src)) {
    size = src->wal_term_point_.size;
    count = static_cast<uint32_t>(src->wal_term_point_.count);
  }
  if (dst->rep_.size() < kHeader) dst->rep_.resize(kHeader);
  SetCount(dst, Count(dst) + count);
  dst->rep_.append(src->rep_.data() + kHeader, size - kHeader);
}

bool WriteBatchInternal::HasWalTerminationPoint(const WriteBatch* batch) {
  return batch->wal_term_point_.size >= kHeader &&
         batch->wal_term_point_.size <= batch->rep_.size();
}

void WriteBatchInternal::WalPart(const WriteBatch* batch, WriteBatch* out) {
  out->rep_.assign(batch->rep_.data(), batch->wal_term_point_.size);
  SetCount(out, static_cast<uint32_t>(batch->wal_term_point_.count));
}

void WriteBatchInternal::InsertNoop(WriteBatch* batch) {
  if (batch->rep_.size() < kHeader) batch->rep_.resize(kHeader);
  batch->rep_.push_back(static_cast<char>(kTypeNoop));
}

Status WriteBatchInternal::MarkEndPrepare(WriteBatch* batch, const Slice& xid) {
  if (xid.size() > kMaxSliceSize) return TooLarge("transaction name", xid.size());
  std::string* rep = &batch->rep_;
  // The Noop placeholder a two-phase transaction's batch starts with
  // becomes the BeginPrepare marker; a batch without one gets it added.
  if (rep->size() > kHeader && (*rep)[kHeader] == static_cast<char>(kTypeNoop)) {
    (*rep)[kHeader] = static_cast<char>(kTypeBeginPrepareXID);
  } else {
    // (An index over the batch's offsets, WriteBatchWithIndex's, is only
    // built over batches that start with the placeholder.)
    if (rep->size() < kHeader) rep->resize(kHeader);
    rep->insert(rep->begin() + kHeader, static_cast<char>(kTypeBeginPrepareXID));
    for (auto& sp : batch->save_points_) sp.size++;
  }
  rep->push_back(static_cast<char>(kTypeEndPrepareXID));
  PutLengthPrefixedSlice(rep, xid);
  return Status::OK();
}

namespace {
Status AppendXidRecord(std::string* rep, ValueType tag, const Slice& xid) {
  if (xid.size() > kMaxSliceSize) return TooLarge("transaction name", xid.size());
  if (rep->size() < kHeader) rep->resize(kHeader);
  rep->push_back(static_cast<char>(tag));
  PutLengthPrefixedSlice(rep, xid);
  return Status::OK();
}
}  // namespace

void WriteBatchInternal::AppendBeginPrepare(WriteBatch* batch, bool unprepare) {
  if (batch->rep_.size() < kHeader) batch->rep_.resize(kHeader);
  batch->rep_.push_back(
      static_cast<char>(unprepare ? kTypeBeginUnprepareXID : kTypeBeginPrepareXID));
}

Status WriteBatchInternal::AppendEndPrepare(WriteBatch* batch, const Slice& xid) {
  return AppendXidRecord(&batch->rep_, kTypeEndPrepareXID, xid);
}

Status WriteBatchInternal::MarkCommit(WriteBatch* batch, const Slice& xid) {
  return AppendXidRecord(&batch->rep_, kTypeCommitXID, xid);
}

Status WriteBatchInternal::MarkRollback(WriteBatch* batch, const Slice& xid) {
  return AppendXidRecord(&batch->rep_, kTypeRollbackXID, xid);
}

Status WriteBatchInternal::Put(WriteBatch* batch, uint32_t cf_id, const Slice& key,
                               const Slice& value) {
  Status s = CheckRecord(batch->rep_, cf_id, "key", key.size(), "value", value.size());
  if (!s.ok()) return s;
  std::string* rep = &batch->rep_;
  BeginRecord(rep, kTypeValue, kTypeColumnFamilyValue, cf_id);
  PutLengthPrefixedSlice(rep, key);
  PutLengthPrefixedSlice(rep, value);
  return Status::OK();
}

Status WriteBatchInternal::Delete(WriteBatch* batch, uint32_t cf_id, const Slice& key) {
  Status s = CheckRecord(batch->rep_, cf_id, "key", key.size());
  if (!s.ok()) return s;
  std::string* rep = &batch->rep_;
  BeginRecord(rep, kTypeDeletion, kTypeColumnFamilyDeletion, cf_id);
  PutLengthPrefixedSlice(rep, key);
  return Status::OK();
}

Status WriteBatchInternal::SingleDelete(WriteBatch* batch, uint32_t cf_id, const Slice& key) {
  Status s = CheckRecord(batch->rep_, cf_id, "key", key.size());
  if (!s.ok()) return s;
  std::string* rep = &batch->rep_;
  BeginRecord(rep, kTypeSingleDeletion, kTypeColumnFamilySingleDeletion, cf_id);
  PutLengthPrefixedSlice(rep, key);
  return Status::OK();
}

Status WriteBatchInternal::DeleteRange(WriteBatch* batch, uint32_t cf_id, const Slice& begin_key,
                                       const Slice& end_key) {
  Status s =
      CheckRecord(batch->rep_, cf_id, "begin key", begin_key.size(), "end key", end_key.size());
  if (!s.ok()) return s;
  std::string* rep = &batch->rep_;
  BeginRecord(rep, kTypeRangeDeletion, kTypeColumnFamilyRangeDeletion, cf_id);
  PutLengthPrefixedSlice(rep, begin_key);
  PutLengthPrefixedSlice(rep, end_key);
  return Status::OK();
}

Status WriteBatchInternal::Merge(WriteBatch* batch, uint32_t cf_id, const Slice& key,
                                 const Slice& value) {
  Status s = CheckRecord(batch->rep_, cf_id, "key", key.size(), "value", value.size());
  if (!s.ok()) return s;
  std::string* rep = &batch->rep_;
  BeginRecord(rep, kTypeMerge, kTypeColumnFamilyMerge, cf_id);
  PutLengthPrefixedSlice(rep, key);
  PutLengthPrefixedSlice(rep, value);
  return Status::OK();
}

// ---- WriteBatch ----

WriteBatch::WriteBatch(size_t reserved_bytes, size_t max_bytes) : max_bytes_(max_bytes) {
  rep_.reserve(std::max(reserved_bytes, kHeader));
  rep_.resize(kHeader);
}

WriteBatch::WriteBatch(size_t reserved_bytes, size_t max_bytes, size_t protection_bytes_per_key,
                       size_t default_cf_ts_sz)
    : WriteBatch(reserved_bytes, max_bytes) {
  protection_bytes_per_key_ = protection_bytes_per_key;
  default_cf_ts_sz_ = default_cf_ts_sz;
}

WriteBatch::WriteBatch(std::string rep) : rep_(std::move(rep)) {}

WriteBatch::~WriteBatch() = default;
WriteBatch::WriteBatch(const WriteBatch&) = default;
WriteBatch& WriteBatch::operator=(const WriteBatch&) = default;

// A moved-from batch is left empty and usable (the header fits in the
// string's inline storage, so this does not allocate).
WriteBatch::WriteBatch(WriteBatch&& other) noexcept
    : rep_(std::move(other.rep_)),
      max_bytes_(other.max_bytes_),
      save_points_(std::move(other.save_points_)),
      wal_term_point_(other.wal_term_point_),
      protection_bytes_per_key_(other.protection_bytes_per_key_),
      default_cf_ts_sz_(other.default_cf_ts_sz_) {
  other.Clear();
}

WriteBatch& WriteBatch::operator=(WriteBatch&& other) noexcept {
  if (this != &other) {
    rep_ = std::move(other.rep_);
    max_bytes_ = other.max_bytes_;
    save_points_ = std::move(other.save_points_);
    wal_term_point_ = other.wal_term_point_;
    protection_bytes_per_key_ = other.protection_bytes_per_key_;
    default_cf_ts_sz_ = other.default_cf_ts_sz_;
    other.Clear();
  }
  return *this;
}

template <typename Append>
Status WriteBatch::Bounded(Append append) {
  // The common case (no limit) is one predictable branch.
  if (max_bytes_ == 0) [[likely]] {
    return append();
  }
  if (rep_.size() < kHeader) rep_.resize(kHeader);
  const size_t size = rep_.size();
  const uint32_t count = Count();
  Status s = append();
  if (s.ok() && rep_.size() > max_bytes_) {
    rep_.resize(size);
    WriteBatchInternal::SetCount(this, count);
    return Status::MemoryLimit();
  }
  return s;
}

namespace {
// The concatenation of a SliceParts' pieces.
std::string Joined(const SliceParts& parts) {
  size_t n = 0;
  for (int i = 0; i < parts.num_parts; ++i) n += parts.parts[i].size();
  std::string out;
  out.reserve(n);
  for (int i = 0; i < parts.num_parts; ++i)
    out.append(parts.parts[i].data(), parts.parts[i].size());
  return out;
}
}  // namespace

Status WriteBatch::Put(const Slice& key, const Slice& value) {
  return Bounded([&] { return WriteBatchInternal::Put(this, 0, key, value); });
}
Status WriteBatch::Put(ColumnFamilyHandle* cf, const Slice& key, const Slice& value) {
  return Bounded([&] { return WriteBatchInternal::Put(this, CfId(cf), key, value); });
}
Status WriteBatch::Put(ColumnFamilyHandle* cf, const Slice&, const Slice&, const Slice&) {
  return TimestampRefused(cf);
}
Status WriteBatch::Put(ColumnFamilyHandle* cf, const SliceParts& key, const SliceParts& value) {
  return Put(cf, Joined(key), Joined(value));
}
Status WriteBatch::Put(const SliceParts& key, const SliceParts& value) {
  return Put(nullptr, key, value);
}
Status WriteBatch::PutEntity(ColumnFamilyHandle* cf, const Slice&, const WideColumns&) {
  return PutEntityRefused(cf);
}
Status WriteBatch::Delete(const Slice& key) {
  return Bounded([&] { return WriteBatchInternal::Delete(this, 0, key); });
}
Status WriteBatch::Delete(ColumnFamilyHandle* cf, const Slice& key) {
  return Bounded([&] { return WriteBatchInternal::Delete(this, CfId(cf), key); });
}
Status WriteBatch::Delete(ColumnFamilyHandle* cf, const Slice&, const Slice&) {
  return TimestampRefused(cf);
}
Status WriteBatch::Delete(ColumnFamilyHandle* cf, const SliceParts& key) {
  return Delete(cf, Joined(key));
}
Status WriteBatch::Delete(const SliceParts& key) { return Delete(nullptr, key); }
Status WriteBatch::SingleDelete(const Slice& key) {
  return Bounded([&] { return WriteBatchInternal::SingleDelete(this, 0, key); });
}
Status WriteBatch::SingleDelete(ColumnFamilyHandle* cf, const Slice& key) {
  return Bounded([&] { return WriteBatchInternal::SingleDelete(this, CfId(cf), key); });
}
Status WriteBatch::SingleDelete(ColumnFamilyHandle* cf, const Slice&, const Slice&) {
  return TimestampRefused(cf);
}
Status WriteBatch::SingleDelete(ColumnFamilyHandle* cf, const SliceParts& key) {
  return SingleDelete(cf, Joined(key));
}
Status WriteBatch::SingleDelete(const SliceParts& key) { return SingleDelete(nullptr, key); }
Status WriteBatch::DeleteRange(const Slice& begin_key, const Slice& end_key) {
  return Bounded([&] { return WriteBatchInternal::DeleteRange(this, 0, begin_key, end_key); });
}
Status WriteBatch::DeleteRange(ColumnFamilyHandle* cf, const Slice& begin_key,
                               const Slice& end_key) {
  return Bounded(
      [&] { return WriteBatchInternal::DeleteRange(this, CfId(cf), begin_key, end_key); });
}
Status WriteBatch::DeleteRange(ColumnFamilyHandle* cf, const Slice&, const Slice&, const Slice&) {
  return TimestampRefused(cf);
}
Status WriteBatch::DeleteRange(ColumnFamilyHandle* cf, const SliceParts& begin_key,
                               const SliceParts& end_key) {
  return DeleteRange(cf, Joined(begin_key), Joined(end_key));
}
Status WriteBatch::DeleteRange(const SliceParts& begin_key, const SliceParts& end_key) {
  return DeleteRange(nullptr, begin_key, end_key);
}
Status WriteBatch::Merge(const Slice& key, const Slice& value) {
  return Bounded([&] { return WriteBatchInternal::Merge(this, 0, key, value); });
}
Status WriteBatch::Merge(ColumnFamilyHandle* cf, const Slice& key, const Slice& value) {
  return Bounded([&] { return WriteBatchInternal::Merge(this, CfId(cf), key, value); });
}
Status WriteBatch::Merge(ColumnFamilyHandle*, const Slice&, const Slice&, const Slice&) {
  return MergeTimestampRefused();
}
Status WriteBatch::Merge(ColumnFamilyHandle* cf, const SliceParts& key, const SliceParts& value) {
  return Merge(cf, Joined(key), Joined(value));
}
Status WriteBatch::Merge(const SliceParts& key, const SliceParts& value) {
  return Merge(nullptr, key, value);
}

Status WriteBatch::PutLogData(const Slice& blob) {
  return Bounded([&] {
    Status s = CheckRecord(rep_, 0, "log data", blob.size());
    if (!s.ok()) return s;
    if (rep_.size() < kHeader) rep_.resize(kHeader);
    rep_.push_back(static_cast<char>(kTypeLogData));
    PutLengthPrefixedSlice(&rep_, blob);
    return Status::OK();
  });
}

// ---- WriteBatchBase ----

WriteBatchBase::~WriteBatchBase() = default;

Status WriteBatchBase::Put(ColumnFamilyHandle* column_family, const SliceParts& key,
                           const SliceParts& value) {
  return Put(column_family, Joined(key), Joined(value));
}
Status WriteBatchBase::Put(const SliceParts& key, const SliceParts& value) {
  return Put(Joined(key), Joined(value));
}
Status WriteBatchBase::Merge(ColumnFamilyHandle* column_family, const SliceParts& key,
                             const SliceParts& value) {
  return Merge(column_family, Joined(key), Joined(value));
}
Status WriteBatchBase::Merge(const SliceParts& key, const SliceParts& value) {
  return Merge(Joined(key), Joined(value));
}
Status WriteBatchBase::Delete(ColumnFamilyHandle* column_family, const SliceParts& key) {
  return Delete(column_family, Joined(key));
}
Status WriteBatchBase::Delete(const SliceParts& key) { return Delete(Joined(key)); }
Status WriteBatchBase::SingleDelete(ColumnFamilyHandle* column_family, const SliceParts& key) {
  return SingleDelete(column_family, Joined(key));
}
Status WriteBatchBase::SingleDelete(const SliceParts& key) { return SingleDelete(Joined(key)); }
Status WriteBatchBase::DeleteRange(ColumnFamilyHandle* column_family, const SliceParts& begin_key,
                                   const SliceParts& end_key) {
  return DeleteRange(column_family, Joined(begin_key), Joined(end_key));
}
Status WriteBatchBase::DeleteRange(const SliceParts& begin_key, const SliceParts& end_key) {
  return DeleteRange(Joined(begin_key), Joined(end_key));
}

// RocksDB 7.8.3's answers for a family whose comparator has no timestamp
// (every family in Strata).
Status WriteBatchBase::TimestampRefused(ColumnFamilyHandle* column_family) {
  if (column_family == nullptr) {
    return Status::InvalidArgument("column family handle cannot be null");
  }
  return Status::InvalidArgument("timestamp disabled");
}
Status WriteBatchBase::MergeTimestampRefused() {
  return Status::NotSupported("Merge does not support user-defined timestamp");
}
Status WriteBatchBase::PutEntityRefused(ColumnFamilyHandle* column_family) {
  if (column_family == nullptr) {
    return Status::InvalidArgument("Cannot call this method without a column family handle");
  }
  return Status::NotSupported("PutEntity: Strata has no wide-column entities");
}

void WriteBatch::Clear() {
  rep_.clear();
  rep_.resize(kHeader);
  save_points_.clear();
  wal_term_point_.clear();
}

void WriteBatch::MarkWalTerminationPoint() {
  if (rep_.size() < kHeader) rep_.resize(kHeader);
  wal_term_point_ = SavePoint(rep_.size(), static_cast<int>(Count()), ComputeContentFlags());
}

// ---- save points ----

void WriteBatch::SetSavePoint() {
  if (rep_.size() < kHeader) rep_.resize(kHeader);
  save_points_.push_back(SavePoint(rep_.size(), static_cast<int>(Count()), 0));
}

Status WriteBatch::RollbackToSavePoint() {
  if (save_points_.empty()) return Status::NotFound("WriteBatch has no save point");
  const SavePoint sp = save_points_.back();
  save_points_.pop_back();
  // Records are only ever appended, so the bytes before the save point are
  // exactly the batch as it was then (the header's sequence aside, which is
  // kept as it is now).
  if (sp.size <= rep_.size()) {
    rep_.resize(sp.size);
    WriteBatchInternal::SetCount(this, static_cast<uint32_t>(sp.count));
  }
  return Status::OK();
}

Status WriteBatch::PopSavePoint() {
  if (save_points_.empty()) return Status::NotFound("WriteBatch has no save point");
  save_points_.pop_back();
  return Status::OK();
}

uint32_t WriteBatch::Count() const { return WriteBatchInternal::Count(this); }

// ---- Handler defaults ----

WriteBatch::Handler::~Handler() = default;

Status WriteBatch::Handler::PutCF(uint32_t cf_id, const Slice& key, const Slice& value) {
  if (cf_id != 0)
    return Status::InvalidArgument("non-default column family and PutCF not implemented");
  Put(key, value);
  return Status::OK();
}
Status WriteBatch::Handler::DeleteCF(uint32_t cf_id, const Slice& key) {
  if (cf_id != 0) {
    return Status::InvalidArgument("non-default column family and DeleteCF not implemented");
  }
  Delete(key);
  return Status::OK();
}
Status WriteBatch::Handler::SingleDeleteCF(uint32_t cf_id, const Slice& key) {
  if (cf_id != 0) {
    return Status::InvalidArgument("non-default column family and SingleDeleteCF not implemented");
  }
  SingleDelete(key);
  return Status::OK();
}
Status WriteBatch::Handler::DeleteRangeCF(uint32_t cf_id, const Slice& begin_key,
                                          const Slice& end_key) {
  if (cf_id != 0) {
    return Status::InvalidArgument("non-default column family and DeleteRangeCF not implemented");
  }
  DeleteRange(begin_key, end_key);
  return Status::OK();
}
Status WriteBatch::Handler::MergeCF(uint32_t cf_id, const Slice& key, const Slice& value) {
  if (cf_id != 0) {
    return Status::InvalidArgument("non-default column family and MergeCF not implemented");
  }
  Merge(key, value);
  return Status::OK();
}
Status WriteBatch::Handler::PutEntityCF(uint32_t /*column_family_id*/, const Slice& /*key*/,
                                        const Slice& /*entity*/) {
  return Status::NotSupported("PutEntityCF not implemented");
}
Status WriteBatch::Handler::PutBlobIndexCF(uint32_t /*column_family_id*/, const Slice& /*key*/,
                                           const Slice& /*value*/) {
  return Status::InvalidArgument("PutBlobIndexCF not implemented");
}
Status WriteBatch::Handler::MarkCommitWithTimestamp(const Slice& /*xid*/,
                                                    const Slice& /*commit_ts*/) {
  return Status::InvalidArgument("MarkCommitWithTimestamp() handler not defined.");
}
void WriteBatch::Handler::LogData(const Slice& /*blob*/) {}
Status WriteBatch::Handler::MarkBeginPrepare(bool /*unprepare*/) {
  return Status::InvalidArgument("MarkBeginPrepare() handler not defined.");
}
Status WriteBatch::Handler::MarkEndPrepare(const Slice& /*xid*/) {
  return Status::InvalidArgument("MarkEndPrepare() handler not defined.");
}
Status WriteBatch::Handler::MarkCommit(const Slice& /*xid*/) {
  return Status::InvalidArgument("MarkCommit() handler not defined.");
}
Status WriteBatch::Handler::MarkRollback(const Slice& /*xid*/) {
  return Status::InvalidArgument("MarkRollback() handler not defined.");
}
Status WriteBatch::Handler::MarkNoop(bool /*empty_batch*/) { return Status::OK(); }
void WriteBatch::Handler::Put(const Slice& /*key*/, const Slice& /*value*/) {}
void WriteBatch::Handler::Delete(const Slice& /*key*/) {}
void WriteBatch::Handler::SingleDelete(const Slice& /*key*/) {}
void WriteBatch::Handler::DeleteRange(const Slice& /*begin_key*/, const Slice& /*end_key*/) {}
void WriteBatch::Handler::Merge(const Slice& /*key*/, const Slice& /*value*/) {}

// ---- Iterate ----

Status WriteBatch::Iterate(Handler* handler) const {
  if (rep_.size() < kHeader) return Status::Corruption("log record too small");
  const char* const base = rep_.data();
  const char* const limit = base + rep_.size();
  const char* p = base + kHeader;
  uint32_t found = 0;
  Slice key;
  Slice value;
  Status s;
  bool empty_batch = true;  // no counted record since the start or the last marker
  while (p != limit) {
    if (!handler->Continue()) return Status::OK();
    const size_t offset = static_cast<size_t>(p - base);
    const unsigned int tag = static_cast<unsigned char>(*p++);
    uint32_t cf_id = 0;
    switch (tag) {
      case kTypeColumnFamilyValue:
        if ((p = GetVarint32Ptr(p, limit, &cf_id)) == nullptr) {
          return BadRecord("bad WriteBatch Put", offset);
        }
        [[fallthrough]];
      case kTypeValue:
        if ((p = GetLengthPrefixedSlicePtr(p, limit, &key)) == nullptr ||
            (p = GetLengthPrefixedSlicePtr(p, limit, &value)) == nullptr) {
          return BadRecord("bad WriteBatch Put", offset);
        }
        s = handler->PutCF(cf_id, key, value);
        empty_batch = false;
        found++;
        break;

      case kTypeColumnFamilyDeletion:
        if ((p = GetVarint32Ptr(p, limit, &cf_id)) == nullptr) {
          return BadRecord("bad WriteBatch Delete", offset);
        }
        [[fallthrough]];
      case kTypeDeletion:
        if ((p = GetLengthPrefixedSlicePtr(p, limit, &key)) == nullptr) {
          return BadRecord("bad WriteBatch Delete", offset);
        }
        s = handler->DeleteCF(cf_id, key);
        empty_batch = false;
        found++;
        break;

      case kTypeColumnFamilySingleDeletion:
        if ((p = GetVarint32Ptr(p, limit, &cf_id)) == nullptr) {
          return BadRecord("bad WriteBatch SingleDelete", offset);
        }
        [[fallthrough]];
      case kTypeSingleDeletion:
        if ((p = GetLengthPrefixedSlicePtr(p, limit, &key)) == nullptr) {
          return BadRecord("bad WriteBatch SingleDelete", offset);
        }
        s = handler->SingleDeleteCF(cf_id, key);
        empty_batch = false;
        found++;
        break;

      case kTypeColumnFamilyRangeDeletion:
        if ((p = GetVarint32Ptr(p, limit, &cf_id)) == nullptr) {
          return BadRecord("bad WriteBatch DeleteRange", offset);
        }
        [[fallthrough]];
      case kTypeRangeDeletion:
        if ((p = GetLengthPrefixedSlicePtr(p, limit, &key)) == nullptr ||
            (p = GetLengthPrefixedSlicePtr(p, limit, &value)) == nullptr) {
          return BadRecord("bad WriteBatch DeleteRange", offset);
        }
        s = handler->DeleteRangeCF(cf_id, key, value);
        empty_batch = false;
        found++;
        break;

      case kTypeColumnFamilyMerge:
        if ((p = GetVarint32Ptr(p, limit, &cf_id)) == nullptr) {
          return BadRecord("bad WriteBatch Merge", offset);
        }
        [[fallthrough]];
      case kTypeMerge:
        if ((p = GetLengthPrefixedSlicePtr(p, limit, &key)) == nullptr ||
            (p = GetLengthPrefixedSlicePtr(p, limit, &value)) == nullptr) {
          return BadRecord("bad WriteBatch Merge", offset);
        }
        s = handler->MergeCF(cf_id, key, value);
        empty_batch = false;
        found++;
        break;

      case kTypeLogData:
        if ((p = GetLengthPrefixedSlicePtr(p, limit, &value)) == nullptr) {
          return BadRecord("bad WriteBatch LogData", offset);
        }
        handler->LogData(value);
        break;

      case kTypeNoop:
        s = handler->MarkNoop(empty_batch);
        empty_batch = true;
        break;

      case kTypeBeginPrepareXID:
        s = handler->MarkBeginPrepare();
        empty_batch = false;
        break;
      case kTypeBeginPersistedPrepareXID:
        // WRITE_PREPARED's marker: Strata, as RocksDB's default
        // (WRITE_COMMITTED) handlers, refuses it, with RocksDB's text.
        s = handler->MarkBeginPrepare();
        empty_batch = false;
        if (s.ok()) {
          s = Status::NotSupported(
              "WritePrepared/WriteUnprepared txn tag when write_after_commit_ is enabled (in "
              "default WriteCommitted mode). If it is not due to corruption, the WAL must be "
              "emptied before changing the WritePolicy.");
        }
        break;
      case kTypeBeginUnprepareXID:
        s = handler->MarkBeginPrepare(/*unprepare=*/true);
        empty_batch = false;
        break;
      case kTypeEndPrepareXID:
        if ((p = GetLengthPrefixedSlicePtr(p, limit, &key)) == nullptr) {
          return BadRecord("bad EndPrepare XID", offset);
        }
        s = handler->MarkEndPrepare(key);
        empty_batch = true;
        break;
      case kTypeCommitXID:
        if ((p = GetLengthPrefixedSlicePtr(p, limit, &key)) == nullptr) {
          return BadRecord("bad Commit XID", offset);
        }
        s = handler->MarkCommit(key);
        empty_batch = true;
        break;
      case kTypeRollbackXID:
        if ((p = GetLengthPrefixedSlicePtr(p, limit, &key)) == nullptr) {
          return BadRecord("bad Rollback XID", offset);
        }
        s = handler->MarkRollback(key);
        empty_batch = true;
        break;
      // RocksDB's records Strata never writes: the handler decides (its
      // defaults refuse them, as RocksDB's).
      case kTypeCommitXIDAndTimestamp:
        // The commit timestamp, then the transaction name.
        if ((p = GetLengthPrefixedSlicePtr(p, limit, &value)) == nullptr) {
          return BadRecord("bad commit timestamp", offset);
        }
        if ((p = GetLengthPrefixedSlicePtr(p, limit, &key)) == nullptr) {
          return BadRecord("bad Commit XID", offset);
        }
        s = handler->MarkCommitWithTimestamp(key, value);
        empty_batch = true;
        break;
      case kTypeColumnFamilyBlobIndex:
        if ((p = GetVarint32Ptr(p, limit, &cf_id)) == nullptr) {
          return BadRecord("bad WriteBatch BlobIndex", offset);
        }
        [[fallthrough]];
      case kTypeBlobIndex:
        if ((p = GetLengthPrefixedSlicePtr(p, limit, &key)) == nullptr ||
            (p = GetLengthPrefixedSlicePtr(p, limit, &value)) == nullptr) {
          return BadRecord("bad WriteBatch BlobIndex", offset);
        }
        s = handler->PutBlobIndexCF(cf_id, key, value);
        empty_batch = false;
        found++;
        break;
      case kTypeColumnFamilyWideColumnEntity:
        if ((p = GetVarint32Ptr(p, limit, &cf_id)) == nullptr) {
          return BadRecord("bad WriteBatch PutEntity", offset);
        }
        [[fallthrough]];
      case kTypeWideColumnEntity:
        if ((p = GetLengthPrefixedSlicePtr(p, limit, &key)) == nullptr ||
            (p = GetLengthPrefixedSlicePtr(p, limit, &value)) == nullptr) {
          return BadRecord("bad WriteBatch PutEntity", offset);
        }
        s = handler->PutEntityCF(cf_id, key, value);
        empty_batch = false;
        found++;
        break;

      default: {
        char buf[48];
        snprintf(buf, sizeof(buf), "unknown WriteBatch tag 0x%02x", tag);
        return BadRecord(buf, offset);
      }
    }
    if (!s.ok()) return s;
  }
  if (found != WriteBatchInternal::Count(this)) {
    return Status::Corruption("WriteBatch has wrong count");
  }
  return Status::OK();
}

// ---- content flags, checksums, timestamps ----

namespace {

// RocksDB's content-flag bits (its WriteBatch::ContentFlags; they appear in
// SavePoint::content_flags).
enum ContentFlag : uint32_t {
  kHasPut = 1u << 1,
  kHasDelete = 1u << 2,
  kHasSingleDelete = 1u << 3,
  kHasMerge = 1u << 4,
  kHasBeginPrepare = 1u << 5,
  kHasEndPrepare = 1u << 6,
  kHasCommit = 1u << 7,
  kHasRollback = 1u << 8,
  kHasDeleteRange = 1u << 9,
  kHasBlobIndex = 1u << 10,
  kHasBeginUnprepare = 1u << 11,
  kHasPutEntity = 1u << 12,
};

// Sets a flag per record kind seen; accepts every record.
class ContentClassifier final : public WriteBatch::Handler {
 public:
  uint32_t flags = 0;
  Status PutCF(uint32_t, const Slice&, const Slice&) override { return Add(kHasPut); }
  Status PutEntityCF(uint32_t, const Slice&, const Slice&) override { return Add(kHasPutEntity); }
  Status DeleteCF(uint32_t, const Slice&) override { return Add(kHasDelete); }
  Status SingleDeleteCF(uint32_t, const Slice&) override { return Add(kHasSingleDelete); }
  Status DeleteRangeCF(uint32_t, const Slice&, const Slice&) override {
    return Add(kHasDeleteRange);
  }
  Status MergeCF(uint32_t, const Slice&, const Slice&) override { return Add(kHasMerge); }
  Status PutBlobIndexCF(uint32_t, const Slice&, const Slice&) override {
    return Add(kHasBlobIndex);
  }
  Status MarkBeginPrepare(bool unprepare) override {
    return Add(unprepare ? kHasBeginPrepare | kHasBeginUnprepare : kHasBeginPrepare);
  }
  Status MarkEndPrepare(const Slice&) override { return Add(kHasEndPrepare); }
  Status MarkCommit(const Slice&) override { return Add(kHasCommit); }
  Status MarkCommitWithTimestamp(const Slice&, const Slice&) override { return Add(kHasCommit); }
  Status MarkRollback(const Slice&) override { return Add(kHasRollback); }

 private:
  Status Add(uint32_t f) {
    flags |= f;
    return Status::OK();
  }
};

// UpdateTimestamps' pass: overwrites the key's trailing timestamp bytes in
// place (the slices Iterate hands out point into the batch's own bytes).
class TimestampWriter final : public WriteBatch::Handler {
 public:
  TimestampWriter(const Slice& ts, const std::function<size_t(uint32_t)>& ts_sz_func)
      : ts_(ts), ts_sz_func_(ts_sz_func) {}
  Status PutCF(uint32_t cf, const Slice& key, const Slice&) override { return Update(cf, key); }
  Status DeleteCF(uint32_t cf, const Slice& key) override { return Update(cf, key); }
  Status SingleDeleteCF(uint32_t cf, const Slice& key) override { return Update(cf, key); }
  Status DeleteRangeCF(uint32_t cf, const Slice& begin, const Slice& end) override {
    Status s = Update(cf, begin);
    return s.ok() ? Update(cf, end) : s;
  }
  Status MergeCF(uint32_t cf, const Slice& key, const Slice&) override { return Update(cf, key); }
  Status PutBlobIndexCF(uint32_t cf, const Slice& key, const Slice&) override {
    return Update(cf, key);
  }
  Status MarkBeginPrepare(bool) override { return Status::OK(); }
  Status MarkEndPrepare(const Slice&) override { return Status::OK(); }
  Status MarkCommit(const Slice&) override { return Status::OK(); }
  Status MarkCommitWithTimestamp(const Slice&, const Slice&) override { return Status::OK(); }
  Status MarkRollback(const Slice&) override { return Status::OK(); }

 private:
  Status Update(uint32_t cf, const Slice& key) {
    if (ts_.empty()) return Status::InvalidArgument("Timestamp is empty");
    const size_t ts_sz = ts_sz_func_ ? ts_sz_func_(cf) : std::numeric_limits<size_t>::max();
    if (ts_sz == 0) return Status::OK();  // a family without timestamps
    if (ts_sz == std::numeric_limits<size_t>::max()) {
      return Status::NotFound("UpdateTimestamps: no timestamp size for column family " +
                              std::to_string(cf));
    }
    if (ts_sz != ts_.size()) return Status::InvalidArgument("timestamp size mismatch");
    if (key.size() < ts_sz) return Status::InvalidArgument("key shorter than its timestamp");
    memcpy(const_cast<char*>(key.data() + key.size() - ts_sz), ts_.data(), ts_sz);
    return Status::OK();
  }

  const Slice ts_;
  const std::function<size_t(uint32_t)>& ts_sz_func_;
};

}  // namespace

uint32_t WriteBatch::ComputeContentFlags() const {
  ContentClassifier classifier;
  // A malformed batch: the flags of the records before the damage.
  Iterate(&classifier).PermitUncheckedError();
  return classifier.flags;
}

bool WriteBatch::HasPut() const { return (ComputeContentFlags() & kHasPut) != 0; }
bool WriteBatch::HasDelete() const { return (ComputeContentFlags() & kHasDelete) != 0; }
bool WriteBatch::HasSingleDelete() const { return (ComputeContentFlags() & kHasSingleDelete) != 0; }
bool WriteBatch::HasDeleteRange() const { return (ComputeContentFlags() & kHasDeleteRange) != 0; }
bool WriteBatch::HasMerge() const { return (ComputeContentFlags() & kHasMerge) != 0; }
bool WriteBatch::HasBeginPrepare() const { return (ComputeContentFlags() & kHasBeginPrepare) != 0; }
bool WriteBatch::HasEndPrepare() const { return (ComputeContentFlags() & kHasEndPrepare) != 0; }
bool WriteBatch::HasCommit() const { return (ComputeContentFlags() & kHasCommit) != 0; }
bool WriteBatch::HasRollback() const { return (ComputeContentFlags() & kHasRollback) != 0; }
bool WriteBatch::HasPutEntity() const { return (ComputeContentFlags() & kHasPutEntity) != 0; }

Status WriteBatch::VerifyChecksum() const {
  if (protection_bytes_per_key_ == 0) return Status::OK();
  return Status::NotSupported(
      "WriteBatch::VerifyChecksum: per-key protection (protection_bytes_per_key=" +
      std::to_string(protection_bytes_per_key_) + ") is not supported by Strata");
}

Status WriteBatch::UpdateTimestamps(const Slice& ts, std::function<size_t(uint32_t)> ts_sz_func) {
  TimestampWriter writer(ts, ts_sz_func);
  return Iterate(&writer);
}

Status WriteBatchInternal::CheckWritable(const WriteBatch* batch) {
  const size_t prot = batch->protection_bytes_per_key_;
  if (prot == 8) {
    return Status::NotSupported(
        "WriteBatch protection_bytes_per_key=8 is not supported by Strata: it keeps no per-key "
        "checksums");
  }
  if (prot != 0) {
    return Status::InvalidArgument("WriteBatch protection_bytes_per_key must be 0 or 8, not " +
                                   std::to_string(prot));
  }
  if (batch->default_cf_ts_sz_ != 0) {
    return Status::NotSupported(
        "WriteBatch default_cf_ts_sz is not supported by Strata: it has no user-defined "
        "timestamps");
  }
  return Status::OK();
}

}  // namespace strata
