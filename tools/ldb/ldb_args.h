// The command line of `strata` in RocksDB ldb's shape, and the text helpers
// its commands share (hex in and out, booleans, integers, "k ==> v" lines).
//
// A command line is `strata [--opt=value | --flag]... COMMAND [param]...`:
// every token starting with "--" is an option (with '=': the name is what
// precedes the first '=', the value everything after it) or a flag
// (without '='); the first other token is the command and the rest are its
// parameters. Options and flags may appear anywhere, as in ldb.
// Thread-safety: plain functions and values; no shared state.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "strata/options.h"
#include "strata/slice.h"
#include "strata/status.h"
#include "strata/utilities/ldb_tool.h"

namespace strata::ldb {

struct LdbArgs {
  std::map<std::string, std::string> options;  // --name=value (the last one wins)
  std::vector<std::string> flags;              // --name, in order
  std::string command;                         // empty if none was given
  std::vector<std::string> params;             // the tokens after the command
  // From RunLDBTool's caller: the base options of every open (null: the
  // defaults) and the key formatter of scan (null: none).
  std::shared_ptr<const Options> db_options;
  std::shared_ptr<SliceFormatter> key_formatter;
};

// Splits args (argv without the program name) as described above.
LdbArgs ParseLdbArgs(const std::vector<std::string>& args);

bool HasFlag(const LdbArgs& args, const std::string& name);
// The value of --name=value, or nullptr.
const std::string* FindOption(const LdbArgs& args, const std::string& name);

// "true"/"false" in any case, as ldb's boolean options take; anything else
// is InvalidArgument naming the option.
Status ParseBool(const std::string& option, const std::string& value, bool* out);
// ldb's boolean: `--name` present, or `--name=true`; default_value if
// neither --name nor --name=... is given.
Status FlagOrBool(const LdbArgs& args, const std::string& name, bool default_value, bool* out);

// An int the way ldb reads one (std::stoi): leading blanks and a sign,
// decimal digits, anything after them ignored. No digits gives
// InvalidArgument "<option> has an invalid value."; a value outside int
// gives "<option> has a value out-of-range.".
Status ParseInt(const std::string& option, const std::string& value, int* out);

// "0x" followed by two upper-case hex digits per byte (ldb's StringToHex).
std::string StringToHex(const Slice& s);
// The inverse: requires the "0x" prefix and an even number of hex digits
// (either case); InvalidArgument quoting the input otherwise.
Status HexToString(const std::string& hex, std::string* out);

// s up to its first NUL byte: what ldb's printf("%s") of the same bytes
// shows, which the output of get, scan, dump and idump keeps.
std::string UpToNul(const std::string& s);

// The " ==> " separator of dump/load lines.
inline constexpr const char* kKeyValueDelim = " ==> ";

// key ==> value with either side hex-encoded (with 0x) as asked.
std::string PrintKeyValue(const Slice& key, const Slice& value, bool key_hex, bool value_hex);
// Splits a "key ==> value" line and decodes hex sides. False if the line has
// no delimiter; a bad hex side is an InvalidArgument in *status.
bool ParseKeyValue(const std::string& line, bool key_hex, bool value_hex, std::string* key,
                   std::string* value, Status* status);

}  // namespace strata::ldb
