// rocksdb/utilities/options_type.h: OptionTypeInfo, RocksDB's description
// of one option of a Configurable object -- where the field lives (a byte
// offset from the registered options struct), its type, how it is checked
// and compared, and optional functions that parse, serialize, compare,
// prepare and validate it -- with the type, verification and flag enums
// and the helpers for enums, structs, vectors and arrays.
//
// compat implements parsing, serializing and comparing for the plain types
// (bool, the integer types, double, string, encoded string), enums (Enum),
// structs (Struct), vectors (Vector), arrays (Array), Configurable and
// Customizable fields (AsCustom*Ptr: through T::CreateFromString) and any
// field with its own functions. The RocksDB-specific types (kCompactionStyle,
// kCompactionPri, kCompressionType, kCompactionStopStyle, kChecksumType,
// kEncodingType, kEnv, kTemperature) answer NotSupported naming the option
// unless the field has its own functions.
// Thread-safety: an OptionTypeInfo is immutable after setup; const methods
// are thread-safe; the fields they act on are the caller's to guard.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "rocksdb/convenience.h"
#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/status.h"

namespace rocksdb {
class OptionTypeInfo;
struct ColumnFamilyOptions;
struct DBOptions;

// The kind of value a field holds (values in RocksDB's order).
enum class OptionType {
  kBoolean,
  kInt,
  kInt32T,
  kInt64T,
  kUInt,
  kUInt8T,
  kUInt32T,
  kUInt64T,
  kSizeT,
  kString,
  kDouble,
  kCompactionStyle,
  kCompactionPri,
  kCompressionType,
  kCompactionStopStyle,
  kChecksumType,
  kEncodingType,
  kEnv,
  kEnum,
  kStruct,
  kVector,
  kConfigurable,
  kCustomizable,
  kEncodedString,
  kTemperature,
  kArray,
  kUnknown,
};

// How a field is checked when two configurations are compared.
enum class OptionVerificationType {
  kNormal,
  kByName,               // compared by the name of the object only
  kByNameAllowNull,      // by name, and either side may be null
  kByNameAllowFromNull,  // by name, and the old side may be null
  kDeprecated,           // accepted, ignored, never written
  kAlias,                // another name of an option; never written
};

// Bits describing a field: its comparison level, whether it may change at
// run time, how a pointer field holds its object, and what to skip.
enum class OptionTypeFlags : uint32_t {
  kNone = 0x00,
  kCompareDefault = 0x0,
  kCompareNever = ConfigOptions::kSanityLevelNone,
  kCompareLoose = ConfigOptions::kSanityLevelLooselyCompatible,
  kCompareExact = ConfigOptions::kSanityLevelExactMatch,
  kMutable = 0x0100,
  kRawPointer = 0x0200,
  kShared = 0x0400,
  kUnique = 0x0800,
  kAllowNull = 0x1000,
  kDontSerialize = 0x2000,
  kDontPrepare = 0x4000,
  kStringNameOnly = 0x8000,
};

inline OptionTypeFlags operator|(const OptionTypeFlags& a, const OptionTypeFlags& b) {
  return static_cast<OptionTypeFlags>(static_cast<uint32_t>(a) | static_cast<uint32_t>(b));
}

inline OptionTypeFlags operator&(const OptionTypeFlags& a, const OptionTypeFlags& b) {
  return static_cast<OptionTypeFlags>(static_cast<uint32_t>(a) & static_cast<uint32_t>(b));
}

// Sets *value to the enum named type; false if the map has no such name.
template <typename T>
bool ParseEnum(const std::unordered_map<std::string, T>& type_map, const std::string& type,
               T* value) {
  auto it = type_map.find(type);
  if (it == type_map.end()) return false;
  *value = it->second;
  return true;
}

// Sets *type to a name of value; false if the map has none.
template <typename T>
bool SerializeEnum(const std::unordered_map<std::string, T>& type_map, const T& type,
                   std::string* value) {
  for (const auto& entry : type_map) {
    if (entry.second == type) {
      *value = entry.first;
      return true;
    }
  }
  return false;
}

template <typename T, size_t kSize>
Status ParseArray(const ConfigOptions& config_options, const OptionTypeInfo& elem_info,
                  char separator, const std::string& name, const std::string& value,
                  std::array<T, kSize>* result);
template <typename T, size_t kSize>
Status SerializeArray(const ConfigOptions& config_options, const OptionTypeInfo& elem_info,
                      char separator, const std::string& name, const std::array<T, kSize>& vec,
                      std::string* value);
template <typename T, size_t kSize>
bool ArraysAreEqual(const ConfigOptions& config_options, const OptionTypeInfo& elem_info,
                    const std::string& name, const std::array<T, kSize>& array1,
                    const std::array<T, kSize>& array2, std::string* mismatch);
template <typename T>
Status ParseVector(const ConfigOptions& config_options, const OptionTypeInfo& elem_info,
                   char separator, const std::string& name, const std::string& value,
                   std::vector<T>* result);
template <typename T>
Status SerializeVector(const ConfigOptions& config_options, const OptionTypeInfo& elem_info,
                       char separator, const std::string& name, const std::vector<T>& vec,
                       std::string* value);
template <typename T>
bool VectorsAreEqual(const ConfigOptions& config_options, const OptionTypeInfo& elem_info,
                     const std::string& name, const std::vector<T>& vec1,
                     const std::vector<T>& vec2, std::string* mismatch);

// Parses value (the text of option name) into the field at addr.
using ParseFunc = std::function<Status(const ConfigOptions& /*opts*/, const std::string& /*name*/,
                                       const std::string& /*value*/, void* /*addr*/)>;
// Writes the field at addr as text.
using SerializeFunc =
    std::function<Status(const ConfigOptions& /*opts*/, const std::string& /*name*/,
                         const void* /*addr*/, std::string* /*value*/)>;
// True if the fields at addr1 and addr2 are equal; else names the mismatch.
using EqualsFunc =
    std::function<bool(const ConfigOptions& /*opts*/, const std::string& /*name*/,
                       const void* /*addr1*/, const void* /*addr2*/, std::string* mismatch)>;
// Readies the field at addr for use.
using PrepareFunc = std::function<Status(const ConfigOptions& /*opts*/, const std::string& /*name*/,
                                         void* /*addr*/)>;
// Checks the field at addr against a database's options.
using ValidateFunc =
    std::function<Status(const DBOptions& /*db_opts*/, const ColumnFamilyOptions& /*cf_opts*/,
                         const std::string& /*name*/, const void* /*addr*/)>;

class OptionTypeInfo {
 public:
  OptionTypeInfo(int offset, OptionType type)
      : OptionTypeInfo(offset, type, OptionVerificationType::kNormal, OptionTypeFlags::kNone) {}

