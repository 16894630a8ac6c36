// rocksdb/customizable.h: Customizable, a Configurable with a name, made
// by name through an ObjectRegistry. A base class declares
// `static const char* Type()` (the registry's key for its factories) and
// usually `static Status CreateFromString(const ConfigOptions&, const
// std::string& id, std::shared_ptr<Base>*)` built with
// rocksdb/utilities/customizable_util.h; each implementation declares
// `static const char* kClassName()` and returns it from Name().
// An object is written "id" or "{id=Name;option=value;...}".
//
// compat: a self-contained implementation (compat/customizable.cc). RocksDB's
// own classes that derive from Customizable there (Cache, Comparator,
// FilterPolicy, MergeOperator, TableFactory, ...) are Strata's classes here
// and are not Customizables: CheckedCast and the registry apply to a
// program's own Customizable classes, and to Env, FileSystem, SystemClock
// and CompactionService, which are RocksDB's classes here too.
// Thread-safety: as Configurable.
#pragma once

#include <string>
#include <unordered_map>

#include "rocksdb/configurable.h"
#include "rocksdb/status.h"

namespace rocksdb {

class Customizable : public Configurable {
 public:
  ~Customizable() override {}

  // The name of the implementation (usually its kClassName()).
  virtual const char* Name() const = 0;

  // The name this instance is made and written under; Name() by default.
  virtual std::string GetId() const {
    std::string id = Name();
    return id;
  }

  // True if name is Name() or NickName() (an implementation that extends
  // another may answer for its base's name too).
  virtual bool IsInstanceOf(const std::string& name) const {
    if (name.empty()) return false;
    if (name == Name()) return true;
    const char* nickname = NickName();
    return nickname != nullptr && name == nickname;
  }

  const void* GetOptionsPtr(const std::string& name) const override {
    const void* ptr = Configurable::GetOptionsPtr(name);
    if (ptr != nullptr) return ptr;
    const auto inner = Inner();
    return inner != nullptr ? inner->GetOptionsPtr(name) : nullptr;
  }

  // This object as a T if it is an instance of T::kClassName(), else the
  // wrapped object's answer (Inner()), else null.
  template <typename T>
  const T* CheckedCast() const {
    if (IsInstanceOf(T::kClassName())) return static_cast<const T*>(this);
    const auto inner = Inner();
    return inner != nullptr ? inner->CheckedCast<T>() : nullptr;
  }
  template <typename T>
  T* CheckedCast() {
    if (IsInstanceOf(T::kClassName())) return static_cast<T*>(this);
    auto inner = const_cast<Customizable*>(Inner());
    return inner != nullptr ? inner->CheckedCast<T>() : nullptr;
  }

  // Equivalent if the other is a Customizable with the same id and equal
  // options (at the options' sanity level).
  bool AreEquivalent(const ConfigOptions& config_options, const Configurable* other,
                     std::string* mismatch) const override;
  // "id" answers GetId(); other names as Configurable.
  Status GetOption(const ConfigOptions& config_options, const std::string& name,
                   std::string* value) const override;

  // Splits opt_value into the id and the options of the object to make;
  // without an id in the text, custom's id (when custom is given) applies.
  static Status GetOptionsMap(const ConfigOptions& config_options, const Customizable* custom,
                              const std::string& opt_value, std::string* id,
                              std::unordered_map<std::string, std::string>* options);
  // Configures a newly made object with options (null object with options:
  // InvalidArgument "Cannot configure null object ").
  static Status ConfigureNewObject(const ConfigOptions& config_options, Customizable* object,
                                   const std::unordered_map<std::string, std::string>& options);

  // The object this one wraps, if any.
  virtual const Customizable* Inner() const { return nullptr; }

 protected:
  // "<Name()>@<address>#<process id>": an id no other live object has.
  std::string GenerateIndividualId() const;
  // Another name the implementation answers to; "" for none.
  virtual const char* NickName() const { return ""; }
  std::string GetOptionName(const std::string& long_name) const override;
  std::string SerializeOptions(const ConfigOptions& options,
                               const std::string& prefix) const override;
};

}  // namespace rocksdb
