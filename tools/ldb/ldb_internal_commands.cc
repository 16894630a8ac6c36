// The `strata` commands over internal keys and table files: idump,
// list_file_range_deletes, approxsize. Each opens the DB read-only first
// (for ldb's errors: missing DB, unknown family) and then reads the
// family's files through TableView.

#include <cinttypes>
#include <cstdio>
#include <string>
#include <vector>

#include "base/dbformat.h"
#include "tools/ldb/ldb_commands.h"
#include "tools/ldb/ldb_manifest.h"
#include "tools/ldb/ldb_table_view.h"

namespace strata::ldb {
namespace {

class InternalDumpCommand : public LdbCommand {
 public:
  explicit InternalDumpCommand(const LdbArgs& args)
      : LdbCommand(args, true,
                   {kArgHex, kArgKeyHex, kArgValueHex, kArgFrom, kArgTo, kArgMaxKeys, "count_only",
                    "count_delim", "stats", "input_key_hex", "decode_blob_index"}) {
    if (const std::string* v = FindOption(args, kArgFrom)) {
      from_ = *v;
      has_from_ = true;
    }
    if (const std::string* v = FindOption(args, kArgTo)) {
      to_ = *v;
      has_to_ = true;
    }
    if (!IntOption(kArgMaxKeys, &max_keys_)) return;
    if (const std::string* v = FindOption(args, "count_delim")) {
      delim_ = *v;
      count_delim_ = true;
    } else {
      count_delim_ = HasFlag(args, "count_delim");
    }
    print_stats_ = HasFlag(args, "stats");
    count_only_ = HasFlag(args, "count_only");
    const bool input_hex = HasFlag(args, "input_key_hex");
    if (has_from_ && !DecodeHexArg(input_hex, &from_)) return;
    if (has_to_) DecodeHexArg(input_hex, &to_);
  }
  static void Help(std::string* r) {
    r->append("  idump" + HelpRangeArgs() +
              " [--input_key_hex] [--max_keys=<N>] [--count_only] [--count_delim=<char>]"
              " [--stats] [--decode_blob_index]\n");
  }