  OptionTypeInfo(int offset, OptionType type, OptionVerificationType verification,
                 OptionTypeFlags flags)
      : offset_(offset),
        parse_func_(nullptr),
        serialize_func_(nullptr),
        equals_func_(nullptr),
        type_(type),
        verification_(verification),
        flags_(flags) {}

  OptionTypeInfo(int offset, OptionType type, OptionVerificationType verification,
                 OptionTypeFlags flags, const ParseFunc& parse_func)
      : OptionTypeInfo(offset, type, verification, flags) {
    parse_func_ = parse_func;
  }

  OptionTypeInfo(int offset, OptionType type, OptionVerificationType verification,
                 OptionTypeFlags flags, const ParseFunc& parse_func,
                 const SerializeFunc& serialize_func, const EqualsFunc& equals_func)
      : OptionTypeInfo(offset, type, verification, flags) {
    parse_func_ = parse_func;
    serialize_func_ = serialize_func;
    equals_func_ = equals_func;
  }

  // An enum field named through map (which must outlive the info).
  template <typename T>
  static OptionTypeInfo Enum(int offset, const std::unordered_map<std::string, T>* const map,
                             OptionTypeFlags flags = OptionTypeFlags::kNone) {
    OptionTypeInfo info(offset, OptionType::kEnum, OptionVerificationType::kNormal, flags);
    info.SetParseFunc(
        [map](const ConfigOptions&, const std::string& name, const std::string& value, void* addr) {
          if (map == nullptr) return Status::NotSupported("No enum mapping ", name);
          if (!ParseEnum<T>(*map, value, static_cast<T*>(addr))) {
            return Status::InvalidArgument("No mapping for enum ", name);
          }
          return Status::OK();
        });
    info.SetSerializeFunc(
        [map](const ConfigOptions&, const std::string& name, const void* addr, std::string* value) {
          if (map == nullptr) return Status::NotSupported("No enum mapping ", name);
          if (!SerializeEnum<T>(*map, *static_cast<const T*>(addr), value)) {
            return Status::InvalidArgument("No mapping for enum ", name);
          }
          return Status::OK();
        });
    info.SetEqualsFunc([](const ConfigOptions&, const std::string&, const void* addr1,
                          const void* addr2, std::string*) {
      return *static_cast<const T*>(addr1) == *static_cast<const T*>(addr2);
    });
    return info;
  }

