// RocksDB's aggregation merge operator (utilities/agg_merge.h): functions
// registered by the program, values encoded with their function, merges
// across flushes and compactions, a change of function, an unregistered
// function packed under kErrorFuncName. Built against RocksDB and against
// Strata's compat layer; the output must be identical.
#include "rocksdb/utilities/agg_merge.h"

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "rocksdb/db.h"
#include "rocksdb/options.h"

using namespace rocksdb;

namespace {

class Sum : public Aggregator {
 public:
  bool Aggregate(const std::vector<Slice>& values, std::string& result) const override {
    long long total = 0;
    for (const Slice& v : values) {
      if (v.empty()) return false;
      total += std::stoll(v.ToString());
    }
    result = std::to_string(total);
    return true;
  }
};

class Concat : public Aggregator {
 public:
  bool Aggregate(const std::vector<Slice>& values, std::string& result) const override {
    result.clear();
    for (size_t i = 0; i < values.size(); ++i) {
      if (i > 0) result += ",";
      result += values[i].ToString();
    }
    return true;
  }
  bool DoPartialAggregate() const override { return false; }
};

void Must(const Status& s, const char* what) {
  if (!s.ok()) printf("%s: %s\n", what, s.ToString().c_str());
}

std::string Hex(const std::string& s) {
  static const char* d = "0123456789abcdef";
  std::string out;
  for (unsigned char c : s) {
    out += d[c >> 4];
    out += d[c & 15];
  }
  return out;
}

std::string Enc(const std::string& func, const std::string& payload) {
  std::string out;
  Status s = EncodeAggFuncAndPayload(func, payload, out);
  if (!s.ok()) printf("encode %s: %s\n", func.c_str(), s.ToString().c_str());
  return out;
}

void Show(DB* db, const std::string& key) {
  std::string v;
  Status s = db->Get(ReadOptions(), key, &v);
  if (!s.ok()) {
    printf("%s: %s\n", key.c_str(), s.ToString().c_str());
    return;
  }
  Slice func, payload;
  bool ok = ExtractAggFuncAndValue(v, func, payload);
  printf("%s: ok=%d func=[%s] payload=[%s]", key.c_str(), ok, func.ToString().c_str(),
         func == kErrorFuncName ? Hex(payload.ToString()).c_str() : payload.ToString().c_str());
  if (func == kErrorFuncName) {
    std::vector<Slice> items;
    bool whole = ExtractList(payload, items);
    printf(" list whole=%d items=%zu:", whole, items.size());
    for (const Slice& i : items) printf(" %s", Hex(i.ToString()).c_str());
  }
  printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
  const std::string path = argc > 1 ? argv[1] : "/tmp/compat_agg_merge";
  printf("add sum: %s\n", AddAggregator("sum", std::make_unique<Sum>()).ToString().c_str());
  printf("add cat: %s\n", AddAggregator("cat", std::make_unique<Concat>()).ToString().c_str());
  printf("add error: %s\n",
         AddAggregator(kErrorFuncName, std::make_unique<Sum>()).ToString().c_str());
  std::string out;
  printf("encode unknown: %s\n", EncodeAggFuncAndPayload("nope", "1", out).ToString().c_str());
  printf("encode error: %s\n",
         EncodeAggFuncAndPayload(kErrorFuncName, "1", out).ToString().c_str());
  printf("encode sum 42: %s\n", Hex(Enc("sum", "42")).c_str());
  printf("encode unnamed: %s\n", Hex(Enc(kUnnamedFuncName, "x")).c_str());
  Slice func, value;
  printf("extract bad: %d\n", ExtractAggFuncAndValue(Slice("\x05"
                                                           "ab",
                                                           3),
                                                     func, value));
  std::vector<Slice> items;
  printf("list bad: %d\n", ExtractList(Slice("\x01"
                                             "a"
                                             "\x03"
                                             "b",
                                             4),
                                       items));

  Options options;
  options.create_if_missing = true;
  options.merge_operator = GetAggMergeOperator();
  printf("operator %s\n", options.merge_operator->Name());
  Must(DestroyDB(path, options), "DestroyDB");
  DB* raw = nullptr;
  Status s = DB::Open(options, path, &raw);
  if (!s.ok()) {
    printf("open: %s\n", s.ToString().c_str());
    return 1;
  }
  std::unique_ptr<DB> db(raw);
  WriteOptions wo;
  Must(db->Put(wo, "total", Enc("sum", "10")), "Put");
  Must(db->Merge(wo, "total", Enc("sum", "5")), "Merge");
  Must(db->Merge(wo, "total", Enc("", "7")), "Merge");
  Must(db->Flush(FlushOptions()), "Flush");
  Must(db->Merge(wo, "total", Enc("sum", "-2")), "Merge");
  Show(db.get(), "total");

  Must(db->Merge(wo, "words", Enc("cat", "a")), "Merge");
  Must(db->Merge(wo, "words", Enc("cat", "b")), "Merge");
  Must(db->Flush(FlushOptions()), "Flush");
  Must(db->Merge(wo, "words", Enc("cat", "c")), "Merge");
  Show(db.get(), "words");

  // The function changes: the sum run is aggregated first.
  Must(db->Merge(wo, "switch", Enc("sum", "1")), "Merge");
  Must(db->Merge(wo, "switch", Enc("sum", "2")), "Merge");
  Must(db->Merge(wo, "switch", Enc("cat", "x")), "Merge");
  Show(db.get(), "switch");

  // Not aggregatable: every operand kept.
  Must(db->Merge(wo, "broken", Enc("sum", "3")), "Merge");
  Must(db->Merge(wo, "broken",
                 std::string("\x09"
                             "ab",
                             3)),
       "Merge");
  Show(db.get(), "broken");
  Must(db->Merge(wo, "unnamed", Enc("", "1")), "Merge");
  Show(db.get(), "unnamed");

  Must(db->CompactRange(CompactRangeOptions(), nullptr, nullptr), "CompactRange");
  printf("after compaction\n");
  for (const char* k : {"total", "words", "switch", "broken", "unnamed"}) Show(db.get(), k);
  Must(db->Merge(wo, "total", Enc("sum", "100")), "Merge");
  Show(db.get(), "total");
  db.reset();
  Must(DestroyDB(path, options), "DestroyDB");
  return 0;
}
