// The table of `strata` commands: each command file adds its commands
// (name, factory, help line) and the dispatcher (ldb_tool.cc) looks the
// command name up here. Adding a command is one entry in one Add*Commands.
// Thread-safety: the table is built once, single-threaded.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "tools/ldb/ldb_command.h"

namespace strata::ldb {

enum class HelpSection { kData, kAdmin };

struct CommandInfo {
  const char* name;
  std::unique_ptr<LdbCommand> (*make)(const LdbArgs& args);
  void (*help)(std::string* out);  // appends the command's help line(s)
  HelpSection section;
};

template <typename T>
std::unique_ptr<LdbCommand> MakeCommand(const LdbArgs& args) {
  return std::make_unique<T>(args);
}

// put get batchput scan delete deleterange query approxsize load dump
void AddDataCommands(std::vector<CommandInfo>* table);
// list/create/drop_column_family compact get_property checkconsistency
// repair reduce_levels verify count checkpoint
void AddAdminCommands(std::vector<CommandInfo>* table);
// manifest_dump dump_wal idump list_live_files_metadata dump_live_files
// list_file_range_deletes
void AddFileCommands(std::vector<CommandInfo>* table);

// idump list_file_range_deletes approxsize
void AddInternalCommands(std::vector<CommandInfo>* table);

// ldb's " [--from] [--to] " help fragment.
inline std::string HelpRangeArgs() { return " [--from] [--to] "; }

}  // namespace strata::ldb
