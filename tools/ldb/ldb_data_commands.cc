// The data commands of `strata` (ldb's "Data Access Commands" plus dump and
// load): put, get, batchput, scan, delete, deleterange, query, dump, load.
// Each prints what ldb 7.8.3 prints, on the same stream, with the same exit
// status (see docs/tools/ldb.md for the differences).

#include <cinttypes>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "strata/iterator.h"
#include "strata/utilities/db_ttl.h"
#include "strata/write_batch.h"
#include "tools/ldb/ldb_commands.h"
#include "tools/ldb/ldb_file_dump.h"
#include "tools/ldb/ldb_histogram.h"
#include "util/coding.h"

namespace strata::ldb {
namespace {

// --ttl's time window: ldb's defaults are the TTL feature's first and last
// representable times.
constexpr int kTtlMinTime = DBWithTTL::kMinTimestamp;
constexpr int kTtlMaxTime = 2147483647;

// ldb's rendering of a write time: strftime("%c") in local time.
std::string TimeToHumanString(int unixtime) {
  char buf[80];
  std::time_t raw = unixtime;
  std::tm tm_buf;
  if (localtime_r(&raw, &tm_buf) == nullptr) return std::to_string(unixtime);
  std::strftime(buf, sizeof(buf), "%c", &tm_buf);
  return buf;
}

// The iterator scan and dump walk: under --ttl the stored form (value +
// 4-byte write time, read with SplitTtl), since the time is shown and
// filtered on.
std::unique_ptr<Iterator> NewWalkIterator(DB* db, bool ttl, const ReadOptions& ro,
                                          ColumnFamilyHandle* cf) {
  auto* ttl_db = ttl ? dynamic_cast<DBWithTTL*>(db) : nullptr;
  return ttl_db != nullptr ? ttl_db->GetBaseDB()->NewIterator(ro, cf) : db->NewIterator(ro, cf);
}

// Splits a stored TTL value into the user's value and its write time; a
// value too short to hold one is Corruption naming the key.
Status SplitTtl(const Slice& key, const Slice& stored, Slice* value, int* time) {
  if (stored.size() < DBWithTTL::kTimestampSize) {
    return Status::Corruption("TTL value of key '" + key.ToString(true) +
                              "' is shorter than its timestamp");
  }
  *value = Slice(stored.data(), stored.size() - DBWithTTL::kTimestampSize);
  *time = static_cast<int>(DecodeFixed32(stored.data() + value->size()));
  return Status::OK();
}

class PutCommand : public LdbCommand {
 public:
  explicit PutCommand(const LdbArgs& args)
      : LdbCommand(args, false, {kArgTtl, kArgHex, kArgKeyHex, kArgValueHex, kArgCreateIfMissing}) {
    if (args.params.size() != 2) {
      state_.Fail("<key> and <value> must be specified for the put command");
      return;
    }
    key_ = args.params[0];
    value_ = args.params[1];
    if (DecodeHexArg(key_hex_, &key_)) DecodeHexArg(value_hex_, &value_);
  }
  static void Help(std::string* r) {
    r->append("  put <key> <value> [--create_if_missing] [--ttl]\n");
  }

 private:
  void DoCommand() override {
    if (db_ == nullptr) return;
    Status s = db_->Put(WriteOptions(), CfHandle(), key_, value_);
    if (s.ok()) {
      std::printf("OK\n");
    } else {
      state_.Fail(s.ToString());
    }
  }
  std::string key_, value_;
};

class GetCommand : public LdbCommand {
 public:
  explicit GetCommand(const LdbArgs& args)
      : LdbCommand(args, true, {kArgTtl, kArgHex, kArgKeyHex, kArgValueHex}) {
    if (args.params.size() != 1) {
      state_.Fail("<key> must be specified for the get command");
      return;
    }
    key_ = args.params[0];
    DecodeHexArg(key_hex_, &key_);
  }
  static void Help(std::string* r) { r->append("  get <key> [--ttl]\n"); }