  // A struct field whose members struct_map describes (it must outlive
  // the info); written "{a=1;b=2}" or member by member ("name.a=1").
  static OptionTypeInfo Struct(const std::string& struct_name,
                               const std::unordered_map<std::string, OptionTypeInfo>* struct_map,
                               int offset, OptionVerificationType verification,
                               OptionTypeFlags flags) {
    OptionTypeInfo info(offset, OptionType::kStruct, verification, flags);
    info.SetParseFunc([struct_name, struct_map](const ConfigOptions& opts, const std::string& name,
                                                const std::string& value, void* addr) {
      return ParseStruct(opts, struct_name, struct_map, name, value, addr);
    });
    info.SetSerializeFunc([struct_name, struct_map](const ConfigOptions& opts,
                                                    const std::string& name, const void* addr,
                                                    std::string* value) {
      return SerializeStruct(opts, struct_name, struct_map, name, addr, value);
    });
    info.SetEqualsFunc([struct_name, struct_map](const ConfigOptions& opts, const std::string& name,
                                                 const void* addr1, const void* addr2,
                                                 std::string* mismatch) {
      return StructsAreEqual(opts, struct_name, struct_map, name, addr1, addr2, mismatch);
    });
    return info;
  }

  static OptionTypeInfo Struct(const std::string& struct_name,
                               const std::unordered_map<std::string, OptionTypeInfo>* struct_map,
                               int offset, OptionVerificationType verification,
                               OptionTypeFlags flags, const ParseFunc& parse_func) {
    OptionTypeInfo info(Struct(struct_name, struct_map, offset, verification, flags));
    return info.SetParseFunc(parse_func);
  }

  // A std::array<T, kSize> field, elements separated by separator.
  template <typename T, size_t kSize>
  static OptionTypeInfo Array(int _offset, OptionVerificationType _verification,
                              OptionTypeFlags _flags, const OptionTypeInfo& elem_info,
                              char separator = ':') {
    OptionTypeInfo info(_offset, OptionType::kArray, _verification, _flags);
    info.SetParseFunc([elem_info, separator](const ConfigOptions& opts, const std::string& name,
                                             const std::string& value, void* addr) {
      return ParseArray<T, kSize>(opts, elem_info, separator, name, value,
                                  static_cast<std::array<T, kSize>*>(addr));
    });
    info.SetSerializeFunc([elem_info, separator](const ConfigOptions& opts, const std::string& name,
                                                 const void* addr, std::string* value) {
      return SerializeArray<T, kSize>(opts, elem_info, separator, name,
                                      *static_cast<const std::array<T, kSize>*>(addr), value);
    });
    info.SetEqualsFunc([elem_info](const ConfigOptions& opts, const std::string& name,
                                   const void* addr1, const void* addr2, std::string* mismatch) {
      return ArraysAreEqual<T, kSize>(opts, elem_info, name,
                                      *static_cast<const std::array<T, kSize>*>(addr1),
                                      *static_cast<const std::array<T, kSize>*>(addr2), mismatch);
    });
    return info;
  }

