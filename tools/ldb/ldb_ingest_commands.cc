// The `strata` commands for external files, as RocksDB 7.8.3's ldb runs
// them:
//   write_extern_sst <output_sst_path>: reads `key ==> value` lines (dump's
//     output; --hex/--key_hex/--value_hex as ldb) on stdin and writes them to
//     a table with SstFileWriter and the DB's options (the DB is opened, as
//     ldb opens it, for its comparator). Keys must come in order.
//   ingest_extern_sst <input_sst_path> [--move_files] [--snapshot_consistency]
//     [--allow_global_seqno] [--allow_blocking_flush] [--ingest_behind]
//     [--write_global_seqno]: DB::IngestExternalFile into --column_family;
//     each option is a flag or --name=true|false with ldb's defaults.
// Messages are ldb's word for word. One difference: Strata's SstFileWriter
// takes no column family, so a table it writes records the "unknown"
// family (RocksDB's ldb records the --column_family it opened).
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "strata/sst_file_writer.h"
#include "tools/ldb/ldb_commands.h"

namespace strata::ldb {

namespace {

class WriteExternSstCommand : public LdbCommand {
 public:
  explicit WriteExternSstCommand(const LdbArgs& args)
      : LdbCommand(args, false,
                   {kArgHex, kArgKeyHex, kArgValueHex, kArgFrom, kArgTo, kArgCreateIfMissing}) {
    if (args.params.size() != 1) {
      state_.Fail("output SST file path must be specified");
    } else {
      output_ = args.params[0];
    }
  }
  static void Help(std::string* r) { r->append("  write_extern_sst <output_sst_path>\n"); }

 private:
  void DoCommand() override {
    if (db_ == nullptr || state_.failed()) return;
    Options options = db_->GetOptions(CfHandle());
    SstFileWriter writer(options);
    Status s = writer.Open(output_);
    if (!s.ok()) {
      state_.Fail("failed to open SST file: " + s.ToString());
      return;
    }
    int bad_lines = 0;
    std::string line;
    while (std::getline(std::cin, line)) {
      std::string key, value;
      Status parse;
      if (ParseKeyValue(line, key_hex_, value_hex_, &key, &value, &parse)) {
        if (!parse.ok()) {
          state_.Fail(parse.getState());
          return;
        }
        s = writer.Put(key, value);
        if (!s.ok()) {
          state_.Fail("failed to write record to file: " + s.ToString());
          return;
        }
      } else if (line.rfind("Keys in range:", 0) == 0 ||
                 line.rfind("Created bg thread 0x", 0) == 0) {
        // dump's trailer and an old log line: skipped, as by ldb
      } else {
        ++bad_lines;
      }
    }
    s = writer.Finish();
    if (!s.ok()) {
      state_.Fail("Failed to finish writing to file: " + s.ToString());
      return;
    }
    if (bad_lines > 0) std::fprintf(stderr, "Warning: %d bad lines ignored.\n", bad_lines);
    state_.Succeed("external SST file written to " + output_);
  }

  std::string output_;
};

class IngestExternSstCommand : public LdbCommand {
 public:
  explicit IngestExternSstCommand(const LdbArgs& args)
      : LdbCommand(args, false,
                   {"move_files", "snapshot_consistency", "allow_global_seqno", kArgCreateIfMissing,
                    "allow_blocking_flush", "ingest_behind", "write_global_seqno"}) {
    Status s = FlagOrBool(args, "move_files", false, &ifo_.move_files);
    if (s.ok()) s = FlagOrBool(args, "snapshot_consistency", true, &ifo_.snapshot_consistency);
    if (s.ok()) s = FlagOrBool(args, "allow_global_seqno", true, &ifo_.allow_global_seqno);
    if (s.ok()) s = FlagOrBool(args, "allow_blocking_flush", true, &ifo_.allow_blocking_flush);
    if (s.ok()) s = FlagOrBool(args, "ingest_behind", false, &ifo_.ingest_behind);
    if (s.ok()) s = FlagOrBool(args, "write_global_seqno", true, &ifo_.write_global_seqno);
    if (!s.ok()) {
      state_.Fail(s.getState());
      return;
    }
    if (ifo_.allow_global_seqno) {
      if (!ifo_.write_global_seqno) {
        std::fprintf(stderr,
                     "Warning: not writing global_seqno to the ingested SST can\n"
                     "prevent older versions of RocksDB from being able to open it\n");
      }
    } else if (ifo_.write_global_seqno) {
      state_.Fail(
          "ldb cannot write global_seqno to the ingested SST when global_seqno is not allowed");
    }
    if (args.params.size() != 1) {
      state_.Fail("input SST path must be specified");
    } else {
      input_ = args.params[0];
    }
  }
  static void Help(std::string* r) {
    r->append(
        "  ingest_extern_sst <input_sst_path> [--move_files]  [--snapshot_consistency]  "
        "[--allow_global_seqno]  [--allow_blocking_flush]  [--ingest_behind]  "
        "[--write_global_seqno] \n");
  }

 private:
  void DoCommand() override {
    if (db_ == nullptr || state_.failed()) return;
    Status s = db_->IngestExternalFile(CfHandle(), {input_}, ifo_);
    if (!s.ok()) {
      state_.Fail("failed to ingest external SST: " + s.ToString());
    } else {
      state_.Succeed("external SST files ingested");
    }
  }

  IngestExternalFileOptions ifo_;
  std::string input_;
};

}  // namespace

void AddIngestCommands(std::vector<CommandInfo>* t) {
  t->push_back({"write_extern_sst", MakeCommand<WriteExternSstCommand>, WriteExternSstCommand::Help,
                HelpSection::kAdmin});
  t->push_back({"ingest_extern_sst", MakeCommand<IngestExternSstCommand>,
                IngestExternSstCommand::Help, HelpSection::kAdmin});
}

}  // namespace strata::ldb