 private:
  void DoCommand() override {
    if (db_ == nullptr) return;
    std::string value;
    Status s = db_->Get(ReadOptions(), CfHandle(), key_, &value);
    if (s.ok()) {
      std::printf("%s\n", UpToNul(value_hex_ ? StringToHex(value) : value).c_str());
    } else {
      state_.Fail("Get failed: " + s.ToString());
    }
  }
  std::string key_;
};

class BatchPutCommand : public LdbCommand {
 public:
  explicit BatchPutCommand(const LdbArgs& args)
      : LdbCommand(args, false, {kArgTtl, kArgHex, kArgKeyHex, kArgValueHex, kArgCreateIfMissing}) {
    if (args.params.size() < 2) {
      state_.Fail("At least one <key> <value> pair must be specified batchput.");
      return;
    }
    if (args.params.size() % 2 != 0) {
      state_.Fail("Equal number of <key>s and <value>s must be specified for batchput.");
      return;
    }
    for (size_t i = 0; i < args.params.size(); i += 2) {
      std::string key = args.params[i];
      std::string value = args.params[i + 1];
      if (!DecodeHexArg(key_hex_, &key) || !DecodeHexArg(value_hex_, &value)) return;
      pairs_.emplace_back(std::move(key), std::move(value));
    }
  }
  static void Help(std::string* r) {
    r->append("  batchput <key> <value> [<key> <value>] [..] [--create_if_missing] [--ttl]\n");
  }

 private:
  void DoCommand() override {
    if (db_ == nullptr) return;
    WriteBatch batch;
    ColumnFamilyHandle* cf = CfHandle();
    Status s;
    for (const auto& [key, value] : pairs_) {
      s = batch.Put(cf, key, value);
      if (!s.ok()) {
        state_.Fail("Put to write batch failed: " + key + "=>" + value + " error: " + s.ToString());
        return;
      }
    }
    s = db_->Write(WriteOptions(), &batch);
    if (s.ok()) {
      std::printf("OK\n");
    } else {
      state_.Fail("Write failed: " + s.ToString());
    }
  }
  std::vector<std::pair<std::string, std::string>> pairs_;
};

// ldb reads --max_keys of scan, dump and list_file_range_deletes with
// std::stoi and its own messages (no final period).
bool ParseMaxKeys(const LdbArgs& args, int* max_keys, ExecState* state) {
  const std::string* v = FindOption(args, kArgMaxKeys);
  if (v == nullptr) return true;
  Status s = ParseInt(kArgMaxKeys, *v, max_keys);
  if (!s.ok()) {
    std::string m = s.getState();
    if (!m.empty() && m.back() == '.') m.pop_back();
    state->Fail(m);
    return false;
  }
  return true;
}

class ScanCommand : public LdbCommand {
 public:
  explicit ScanCommand(const LdbArgs& args)
      : LdbCommand(args, true,
                   {kArgTtl, kArgNoValue, kArgHex, kArgKeyHex, kArgTo, kArgValueHex, kArgFrom,
                    kArgTimestamp, kArgMaxKeys, kArgTtlStart, kArgTtlEnd}) {
    if (const std::string* v = FindOption(args, kArgFrom)) {
      from_ = *v;
      has_from_ = true;
      if (!DecodeHexArg(key_hex_, &from_)) return;
    }
    if (const std::string* v = FindOption(args, kArgTo)) {
      to_ = *v;
      has_to_ = true;
      if (!DecodeHexArg(key_hex_, &to_)) return;
    }
    no_value_ = HasFlag(args, kArgNoValue);
    timestamp_ = HasFlag(args, kArgTimestamp);
    ParseMaxKeys(args, &max_keys_, &state_);
  }
  static void Help(std::string* r) {
    r->append("  scan" + HelpRangeArgs() +
              " [--ttl] [--timestamp] [--max_keys=<N>q]  [--start_time=<N>:- is inclusive]"
              " [--end_time=<N>:- is exclusive] [--no_value]\n");
  }