  // A std::vector<T> field, elements separated by separator.
  template <typename T>
  static OptionTypeInfo Vector(int _offset, OptionVerificationType _verification,
                               OptionTypeFlags _flags, const OptionTypeInfo& elem_info,
                               char separator = ':') {
    OptionTypeInfo info(_offset, OptionType::kVector, _verification, _flags);
    info.SetParseFunc([elem_info, separator](const ConfigOptions& opts, const std::string& name,
                                             const std::string& value, void* addr) {
      return ParseVector<T>(opts, elem_info, separator, name, value,
                            static_cast<std::vector<T>*>(addr));
    });
    info.SetSerializeFunc([elem_info, separator](const ConfigOptions& opts, const std::string& name,
                                                 const void* addr, std::string* value) {
      return SerializeVector<T>(opts, elem_info, separator, name,
                                *static_cast<const std::vector<T>*>(addr), value);
    });
    info.SetEqualsFunc([elem_info](const ConfigOptions& opts, const std::string& name,
                                   const void* addr1, const void* addr2, std::string* mismatch) {
      return VectorsAreEqual<T>(opts, elem_info, name, *static_cast<const std::vector<T>*>(addr1),
                                *static_cast<const std::vector<T>*>(addr2), mismatch);
    });
    return info;
  }

  // A std::shared_ptr<T> field of a Customizable T, made by
  // T::CreateFromString; an empty "id" resets it.
  template <typename T>
  static OptionTypeInfo AsCustomSharedPtr(int offset, OptionVerificationType ovt,
                                          OptionTypeFlags flags) {
    OptionTypeInfo info(offset, OptionType::kCustomizable, ovt, flags | OptionTypeFlags::kShared);
    return info.SetParseFunc([](const ConfigOptions& opts, const std::string& name,
                                const std::string& value, void* addr) {
      auto* shared = static_cast<std::shared_ptr<T>*>(addr);
      if (name == kIdPropName() && value.empty()) {
        shared->reset();
        return Status::OK();
      }
      return T::CreateFromString(opts, value, shared);
    });
  }

  template <typename T>
  static OptionTypeInfo AsCustomSharedPtr(int offset, OptionVerificationType ovt,
                                          OptionTypeFlags flags,
                                          const SerializeFunc& serialize_func,
                                          const EqualsFunc& equals_func) {
    OptionTypeInfo info(AsCustomSharedPtr<T>(offset, ovt, flags));
    info.SetSerializeFunc(serialize_func);
    info.SetEqualsFunc(equals_func);
    return info;
  }

  // A std::unique_ptr<T> field of a Customizable T.
  template <typename T>
  static OptionTypeInfo AsCustomUniquePtr(int offset, OptionVerificationType ovt,
                                          OptionTypeFlags flags) {
    OptionTypeInfo info(offset, OptionType::kCustomizable, ovt, flags | OptionTypeFlags::kUnique);
    return info.SetParseFunc([](const ConfigOptions& opts, const std::string& name,
                                const std::string& value, void* addr) {
      auto* unique = static_cast<std::unique_ptr<T>*>(addr);
      if (name == kIdPropName() && value.empty()) {
        unique->reset();
        return Status::OK();
      }
      return T::CreateFromString(opts, value, unique);
    });
  }

