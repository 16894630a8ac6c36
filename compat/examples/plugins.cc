// plugins: the members of RocksDB's plugin interfaces a program calls --
// comparators' extra answers, the built-ins by name (CreateFromString of
// comparators, merge operators, prefix extractors, statistics, caches,
// filter policies, table factories, collector factories), the property
// names, a block cache's handle-level calls, compaction filter decisions
// (kPurge, kIOError, IgnoreSnapshots, a factory asked per table file) and
// SstFileWriter's other forms. Built against RocksDB and against Strata's
// compat layer; both must print the same.
#include <cstdio>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "rocksdb/cache.h"
#include "rocksdb/compaction_filter.h"
#include "rocksdb/comparator.h"
#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/merge_operator.h"
#include "rocksdb/options.h"
#include "rocksdb/slice_transform.h"
#include "rocksdb/sst_file_reader.h"
#include "rocksdb/sst_file_writer.h"
#include "rocksdb/statistics.h"
#include "rocksdb/table.h"
#include "rocksdb/table_properties.h"
#include "rocksdb/utilities/table_properties_collectors.h"

namespace {

const char* YesNo(bool b) { return b ? "yes" : "no"; }

void Comparators() {
  const rocksdb::Comparator* b = rocksdb::BytewiseComparator();
  const rocksdb::Comparator* r = rocksdb::ReverseBytewiseComparator();
  std::printf("comparator type %s\n", rocksdb::Comparator::Type());
  std::printf("bytewise ts size %zu root is self %s\n", b->timestamp_size(),
              YesNo(b->GetRootComparator() == b));
  std::printf("bytewise can differ-equal %s reverse %s\n",
              YesNo(b->CanKeysWithDifferentByteContentsBeEqual()),
              YesNo(r->CanKeysWithDifferentByteContentsBeEqual()));
  const std::string s1("ab\xff\xff", 4), t1("ac\x00\x00", 4), t2("ac\x00\x01", 4);
  std::printf("successor %s %s %s %s reverse %s\n",
              YesNo(b->IsSameLengthImmediateSuccessor(s1, t1)),
              YesNo(b->IsSameLengthImmediateSuccessor(s1, t2)),
              YesNo(b->IsSameLengthImmediateSuccessor("ab", "ac")),
              YesNo(b->IsSameLengthImmediateSuccessor("ab", "ab")),
              YesNo(r->IsSameLengthImmediateSuccessor("ab", "ac")));
  std::printf("without ts %d %d %d equal %s %s ts cmp %d\n",
              b->CompareWithoutTimestamp("a", "b") < 0 ? -1 : 1,
              r->CompareWithoutTimestamp("a", "b") < 0 ? -1 : 1,
              b->CompareWithoutTimestamp("a", false, "a", false),
              YesNo(b->EqualWithoutTimestamp("x", "x")), YesNo(r->EqualWithoutTimestamp("x", "y")),
              b->CompareTimestamp("1", "2"));
  const rocksdb::CompareInterface* ci = b;
  std::printf("compare interface %d\n", ci->Compare("b", "a") > 0 ? 1 : -1);

  rocksdb::ConfigOptions co;
  for (const char* id : {"leveldb.BytewiseComparator", "rocksdb.ReverseBytewiseComparator"}) {
    const rocksdb::Comparator* c = nullptr;
    rocksdb::Status s = rocksdb::Comparator::CreateFromString(co, id, &c);
    std::printf("comparator %s: %s %s\n", id, s.ToString().c_str(), c ? c->Name() : "null");
  }
  const rocksdb::Comparator* c = b;
  rocksdb::Status s = rocksdb::Comparator::CreateFromString(co, "no.such.Comparator", &c);
  std::printf("comparator unknown: %s unchanged %s\n", s.ToString().c_str(), YesNo(c == b));
  co.ignore_unsupported_options = false;
  s = rocksdb::Comparator::CreateFromString(co, "no.such.Comparator", &c);
  std::printf("comparator unknown strict: %s\n", s.ToString().c_str());
  s = rocksdb::Comparator::CreateFromString(co, "", &c);
  std::printf("comparator empty: %s null %s\n", s.ToString().c_str(), YesNo(c == nullptr));
}

void ByName() {
  rocksdb::ConfigOptions co;
  std::printf("types %s %s %s %s %s %s %s %s\n", rocksdb::MergeOperator::Type(),
              rocksdb::SliceTransform::Type(), rocksdb::Statistics::Type(),
              rocksdb::FilterPolicy::Type(), rocksdb::TableFactory::Type(),
              rocksdb::TablePropertiesCollectorFactory::Type(), rocksdb::CompactionFilter::Type(),
              rocksdb::CompactionFilterFactory::Type());
  for (const char* id : {"put", "uint64add", "stringappend", "max", "MaxOperator"}) {
    std::shared_ptr<rocksdb::MergeOperator> m;
    rocksdb::Status s = rocksdb::MergeOperator::CreateFromString(co, id, &m);
    std::printf("merge %s: %s %s\n", id, s.ToString().c_str(), m ? m->Name() : "null");
  }
  for (const char* id :
       {"fixed:3", "capped:4", "rocksdb.Noop", "rocksdb.FixedPrefix.5", "rocksdb.CappedPrefix.2"}) {
    std::shared_ptr<const rocksdb::SliceTransform> t;
    rocksdb::Status s = rocksdb::SliceTransform::CreateFromString(co, id, &t);
    std::printf("prefix %s: %s %s appended(abcdef) %s appended(a) %s\n", id, s.ToString().c_str(),
                t ? t->AsString().c_str() : "null",
                t ? YesNo(t->SameResultWhenAppended("abcdef")) : "-",
                t ? YesNo(t->SameResultWhenAppended("a")) : "-");
  }
  for (const char* id : {"", "BasicStatistics", "nullptr"}) {
    std::shared_ptr<rocksdb::Statistics> st;
    rocksdb::Status s = rocksdb::Statistics::CreateFromString(co, id, &st);
    std::printf("statistics [%s]: %s %s\n", id, s.ToString().c_str(), st ? st->Name() : "null");
  }
  std::shared_ptr<rocksdb::Statistics> stats = rocksdb::CreateDBStatistics();
  std::printf("statistics strings [%s] [%s]\n", stats->ToString(co).c_str(),
              stats->ToString(co, "p.").c_str());
  rocksdb::HistogramData hd;
  const rocksdb::Statistics* cstats = stats.get();
  cstats->histogramData(rocksdb::DB_GET, &hd);
  std::printf("histogram count %llu\n", static_cast<unsigned long long>(hd.count));
  for (const char* id :
       {"1M", "capacity=2M;num_shard_bits=2;strict_capacity_limit=true", "capacity=2M;foo=1"}) {
    std::shared_ptr<rocksdb::Cache> cache;
    rocksdb::Status s = rocksdb::Cache::CreateFromString(co, id, &cache);
    std::printf("cache %s: %s %s %zu %s\n", id, s.ToString().c_str(),
                cache ? cache->Name() : "null", cache ? cache->GetCapacity() : 0,
                cache ? YesNo(cache->HasStrictCapacityLimit()) : "-");
  }
  for (const char* id :
       {"bloomfilter:10:false", "ribbonfilter:10:1", "bloomfilter:10", "nullptr"}) {
    std::shared_ptr<const rocksdb::FilterPolicy> fp;
    rocksdb::Status s = rocksdb::FilterPolicy::CreateFromString(co, id, &fp);
    std::printf("filter %s: %s %s\n", id, s.ToString().c_str(), fp ? fp->Name() : "null");
  }
  for (const char* id : {"BlockBasedTable", "PlainTable"}) {
    std::shared_ptr<rocksdb::TableFactory> tf;
    rocksdb::Status s = rocksdb::TableFactory::CreateFromString(co, id, &tf);
    std::printf("table factory %s: %s %s delete range %s\n", id, s.ToString().c_str(),
                tf ? tf->Name() : "null", tf ? YesNo(tf->IsDeleteRangeSupported()) : "-");
  }
  std::printf("block cache opts %s\n", rocksdb::TableFactory::kBlockCacheOpts());
  auto cod = rocksdb::NewCompactOnDeletionCollectorFactory(100, 10, 0.5);
  const rocksdb::TablePropertiesCollectorFactory* base = cod.get();
  std::printf("collector [%s]\n", base->ToString().c_str());
  std::shared_ptr<rocksdb::TablePropertiesCollectorFactory> tpf;
  rocksdb::Status s = rocksdb::TablePropertiesCollectorFactory::CreateFromString(
      co, "CompactOnDeletionCollector", &tpf);
  std::printf("collector by name: %s %s\n", s.ToString().c_str(), tpf ? tpf->Name() : "null");

  co.ignore_unsupported_options = false;
  std::shared_ptr<rocksdb::MergeOperator> m;
  std::printf("strict merge: %s\n",
              rocksdb::MergeOperator::CreateFromString(co, "nope", &m).ToString().c_str());
  std::shared_ptr<const rocksdb::SliceTransform> t;
  std::printf("strict prefix: %s\n",
              rocksdb::SliceTransform::CreateFromString(co, "nope", &t).ToString().c_str());
  std::shared_ptr<rocksdb::Statistics> st;
  std::printf("strict statistics: %s\n",
              rocksdb::Statistics::CreateFromString(co, "nope", &st).ToString().c_str());
  std::shared_ptr<const rocksdb::FilterPolicy> fp;
  std::printf("strict filter: %s\n",
              rocksdb::FilterPolicy::CreateFromString(co, "nope", &fp).ToString().c_str());
  std::shared_ptr<rocksdb::CompactionFilterFactory> cff;
  std::printf(
      "strict filter factory: %s\n",
      rocksdb::CompactionFilterFactory::CreateFromString(co, "nope", &cff).ToString().c_str());
  std::printf("strict collector: %s\n",
              rocksdb::TablePropertiesCollectorFactory::CreateFromString(co, "nope", &tpf)
                  .ToString()
                  .c_str());
}

void PropertyNames() {
  using N = rocksdb::TablePropertiesNames;
  for (const std::string* n : {&N::kDbId,
                               &N::kDbSessionId,
                               &N::kDbHostId,
                               &N::kOriginalFileNumber,
                               &N::kDataSize,
                               &N::kIndexSize,
                               &N::kIndexPartitions,
                               &N::kTopLevelIndexSize,
                               &N::kIndexKeyIsUserKey,
                               &N::kIndexValueIsDeltaEncoded,
                               &N::kFilterSize,
                               &N::kRawKeySize,
                               &N::kRawValueSize,
                               &N::kNumDataBlocks,
                               &N::kNumEntries,
                               &N::kNumFilterEntries,
                               &N::kDeletedKeys,
                               &N::kMergeOperands,
                               &N::kNumRangeDeletions,
                               &N::kFormatVersion,
                               &N::kFixedKeyLen,
                               &N::kFilterPolicy,
                               &N::kColumnFamilyName,
                               &N::kColumnFamilyId,
                               &N::kComparator,
                               &N::kMergeOperator,
                               &N::kPrefixExtractorName,
                               &N::kPropertyCollectors,
                               &N::kCompression,
                               &N::kCompressionOptions,
                               &N::kCreationTime,
                               &N::kOldestKeyTime,
                               &N::kFileCreationTime,
                               &N::kSlowCompressionEstimatedDataSize,
                               &N::kFastCompressionEstimatedDataSize,
                               &N::kSequenceNumberTimeMapping,
                               &rocksdb::BlockBasedTablePropertyNames::kIndexType,
                               &rocksdb::BlockBasedTablePropertyNames::kWholeKeyFiltering,
                               &rocksdb::BlockBasedTablePropertyNames::kPrefixFiltering,
                               &rocksdb::PlainTablePropertyNames::kEncodingType,
                               &rocksdb::PlainTablePropertyNames::kBloomVersion,
                               &rocksdb::PlainTablePropertyNames::kNumBloomBlocks,
                               &rocksdb::CuckooTablePropertyNames::kEmptyKey,
                               &rocksdb::CuckooTablePropertyNames::kValueLength,
                               &rocksdb::CuckooTablePropertyNames::kNumHashFunc,
                               &rocksdb::CuckooTablePropertyNames::kCuckooBlockSize,
                               &rocksdb::CuckooTablePropertyNames::kHashTableSize,
                               &rocksdb::CuckooTablePropertyNames::kIsLastLevel,
                               &rocksdb::CuckooTablePropertyNames::kIdentityAsFirstHash,
                               &rocksdb::CuckooTablePropertyNames::kUseModuleHash,
                               &rocksdb::CuckooTablePropertyNames::kUserKeyLength}) {
    std::printf("property %s\n", n->c_str());
  }
  for (uint32_t i = 0; i < rocksdb::kNumCacheEntryRoles; i++) {
    const auto role = static_cast<rocksdb::CacheEntryRole>(i);
    std::printf("role %u %s %s %s %s\n", i, rocksdb::GetCacheEntryRoleName(role).c_str(),
                rocksdb::BlockCacheEntryStatsMapKeys::EntryCount(role).c_str(),
                rocksdb::BlockCacheEntryStatsMapKeys::UsedBytes(role).c_str(),
                rocksdb::BlockCacheEntryStatsMapKeys::UsedPercent(role).c_str());
  }
  std::printf("stats keys %s %s %s %s\n", rocksdb::BlockCacheEntryStatsMapKeys::CacheId().c_str(),
              rocksdb::BlockCacheEntryStatsMapKeys::CacheCapacityBytes().c_str(),
              rocksdb::BlockCacheEntryStatsMapKeys::LastCollectionDurationSeconds().c_str(),
              rocksdb::BlockCacheEntryStatsMapKeys::LastCollectionAgeSeconds().c_str());
  rocksdb::UserCollectedProperties props;
  bool present = true;
  std::printf("legacy counts %llu %llu present %s\n",
              static_cast<unsigned long long>(rocksdb::GetDeletedKeys(props)),
              static_cast<unsigned long long>(rocksdb::GetMergeOperands(props, &present)),
              YesNo(present));
  props["rocksdb.merge.operands"] = std::string("\x05", 1);
  props["rocksdb.deleted.keys"] = std::string("\x07", 1);
  const uint64_t merges = rocksdb::GetMergeOperands(props, &present);
  std::printf("legacy counts %llu %llu present %s\n",
              static_cast<unsigned long long>(rocksdb::GetDeletedKeys(props)),
              static_cast<unsigned long long>(merges), YesNo(present));
  rocksdb::TableProperties a, b;
  a.data_size = 10;
  a.num_entries = 3;
  b.data_size = 5;
  b.num_entries = 4;
  b.num_deletions = 1;
  a.Add(b);
  for (const auto& [name, value] : a.GetAggregatablePropertiesAsMap()) {
    std::printf("aggregate %s %llu\n", name.c_str(), static_cast<unsigned long long>(value));
  }
}

int deleted = 0;
void CountDelete(const rocksdb::Slice&, void* value) {
  deleted++;
  delete static_cast<std::string*>(value);
}

void CacheCalls() {
  rocksdb::LRUCacheOptions lo(1 << 20, 2, false, 0.5);
  lo.metadata_charge_policy = rocksdb::kDontChargeCacheMetadata;
  std::shared_ptr<rocksdb::Cache> cache = rocksdb::NewLRUCache(lo);
  std::printf("printable options:\n%s", cache->GetPrintableOptions().c_str());
  rocksdb::Cache::Handle* h = nullptr;
  rocksdb::Status s = cache->Insert("a", new std::string("va"), 100, &CountDelete, &h,
                                    rocksdb::Cache::Priority::HIGH);
  std::printf("insert a: %s\n", s.ToString().c_str());
  std::printf("charge %zu usage %zu deleter same %s ready %s\n", cache->GetCharge(h),
              cache->GetUsage(h), YesNo(cache->GetDeleter(h) == &CountDelete),
              YesNo(cache->IsReady(h)));
  std::printf("ref %s pinned %zu\n", YesNo(cache->Ref(h)), cache->GetPinnedUsage());
  cache->Release(h);
  std::printf("after one release pinned %zu\n", cache->GetPinnedUsage());
  cache->Wait(h);
  cache->Release(h, /*useful=*/true, /*erase_if_last_ref=*/false);
  std::printf("after two releases pinned %zu usage %zu\n", cache->GetPinnedUsage(),
              cache->GetUsage());
  s = cache->Insert("b", new std::string("vb"), 50, &CountDelete, nullptr,
                    rocksdb::Cache::Priority::BOTTOM);
  std::printf("insert b: %s\n", s.ToString().c_str());
  rocksdb::Cache::CacheItemHelper helper(nullptr, nullptr, &CountDelete);
  s = cache->Insert("c", new std::string("vc"), &helper, 25, nullptr,
                    rocksdb::Cache::Priority::LOW);
  std::printf("insert c with helper: %s\n", s.ToString().c_str());
  s = cache->Insert("d", nullptr, static_cast<const rocksdb::Cache::CacheItemHelper*>(nullptr), 1);
  std::printf("insert without helper: invalid argument %s\n", YesNo(s.IsInvalidArgument()));
  rocksdb::Cache::Handle* hc = cache->Lookup("c", nullptr, rocksdb::Cache::CreateCallback(),
                                             rocksdb::Cache::Priority::LOW, true);
  std::printf("lookup c: %s\n", hc ? static_cast<std::string*>(cache->Value(hc))->c_str() : "miss");
  std::vector<rocksdb::Cache::Handle*> handles{hc};
  cache->WaitAll(handles);
  cache->Release(hc);
  size_t entries = 0, total = 0;
  std::set<std::string> keys;
  cache->ApplyToAllEntries(
      [&](const rocksdb::Slice& key, void*, size_t charge, rocksdb::Cache::DeleterFn) {
        entries++;
        total += charge;
        keys.insert(key.ToString());
      },
      rocksdb::Cache::ApplyToAllEntriesOptions());
  std::printf("entries %zu charge %zu keys", entries, total);
  for (const auto& k : keys) std::printf(" %s", k.c_str());
  std::printf("\n");
  static size_t old_total = 0;
  old_total = 0;
  cache->ApplyToAllCacheEntries([](void*, size_t charge) { old_total += charge; }, true);
  std::printf("old form charge %zu usage %zu\n", old_total, cache->GetUsage());
  rocksdb::Cache::Handle* hb = cache->Lookup("b", static_cast<rocksdb::Statistics*>(nullptr));
  std::printf("release b erasing: %s\n", YesNo(cache->Release(hb, false, true)));
  std::printf("deleted %d usage %zu\n", deleted, cache->GetUsage());
  // (DisownData would let RocksDB leak the rest at destruction; Strata frees
  // them: not compared.)
  cache.reset();
}

// Removes "purge*" with kPurge, fails on "ioerror", keeps the rest.
class DecisionFilter : public rocksdb::CompactionFilter {
 public:
  Decision FilterV2(int, const rocksdb::Slice& key, ValueType type, const rocksdb::Slice&,
                    std::string*, std::string*) const override {
    if (type != kValue) return Decision::kKeep;
    if (key.starts_with("purge")) return Decision::kPurge;
    if (key == "ioerror") return Decision::kIOError;
    return Decision::kKeep;
  }
  const char* Name() const override { return "DecisionFilter"; }
};

class SnapshotFilter : public rocksdb::CompactionFilter {
 public:
  bool IgnoreSnapshots() const override { return false; }
  bool Filter(int, const rocksdb::Slice&, const rocksdb::Slice&, std::string*,
              bool*) const override {
    return false;
  }
  const char* Name() const override { return "SnapshotFilter"; }
};

// Removes "drop*" keys; made only when the factory says so.
class DropFilter : public rocksdb::CompactionFilter {
 public:
  bool Filter(int, const rocksdb::Slice& key, const rocksdb::Slice&, std::string*,
              bool*) const override {
    return key.starts_with("drop");
  }
  const char* Name() const override { return "DropFilter"; }
};

const char* ReasonName(rocksdb::TableFileCreationReason r) {
  switch (r) {
    case rocksdb::TableFileCreationReason::kFlush:
      return "flush";
    case rocksdb::TableFileCreationReason::kCompaction:
      return "compaction";
    case rocksdb::TableFileCreationReason::kRecovery:
      return "recovery";
    case rocksdb::TableFileCreationReason::kMisc:
      return "misc";
  }
  return "?";
}

class ReasonFactory : public rocksdb::CompactionFilterFactory {
 public:
  explicit ReasonFactory(bool flush) : flush_(flush) {}
  std::unique_ptr<rocksdb::CompactionFilter> CreateCompactionFilter(
      const rocksdb::CompactionFilter::Context& context) override {
    std::lock_guard<std::mutex> l(mu_);
    made_.insert(ReasonName(context.reason));
    return std::make_unique<DropFilter>();
  }
  bool ShouldFilterTableFileCreation(rocksdb::TableFileCreationReason reason) const override {
    std::lock_guard<std::mutex> l(mu_);
    asked_.insert(ReasonName(reason));
    return reason == rocksdb::TableFileCreationReason::kCompaction ||
           (flush_ && reason == rocksdb::TableFileCreationReason::kFlush);
  }
  const char* Name() const override { return "ReasonFactory"; }
  std::string Report() const {
    std::lock_guard<std::mutex> l(mu_);
    std::string out = "asked";
    for (const auto& r : asked_) out += " " + r;
    out += "; made";
    for (const auto& r : made_) out += " " + r;
    return out;
  }