 private:
  void DoCommand() override {
    if (db_ == nullptr) return;
    int ttl_start = kTtlMinTime;
    int ttl_end = kTtlMaxTime;
    if (!IntOption(kArgTtlStart, &ttl_start) || !IntOption(kArgTtlEnd, &ttl_end)) return;
    if (ttl_end < ttl_start) {
      std::fprintf(stderr, "Error: End time can't be less than start time\n");
      return;
    }
    if (ttl_ && timestamp_) {
      std::printf("Scanning key-values from %s to %s\n", TimeToHumanString(ttl_start).c_str(),
                  TimeToHumanString(ttl_end).c_str());
    }
    ReadOptions ro;
    ro.total_order_seek = true;
    std::unique_ptr<Iterator> it = NewWalkIterator(db_, ttl_, ro, CfHandle());
    if (has_from_) {
      it->Seek(from_);
    } else {
      it->SeekToFirst();
    }
    int scanned = 0;
    for (; it->Valid() && (!has_to_ || it->key().ToString() < to_); it->Next()) {
      Slice value = it->value();
      if (ttl_) {
        int rawtime = 0;
        Status s = SplitTtl(it->key(), it->value(), &value, &rawtime);
        if (!s.ok()) {
          state_.Fail(s.ToString());
          return;
        }
        if (rawtime < ttl_start || rawtime >= ttl_end) continue;
        if (timestamp_) std::printf("%s ", TimeToHumanString(rawtime).c_str());
      }
      const std::string key =
          UpToNul(key_hex_                         ? StringToHex(it->key())
                  : args_.key_formatter != nullptr ? args_.key_formatter->Format(it->key())
                                                   : it->key().ToString());
      if (no_value_) {
        std::printf("%s\n", key.c_str());
      } else {
        const std::string shown = UpToNul(value_hex_ ? StringToHex(value) : value.ToString());
        std::printf("%s : %s\n", key.c_str(), shown.c_str());
      }
      ++scanned;
      if (max_keys_ >= 0 && scanned >= max_keys_) break;
    }
    if (!it->status().ok()) state_.Fail(it->status().ToString());
  }
  std::string from_, to_;
  bool has_from_ = false;
  bool has_to_ = false;
  bool no_value_ = false;
  bool timestamp_ = false;
  int max_keys_ = -1;
};

class DeleteCommand : public LdbCommand {
 public:
  explicit DeleteCommand(const LdbArgs& args)
      : LdbCommand(args, false, {kArgHex, kArgKeyHex, kArgValueHex}) {
    if (args.params.size() != 1) {
      state_.Fail("KEY must be specified for the delete command");
      return;
    }
    key_ = args.params[0];
    DecodeHexArg(key_hex_, &key_);
  }
  static void Help(std::string* r) { r->append("  delete <key>\n"); }

 private:
  void DoCommand() override {
    if (db_ == nullptr) return;
    Status s = db_->Delete(WriteOptions(), CfHandle(), key_);
    if (s.ok()) {
      std::printf("OK\n");
    } else {
      state_.Fail(s.ToString());
    }
  }
  std::string key_;
};

class SingleDeleteCommand : public LdbCommand {
 public:
  explicit SingleDeleteCommand(const LdbArgs& args)
      : LdbCommand(args, false, {kArgHex, kArgKeyHex, kArgValueHex}) {
    if (args.params.size() != 1) {
      state_.Fail("KEY must be specified for the single delete command");
      return;
    }
    key_ = args.params[0];
    DecodeHexArg(key_hex_, &key_);
  }
  static void Help(std::string* r) { r->append("  singledelete <key>\n"); }

 private:
  void DoCommand() override {
    if (db_ == nullptr) return;
    Status s = db_->SingleDelete(WriteOptions(), CfHandle(), key_);
    if (s.ok()) {
      std::printf("OK\n");
    } else {
      state_.Fail(s.ToString());
    }
  }
  std::string key_;
};

class DeleteRangeCommand : public LdbCommand {
 public:
  explicit DeleteRangeCommand(const LdbArgs& args)
      : LdbCommand(args, false, {kArgHex, kArgKeyHex, kArgValueHex}) {
    if (args.params.size() != 2) {
      state_.Fail("begin and end keys must be specified for the delete command");
      return;
    }
    begin_ = args.params[0];
    end_ = args.params[1];
    if (DecodeHexArg(key_hex_, &begin_)) DecodeHexArg(key_hex_, &end_);
  }
  static void Help(std::string* r) { r->append("  deleterange <begin key> <end key>\n"); }

 private:
  void DoCommand() override {
    if (db_ == nullptr) return;
    Status s = db_->DeleteRange(WriteOptions(), CfHandle(), begin_, end_);
    if (s.ok()) {
      std::printf("OK\n");
    } else {
      state_.Fail(s.ToString());
    }
  }
  std::string begin_, end_;
};

// Splits a query line on single spaces (empty tokens kept), as ldb does.
std::vector<std::string> SplitQueryLine(const std::string& line) {
  std::vector<std::string> tokens;
  size_t pos = 0;
  while (true) {
    const size_t next = line.find(' ', pos);
    if (next == std::string::npos) break;
    tokens.push_back(line.substr(pos, next - pos));
    pos = next + 1;
  }
  tokens.push_back(line.substr(pos));
  return tokens;
}

class QueryCommand : public LdbCommand {
 public:
  explicit QueryCommand(const LdbArgs& args)
      : LdbCommand(args, false, {kArgTtl, kArgHex, kArgKeyHex, kArgValueHex}) {}
  static void Help(std::string* r) {
    r->append(
        "  query [--ttl]\n"
        "    Starts a REPL shell.  Type help for list of available commands.\n");
  }

