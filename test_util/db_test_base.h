// DBTestBase: the fixture the engine-level tests (db/db_*_test.cc) share. It
// owns a scratch directory, the options the database is opened with and the
// open database, and gives the operations every such test spells the same
// way: open, reopen, close, destroy; Put/Get/Delete/Merge with missing keys
// read as "NOT_FOUND"; flush; files per level. It is RocksDB's DBTestBase in
// spirit, so tests ported from there read alike.
//
// A fixture derives from it, sets options_ in its constructor (or passes
// options to Open), and adds what only its tests need. A test that drives
// sync points (util/sync_point.h) may leave them set: the destructor turns
// processing off and clears callbacks and dependencies after closing the
// database. State such callbacks capture must outlive the database: a
// fixture whose callbacks use its own members closes the database in its
// own destructor (Close()), as the members go before this destructor runs.
//
// Thread-safety: not thread-safe (one test thread), except that the
// helpers that only call the database (Put, Get, ...) may be called from
// several threads while nothing opens or closes it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "db/db_impl.h"
#include "strata/db.h"
#include "strata/options.h"
#include "strata/snapshot.h"
#include "strata/status.h"
#include "test_util/testutil.h"

namespace strata {

class DBTestBase : public ::testing::Test {
 protected:
  // tag: the scratch directory's prefix (the test file's name). The
  // database is <scratch>/db, options_ are SmallOptions().
  explicit DBTestBase(const std::string& tag);
  // Closes the database if open (its status ignored: a test that cares
  // calls Close()), then resets the sync-point registry.
  ~DBTestBase() override;

  // Small memtables and files, so a few thousand keys make several tables
  // per level: create_if_missing, 64 KiB write buffer and target files,
  // 256 KiB level base with multiplier 4, level-0 trigger 2, no
  // compression, 1 KiB blocks.
  static Options SmallOptions();

  // ---- lifetime ----
  // REQUIRES: the database is closed (Open) / anything (the others).
  Status TryOpen();
  void Open();
  void Open(const Options& options);  // options_ = options first
  // Closes (asserting OK) and opens again with options_ / `options`.
  void Reopen();
  void Reopen(const Options& options);
  // Closes (status ignored), sets options_ = options and opens; the
  // status of the open.
  Status TryReopen(const Options& options);
  // Closes the database if open; asserts that Close returned OK.
  void Close();
  // Closes, DestroyDB, opens a fresh database with options_ / `options`.
  void DestroyAndReopen();
  void DestroyAndReopen(const Options& options);
  // The open database as DBImpl (for WaitForCompact and TEST_ hooks).
  DBImpl* dbfull() { return static_cast<DBImpl*>(db_.get()); }

  // ---- operations on the default family ----
  Status Put(const std::string& key, const std::string& value,
             const WriteOptions& wo = WriteOptions());
  Status Delete(const std::string& key, const WriteOptions& wo = WriteOptions());
  Status SingleDelete(const std::string& key, const WriteOptions& wo = WriteOptions());
  Status Merge(const std::string& key, const std::string& value,
               const WriteOptions& wo = WriteOptions());
  Status DeleteRange(const std::string& begin, const std::string& end,
                     const WriteOptions& wo = WriteOptions());
  // The value, "NOT_FOUND", or "ERROR: <status>".
  std::string Get(const std::string& key, const Snapshot* snapshot = nullptr);
  // Flushes the memtable and waits for it.
  Status Flush();

  // A randomized run against a std::map model on the open database:
  // `rounds` rounds of `ops_per_round` puts and deletes (one in five) of
  // keys "key0".."key<key_space - 1>", values of value_min + [0,
  // value_spread) bytes; each round is flushed, every second one compacted
  // (CompactRange), then every key is checked by Get and the whole model by
  // a scan (a second scan with fill_cache off when scan_without_fill).
  struct ModelRun {
    int rounds = 4;
    int ops_per_round = 800;
    int key_space = 1500;
    size_t value_min = 10;
    size_t value_spread = 150;
    bool scan_without_fill = false;
  };
  void RunRandomOpsAgainstModel(uint64_t seed, const ModelRun& run);
  // Waits until no flush or compaction is running or needed.
  Status WaitForCompact();

  // ---- what the database looks like ----
  // An integer property; EXPECTs that it exists (0 if not).
  uint64_t IntProperty(const std::string& name);
  int NumTableFilesAtLevel(int level);
  // Table files per level, "2,0,1": trailing empty levels left out ("" if
  // there are none), as RocksDB's FilesPerLevel spells it.
  std::string FilesPerLevel();
  // "" if no level holds a newer entry of a user key below an older entry
  // of the same key (a deeper level's entries of a key are all older than
  // every entry of it in a shallower level); otherwise the first breach
  // found. Reads the MANIFEST named by CURRENT and every live table of the
  // default family (point entries; range tombstones are not looked at).
  // For a quiet database: no flush or compaction may run meanwhile.
  std::string CheckNewerAboveOlder();

  test::TempDir tmp_;
  std::string dbname_;  // <scratch>/db; a fixture on another FileSystem may change it
  Options options_;
  std::unique_ptr<DB> db_;
};

}  // namespace strata