 private:
  void DoCommand() override {
    if (db_ == nullptr) return;
    if (print_stats_) {
      std::string stats;
      if (db_->GetProperty(CfHandle(), "rocksdb.stats", &stats)) std::printf("%s\n", stats.c_str());
    }
    std::unique_ptr<TableView> view;
    std::vector<InternalEntry> entries;
    Status s = TableView::Open(db_path_, cf_name_, &view);
    if (s.ok()) s = view->CollectEntries(&entries);
    if (!s.ok()) {
      state_.Fail(s.ToString());
      return;
    }
    // ldb's GetAllKeyVersions: from the first version of --from, through
    // --to inclusive, at most --max_keys versions (at least one).
    std::vector<const InternalEntry*> versions;
    const Comparator* ucmp = BytewiseComparator();
    const size_t limit = static_cast<size_t>(static_cast<int64_t>(max_keys_));
    for (const InternalEntry& e : entries) {
      const Slice user_key = ExtractUserKey(e.key);
      if (!from_.empty() && ucmp->Compare(user_key, from_) < 0) continue;
      if (!to_.empty() && ucmp->Compare(user_key, to_) > 0) break;
      versions.push_back(&e);
      if (versions.size() >= limit) break;
    }
    std::string group;
    uint64_t group_n = 0;
    uint64_t group_bytes = 0;
    long long count = 0;
    for (const InternalEntry* e : versions) {
      const Slice user_key = ExtractUserKey(e->key);
      if (has_to_ && user_key == Slice(to_)) break;
      ++count;
      if (count_delim_) {
        // ldb's sizes: the bytes of the internal key and of the value up to
        // the first 0x01 or NUL byte; the group is the key up to delim.
        uint64_t bytes = 0;
        for (char c : e->key) {
          if (c == '\x01' || c == '\0') break;
          ++bytes;
        }
        for (char c : e->value) {
          if (c == '\x01' || c == '\0') break;
          ++bytes;
        }
        std::string prefix;
        for (char c : e->key) {
          if (c == delim_[0] || c == '\0' || c == '\x01') break;
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
      if (!count_only_ && !count_delim_) {
        const std::string key = UpToNul(InternalKeyDebugString(e->key, key_hex_));
        const std::string value = UpToNul(Slice(e->value).ToString(value_hex_));
        std::printf("%s => %s\n", key.c_str(), value.c_str());
      }
      if (max_keys_ > 0 && count >= max_keys_) break;
    }
    if (count_delim_) {
      std::printf("%s => count:%" PRIu64 "\tsize:%" PRIu64 "\n", group.c_str(), group_n,
                  group_bytes);
    } else {
      std::printf("Internal keys in range: %lld\n", count);
    }
  }

  std::string from_, to_;
  std::string delim_ = ".";
  bool has_from_ = false;
  bool has_to_ = false;
  int max_keys_ = -1;
  bool count_delim_ = false;
  bool count_only_ = false;
  bool print_stats_ = false;
};

class ListFileRangeDeletesCommand : public LdbCommand {
 public:
  explicit ListFileRangeDeletesCommand(const LdbArgs& args)
      : LdbCommand(args, true, {kArgMaxKeys}) {
    if (const std::string* v = FindOption(args, kArgMaxKeys)) {
      Status s = ParseInt(kArgMaxKeys, *v, &max_keys_);
      if (!s.ok()) {
        std::string m = s.getState();
        if (!m.empty() && m.back() == '.') m.pop_back();
        state_.Fail(m);
      }
    }
  }
  static void Help(std::string* r) {
    r->append("  list_file_range_deletes [--max_keys=<N>] : print tombstones in SST files.\n");
  }

 private:
  void DoCommand() override {
    if (db_ == nullptr) return;
    std::unique_ptr<TableView> view;
    Status s = TableView::Open(db_path_, cf_name_, &view);
    if (!s.ok()) return;  // as ldb: nothing printed, exit 0
    std::string out;
    int left = max_keys_;
    if (left > 0) {
      for (int level = 0; level < view->num_levels() && left > 0; ++level) {
        for (const FileMetaData& m : view->family().levels[level]) {
          out += "=== file : " + view->TablePath(m.number) + " ===\n";
          std::unique_ptr<BlockBasedTable> table;
          if (!view->OpenTable(m.number, &table).ok()) return;
          std::unique_ptr<InternalIterator> it = table->NewRangeTombstoneIterator(ReadOptions());
          if (it != nullptr) {
            for (it->SeekToFirst(); it->Valid() && left > 0; it->Next()) {
              ParsedInternalKey p;
              if (!ParseInternalKey(it->key(), &p).ok()) return;
              out += "start: " + p.user_key.ToString(true) + " end: " + it->value().ToString(true) +
                     " seq: " + std::to_string(p.sequence) + "\n";
              --left;
            }
            if (left <= 0) break;
          }
        }
      }
      if (left <= 0) out += "(results may not be complete)\n";
    }
    std::printf("%s\n", out.c_str());
  }
  int max_keys_ = 1000;
};

class ApproxSizeCommand : public LdbCommand {
 public:
  explicit ApproxSizeCommand(const LdbArgs& args)
      : LdbCommand(args, true, {kArgHex, kArgKeyHex, kArgValueHex, kArgFrom, kArgTo}) {
    const std::string* from = FindOption(args, kArgFrom);
    if (from == nullptr) {
      state_.Fail("from must be specified for approxsize command");
      return;
    }
    const std::string* to = FindOption(args, kArgTo);
    if (to == nullptr) {
      state_.Fail("to must be specified for approxsize command");
      return;
    }
    start_ = *from;
    end_ = *to;
    if (DecodeHexArg(key_hex_, &start_)) DecodeHexArg(key_hex_, &end_);
  }
  static void Help(std::string* r) { r->append("  approxsize" + HelpRangeArgs() + "\n"); }

 private:
  void DoCommand() override {
    if (db_ == nullptr) return;
    std::unique_ptr<TableView> view;
    uint64_t size = 0;
    Status s = TableView::Open(db_path_, cf_name_, &view);
    if (s.ok()) s = view->ApproximateSize(start_, end_, &size);
    if (!s.ok()) {
      state_.Fail("ApproximateSize failed: " + s.ToString());
      return;
    }
    std::printf("%lu\n", static_cast<unsigned long>(size));
  }
  std::string start_, end_;
};

}  // namespace

void AddInternalCommands(std::vector<CommandInfo>* t) {
  t->push_back(
      {"approxsize", MakeCommand<ApproxSizeCommand>, ApproxSizeCommand::Help, HelpSection::kData});
  t->push_back({"list_file_range_deletes", MakeCommand<ListFileRangeDeletesCommand>,
                ListFileRangeDeletesCommand::Help, HelpSection::kData});
  t->push_back(
      {"idump", MakeCommand<InternalDumpCommand>, InternalDumpCommand::Help, HelpSection::kAdmin});
}

}  // namespace strata::ldb