  template <typename T>
  static OptionTypeInfo AsCustomUniquePtr(int offset, OptionVerificationType ovt,
                                          OptionTypeFlags flags,
                                          const SerializeFunc& serialize_func,
                                          const EqualsFunc& equals_func) {
    OptionTypeInfo info(AsCustomUniquePtr<T>(offset, ovt, flags));
    info.SetSerializeFunc(serialize_func);
    info.SetEqualsFunc(equals_func);
    return info;
  }

  // A T* field of a Customizable T (a static object, not owned).
  template <typename T>
  static OptionTypeInfo AsCustomRawPtr(int offset, OptionVerificationType ovt,
                                       OptionTypeFlags flags) {
    OptionTypeInfo info(offset, OptionType::kCustomizable, ovt,
                        flags | OptionTypeFlags::kRawPointer);
    return info.SetParseFunc([](const ConfigOptions& opts, const std::string& name,
                                const std::string& value, void* addr) {
      auto** pointer = static_cast<T**>(addr);
      if (name == kIdPropName() && value.empty()) {
        *pointer = nullptr;
        return Status::OK();
      }
      return T::CreateFromString(opts, value, pointer);
    });
  }

  template <typename T>
  static OptionTypeInfo AsCustomRawPtr(int offset, OptionVerificationType ovt,
                                       OptionTypeFlags flags, const SerializeFunc& serialize_func,
                                       const EqualsFunc& equals_func) {
    OptionTypeInfo info(AsCustomRawPtr<T>(offset, ovt, flags));
    info.SetSerializeFunc(serialize_func);
    info.SetEqualsFunc(equals_func);
    return info;
  }

  OptionTypeInfo& SetParseFunc(const ParseFunc& f) {
    parse_func_ = f;
    return *this;
  }
  OptionTypeInfo& SetSerializeFunc(const SerializeFunc& f) {
    serialize_func_ = f;
    return *this;
  }
  OptionTypeInfo& SetEqualsFunc(const EqualsFunc& f) {
    equals_func_ = f;
    return *this;
  }
  OptionTypeInfo& SetPrepareFunc(const PrepareFunc& f) {
    prepare_func_ = f;
    return *this;
  }
  OptionTypeInfo& SetValidateFunc(const ValidateFunc& f) {
    validate_func_ = f;
    return *this;
  }

  bool IsEnabled(OptionTypeFlags otf) const { return (flags_ & otf) == otf; }
  bool IsEditable(const ConfigOptions& opts) const {
    return opts.mutable_options_only ? IsMutable() : true;
  }
  bool IsMutable() const { return IsEnabled(OptionTypeFlags::kMutable); }
  bool IsDeprecated() const { return IsEnabled(OptionVerificationType::kDeprecated); }
  bool IsAlias() const { return IsEnabled(OptionVerificationType::kAlias); }
  bool IsEnabled(OptionVerificationType ovf) const { return verification_ == ovf; }