 private:
  void DoCommand() override {
    if (db_ == nullptr) return;
    std::string line;
    std::string error;
    Status s;
    while (s.ok() && std::getline(std::cin, line)) {
      const std::vector<std::string> t = SplitQueryLine(line);
      const std::string& cmd = t[0];
      if (cmd == "help") {
        std::printf("get <key>\nput <key> <value>\ndelete <key>\n");
      } else if (cmd == "delete" && t.size() == 2) {
        std::string key = t[1];
        if (!DecodeHexArg(key_hex_, &key)) return;
        s = db_->Delete(WriteOptions(), CfHandle(), key);
        if (s.ok()) {
          std::printf("Successfully deleted %s\n", t[1].c_str());
        } else {
          error = "delete " + key + " failed: " + s.ToString();
        }
      } else if (cmd == "put" && t.size() == 3) {
        std::string key = t[1];
        std::string value = t[2];
        if (!DecodeHexArg(key_hex_, &key) || !DecodeHexArg(value_hex_, &value)) return;
        s = db_->Put(WriteOptions(), CfHandle(), key, value);
        if (s.ok()) {
          std::printf("Successfully put %s %s\n", t[1].c_str(), t[2].c_str());
        } else {
          error = "put " + key + "=>" + value + " failed: " + s.ToString();
        }
      } else if (cmd == "get" && t.size() == 2) {
        std::string key = t[1];
        if (!DecodeHexArg(key_hex_, &key)) return;
        std::string value;
        s = db_->Get(ReadOptions(), CfHandle(), key, &value);
        if (s.ok()) {
          std::printf("%s\n", UpToNul(PrintKeyValue(key, value, key_hex_, value_hex_)).c_str());
        } else if (s.IsNotFound()) {
          // As in ldb, a miss ends the session (and fails it, with no message).
          std::printf("Not found %s\n", t[1].c_str());
        } else {
          error = "get " + key + " error: " + s.ToString();
        }
      } else {
        std::printf("Unknown command %s\n", line.c_str());
      }
      std::fflush(stdout);
    }
    if (!s.ok()) state_.Fail(error);
  }
};

class DumpCommand : public LdbCommand {
 public:
  explicit DumpCommand(const LdbArgs& args)
      : LdbCommand(args, true,
                   {kArgTtl, kArgHex, kArgKeyHex, kArgValueHex, kArgFrom, kArgTo, kArgMaxKeys,
                    "count_only", "count_delim", "stats", kArgTtlStart, kArgTtlEnd, "bucket",
                    kArgTimestamp, kArgPath, "decode_blob_index", "dump_uncompressed_blobs"}) {
    if (const std::string* v = FindOption(args, kArgFrom)) {
      from_ = *v;
      has_from_ = true;
    }
    if (const std::string* v = FindOption(args, kArgTo)) {
      to_ = *v;
      has_to_ = true;
    }
    if (!ParseMaxKeys(args, &max_keys_, &state_)) return;
    if (const std::string* v = FindOption(args, "count_delim")) {
      delim_ = *v;
      count_delim_ = true;
    } else {
      count_delim_ = HasFlag(args, "count_delim");
    }
    print_stats_ = HasFlag(args, "stats");
    count_only_ = HasFlag(args, "count_only");
    timestamp_ = HasFlag(args, kArgTimestamp);
    if (has_from_ && !DecodeHexArg(key_hex_, &from_)) return;
    if (has_to_ && !DecodeHexArg(key_hex_, &to_)) return;
    if (const std::string* v = FindOption(args, kArgPath)) {
      path_ = *v;
      if (db_path_.empty()) db_path_ = path_;
    }
  }
  static void Help(std::string* r) {
    r->append("  dump" + HelpRangeArgs() +
              " [--ttl] [--max_keys=<N>] [--timestamp] [--count_only] [--count_delim=<char>]"
              " [--stats] [--bucket=<N>] [--start_time=<N>:- is inclusive]"
              " [--end_time=<N>:- is exclusive] [--path=<path_to_a_file>]"
              " [--decode_blob_index] [--dump_uncompressed_blobs]\n");
  }

