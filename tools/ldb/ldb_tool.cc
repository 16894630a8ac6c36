// RunLdbTool (tools/ldb/ldb_tool.h).

#include "tools/ldb/ldb_tool.h"

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "tools/ldb/ldb_commands.h"

// Set by the build (tools/ldb/sources.cmake); a copy of the layer built
// without it says so.
#ifndef STRATA_VERSION_STRING
#define STRATA_VERSION_STRING "unknown"
#endif

namespace strata::ldb {
namespace {

const std::vector<CommandInfo>& Commands() {
  static const std::vector<CommandInfo> kTable = [] {
    std::vector<CommandInfo> t;
    AddDataCommands(&t);
    AddAdminCommands(&t);
    AddFileCommands(&t);
    AddInternalCommands(&t);
    AddBackupCommands(&t);
    AddIngestCommands(&t);
    return t;
  }();
  return kTable;
}

void PrintHelp(const std::string& header, bool to_stderr) {
  std::string r;
  r.append(header);
  r.append("\n\n");
  r.append("commands MUST specify --db=<full_path_to_db_directory> when necessary\n\n");
  r.append(
      "The following optional parameters control if keys/values are input/output as hex or as "
      "plain strings:\n"
      "  --key_hex : Keys are input/output as hex\n"
      "  --value_hex : Values are input/output as hex\n"
      "  --hex : Both keys and values are input/output as hex\n\n");
  r.append(
      "The following optional parameters control the database internals:\n"
      "  --column_family=<string> : name of the column family to operate on. default: default "
      "column family\n"
      "  --try_load_options : take the column families and their merge operators from the "
      "DB's OPTIONS file. Default to true if db is specified and not creating a new DB. Can be "
      "set to false explicitly.\n"
      "  --ignore_unknown_options : a merge operator strata lacks in the OPTIONS file becomes "
      "StringAppend(':')\n"
      "  --compression_type=<no|snappy|zlib|bzip2|lz4|lz4hc|xpress|zstd>\n"
      "  --auto_compaction=<true|false>\n"
      "  --write_buffer_size=<int,e.g.:4194304>\n"
      "  --file_size=<int,e.g.:2097152>\n");
  for (HelpSection section : {HelpSection::kData, HelpSection::kAdmin}) {
    r.append(section == HelpSection::kData ? "\n\nData Access Commands:\n"
                                           : "\n\nAdmin Commands:\n");
    for (const CommandInfo& c : Commands()) {
      if (c.section == section) c.help(&r);
    }
  }
  r.append(
      "  report --db=<db_path> --out=<file.html>\n"
      "    (strata) the LSM tree and write history as one HTML page; see "
      "docs/tools/report.md\n");
  std::fprintf(to_stderr ? stderr : stdout, "%s\n", r.c_str());
}

// Strata's commands before they took ldb's syntax: `strata verify DIR` and
// `strata count DIR` still work (DIR becomes --db=DIR).
void AcceptOldSyntax(LdbArgs* args) {
  if ((args->command == "verify" || args->command == "count") && args->params.size() == 1 &&
      FindOption(*args, kArgDb) == nullptr) {
    args->options[kArgDb] = args->params[0];
    args->params.clear();
  }
}

}  // namespace

int RunLdbTool(int argc, const char* const* argv, const Options& db_options,
               const LDBOptions& ldb_options) {
  const std::string& header = ldb_options.print_help_header;
  if (argc <= 1) {
    PrintHelp(header, true);
    return 1;
  }
  if (argc == 2) {
    const std::string arg = argv[1];
    if (arg == "--version") {
      std::printf("strata %s (ldb from RocksDB 7.8.3 compatible)\n", STRATA_VERSION_STRING);
      return 0;
    }
    PrintHelp(header, arg != "--help");
    return arg == "--help" ? 0 : 1;
  }
  std::vector<std::string> words(argv + 1, argv + argc);
  LdbArgs args = ParseLdbArgs(words);
  args.db_options = std::make_shared<const Options>(db_options);
  args.key_formatter = ldb_options.key_formatter;
  if (args.command.empty()) {
    std::fprintf(stderr, "Command not specified!");
    std::fprintf(stderr, "Unknown command\n");
    PrintHelp(header, true);
    return 1;
  }
  AcceptOldSyntax(&args);
  const CommandInfo* info = nullptr;
  for (const CommandInfo& c : Commands()) {
    if (args.command == c.name) info = &c;
  }
  // ldb commands Strata has nothing to run them with.
  static const char* const kUnsupported[] = {
      "update_manifest",
      "file_checksum_dump",
      "unsafe_remove_sst_file",
  };
  for (const char* name : kUnsupported) {
    if (info == nullptr && args.command == name) {
      std::fprintf(stderr, "Failed: the ldb command %s is not supported by strata\n", name);
      return 1;
    }
  }
  if (info == nullptr) {
    std::fprintf(stderr, "Unknown command\n");
    PrintHelp(header, true);
    return 1;
  }
  std::unique_ptr<LdbCommand> command = info->make(args);
  if (!command->ValidateCmdLineOptions()) return 1;
  command->Run();
  const std::string result = command->state().ToString();
  std::fflush(stdout);
  if (!result.empty()) std::fprintf(stderr, "%s\n", result.c_str());
  return command->state().failed() ? 1 : 0;
}

}  // namespace strata::ldb

namespace strata {

LDBOptions::LDBOptions() = default;

int RunLDBTool(int argc, const char* const* argv, const Options& db_options,
               const LDBOptions& ldb_options) {
  return ldb::RunLdbTool(argc, argv, db_options, ldb_options);
}

void LDBTool::Run(int argc, char** argv, Options db_options, const LDBOptions& ldb_options,
                  const std::vector<ColumnFamilyDescriptor>* column_families) {
  (void)column_families;  // unused, as in RocksDB 7.8.3 (see the header)
  std::exit(ldb::RunLdbTool(argc, argv, db_options, ldb_options));
}

}  // namespace strata
