// compat/configurable.cc: RocksDB's option framework -- OptionTypeInfo
// (rocksdb/utilities/options_type.h), Configurable (rocksdb/configurable.h)
// and Customizable (rocksdb/customizable.h) -- as a self-contained
// implementation with RocksDB 7.8.3's text forms and answers.
//
// Text forms: options are "name=value" joined by ';' (braces group nested
// options: "a={x=1;y=2}"); a string value escapes '\\', '#', ':', CR and LF
// with a backslash (CR/LF as \r, \n); a null object is "nullptr"; a double
// is printed as std::to_string prints it; integers accept a k/m/g/t suffix.
#include "rocksdb/configurable.h"

#include <unistd.h>

#include <cctype>
#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "rocksdb/convenience.h"
#include "rocksdb/customizable.h"
#include "rocksdb/utilities/options_type.h"

namespace rocksdb {

// The helper RocksDB's headers name as Configurable's friend: it reaches
// the registered options.
class ConfigurableHelper {
 public:
  static const std::vector<Configurable::RegisteredOptions>& Options(const Configurable& c) {
    return c.options_;
  }
  static Status Parse(Configurable& c, const ConfigOptions& o, const OptionTypeInfo& info,
                      const std::string& name, const std::string& value, void* opt_ptr) {
    return c.ParseOption(o, info, name, value, opt_ptr);
  }
};

namespace {

const char* const kNullptrString = "nullptr";

using OptionMap = std::unordered_map<std::string, OptionTypeInfo>;
using StringMap = std::unordered_map<std::string, std::string>;

bool StartsWith(const std::string& s, const std::string& prefix) {
  return s.size() >= prefix.size() && s.compare(0, prefix.size(), prefix) == 0;
}

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string Trim(const std::string& s) {
  size_t b = 0;
  size_t e = s.size();
  while (b < e && isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

std::string Escape(const std::string& raw) {
  std::string out;
  for (char c : raw) {
    if (c == '\\' || c == '#' || c == ':' || c == '\r' || c == '\n') {
      out += '\\';
      out += c == '\n' ? 'n' : c == '\r' ? 'r' : c;
    } else {
      out += c;
    }
  }
  return out;
}

std::string Unescape(const std::string& escaped) {
  std::string out;
  bool pending = false;
  for (char c : escaped) {
    if (pending) {
      out += c == 'n' ? '\n' : c == 'r' ? '\r' : c;
      pending = false;
    } else if (c == '\\') {
      pending = true;
    } else {
      out += c;
    }
  }
  return out;
}

// std::stoull / stoll with RocksDB's size suffixes; throws on bad text.
uint64_t Scale(uint64_t n, const std::string& v, size_t end) {
  if (end >= v.size()) return n;
  switch (v[end]) {
    case 'k':
    case 'K':
      return n << 10;
    case 'm':
    case 'M':
      return n << 20;
    case 'g':
    case 'G':
      return n << 30;
    case 't':
    case 'T':
      return n << 40;
    default:
      return n;
  }
}

uint64_t ParseU64(const std::string& v) {
  size_t end = 0;
  const uint64_t n = std::stoull(v, &end);
  return Scale(n, v, end);
}

int64_t ParseI64(const std::string& v) {
  size_t end = 0;
  const int64_t n = std::stoll(v, &end);
  return static_cast<int64_t>(Scale(static_cast<uint64_t>(n), v, end));
}

template <typename T>
T Narrow(int64_t v, const std::string& text) {
  if (v < static_cast<int64_t>(std::numeric_limits<T>::min()) ||
      v > static_cast<int64_t>(std::numeric_limits<T>::max())) {
    throw std::out_of_range(text);
  }
  return static_cast<T>(v);
}

template <typename T>
T NarrowU(uint64_t v, const std::string& text) {
  if (v > static_cast<uint64_t>(std::numeric_limits<T>::max())) throw std::out_of_range(text);
  return static_cast<T>(v);
}

// Parses a plain type; false for a type this layer does not parse.
bool ParsePlain(void* addr, OptionType type, const std::string& v) {
  switch (type) {
    case OptionType::kBoolean:
      if (v == "true" || v == "1") {
        *static_cast<bool*>(addr) = true;
      } else if (v == "false" || v == "0") {
        *static_cast<bool*>(addr) = false;
      } else {
        throw std::invalid_argument(v);
      }
      return true;
    case OptionType::kInt: {
      size_t end = 0;
      const int n = std::stoi(v, &end);  // RocksDB's errors name stoi
      *static_cast<int*>(addr) = static_cast<int>(Scale(static_cast<uint64_t>(n), v, end));
      return true;
    }
    case OptionType::kInt32T:
      *static_cast<int32_t*>(addr) = Narrow<int32_t>(ParseI64(v), v);
      return true;
    case OptionType::kInt64T:
      *static_cast<int64_t*>(addr) = ParseI64(v);
      return true;
    case OptionType::kUInt:
      *static_cast<unsigned int*>(addr) = NarrowU<unsigned int>(ParseU64(v), v);
      return true;
    case OptionType::kUInt8T:
      *static_cast<uint8_t*>(addr) = NarrowU<uint8_t>(ParseU64(v), v);
      return true;
    case OptionType::kUInt32T:
      *static_cast<uint32_t*>(addr) = NarrowU<uint32_t>(ParseU64(v), v);
      return true;
    case OptionType::kUInt64T:
      *static_cast<uint64_t*>(addr) = ParseU64(v);
      return true;
    case OptionType::kSizeT:
      *static_cast<size_t*>(addr) = static_cast<size_t>(ParseU64(v));
      return true;
    case OptionType::kString:
    case OptionType::kEncodedString:
      *static_cast<std::string*>(addr) = v;
      return true;
    case OptionType::kDouble:
      *static_cast<double*>(addr) = std::stod(v);
      return true;
    default:
      return false;
  }
}

bool SerializePlain(const void* addr, OptionType type, std::string* out) {
  switch (type) {
    case OptionType::kBoolean:
      *out = *static_cast<const bool*>(addr) ? "true" : "false";
      return true;
    case OptionType::kInt:
      *out = std::to_string(*static_cast<const int*>(addr));
      return true;
    case OptionType::kInt32T:
      *out = std::to_string(*static_cast<const int32_t*>(addr));
      return true;
    case OptionType::kInt64T:
      *out = std::to_string(*static_cast<const int64_t*>(addr));
      return true;
    case OptionType::kUInt:
      *out = std::to_string(*static_cast<const unsigned int*>(addr));
      return true;
    case OptionType::kUInt8T:
      *out = std::to_string(*static_cast<const uint8_t*>(addr));
      return true;
    case OptionType::kUInt32T:
      *out = std::to_string(*static_cast<const uint32_t*>(addr));
      return true;
    case OptionType::kUInt64T:
      *out = std::to_string(*static_cast<const uint64_t*>(addr));
      return true;
    case OptionType::kSizeT:
      *out = std::to_string(*static_cast<const size_t*>(addr));
      return true;
    case OptionType::kString:
      *out = Escape(*static_cast<const std::string*>(addr));
      return true;
    case OptionType::kEncodedString:
      *out = *static_cast<const std::string*>(addr);
      return true;
    case OptionType::kDouble:
      *out = std::to_string(*static_cast<const double*>(addr));
      return true;
    default:
      return false;
  }
}

// True if equal; *known false for a type not compared here.
bool PlainEqual(OptionType type, const void* a, const void* b, bool* known) {
  *known = true;
  switch (type) {
    case OptionType::kBoolean:
      return *static_cast<const bool*>(a) == *static_cast<const bool*>(b);
    case OptionType::kInt:
    case OptionType::kInt32T:
      return *static_cast<const int32_t*>(a) == *static_cast<const int32_t*>(b);
    case OptionType::kUInt:
    case OptionType::kUInt32T:
      return *static_cast<const uint32_t*>(a) == *static_cast<const uint32_t*>(b);
    case OptionType::kInt64T:
      return *static_cast<const int64_t*>(a) == *static_cast<const int64_t*>(b);
    case OptionType::kUInt8T:
      return *static_cast<const uint8_t*>(a) == *static_cast<const uint8_t*>(b);
    case OptionType::kUInt64T:
      return *static_cast<const uint64_t*>(a) == *static_cast<const uint64_t*>(b);
    case OptionType::kSizeT:
      return *static_cast<const size_t*>(a) == *static_cast<const size_t*>(b);
    case OptionType::kString:
    case OptionType::kEncodedString:
      return *static_cast<const std::string*>(a) == *static_cast<const std::string*>(b);
    case OptionType::kDouble:
      return std::fabs(*static_cast<const double*>(a) - *static_cast<const double*>(b)) < 0.00001;
    default:
      *known = false;
      return false;
  }
}

const char* TypeName(OptionType type) {
  switch (type) {
    case OptionType::kCompactionStyle:
      return "kCompactionStyle";
    case OptionType::kCompactionPri:
      return "kCompactionPri";
    case OptionType::kCompressionType:
      return "kCompressionType";
    case OptionType::kCompactionStopStyle:
      return "kCompactionStopStyle";
    case OptionType::kChecksumType:
      return "kChecksumType";
    case OptionType::kEncodingType:
      return "kEncodingType";
    case OptionType::kEnv:
      return "kEnv";
    case OptionType::kTemperature:
      return "kTemperature";
    default:
      return nullptr;
  }
}

const OptionTypeInfo* FindOption(const Configurable& c, const std::string& short_name,
                                 std::string* opt_name, void** opt_ptr) {
  for (const auto& r : ConfigurableHelper::Options(c)) {
    if (r.type_map == nullptr) continue;
    const OptionTypeInfo* info = OptionTypeInfo::Find(short_name, *r.type_map, opt_name);
    if (info != nullptr) {
      *opt_ptr = r.opt_ptr;
      return info;
    }
  }
  return nullptr;
}

// "a=1;b={x=2}" as a map, RocksDB's StringToMap: outer braces are
// stripped, keys trimmed, values are NextToken's tokens.
Status ToMap(const std::string& text, StringMap* out) {
  std::string opts = Trim(text);
  while (opts.size() > 2 && opts.front() == '{' && opts.back() == '}') {
    opts = Trim(opts.substr(1, opts.size() - 2));
  }
  size_t pos = 0;
  while (pos < opts.size()) {
    const size_t eq = opts.find_first_of("={};", pos);
    if (eq == std::string::npos) {
      return Status::InvalidArgument("Mismatched key value pair, '=' expected");
    }
    if (opts[eq] != '=') return Status::InvalidArgument("Unexpected char in key");
    const std::string key = Trim(opts.substr(pos, eq - pos));
    if (key.empty()) return Status::InvalidArgument("Empty key found");
    std::string value;
    Status s = OptionTypeInfo::NextToken(opts, ';', eq + 1, &pos, &value);
    if (!s.ok()) return s;
    (*out)[key] = value;
    if (pos == std::string::npos) break;
    ++pos;
  }
  return Status::OK();
}

}  // namespace

// ---- OptionTypeInfo ----

Status OptionTypeInfo::NextToken(const std::string& opts, char delimiter, size_t pos, size_t* end,
                                 std::string* token) {
  while (pos < opts.size() && isspace(static_cast<unsigned char>(opts[pos]))) ++pos;
  if (pos >= opts.size()) {
    token->clear();
    *end = std::string::npos;
    return Status::OK();
  }
  if (opts[pos] != '{') {
    *end = opts.find(delimiter, pos);
    *token = Trim(*end == std::string::npos ? opts.substr(pos) : opts.substr(pos, *end - pos));
    return Status::OK();
  }
  int depth = 1;
  size_t close = pos + 1;
  for (; close < opts.size(); ++close) {
    if (opts[close] == '{') ++depth;
    if (opts[close] == '}' && --depth == 0) break;
  }
  if (depth != 0) return Status::InvalidArgument("Mismatched curly braces for nested options");
  *token = Trim(opts.substr(pos + 1, close - pos - 1));
  pos = close + 1;
  while (pos < opts.size() && isspace(static_cast<unsigned char>(opts[pos]))) ++pos;
  if (pos < opts.size() && opts[pos] != delimiter) {
    return Status::InvalidArgument("Unexpected chars after nested options");
  }
  *end = pos < opts.size() ? pos : std::string::npos;
  return Status::OK();
}

Status OptionTypeInfo::Parse(const ConfigOptions& config_options, const std::string& opt_name,
                             const std::string& value, void* const opt_ptr) const {
  if (IsDeprecated()) return Status::OK();
  try {
    const std::string opt_value = config_options.input_strings_escaped ? Unescape(value) : value;
    if (opt_ptr == nullptr) return Status::NotFound("Could not find option", opt_name);
    if (parse_func_ != nullptr) {
      ConfigOptions copy = config_options;
      copy.invoke_prepare_options = false;
      return parse_func_(copy, opt_name, opt_value, GetOffset(opt_ptr));
    }
    if (ParsePlain(GetOffset(opt_ptr), type_, opt_value)) return Status::OK();
    if (IsConfigurable()) {
      Configurable* config = AsRawPointer<Configurable>(opt_ptr);
      if (opt_value.empty()) return Status::OK();
      if (config == nullptr) return Status::NotFound("Could not find configurable: ", opt_name);
      ConfigOptions copy = config_options;
      copy.ignore_unknown_options = false;
      copy.invoke_prepare_options = false;
      if (opt_value.find('=') != std::string::npos) {
        return config->ConfigureFromString(copy, opt_value);
      }
      return config->ConfigureOption(copy, opt_name, opt_value);
    }
    if (IsByName()) {
      return Status::NotSupported("Deserializing the option " + opt_name + " is not supported");
    }
    if (const char* name = TypeName(type_)) {
      return Status::NotSupported("OptionTypeInfo::Parse: option type " + std::string(name) +
                                      " is not supported by Strata's compat layer",
                                  opt_name);
    }
    return Status::InvalidArgument("Error parsing:", opt_name);
  } catch (const std::exception& e) {
    return Status::InvalidArgument("Error parsing " + opt_name + ":" + std::string(e.what()));
  }
}

Status OptionTypeInfo::Serialize(const ConfigOptions& config_options, const std::string& opt_name,
                                 const void* const opt_ptr, std::string* opt_value) const {
  if (opt_ptr == nullptr || IsDeprecated()) return Status::OK();
  if (IsEnabled(OptionTypeFlags::kDontSerialize)) {
    return Status::NotSupported("Cannot serialize option: ", opt_name);
  }
  if (serialize_func_ != nullptr) {
    return serialize_func_(config_options, opt_name, GetOffset(opt_ptr), opt_value);
  }
  if (IsCustomizable()) {
    const Customizable* custom = AsRawPointer<Customizable>(opt_ptr);
    opt_value->clear();
    if (custom == nullptr) {
      if (IsMutable() || !config_options.mutable_options_only) *opt_value = kNullptrString;
    } else if (IsEnabled(OptionTypeFlags::kStringNameOnly) && !config_options.IsDetailed()) {
      if (!config_options.mutable_options_only || IsMutable()) *opt_value = custom->GetId();
    } else {
      ConfigOptions embedded = config_options;
      embedded.delimiter = ";";
      if (IsMutable()) embedded.mutable_options_only = false;
      std::string text = custom->ToString(embedded);
      if (!embedded.mutable_options_only || text.find('=') != std::string::npos) {
        *opt_value = text;
      }
    }
    return Status::OK();
  }
  if (IsConfigurable()) {
    const Configurable* config = AsRawPointer<Configurable>(opt_ptr);
    if (config != nullptr) {
      ConfigOptions embedded = config_options;
      embedded.delimiter = ";";
      *opt_value = config->ToString(embedded);
    }
    return Status::OK();
  }
  if (config_options.mutable_options_only && !IsMutable()) return Status::OK();
  if (SerializePlain(GetOffset(opt_ptr), type_, opt_value)) return Status::OK();
  if (const char* name = TypeName(type_)) {
    return Status::NotSupported("OptionTypeInfo::Serialize: option type " + std::string(name) +
                                    " is not supported by Strata's compat layer",
                                opt_name);
  }
  return Status::InvalidArgument("Cannot serialize option: ", opt_name);
}

bool OptionTypeInfo::AreEqual(const ConfigOptions& config_options, const std::string& opt_name,
                              const void* const this_ptr, const void* const that_ptr,
                              std::string* mismatch) const {
  const ConfigOptions::SanityLevel level = GetSanityLevel();
  if (!config_options.IsCheckEnabled(level)) return true;
  if (this_ptr == nullptr || that_ptr == nullptr) {
    if (this_ptr == that_ptr) return true;
  } else if (equals_func_ != nullptr) {
    if (equals_func_(config_options, opt_name, GetOffset(this_ptr), GetOffset(that_ptr),
                     mismatch)) {
      return true;
    }
  } else {
    bool known = false;
    if (PlainEqual(type_, GetOffset(this_ptr), GetOffset(that_ptr), &known)) return true;
    if (IsConfigurable()) {
      const Configurable* a = AsRawPointer<Configurable>(this_ptr);
      const Configurable* b = AsRawPointer<Configurable>(that_ptr);
      if (a == b) return true;
      if (a != nullptr && b != nullptr) {
        std::string bad;
        ConfigOptions copy = config_options;
        if (level < config_options.sanity_level) copy.sanity_level = level;
        const bool same = a->AreEquivalent(copy, b, &bad);
        if (!same) *mismatch = opt_name + "." + bad;
        return same;
      }
    }
  }
  if (mismatch->empty()) *mismatch = opt_name;
  return false;
}

bool OptionTypeInfo::AreEqualByName(const ConfigOptions& config_options,
                                    const std::string& opt_name, const void* const this_ptr,
                                    const void* const that_ptr) const {
  if (!IsByName()) return false;
  std::string that_value;
  if (!Serialize(config_options, opt_name, that_ptr, &that_value).ok()) return false;
  return AreEqualByName(config_options, opt_name, this_ptr, that_value);
}

bool OptionTypeInfo::AreEqualByName(const ConfigOptions& config_options,
                                    const std::string& opt_name, const void* const this_ptr,
                                    const std::string& that_value) const {
  if (!IsByName()) return false;
  std::string this_value;
  if (!Serialize(config_options, opt_name, this_ptr, &this_value).ok()) return false;
  if ((IsEnabled(OptionVerificationType::kByNameAllowFromNull) ||
       IsEnabled(OptionVerificationType::kByNameAllowNull)) &&
      that_value == kNullptrString) {
    return true;
  }
  return this_value == that_value;
}

Status OptionTypeInfo::Prepare(const ConfigOptions& config_options, const std::string& name,
                               void* opt_ptr) const {
  if (!ShouldPrepare()) return Status::OK();
  if (prepare_func_ != nullptr) return prepare_func_(config_options, name, GetOffset(opt_ptr));
  Configurable* config = AsRawPointer<Configurable>(opt_ptr);
  if (config != nullptr) return config->PrepareOptions(config_options);
  if (!CanBeNull()) return Status::NotFound("Missing configurable object", name);
  return Status::OK();
}

Status OptionTypeInfo::Validate(const DBOptions& db_opts, const ColumnFamilyOptions& cf_opts,
                                const std::string& name, const void* opt_ptr) const {
  if (!ShouldValidate()) return Status::OK();
  if (validate_func_ != nullptr) return validate_func_(db_opts, cf_opts, name, GetOffset(opt_ptr));
  const Configurable* config = AsRawPointer<Configurable>(opt_ptr);
  if (config != nullptr) return config->ValidateOptions(db_opts, cf_opts);
  if (!CanBeNull()) return Status::NotFound("Missing configurable object", name);
  return Status::OK();
}

Status OptionTypeInfo::ParseType(const ConfigOptions& config_options, const std::string& opts_str,
                                 const OptionMap& type_map, void* opt_addr, StringMap* unused) {
  StringMap opts_map;
  Status s = ToMap(opts_str, &opts_map);
  if (!s.ok()) return s;
  return ParseType(config_options, opts_map, type_map, opt_addr, unused);
}

Status OptionTypeInfo::ParseType(const ConfigOptions& config_options, const StringMap& opts_map,
                                 const OptionMap& type_map, void* opt_addr, StringMap* unused) {
  for (const auto& [name, value] : opts_map) {
    std::string opt_name;
    const OptionTypeInfo* info = Find(name, type_map, &opt_name);
    if (info != nullptr) {
      Status s = info->Parse(config_options, opt_name, value, opt_addr);
      if (!s.ok()) return s;
    } else if (unused != nullptr) {
      (*unused)[name] = value;
    } else if (!config_options.ignore_unknown_options) {
      return Status::NotFound("Unrecognized option", name);
    }
  }
  return Status::OK();
}

Status OptionTypeInfo::ParseStruct(const ConfigOptions& config_options,
                                   const std::string& struct_name, const OptionMap* struct_map,
                                   const std::string& opt_name, const std::string& opt_value,
                                   void* opt_addr) {
  if (opt_name == struct_name || EndsWith(opt_name, "." + struct_name)) {
    StringMap unused;
    Status s = ParseType(config_options, opt_value, *struct_map, opt_addr, &unused);
    if (s.ok() && !unused.empty()) {
      s = Status::InvalidArgument("Unrecognized option", struct_name + "." + unused.begin()->first);
    }
    return s;
  }
  std::string elem_name;
  if (StartsWith(opt_name, struct_name + ".")) {
    const OptionTypeInfo* info =
        Find(opt_name.substr(struct_name.size() + 1), *struct_map, &elem_name);
    if (info == nullptr) return Status::InvalidArgument("Unrecognized option", opt_name);
    return info->Parse(config_options, elem_name, opt_value, opt_addr);
  }
  const OptionTypeInfo* info = Find(opt_name, *struct_map, &elem_name);
  if (info == nullptr) {
    return Status::InvalidArgument("Unrecognized option", struct_name + "." + opt_name);
  }
  return info->Parse(config_options, elem_name, opt_value, opt_addr);
}

Status OptionTypeInfo::SerializeType(const ConfigOptions& config_options, const OptionMap& type_map,
                                     const void* opt_addr, std::string* result) {
  for (const auto& [name, info] : type_map) {
    if (!info.ShouldSerialize()) continue;
    std::string single;
    Status s = info.Serialize(config_options, name, opt_addr, &single);
    if (!s.ok()) return s;
    result->append(name + "=" + single + config_options.delimiter);
  }
  return Status::OK();
}

Status OptionTypeInfo::SerializeStruct(const ConfigOptions& config_options,
                                       const std::string& struct_name, const OptionMap* struct_map,
                                       const std::string& opt_name, const void* opt_addr,
                                       std::string* value) {
  if (EndsWith(opt_name, struct_name)) {
    ConfigOptions embedded = config_options;
    embedded.delimiter = ";";
    std::string result;
    Status s = SerializeType(embedded, *struct_map, opt_addr, &result);
    if (s.ok()) *value = "{" + result + "}";
    return s;
  }
  std::string elem_name;
  if (StartsWith(opt_name, struct_name + ".")) {
    const OptionTypeInfo* info =
        Find(opt_name.substr(struct_name.size() + 1), *struct_map, &elem_name);
    if (info == nullptr) return Status::InvalidArgument("Unrecognized option", opt_name);
    return info->Serialize(config_options, elem_name, opt_addr, value);
  }
  const OptionTypeInfo* info = Find(opt_name, *struct_map, &elem_name);
  if (info == nullptr) return Status::InvalidArgument("Unrecognized option", opt_name);
  if (!info->ShouldSerialize()) return Status::OK();
  return info->Serialize(config_options, opt_name + "." + elem_name, opt_addr, value);
}

bool OptionTypeInfo::TypesAreEqual(const ConfigOptions& config_options, const OptionMap& map,
                                   const void* this_addr, const void* that_addr,
                                   std::string* mismatch) {
  for (const auto& [name, info] : map) {
    if (!info.AreEqual(config_options, name, this_addr, that_addr, mismatch)) return false;
  }
  return true;
}

bool OptionTypeInfo::StructsAreEqual(const ConfigOptions& config_options,
                                     const std::string& struct_name, const OptionMap* struct_map,
                                     const std::string& opt_name, const void* this_addr,
                                     const void* that_addr, std::string* mismatch) {
  std::string result;
  if (EndsWith(opt_name, struct_name)) {
    if (TypesAreEqual(config_options, *struct_map, this_addr, that_addr, &result)) return true;
    *mismatch = struct_name + "." + result;
    return false;
  }
  std::string elem_name;
  const std::string member =
      StartsWith(opt_name, struct_name + ".") ? opt_name.substr(struct_name.size() + 1) : opt_name;
  const OptionTypeInfo* info = Find(member, *struct_map, &elem_name);
  if (info == nullptr) {
    *mismatch = StartsWith(opt_name, struct_name + ".") ? opt_name : struct_name + "." + opt_name;
    return false;
  }
  if (info->AreEqual(config_options, elem_name, this_addr, that_addr, &result)) return true;
  *mismatch = struct_name + "." + result;
  return false;
}

const OptionTypeInfo* OptionTypeInfo::Find(const std::string& opt_name, const OptionMap& opt_map,
                                           std::string* elem_name) {
  auto it = opt_map.find(opt_name);
  if (it != opt_map.end()) {
    *elem_name = opt_name;
    return &it->second;
  }
  const size_t dot = opt_name.find('.');
  if (dot > 0 && dot != std::string::npos) {
    auto outer = opt_map.find(opt_name.substr(0, dot));
    if (outer != opt_map.end() && (outer->second.IsStruct() || outer->second.IsConfigurable())) {
      *elem_name = opt_name.substr(dot + 1);
      return &outer->second;
    }
  }
  return nullptr;
}

// ---- Configurable ----

namespace {

Status ParseOne(const ConfigOptions& config_options, Configurable& c, const OptionTypeInfo& info,
                const std::string& opt_name, const std::string& name, const std::string& value,
                void* opt_ptr);

}  // namespace

void Configurable::RegisterOptions(const std::string& name, void* opt_ptr,
                                   const OptionMap* opt_map) {
  options_.push_back(RegisteredOptions{name, opt_ptr, opt_map});
}

Status Configurable::PrepareOptions(const ConfigOptions& config_options) {
  for (const auto& r : options_) {
    if (r.type_map == nullptr) continue;
    for (const auto& [name, info] : *r.type_map) {
      if (!info.ShouldPrepare()) continue;
      Status s = info.Prepare(config_options, name, r.opt_ptr);
      if (!s.ok()) return s;
    }
  }
  return Status::OK();
}

Status Configurable::ValidateOptions(const DBOptions& db_opts,
                                     const ColumnFamilyOptions& cf_opts) const {
  for (const auto& r : options_) {
    if (r.type_map == nullptr) continue;
    for (const auto& [name, info] : *r.type_map) {
      if (!info.ShouldValidate()) continue;
      Status s = info.Validate(db_opts, cf_opts, name, r.opt_ptr);
      if (!s.ok()) return s;
    }
  }
  return Status::OK();
}

const void* Configurable::GetOptionsPtr(const std::string& name) const {
  for (const auto& r : options_) {
    if (r.name == name) return r.opt_ptr;
  }
  return nullptr;
}

std::string Configurable::GetOptionName(const std::string& long_name) const { return long_name; }

Status Configurable::ConfigureFromMap(const ConfigOptions& config_options,
                                      const StringMap& opt_map) {
  return ConfigureFromMap(config_options, opt_map, nullptr);
}

Status Configurable::ConfigureFromMap(const ConfigOptions& config_options, const StringMap& opt_map,
                                      StringMap* unused) {
  return ConfigureOptions(config_options, opt_map, unused);
}

Status Configurable::ConfigureOptions(const ConfigOptions& config_options,
                                      const StringMap& opts_map, StringMap* unused) {
  std::string before;
  Status s;
  if (!opts_map.empty()) {
    ConfigOptions copy = config_options;
    copy.invoke_prepare_options = false;
    if (!config_options.ignore_unknown_options) {
      // Kept to put the object back as it was if a value is refused.
      copy.depth = ConfigOptions::kDepthDetailed;
      copy.delimiter = "; ";
      GetOptionString(copy, &before).PermitUncheckedError();
    }
    // Each registered struct takes the names it knows; a pass repeats while
    // it takes any (an option may become settable once another is set).
    StringMap remaining = opts_map;
    for (const auto& r : options_) {
      if (r.type_map == nullptr) continue;
      Status last_error;
      Status not_supported;
      std::unordered_set<std::string> unsupported;
      for (bool progress = true; progress && !remaining.empty();) {
        progress = false;
        not_supported = Status::OK();
        for (auto it = remaining.begin(); it != remaining.end();) {
          const std::string opt_name = GetOptionName(it->first);
          std::string elem_name;
          const OptionTypeInfo* info = OptionTypeInfo::Find(opt_name, *r.type_map, &elem_name);
          if (info == nullptr) {
            ++it;
            continue;
          }
          Status one = ParseOne(copy, *this, *info, opt_name, elem_name, it->second, r.opt_ptr);
          if (one.IsNotFound()) {
            ++it;
          } else if (one.IsNotSupported()) {
            not_supported = one;
            unsupported.insert(it->first);
            ++it;
          } else {
            progress = true;
            it = remaining.erase(it);
            if (!one.ok()) last_error = one;
          }
        }
      }
      for (const std::string& u : unsupported) remaining.erase(u);
      if (copy.ignore_unknown_options) {
        s = Status::OK();
      } else if (!last_error.ok()) {
        s = last_error;
      } else if (!copy.ignore_unsupported_options) {
        s = not_supported;
      }
      if (!s.ok() || remaining.empty()) break;
    }
    if (unused != nullptr) unused->insert(remaining.begin(), remaining.end());
    if (config_options.ignore_unknown_options) {
      s = Status::OK();
    } else if (s.ok() && unused == nullptr && !remaining.empty()) {
      s = Status::NotFound("Could not find option: ", remaining.begin()->first);
    }
  }
  if (config_options.invoke_prepare_options && s.ok()) s = PrepareOptions(config_options);
  if (!s.ok() && !before.empty()) {
    ConfigOptions reset = config_options;
    reset.ignore_unknown_options = true;
    reset.invoke_prepare_options = true;
    reset.ignore_unsupported_options = true;
    ConfigureFromString(reset, before).PermitUncheckedError();
  }
  return s;
}

Status Configurable::ParseStringOptions(const ConfigOptions& /*config_options*/,
                                        const std::string& /*opts_str*/) {
  return Status::OK();
}

Status Configurable::ConfigureFromString(const ConfigOptions& config_options,
                                         const std::string& opts_str) {
  if (opts_str.empty()) {
    return config_options.invoke_prepare_options ? PrepareOptions(config_options) : Status::OK();
  }
  if (opts_str.find(';') != std::string::npos || opts_str.find('=') != std::string::npos) {
    StringMap opt_map;
    Status s = ToMap(opts_str, &opt_map);
    if (!s.ok()) return s;
    return ConfigureFromMap(config_options, opt_map, nullptr);
  }
  Status s = ParseStringOptions(config_options, opts_str);
  if (s.ok() && config_options.invoke_prepare_options) s = PrepareOptions(config_options);
  return s;
}

Status Configurable::ConfigureOption(const ConfigOptions& config_options, const std::string& name,
                                     const std::string& value) {
  const std::string opt_name = GetOptionName(name);
  std::string elem_name;
  void* opt_ptr = nullptr;
  const OptionTypeInfo* info = FindOption(*this, opt_name, &elem_name, &opt_ptr);
  if (info == nullptr) return Status::NotFound("Could not find option: ", name);
  return ParseOne(config_options, *this, *info, opt_name, elem_name, value, opt_ptr);
}

Status Configurable::ParseOption(const ConfigOptions& config_options,
                                 const OptionTypeInfo& opt_info, const std::string& opt_name,
                                 const std::string& opt_value, void* opt_ptr) {
  if (opt_info.IsMutable()) {
    ConfigOptions copy = config_options;
    copy.mutable_options_only = false;
    return opt_info.Parse(copy, opt_name, opt_value, opt_ptr);
  }
  if (config_options.mutable_options_only) {
    return Status::InvalidArgument("Option not changeable: " + opt_name);
  }
  return opt_info.Parse(config_options, opt_name, opt_value, opt_ptr);
}

namespace {

// One option of c: opt_name as found, name the part its info answers for
// (the member of a struct or Configurable, else opt_name).
Status ParseOne(const ConfigOptions& config_options, Configurable& c, const OptionTypeInfo& info,
                const std::string& opt_name, const std::string& name, const std::string& value,
                void* opt_ptr) {
  using Access = ConfigurableHelper;
  if (!info.IsCustomizable()) {
    if (opt_name == name) return Access::Parse(c, config_options, info, opt_name, value, opt_ptr);
    if (info.IsStruct() || info.IsConfigurable()) {
      return Access::Parse(c, config_options, info, name, value, opt_ptr);
    }
    return Status::NotFound("Could not find option: ", name);
  }
  Customizable* custom = info.AsRawPointer<Customizable>(opt_ptr);
  ConfigOptions copy = config_options;
  if (info.IsMutable()) copy.mutable_options_only = false;
  if (info.IsMutable() || !config_options.mutable_options_only) {
    if (opt_name == name || name == OptionTypeInfo::kIdPropName() ||
        EndsWith(opt_name, OptionTypeInfo::kIdPropSuffix())) {
      return Access::Parse(c, copy, info, name, value, opt_ptr);
    }
    if (value.empty()) return Status::OK();
    if (custom == nullptr || !StartsWith(name, custom->GetId() + ".")) {
      return Access::Parse(c, copy, info, name, value, opt_ptr);
    }
    if (value.find('=') != std::string::npos) return custom->ConfigureFromString(copy, value);
    return custom->ConfigureOption(copy, name, value);
  }
  // Only mutable options may change, and this object is not one: its id
  // must stay, though its own mutable options may change.
  if (custom == nullptr) {
    return value.empty() ? Status::OK()
                         : Status::InvalidArgument("Option not changeable: " + opt_name);
  }
  if (EndsWith(opt_name, OptionTypeInfo::kIdPropSuffix()) ||
      name == OptionTypeInfo::kIdPropName()) {
    return custom->GetId() == value ? Status::OK()
                                    : Status::InvalidArgument("Option not changeable: " + opt_name);
  }
  if (opt_name == name) {
    StringMap props;
    std::string id;
    Status s = Configurable::GetOptionsMap(value, custom->GetId(), &id, &props);
    if (!s.ok()) return s;
    if (custom->GetId() != id) return Status::InvalidArgument("Option not changeable: " + opt_name);
    return props.empty() ? Status::OK() : custom->ConfigureFromMap(copy, props);
  }
  return custom->ConfigureOption(copy, name, value);
}

}  // namespace

Status Configurable::GetOptionString(const ConfigOptions& config_options,
                                     std::string* result) const {
  // The registered options only: a Customizable's id is not one of them
  // (its SerializeOptions adds it; ToString uses that).
  *result = Configurable::SerializeOptions(config_options, "");
  return Status::OK();
}

std::string Configurable::ToString(const ConfigOptions& config_options,
                                   const std::string& prefix) const {
  std::string result = SerializeOptions(config_options, prefix);
  if (result.empty() || result.find('=') == std::string::npos) return result;
  return "{" + result + "}";
}

std::string Configurable::SerializeOptions(const ConfigOptions& config_options,
                                           const std::string& header) const {
  std::string result;
  for (const auto& r : options_) {
    if (r.type_map == nullptr) continue;
    for (const auto& [name, info] : *r.type_map) {
      if (!info.ShouldSerialize()) continue;
      std::string value;
      Status s;
      if (!config_options.mutable_options_only) {
        s = info.Serialize(config_options, header + name, r.opt_ptr, &value);
      } else if (info.IsMutable()) {
        ConfigOptions copy = config_options;
        copy.mutable_options_only = false;
        s = info.Serialize(copy, header + name, r.opt_ptr, &value);
      } else if (info.IsConfigurable() && (config_options.IsDetailed() ||
                                           !info.IsEnabled(OptionTypeFlags::kStringNameOnly))) {
        s = info.Serialize(config_options, header + name, r.opt_ptr, &value);
      }
      if (s.ok() && !value.empty()) {
        result.append(header + name + "=" + value + config_options.delimiter);
      }
    }
  }
  return result;
}

Status Configurable::GetOption(const ConfigOptions& config_options, const std::string& name,
                               std::string* value) const {
  value->clear();
  const std::string short_name = GetOptionName(name);
  std::string opt_name;
  void* opt_ptr = nullptr;
  const OptionTypeInfo* info = FindOption(*this, short_name, &opt_name, &opt_ptr);
  if (info != nullptr) {
    ConfigOptions embedded = config_options;
    embedded.delimiter = ";";
    if (short_name == opt_name || info->IsStruct()) {
      return info->Serialize(embedded, opt_name, opt_ptr, value);
    }
    if (info->IsConfigurable()) {
      const Configurable* config = info->AsRawPointer<Configurable>(opt_ptr);
      if (config != nullptr) return config->GetOption(embedded, opt_name, value);
    }
  }
  return Status::NotFound("Cannot find option: ", short_name);
}

Status Configurable::GetOptionNames(const ConfigOptions& config_options,
                                    std::unordered_set<std::string>* result) const {
  for (const auto& r : options_) {
    if (r.type_map == nullptr) continue;
    for (const auto& [name, info] : *r.type_map) {
      if (info.IsDeprecated() || info.IsAlias()) continue;
      if (!config_options.mutable_options_only || info.IsMutable()) result->emplace(name);
    }
  }
  return Status::OK();
}

bool Configurable::OptionsAreEqual(const ConfigOptions& config_options,
                                   const OptionTypeInfo& opt_info, const std::string& opt_name,
                                   const void* const this_ptr, const void* const that_ptr,
                                   std::string* mismatch) const {
  if (opt_info.AreEqual(config_options, opt_name, this_ptr, that_ptr, mismatch)) return true;
  if (opt_info.AreEqualByName(config_options, opt_name, this_ptr, that_ptr)) {
    mismatch->clear();
    return true;
  }
  return false;
}

bool Configurable::AreEquivalent(const ConfigOptions& config_options, const Configurable* other,
                                 std::string* name) const {
  name->clear();
  if (this == other || config_options.IsCheckDisabled()) return true;
  if (other == nullptr) return false;
  for (const auto& r : options_) {
    const void* this_ptr = GetOptionsPtr(r.name);
    const void* that_ptr = other->GetOptionsPtr(r.name);
    if (this_ptr == that_ptr) continue;
    if (this_ptr == nullptr || that_ptr == nullptr) return false;
    if (r.type_map == nullptr) continue;
    for (const auto& [opt, info] : *r.type_map) {
      if (!config_options.IsCheckEnabled(info.GetSanityLevel())) continue;
      if (config_options.mutable_options_only && !info.IsMutable()) continue;
      ConfigOptions copy = config_options;
      copy.mutable_options_only = false;
      if (!OptionsAreEqual(copy, info, opt, this_ptr, that_ptr, name)) return false;
    }
  }
  return true;
}

Status Configurable::GetOptionsMap(const std::string& value, const std::string& default_id,
                                   std::string* id, StringMap* props) {
  if (value.empty() || value == kNullptrString) {
    *id = default_id;
    return Status::OK();
  }
  if (value.find('=') == std::string::npos) {
    *id = value;
    return Status::OK();
  }
  if (!ToMap(value, props).ok()) {
    *id = value;  // not options: the whole text is the id
    props->clear();
    return Status::OK();
  }
  auto it = props->find(OptionTypeInfo::kIdPropName());
  if (it != props->end()) {
    *id = it->second;
    props->erase(it);
    if (*id == kNullptrString) id->clear();
  } else if (!default_id.empty()) {
    *id = default_id;
  } else {
    *id = value;
    props->clear();
  }
  return Status::OK();
}

// ---- Customizable ----

std::string Customizable::GetOptionName(const std::string& long_name) const {
  const std::string name = Name();
  if (long_name.size() > name.size() + 1 && long_name.compare(0, name.size(), name) == 0 &&
      long_name[name.size()] == '.') {
    return long_name.substr(name.size() + 1);
  }
  return Configurable::GetOptionName(long_name);
}

std::string Customizable::GenerateIndividualId() const {
  std::ostringstream out;
  out << Name() << "@" << static_cast<const void*>(this) << "#" << getpid();
  return out.str();
}

Status Customizable::GetOption(const ConfigOptions& config_options, const std::string& opt_name,
                               std::string* value) const {
  if (opt_name == OptionTypeInfo::kIdPropName()) {
    *value = GetId();
    return Status::OK();
  }
  return Configurable::GetOption(config_options, opt_name, value);
}

std::string Customizable::SerializeOptions(const ConfigOptions& config_options,
                                           const std::string& prefix) const {
  const std::string id = GetId();
  std::string parent;
  if (!config_options.IsShallow() && !id.empty()) {
    parent = Configurable::SerializeOptions(config_options, "");
  }
  if (parent.empty()) return id;
  return prefix + OptionTypeInfo::kIdPropName() + "=" + id + config_options.delimiter + parent;
}

bool Customizable::AreEquivalent(const ConfigOptions& config_options, const Configurable* other,
                                 std::string* mismatch) const {
  if (config_options.sanity_level > ConfigOptions::kSanityLevelNone && this != other) {
    const Customizable* custom = dynamic_cast<const Customizable*>(other);
    if (custom == nullptr) return false;
    if (GetId() != custom->GetId()) {
      *mismatch = OptionTypeInfo::kIdPropName();
      return false;
    }
    if (config_options.sanity_level > ConfigOptions::kSanityLevelLooselyCompatible) {
      return Configurable::AreEquivalent(config_options, other, mismatch);
    }
  }
  return true;
}

Status Customizable::GetOptionsMap(const ConfigOptions& config_options,
                                   const Customizable* customizable, const std::string& value,
                                   std::string* id, StringMap* props) {
  if (value.empty() || value == kNullptrString) {
    id->clear();
    props->clear();
    return Status::OK();
  }
  if (customizable == nullptr) return Configurable::GetOptionsMap(value, "", id, props);
  Status s = Configurable::GetOptionsMap(value, customizable->GetId(), id, props);
  if (s.ok() && customizable->IsInstanceOf(*id)) {
    // Same kind of object: its current options are the base the new ones
    // override.
    ConfigOptions embedded = config_options;
    embedded.delimiter = ";";
    std::string current;
    StringMap current_props;
    if (customizable->GetOptionString(embedded, &current).ok() &&
        ToMap(current, &current_props).ok()) {
      props->insert(current_props.begin(), current_props.end());
    }
  }
  return s;
}

Status Customizable::ConfigureNewObject(const ConfigOptions& config_options, Customizable* object,
                                        const StringMap& opt_map) {
  if (object != nullptr) return object->ConfigureFromMap(config_options, opt_map);
  if (!opt_map.empty()) return Status::InvalidArgument("Cannot configure null object ");
  return Status::OK();
}

}  // namespace rocksdb