 private:
  void DoCommand() override {
    if (db_ == nullptr) {
      if (path_.empty()) return;
      state_.Succeed();
      DumpFileByType(path_, key_hex_, &state_);
      return;
    }
    if (print_stats_) {
      std::string stats;
      if (db_->GetProperty(db_->DefaultColumnFamily(), "rocksdb.stats", &stats)) {
        std::printf("%s\n", stats.c_str());
      }
    }
    ReadOptions ro;
    ro.total_order_seek = true;
    std::unique_ptr<Iterator> it = NewWalkIterator(db_, ttl_, ro, CfHandle());
    if (!it->status().ok()) state_.Fail("Iterator error." + it->status().ToString());
    if (has_from_) {
      it->Seek(from_);
    } else {
      it->SeekToFirst();
    }
    int ttl_start = kTtlMinTime;
    int ttl_end = kTtlMaxTime;
    int bucket = 0;
    if (!IntOption(kArgTtlStart, &ttl_start) || !IntOption(kArgTtlEnd, &ttl_end)) return;
    if (ttl_end < ttl_start) {
      std::fprintf(stderr, "Error: End time can't be less than start time\n");
      return;
    }
    // ldb's --bucket: counts per time bucket of the window (one bucket when
    // not given, then the plain count is printed).
    const int time_range = ttl_end - ttl_start;
    bool has_bucket = false;
    if (!IntOption("bucket", &bucket, &has_bucket)) return;
    if (!has_bucket || bucket <= 0) bucket = time_range;
    const int num_buckets =
        bucket >= time_range ? 1 : static_cast<int>((int64_t{time_range} + bucket - 1) / bucket);
    std::vector<uint64_t> bucket_counts(static_cast<size_t>(num_buckets), 0);
    if (ttl_ && !count_only_ && timestamp_ && !count_delim_) {
      std::printf("Dumping key-values from %s to %s\n", TimeToHumanString(ttl_start).c_str(),
                  TimeToHumanString(ttl_end).c_str());
    }
    int max_keys = max_keys_;
    uint64_t count = 0;
    std::string group;     // the current count_delim group
    uint64_t group_n = 0;  // its keys
    uint64_t group_bytes = 0;
    SizeHistogram sizes;
    for (; it->Valid(); it->Next()) {
      if (has_to_ && it->key().ToString() >= to_) break;
      if (max_keys == 0) break;
      Slice value = it->value();
      int rawtime = 0;
      if (ttl_) {
        Status s = SplitTtl(it->key(), it->value(), &value, &rawtime);
        if (!s.ok()) {
          state_.Fail(s.ToString());
          return;
        }
        if (rawtime < ttl_start || rawtime >= ttl_end) continue;
      }
      if (max_keys > 0) --max_keys;
      if (ttl_ && num_buckets > 1)
        bucket_counts[static_cast<size_t>((rawtime - ttl_start) / bucket)]++;
      ++count;
      if (count_delim_) {
        const std::string key = it->key().ToString();
        const uint64_t bytes = key.size() + value.size();
        // ldb's prefix: the key up to its first delimiter or NUL byte.
        std::string prefix;
        for (char c : key) {
          if (c == delim_[0] || c == '\0') break;
          prefix.push_back(c);
        }
        if (!group.empty() && group != prefix) {
          std::printf("%s => count:%" PRIu64 "\tsize:%" PRIu64 "\n", group.c_str(), group_n,
                      group_bytes);
          group_n = 1;
          group_bytes = bytes;
        } else {
          ++group_n;
          group_bytes += bytes;
        }
        group = prefix;
      }
      if (count_only_) sizes.Add(value.size());
      if (!count_only_ && !count_delim_) {
        if (ttl_ && timestamp_) std::printf("%s ", TimeToHumanString(rawtime).c_str());
        const std::string line = UpToNul(PrintKeyValue(it->key(), value, key_hex_, value_hex_));
        std::printf("%s\n", line.c_str());
      }
    }
    if (ttl_ && num_buckets > 1) {
      int t = ttl_start;
      for (int i = 0; i < num_buckets; i++, t += bucket) {
        const int end = i + 1 < num_buckets ? t + bucket : ttl_end;
        std::printf("Keys in range %s to %s : %lu\n", TimeToHumanString(t).c_str(),
                    TimeToHumanString(end).c_str(),
                    static_cast<unsigned long>(bucket_counts[static_cast<size_t>(i)]));
      }
    } else if (count_delim_) {
      std::printf("%s => count:%" PRIu64 "\tsize:%" PRIu64 "\n", group.c_str(), group_n,
                  group_bytes);
    } else {
      std::printf("Keys in range: %" PRIu64 "\n", count);
    }
    if (count_only_) {
      std::printf("Value size distribution: \n");
      std::printf("%s\n", sizes.ToString().c_str());
    }
    if (!it->status().ok()) state_.Fail(it->status().ToString());
  }