  // The strictest check level at which the field is compared.
  ConfigOptions::SanityLevel GetSanityLevel() const {
    if (IsDeprecated() || IsAlias()) return ConfigOptions::SanityLevel::kSanityLevelNone;
    const OptionTypeFlags match = flags_ & OptionTypeFlags::kCompareExact;
    if (match == OptionTypeFlags::kCompareDefault) {
      return ConfigOptions::SanityLevel::kSanityLevelExactMatch;
    }
    return static_cast<ConfigOptions::SanityLevel>(match);
  }
  bool ShouldSerialize() const {
    return !IsDeprecated() && !IsAlias() && !IsEnabled(OptionTypeFlags::kDontSerialize);
  }
  bool ShouldPrepare() const {
    if (IsDeprecated() || IsAlias() || IsEnabled(OptionTypeFlags::kDontPrepare)) return false;
    return prepare_func_ != nullptr || IsConfigurable();
  }
  bool ShouldValidate() const {
    if (IsDeprecated() || IsAlias()) return false;
    return validate_func_ != nullptr || IsConfigurable();
  }
  bool CanBeNull() const {
    return IsEnabled(OptionTypeFlags::kAllowNull) ||
           IsEnabled(OptionVerificationType::kByNameAllowNull) ||
           IsEnabled(OptionVerificationType::kByNameAllowFromNull);
  }
  bool IsSharedPtr() const { return IsEnabled(OptionTypeFlags::kShared); }
  bool IsUniquePtr() const { return IsEnabled(OptionTypeFlags::kUnique); }
  bool IsRawPtr() const { return IsEnabled(OptionTypeFlags::kRawPointer); }
  bool IsByName() const {
    return verification_ == OptionVerificationType::kByName ||
           verification_ == OptionVerificationType::kByNameAllowNull ||
           verification_ == OptionVerificationType::kByNameAllowFromNull;
  }
  bool IsStruct() const { return type_ == OptionType::kStruct; }
  bool IsConfigurable() const {
    return type_ == OptionType::kConfigurable || type_ == OptionType::kCustomizable;
  }
  bool IsCustomizable() const { return type_ == OptionType::kCustomizable; }

  // The field's address within the struct at base.
  inline const void* GetOffset(const void* base) const {
    return static_cast<const char*>(base) + offset_;
  }
  inline void* GetOffset(void* base) const { return static_cast<char*>(base) + offset_; }

  template <typename T>
  const T* GetOffsetAs(const void* base) const {
    return static_cast<const T*>(GetOffset(base));
  }
  template <typename T>
  T* GetOffsetAs(void* base) const {
    return static_cast<T*>(GetOffset(base));
  }

  // The object a pointer field (shared, unique or raw) points to, or the
  // field itself for a plain one; null for a null base.
  template <typename T>
  const T* AsRawPointer(const void* const base_addr) const {
    if (base_addr == nullptr) return nullptr;
    if (IsUniquePtr()) return GetOffsetAs<std::unique_ptr<T>>(base_addr)->get();
    if (IsSharedPtr()) return GetOffsetAs<std::shared_ptr<T>>(base_addr)->get();
    if (IsRawPtr()) return *GetOffsetAs<T* const>(base_addr);
    return GetOffsetAs<T>(base_addr);
  }
  template <typename T>
  T* AsRawPointer(void* base_addr) const {
    if (base_addr == nullptr) return nullptr;
    if (IsUniquePtr()) return GetOffsetAs<std::unique_ptr<T>>(base_addr)->get();
    if (IsSharedPtr()) return GetOffsetAs<std::shared_ptr<T>>(base_addr)->get();
    if (IsRawPtr()) return *GetOffsetAs<T*>(base_addr);
    return GetOffsetAs<T>(base_addr);
  }

  // Sets the field at opt_ptr (the field itself, not the struct) from
  // opt_value. InvalidArgument naming the option for a bad value.
  Status Parse(const ConfigOptions& config_options, const std::string& opt_name,
               const std::string& opt_value, void* const opt_ptr) const;
  // Writes the field at opt_ptr as text.
  Status Serialize(const ConfigOptions& config_options, const std::string& opt_name,
                   const void* const opt_ptr, std::string* opt_value) const;
  // Compares the fields at addr1 and addr2 at the options' sanity level.
  bool AreEqual(const ConfigOptions& config_options, const std::string& opt_name,
                const void* const addr1, const void* const addr2, std::string* mismatch) const;
  // Compares two fields by their serialized text.
  bool AreEqualByName(const ConfigOptions& config_options, const std::string& opt_name,
                      const void* const this_ptr, const void* const that_ptr) const;
  bool AreEqualByName(const ConfigOptions& config_options, const std::string& opt_name,
                      const void* const this_ptr, const std::string& that_value) const;
  Status Prepare(const ConfigOptions& config_options, const std::string& name, void* opt_ptr) const;
  Status Validate(const DBOptions& db_opts, const ColumnFamilyOptions& cf_opts,
                  const std::string& name, const void* opt_ptr) const;

