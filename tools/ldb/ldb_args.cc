// The command-line parsing and text helpers of tools/ldb/ldb_args.h.

#include "tools/ldb/ldb_args.h"

#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>

namespace strata::ldb {

LdbArgs ParseLdbArgs(const std::vector<std::string>& args) {
  LdbArgs out;
  bool have_command = false;
  for (const std::string& arg : args) {
    if (arg.size() >= 2 && arg[0] == '-' && arg[1] == '-') {
      const size_t eq = arg.find('=');
      if (eq == std::string::npos) {
        out.flags.push_back(arg.substr(2));
      } else {
        out.options[arg.substr(2, eq - 2)] = arg.substr(eq + 1);
      }
    } else if (!have_command) {
      out.command = arg;
      have_command = true;
    } else {
      out.params.push_back(arg);
    }
  }
  return out;
}

bool HasFlag(const LdbArgs& args, const std::string& name) {
  for (const std::string& f : args.flags) {
    if (f == name) return true;
  }
  return false;
}

const std::string* FindOption(const LdbArgs& args, const std::string& name) {
  auto it = args.options.find(name);
  return it == args.options.end() ? nullptr : &it->second;
}

Status ParseBool(const std::string& option, const std::string& value, bool* out) {
  std::string lower;
  for (char c : value)
    lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  if (lower == "true") {
    *out = true;
  } else if (lower == "false") {
    *out = false;
  } else {
    return Status::InvalidArgument("--" + option + "=" + value,
                                   "a boolean option takes true or false");
  }
  return Status::OK();
}

Status FlagOrBool(const LdbArgs& args, const std::string& name, bool default_value, bool* out) {
  if (HasFlag(args, name)) {
    *out = true;
    return Status::OK();
  }
  const std::string* v = FindOption(args, name);
  if (v == nullptr) {
    *out = default_value;
    return Status::OK();
  }
  return ParseBool(name, *v, out);
}

Status ParseInt(const std::string& option, const std::string& value, int* out) {
  const char* begin = value.c_str();
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(begin, &end, 10);
  if (end == begin) return Status::InvalidArgument(option + " has an invalid value.");
  if (errno == ERANGE || v < INT_MIN || v > INT_MAX) {
    return Status::InvalidArgument(option + " has a value out-of-range.");
  }
  *out = static_cast<int>(v);
  return Status::OK();
}

std::string StringToHex(const Slice& s) {
  static const char kDigits[] = "0123456789ABCDEF";
  std::string r = "0x";
  r.reserve(2 + 2 * s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    r.push_back(kDigits[c >> 4]);
    r.push_back(kDigits[c & 0xf]);
  }
  return r;
}

namespace {
int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
}  // namespace

Status HexToString(const std::string& hex, std::string* out) {
  if (hex.size() < 2 || hex[0] != '0' || hex[1] != 'x') {
    return Status::InvalidArgument("Invalid hex input " + hex + ".  Must start with 0x");
  }
  if (hex.size() % 2 != 0) {
    return Status::InvalidArgument("Invalid hex input " + hex + ": odd number of digits");
  }
  std::string r;
  r.reserve((hex.size() - 2) / 2);
  for (size_t i = 2; i < hex.size(); i += 2) {
    const int hi = HexDigit(hex[i]);
    const int lo = HexDigit(hex[i + 1]);
    if (hi < 0 || lo < 0) {
      return Status::InvalidArgument("Invalid hex input " + hex + ": not a hex digit at " +
                                     std::to_string(i));
    }
    r.push_back(static_cast<char>(hi * 16 + lo));
  }
  *out = std::move(r);
  return Status::OK();
}

std::string UpToNul(const std::string& s) { return s.substr(0, s.find('\0')); }

std::string PrintKeyValue(const Slice& key, const Slice& value, bool key_hex, bool value_hex) {
  std::string r = key_hex ? StringToHex(key) : key.ToString();
  r.append(kKeyValueDelim);
  r.append(value_hex ? StringToHex(value) : value.ToString());
  return r;
}

bool ParseKeyValue(const std::string& line, bool key_hex, bool value_hex, std::string* key,
                   std::string* value, Status* status) {
  const size_t pos = line.find(kKeyValueDelim);
  if (pos == std::string::npos) return false;
  *key = line.substr(0, pos);
  *value = line.substr(pos + std::strlen(kKeyValueDelim));
  *status = Status::OK();
  if (key_hex) *status = HexToString(std::string(*key), key);
  if (status->ok() && value_hex) *status = HexToString(std::string(*value), value);
  return true;
}

}  // namespace strata::ldb