  std::string from_, to_, path_;
  std::string delim_ = ".";
  bool has_from_ = false;
  bool has_to_ = false;
  bool count_delim_ = false;
  bool count_only_ = false;
  bool print_stats_ = false;
  bool timestamp_ = false;
  int max_keys_ = -1;
};

class LoadCommand : public LdbCommand {
 public:
  explicit LoadCommand(const LdbArgs& args)
      : LdbCommand(args, false,
                   {kArgHex, kArgKeyHex, kArgValueHex, kArgFrom, kArgTo, kArgCreateIfMissing,
                    "disable_wal", "bulk_load", "compact"}) {
    disable_wal_ = HasFlag(args, "disable_wal");
    compact_ = HasFlag(args, "compact");
    if (HasFlag(args, "bulk_load")) {
      state_.Fail("--bulk_load is not supported by strata (no Options::PrepareForBulkLoad)");
    }
  }
  static void Help(std::string* r) {
    r->append("  load [--create_if_missing] [--disable_wal] [--bulk_load] [--compact]\n");
  }

 private:
  void DoCommand() override {
    if (db_ == nullptr) return;
    WriteOptions wo;
    wo.disableWAL = disable_wal_;
    int bad_lines = 0;
    std::string line;
    Status s;
    while (s.ok() && std::getline(std::cin, line)) {
      std::string key, value;
      Status parse;
      if (ParseKeyValue(line, key_hex_, value_hex_, &key, &value, &parse)) {
        if (!parse.ok()) {
          state_.Fail(parse.getState());
          return;
        }
        s = db_->Put(wo, CfHandle(), key, value);
      } else if (line.rfind("Keys in range:", 0) == 0 ||
                 line.rfind("Created bg thread 0x", 0) == 0) {
        // dump's trailer and an old log line: skipped silently, as by ldb
      } else {
        ++bad_lines;
      }
    }
    if (bad_lines > 0) std::printf("Warning: %d bad lines ignored.\n", bad_lines);
    if (!s.ok()) {
      state_.Fail("Load failed: " + s.ToString());
      return;
    }
    if (compact_) {
      s = db_->CompactRange(CompactRangeOptions(), CfHandle(), nullptr, nullptr);
      if (!s.ok()) state_.Fail("Compaction failed: " + s.ToString());
    }
  }
  bool disable_wal_ = false;
  bool compact_ = false;
};

}  // namespace

void AddDataCommands(std::vector<CommandInfo>* t) {
  t->push_back({"put", MakeCommand<PutCommand>, PutCommand::Help, HelpSection::kData});
  t->push_back({"get", MakeCommand<GetCommand>, GetCommand::Help, HelpSection::kData});
  t->push_back(
      {"batchput", MakeCommand<BatchPutCommand>, BatchPutCommand::Help, HelpSection::kData});
  t->push_back({"scan", MakeCommand<ScanCommand>, ScanCommand::Help, HelpSection::kData});
  t->push_back({"delete", MakeCommand<DeleteCommand>, DeleteCommand::Help, HelpSection::kData});
  t->push_back({"singledelete", MakeCommand<SingleDeleteCommand>, SingleDeleteCommand::Help,
                HelpSection::kData});
  t->push_back({"deleterange", MakeCommand<DeleteRangeCommand>, DeleteRangeCommand::Help,
                HelpSection::kData});
  t->push_back({"query", MakeCommand<QueryCommand>, QueryCommand::Help, HelpSection::kData});
  t->push_back({"dump", MakeCommand<DumpCommand>, DumpCommand::Help, HelpSection::kAdmin});
  t->push_back({"load", MakeCommand<LoadCommand>, LoadCommand::Help, HelpSection::kAdmin});
}

}  // namespace strata::ldb