 private:
  const bool flush_;
  mutable std::mutex mu_;
  mutable std::set<std::string> asked_;
  std::set<std::string> made_;
};

std::string Get(rocksdb::DB* db, const std::string& key) {
  std::string v;
  rocksdb::Status s = db->Get(rocksdb::ReadOptions(), key, &v);
  return s.ok() ? v : s.ToString();
}

int Filters(const std::string& dir) {
  rocksdb::Options options;
  options.create_if_missing = true;
  DecisionFilter decisions;
  options.compaction_filter = &decisions;
  rocksdb::DestroyDB(dir + "_purge", options).PermitUncheckedError();
  rocksdb::DB* db = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(options, dir + "_purge", &db);
  if (!s.ok()) {
    std::printf("open: %s\n", s.ToString().c_str());
    return 1;
  }
  rocksdb::WriteOptions wo;
  db->Put(wo, "keep", "1").PermitUncheckedError();
  db->Put(wo, "purge1", "2").PermitUncheckedError();
  db->Put(wo, "purge2", "3").PermitUncheckedError();
  db->Flush(rocksdb::FlushOptions()).PermitUncheckedError();
  s = db->CompactRange(rocksdb::CompactRangeOptions(), nullptr, nullptr);
  std::printf("purge compaction: %s\n", s.ToString().c_str());
  std::printf("keep=%s purge1=%s purge2=%s\n", Get(db, "keep").c_str(), Get(db, "purge1").c_str(),
              Get(db, "purge2").c_str());
  db->Put(wo, "ioerror", "4").PermitUncheckedError();
  db->Flush(rocksdb::FlushOptions()).PermitUncheckedError();
  s = db->CompactRange(rocksdb::CompactRangeOptions(), nullptr, nullptr);
  std::printf("ioerror compaction: %s\n", s.ToString().c_str());
  delete db;
  rocksdb::DestroyDB(dir + "_purge", options).PermitUncheckedError();

  rocksdb::Options so;
  so.create_if_missing = true;
  SnapshotFilter snapshots;
  so.compaction_filter = &snapshots;
  rocksdb::DestroyDB(dir + "_snap", so).PermitUncheckedError();
  s = rocksdb::DB::Open(so, dir + "_snap", &db);
  if (!s.ok()) {
    std::printf("open: %s\n", s.ToString().c_str());
    return 1;
  }
  db->Put(wo, "a", "1").PermitUncheckedError();
  db->Flush(rocksdb::FlushOptions()).PermitUncheckedError();
  db->Put(wo, "b", "1").PermitUncheckedError();
  db->Flush(rocksdb::FlushOptions()).PermitUncheckedError();
  s = db->CompactRange(rocksdb::CompactRangeOptions(), nullptr, nullptr);
  std::printf("ignore-snapshots=false compaction: %s\n", s.ToString().c_str());
  delete db;
  rocksdb::DestroyDB(dir + "_snap", so).PermitUncheckedError();

  for (bool flush : {false, true}) {
    rocksdb::Options fo;
    fo.create_if_missing = true;
    auto factory = std::make_shared<ReasonFactory>(flush);
    fo.compaction_filter_factory = factory;
    const std::string path = dir + (flush ? "_flushfilter" : "_compactfilter");
    rocksdb::DestroyDB(path, fo).PermitUncheckedError();
    s = rocksdb::DB::Open(fo, path, &db);
    if (!s.ok()) {
      std::printf("open: %s\n", s.ToString().c_str());
      return 1;
    }
    db->Put(wo, "drop1", "x").PermitUncheckedError();
    db->Put(wo, "live", "y").PermitUncheckedError();
    db->Flush(rocksdb::FlushOptions()).PermitUncheckedError();
    std::printf("flush filter %s: after flush drop1=%s live=%s\n", YesNo(flush),
                Get(db, "drop1").c_str(), Get(db, "live").c_str());
    db->Put(wo, "drop2", "z").PermitUncheckedError();
    db->Flush(rocksdb::FlushOptions()).PermitUncheckedError();
    s = db->CompactRange(rocksdb::CompactRangeOptions(), nullptr, nullptr);
    std::printf("flush filter %s: compaction %s drop1=%s drop2=%s live=%s\n", YesNo(flush),
                s.ToString().c_str(), Get(db, "drop1").c_str(), Get(db, "drop2").c_str(),
                Get(db, "live").c_str());
    delete db;
    std::printf("flush filter %s: %s\n", YesNo(flush), factory->Report().c_str());
    rocksdb::DestroyDB(path, fo).PermitUncheckedError();
  }
  return 0;
}

int Writer(const std::string& dir) {
  rocksdb::Options options;
  rocksdb::BlockBasedTableOptions t;
  t.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
  options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(t));
  options.env->CreateDirIfMissing(dir).PermitUncheckedError();
  for (bool skip : {false, true}) {
    rocksdb::SstFileWriter writer(rocksdb::EnvOptions(), options, options.comparator, nullptr, true,
                                  rocksdb::Env::IOPriority::IO_TOTAL, skip);
    const std::string path = dir + (skip ? "/skip.sst" : "/full.sst");
    rocksdb::Status s = writer.Open(path);
    if (!s.ok()) {
      std::printf("writer open: %s\n", s.ToString().c_str());
      return 1;
    }
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    std::printf("add: %s\n", writer.Add("a", "1").ToString().c_str());
#pragma GCC diagnostic pop
    std::printf("put ts: %s\n", writer.Put("b", "ts", "2").ToString().c_str());
    std::printf("put empty ts: %s\n", writer.Put("b", rocksdb::Slice(), "2").ToString().c_str());
    std::printf("delete ts: %s\n", writer.Delete("c", "t").ToString().c_str());
    std::printf("delete empty ts: %s\n", writer.Delete("c", rocksdb::Slice()).ToString().c_str());
    std::printf("range ts: %s\n", writer.DeleteRange("m", "p", "t").ToString().c_str());
    std::printf("range: %s\n", writer.DeleteRange("m", "p", rocksdb::Slice()).ToString().c_str());
    std::printf("range: %s\n", writer.DeleteRange("k", "n").ToString().c_str());
    std::printf("range: %s\n", writer.DeleteRange("x", "z").ToString().c_str());
    rocksdb::ExternalSstFileInfo info;
    s = writer.Finish(&info);
    std::printf("finish: %s entries %llu range dels %llu [%s, %s) [%s, %s) checksum [%s] func %s\n",
                s.ToString().c_str(), static_cast<unsigned long long>(info.num_entries),
                static_cast<unsigned long long>(info.num_range_del_entries),
                info.smallest_key.c_str(), info.largest_key.c_str(),
                info.smallest_range_del_key.c_str(), info.largest_range_del_key.c_str(),
                info.file_checksum.c_str(), info.file_checksum_func_name.c_str());
    rocksdb::SstFileReader reader(options);
    s = reader.Open(path);
    if (!s.ok()) {
      std::printf("reader open: %s\n", s.ToString().c_str());
      return 1;
    }
    auto props = reader.GetTableProperties();
    // (With skip_filters RocksDB still records the policy's name; Strata
    // records none: only the filter block is compared.)
    std::printf("skip filters %s: has filter %s\n", YesNo(skip), YesNo(props->filter_size > 0));
    options.env->DeleteFile(path).PermitUncheckedError();
  }
  rocksdb::ExternalSstFileInfo made("f", "a", "z", 7, 100, 3, 2);
  std::printf("info ctor %s %s %s %llu %llu %llu %d [%s]\n", made.file_path.c_str(),
              made.smallest_key.c_str(), made.largest_key.c_str(),
              static_cast<unsigned long long>(made.sequence_number),
              static_cast<unsigned long long>(made.file_size),
              static_cast<unsigned long long>(made.num_entries), made.version,
              made.file_checksum.c_str());
  rocksdb::ExternalSstFileInfo empty;
  std::printf("info default version %d entries %llu\n", empty.version,
              static_cast<unsigned long long>(empty.num_entries));
  options.env->DeleteDir(dir).PermitUncheckedError();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string dir = argc > 1 ? argv[1] : "/tmp/compat_plugins";
  Comparators();
  ByName();
  PropertyNames();
  CacheCalls();
  if (Filters(dir) != 0) return 1;
  if (Writer(dir + "_sst") != 0) return 1;
  return 0;
}
