// Fuzz target: a whole DB driven by the input as a program of operations
// (Put, Delete, DeleteRange, WriteBatch, Get, iteration, Seek, Flush,
// CompactRange, reopen, snapshots) on an in-memory file system, with a
// tiny write buffer so flushes and compactions happen, checked against a
// std::map model. Any difference between the DB and the model abort()s.
//
// Input: byte 0 = option flags, then operations; each operation is one
// opcode byte followed by its operands (key bytes index a small key space
// so operations collide).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "fuzz/fuzz_check.h"
#include "strata/db.h"
#include "strata/env.h"
#include "strata/iterator.h"
#include "strata/options.h"
#include "strata/snapshot.h"
#include "strata/write_batch.h"

namespace strata {
namespace {

using Model = std::map<std::string, std::string>;

// Never destroyed: background threads of the pools may outlive a run.
Env* MemEnv() {
  static Env* env = NewMemEnv().release();
  return env;
}

const char* kDbPath = "/fuzzdb";

class Input {
 public:
  Input(const uint8_t* data, size_t size) : p_(data), end_(data + size) {}
  bool empty() const { return p_ >= end_; }
  uint8_t Byte() { return p_ < end_ ? *p_++ : 0; }

 private:
  const uint8_t* p_;
  const uint8_t* end_;
};

std::string Key(uint8_t b) {
  char buf[8];
  snprintf(buf, sizeof(buf), "k%02u", static_cast<unsigned>(b % 48));
  return buf;
}

std::string Value(Input* in, uint64_t counter) {
  const uint8_t b = in->Byte();
  // Mostly short values; sometimes long ones that fill the buffer fast.
  const size_t len = (b & 0x80) ? 200 + (b & 0x7f) * 8 : (b & 0x1f);
  std::string v = "v" + std::to_string(counter) + ":";
  v.resize(v.size() + len, static_cast<char>('a' + b % 26));
  return v;
}

void ModelDeleteRange(Model* m, const std::string& b, const std::string& e) {
  if (b >= e) return;
  m->erase(m->lower_bound(b), m->lower_bound(e));
}

void Fail(const char* what, const std::string& detail) {
  fprintf(stderr, "db_ops_fuzzer: %s: %s\n", what, detail.c_str());
  abort();
}

void CheckOk(const Status& s, const char* what) {
  if (!s.ok()) Fail(what, s.ToString());
}

void CheckGet(DB* db, const ReadOptions& ro, const Model& m, const std::string& k) {
  std::string v;
  const Status s = db->Get(ro, k, &v);
  auto it = m.find(k);
  if (it == m.end()) {
    if (!s.IsNotFound()) Fail("Get of a missing key", k + " -> " + s.ToString() + " " + v);
  } else {
    if (!s.ok()) Fail("Get of a present key", k + " -> " + s.ToString());
    if (v != it->second) Fail("Get value", k + ": got " + v + " want " + it->second);
  }
}

void CheckScan(DB* db, const ReadOptions& ro, const Model& m) {
  std::unique_ptr<Iterator> it(db->NewIterator(ro));
  auto mi = m.begin();
  for (it->SeekToFirst(); it->Valid(); it->Next(), ++mi) {
    if (mi == m.end()) Fail("scan has an extra key", it->key().ToString());
    if (it->key().ToString() != mi->first || it->value().ToString() != mi->second) {
      Fail("scan differs", it->key().ToString() + " vs " + mi->first);
    }
  }
  CheckOk(it->status(), "scan status");
  if (mi != m.end()) Fail("scan misses a key", mi->first);
  auto ri = m.rbegin();
  for (it->SeekToLast(); it->Valid(); it->Prev(), ++ri) {
    if (ri == m.rend()) Fail("reverse scan has an extra key", it->key().ToString());
    if (it->key().ToString() != ri->first || it->value().ToString() != ri->second) {
      Fail("reverse scan differs", it->key().ToString() + " vs " + ri->first);
    }
  }
  CheckOk(it->status(), "reverse scan status");
  if (ri != m.rend()) Fail("reverse scan misses a key", ri->first);
}

void CheckSeek(DB* db, const ReadOptions& ro, const Model& m, const std::string& k, int steps,
               bool reverse) {
  std::unique_ptr<Iterator> it(db->NewIterator(ro));
  if (!reverse) {
    it->Seek(k);
    auto mi = m.lower_bound(k);
    for (int i = 0; i < steps; ++i, ++mi) {
      if (mi == m.end()) {
        if (it->Valid()) Fail("Seek past the end is valid", k + " " + it->key().ToString());
        break;
      }
      if (!it->Valid()) Fail("Seek ended early", k + " want " + mi->first);
      if (it->key().ToString() != mi->first || it->value().ToString() != mi->second) {
        Fail("Seek/Next differs", k + ": " + it->key().ToString() + " vs " + mi->first);
      }
      it->Next();
    }
  } else {
    it->SeekForPrev(k);
    auto mi = m.upper_bound(k);
    for (int i = 0; i < steps; ++i) {
      if (mi == m.begin()) {
        if (it->Valid()) Fail("SeekForPrev before the start is valid", k);
        break;
      }
      --mi;
      if (!it->Valid()) Fail("SeekForPrev ended early", k + " want " + mi->first);
      if (it->key().ToString() != mi->first || it->value().ToString() != mi->second) {
        Fail("SeekForPrev/Prev differs", k + ": " + it->key().ToString() + " vs " + mi->first);
      }
      it->Prev();
    }
  }
  CheckOk(it->status(), "seek status");
}

struct Snap {
  const Snapshot* snapshot;
  Model model;
};

Options MakeOptions(uint8_t flags) {
  Options o;
  o.env = MemEnv();
  o.create_if_missing = true;
  o.write_buffer_size = (flags & 1) ? 4096 : 16384;
  o.max_write_buffer_number = 2 + (flags >> 1) % 2;
  o.level0_file_num_compaction_trigger = 2;
  o.target_file_size_base = 8192;
  o.max_bytes_for_level_base = 32768;
  o.disable_auto_compactions = (flags & 4) != 0;
  o.num_levels = (flags & 8) ? 3 : 7;
  o.level_compaction_dynamic_level_bytes = (flags & 16) != 0;
  o.wal_preallocation_size = 64 << 10;
  o.writable_file_max_buffer_size = 64 << 10;
  o.max_background_jobs = 2;
  return o;
}

}  // namespace
}  // namespace strata

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace strata;
  if (size == 0) return 0;
  Input in(data, size);
  const Options options = MakeOptions(in.Byte());
  DestroyDB(kDbPath, options).PermitUncheckedError();
  std::unique_ptr<DB> db;
  CheckOk(DB::Open(options, kDbPath, &db), "Open");

  Model model;
  std::vector<Snap> snaps;
  uint64_t counter = 0;
  const WriteOptions wo;
  const ReadOptions ro;
  int ops = 0;
  while (!in.empty() && ops++ < 2000) {
    const uint8_t op = in.Byte();
    switch (op % 16) {
      case 0:
      case 1:
      case 2: {  // Put
        const std::string k = Key(in.Byte());
        const std::string v = Value(&in, ++counter);
        CheckOk(db->Put(wo, k, v), "Put");
        model[k] = v;
        break;
      }
      case 3: {  // Delete
        const std::string k = Key(in.Byte());
        CheckOk(db->Delete(wo, k), "Delete");
        model.erase(k);
        break;
      }
      case 4: {  // DeleteRange
        std::string b = Key(in.Byte());
        std::string e = Key(in.Byte());
        if (b > e) std::swap(b, e);
        CheckOk(db->DeleteRange(wo, db->DefaultColumnFamily(), b, e), "DeleteRange");
        ModelDeleteRange(&model, b, e);
        break;
      }
      case 5: {  // a WriteBatch of up to 8 records, applied atomically
        WriteBatch batch;
        Model after = model;
        const int n = 1 + in.Byte() % 8;
        for (int i = 0; i < n; ++i) {
          const uint8_t sub = in.Byte();
          const std::string k = Key(in.Byte());
          if (sub % 4 == 0) {
            CheckOk(batch.Delete(k), "batch Delete");
            after.erase(k);
          } else if (sub % 4 == 1) {
            std::string e = Key(in.Byte());
            std::string b = k;
            if (b > e) std::swap(b, e);
            CheckOk(batch.DeleteRange(b, e), "batch DeleteRange");
            ModelDeleteRange(&after, b, e);
          } else {
            const std::string v = Value(&in, ++counter);
            CheckOk(batch.Put(k, v), "batch Put");
            after[k] = v;
          }
        }
        CheckOk(db->Write(wo, &batch), "Write");
        model.swap(after);
        break;
      }
      case 6:
      case 7:  // Get
        CheckGet(db.get(), ro, model, Key(in.Byte()));
        break;
      case 8:  // full scan both ways
        CheckScan(db.get(), ro, model);
        break;
      case 9: {  // Seek / SeekForPrev and a few steps
        const uint8_t b = in.Byte();
        CheckSeek(db.get(), ro, model, Key(b), 1 + in.Byte() % 6, (b & 0x80) != 0);
        break;
      }
      case 10:  // Flush
        CheckOk(db->Flush(FlushOptions()), "Flush");
        break;
      case 11: {  // CompactRange, whole or partial
        const uint8_t b = in.Byte();
        CompactRangeOptions co;
        if (b & 1) {
          CheckOk(db->CompactRange(co, nullptr, nullptr), "CompactRange");
        } else {
          std::string lo = Key(b >> 1);
          std::string hi = Key(in.Byte());
          if (lo > hi) std::swap(lo, hi);
          const Slice los(lo), his(hi);
          CheckOk(db->CompactRange(co, &los, &his), "CompactRange range");
        }
        break;
      }
      case 12: {  // reopen: everything written survives (the WAL is replayed)
        for (Snap& s : snaps) db->ReleaseSnapshot(s.snapshot);
        snaps.clear();
        CheckOk(db->Close(), "Close");
        db.reset();
        CheckOk(DB::Open(options, kDbPath, &db), "reopen");
        CheckScan(db.get(), ro, model);
        break;
      }
      case 13:  // take a snapshot (at most 4 held)
        if (snaps.size() < 4) snaps.push_back({db->GetSnapshot(), model});
        break;
      case 14: {  // read at a snapshot
        if (snaps.empty()) break;
        const Snap& s = snaps[in.Byte() % snaps.size()];
        ReadOptions sro;
        sro.snapshot = s.snapshot;
        const uint8_t b = in.Byte();
        if (b & 1) {
          CheckScan(db.get(), sro, s.model);
        } else {
          CheckGet(db.get(), sro, s.model, Key(b >> 1));
        }
        break;
      }
      default: {  // release a snapshot
        if (snaps.empty()) break;
        const size_t i = in.Byte() % snaps.size();
        db->ReleaseSnapshot(snaps[i].snapshot);
        snaps.erase(snaps.begin() + static_cast<std::ptrdiff_t>(i));
        break;
      }
    }
  }
  CheckScan(db.get(), ro, model);
  for (Snap& s : snaps) {
    ReadOptions sro;
    sro.snapshot = s.snapshot;
    CheckScan(db.get(), sro, s.model);
    db->ReleaseSnapshot(s.snapshot);
  }
  CheckOk(db->Close(), "final Close");
  db.reset();
  DestroyDB(kDbPath, options).PermitUncheckedError();
  return 0;
}