  // Sets the fields of the struct at opt_addr that type_map describes from
  // "a=1;b=2" or a map; unknown names go to *unused, or fail
  // (NotFound "Unrecognized option") when unused is null.
  static Status ParseType(const ConfigOptions& config_options, const std::string& opts_str,
                          const std::unordered_map<std::string, OptionTypeInfo>& type_map,
                          void* opt_addr,
                          std::unordered_map<std::string, std::string>* unused = nullptr);
  static Status ParseType(const ConfigOptions& config_options,
                          const std::unordered_map<std::string, std::string>& opts_map,
                          const std::unordered_map<std::string, OptionTypeInfo>& type_map,
                          void* opt_addr,
                          std::unordered_map<std::string, std::string>* unused = nullptr);
  static Status ParseStruct(const ConfigOptions& config_options, const std::string& struct_name,
                            const std::unordered_map<std::string, OptionTypeInfo>* map,
                            const std::string& opt_name, const std::string& value, void* opt_addr);
  static Status SerializeType(const ConfigOptions& config_options,
                              const std::unordered_map<std::string, OptionTypeInfo>& type_map,
                              const void* opt_addr, std::string* value);
  static Status SerializeStruct(const ConfigOptions& config_options, const std::string& struct_name,
                                const std::unordered_map<std::string, OptionTypeInfo>* map,
                                const std::string& opt_name, const void* opt_addr,
                                std::string* value);
  static bool TypesAreEqual(const ConfigOptions& config_options,
                            const std::unordered_map<std::string, OptionTypeInfo>& map,
                            const void* this_addr, const void* that_addr, std::string* mismatch);
  static bool StructsAreEqual(const ConfigOptions& config_options, const std::string& struct_name,
                              const std::unordered_map<std::string, OptionTypeInfo>* map,
                              const std::string& opt_name, const void* this_offset,
                              const void* that_offset, std::string* mismatch);
  // The info of opt_name in opt_map, also for "struct.member" names (then
  // *elem_name is the member part; else opt_name). Null if none.
  static const OptionTypeInfo* Find(const std::string& opt_name,
                                    const std::unordered_map<std::string, OptionTypeInfo>& opt_map,
                                    std::string* elem_name);
  // The token of opts starting at start and ending at the delimiter (or a
  // balanced "{...}"), trimmed; *end is the delimiter's position
  // (std::string::npos at the end). InvalidArgument for unbalanced braces.
  static Status NextToken(const std::string& opts, char delimiter, size_t start, size_t* end,
                          std::string* token);

  constexpr static const char* kIdPropName() { return "id"; }
  constexpr static const char* kIdPropSuffix() { return ".id"; }

 private:
  int offset_;
  ParseFunc parse_func_;
  SerializeFunc serialize_func_;
  EqualsFunc equals_func_;
  PrepareFunc prepare_func_;
  ValidateFunc validate_func_;
  OptionType type_;
  OptionVerificationType verification_;
  OptionTypeFlags flags_;
};

template <typename T, size_t kSize>
Status ParseArray(const ConfigOptions& config_options, const OptionTypeInfo& elem_info,
                  char separator, const std::string& name, const std::string& value,
                  std::array<T, kSize>* result) {
  ConfigOptions copy = config_options;
  copy.ignore_unsupported_options = false;
  size_t i = 0;
  size_t start = 0;
  size_t end = 0;
  Status s;
  while (s.ok() && i < kSize && start < value.size() && end != std::string::npos) {
    std::string token;
    s = OptionTypeInfo::NextToken(value, separator, start, &end, &token);
    if (s.ok()) s = elem_info.Parse(copy, name, token, &((*result)[i++]));
    if (s.ok() && end != std::string::npos) start = end + 1;
  }
  if (!s.ok()) return s;
  if (i < kSize)
    return Status::InvalidArgument("Serialized value has less elements than array size", name);
  if (start < value.size() && end != std::string::npos) {
    return Status::InvalidArgument("Serialized value has more elements than array size", name);
  }
  return Status::OK();
}

// Elements joined by separator; the whole wrapped in braces when an
// element holds '=' (a nested option string).
template <typename T, size_t kSize>
Status SerializeArray(const ConfigOptions& config_options, const OptionTypeInfo& elem_info,
                      char separator, const std::string& name, const std::array<T, kSize>& vec,
                      std::string* value) {
  std::string joined;
  ConfigOptions embedded = config_options;
  embedded.delimiter = ";";
  for (size_t i = 0; i < kSize; ++i) {
    std::string elem;
    Status s = elem_info.Serialize(embedded, name, &vec[i], &elem);
    if (!s.ok()) return s;
    if (i > 0) joined += separator;
    joined += elem.find('=') != std::string::npos ? "{" + elem + "}" : elem;
  }
  *value = joined.find('=') != std::string::npos ? "{" + joined + "}" : joined;
  return Status::OK();
}

template <typename T, size_t kSize>
bool ArraysAreEqual(const ConfigOptions& config_options, const OptionTypeInfo& elem_info,
                    const std::string& name, const std::array<T, kSize>& array1,
                    const std::array<T, kSize>& array2, std::string* mismatch) {
  for (size_t i = 0; i < kSize; ++i) {
    if (!elem_info.AreEqual(config_options, name, &array1[i], &array2[i], mismatch)) {
      return false;
    }
  }
  return true;
}

template <typename T>
Status ParseVector(const ConfigOptions& config_options, const OptionTypeInfo& elem_info,
                   char separator, const std::string& name, const std::string& value,
                   std::vector<T>* result) {
  result->clear();
  ConfigOptions copy = config_options;
  copy.ignore_unsupported_options = false;
  for (size_t start = 0, end = 0; start < value.size() && end != std::string::npos;
       start = end + 1) {
    std::string token;
    Status s = OptionTypeInfo::NextToken(value, separator, start, &end, &token);
    if (!s.ok()) return s;
    T elem{};
    s = elem_info.Parse(copy, name, token, &elem);
    if (s.ok()) {
      result->push_back(std::move(elem));
    } else if (config_options.ignore_unsupported_options && s.IsNotSupported()) {
      // An element the registry cannot make is skipped, as RocksDB does.
    } else {
      return s;
    }
    if (end == std::string::npos) break;
  }
  return Status::OK();
}

template <typename T>
Status SerializeVector(const ConfigOptions& config_options, const OptionTypeInfo& elem_info,
                       char separator, const std::string& name, const std::vector<T>& vec,
                       std::string* value) {
  std::string joined;
  ConfigOptions embedded = config_options;
  embedded.delimiter = ";";
  for (size_t i = 0; i < vec.size(); ++i) {
    std::string elem;
    Status s = elem_info.Serialize(embedded, name, &vec[i], &elem);
    if (!s.ok()) return s;
    if (i > 0) joined += separator;
    joined += elem.find('=') != std::string::npos ? "{" + elem + "}" : elem;
  }
  *value = joined.find('=') != std::string::npos ? "{" + joined + "}" : joined;
  return Status::OK();
}

template <typename T>
bool VectorsAreEqual(const ConfigOptions& config_options, const OptionTypeInfo& elem_info,
                     const std::string& name, const std::vector<T>& vec1,
                     const std::vector<T>& vec2, std::string* mismatch) {
  if (vec1.size() != vec2.size()) {
    *mismatch = name;
    return false;
  }
  for (size_t i = 0; i < vec1.size(); ++i) {
    if (!elem_info.AreEqual(config_options, name, &vec1[i], &vec2[i], mismatch)) return false;
  }
  return true;
}

}  // namespace rocksdb
