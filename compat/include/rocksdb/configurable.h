// rocksdb/configurable.h: Configurable, RocksDB's base of objects whose
// options can be set from text ("a=1;b={x=2}") or a name -> value map,
// written back as text, listed and compared. An object registers each of
// its option structs with RegisterOptions(name, struct pointer, map of
// option name -> OptionTypeInfo); every call below walks those maps.
//
// In compat this is a self-contained implementation (compat/configurable.cc):
// Strata's own classes (its Cache, Comparator, FilterPolicy, ...) are not
// Configurables; a program's classes deriving from Configurable or
// Customizable work as in RocksDB for the option types options_type.h lists
// as supported.
// Thread-safety: not thread-safe while being configured; const methods may
// be called concurrently.
// Invariant: the registered structs and maps outlive the object.
#pragma once

#include <atomic>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/status.h"

namespace strata {
class Logger;
}  // namespace strata

namespace rocksdb {
using Logger = ::strata::Logger;
class ObjectRegistry;
class OptionTypeInfo;
struct ColumnFamilyOptions;
struct ConfigOptions;
struct DBOptions;

class Configurable {
 protected:
  friend class ConfigurableHelper;
  // One registered options struct.
  struct RegisteredOptions {
    std::string name;  // the struct's name (GetOptions<T>(name) finds it)
    void* opt_ptr;     // the struct
    const std::unordered_map<std::string, OptionTypeInfo>* type_map;
  };

 public:
  virtual ~Configurable() {}

  // The registered struct of type T (named T::kName(), or name); null if
  // none. The pointer is the object's own.
  template <typename T>
  const T* GetOptions() const {
    return GetOptions<T>(T::kName());
  }
  template <typename T>
  T* GetOptions() {
    return GetOptions<T>(T::kName());
  }
  template <typename T>
  const T* GetOptions(const std::string& name) const {
    return reinterpret_cast<const T*>(GetOptionsPtr(name));
  }
  template <typename T>
  T* GetOptions(const std::string& name) {
    return reinterpret_cast<T*>(const_cast<void*>(GetOptionsPtr(name)));
  }

  // Sets the options named in opt_map. An unknown name fails with
  // NotFound ("Could not find option: : <name>") unless
  // config_options.ignore_unknown_options; with `unused`, unknown names are
  // returned there instead. On failure the object keeps its old values.
  // Then PrepareOptions runs if config_options.invoke_prepare_options.
  Status ConfigureFromMap(const ConfigOptions& config_options,
                          const std::unordered_map<std::string, std::string>& opt_map);
  Status ConfigureFromMap(const ConfigOptions& config_options,
                          const std::unordered_map<std::string, std::string>& opt_map,
                          std::unordered_map<std::string, std::string>* unused);
  // Sets one option (no PrepareOptions).
  Status ConfigureOption(const ConfigOptions& config_options, const std::string& name,
                         const std::string& value);
  // ConfigureFromMap of "name=value;..." (a bare value names the id of a
  // Customizable: see Customizable::GetOptionsMap).
  Status ConfigureFromString(const ConfigOptions& config_options, const std::string& opts);

  // The options as "name=value" joined by config_options.delimiter.
  Status GetOptionString(const ConfigOptions& config_options, std::string* result) const;
  std::string ToString(const ConfigOptions& config_options) const {
    return ToString(config_options, "");
  }
  std::string ToString(const ConfigOptions& config_options, const std::string& prefix) const;
  // The names of the registered options.
  Status GetOptionNames(const ConfigOptions& config_options,
                        std::unordered_set<std::string>* result) const;
  // The text of one option; NotFound ("Cannot find option: <name>") if the
  // object has no such option.
  virtual Status GetOption(const ConfigOptions& config_options, const std::string& name,
                           std::string* value) const;

  // True if other has the same registered options with equal values at
  // config_options.sanity_level; else *name is the first that differs.
  virtual bool AreEquivalent(const ConfigOptions& config_options, const Configurable* other,
                             std::string* name) const;

  // A text for the LOG; "" by default.
  virtual std::string GetPrintableOptions() const { return ""; }

  // Readies the object after configuration (prepares its Configurable
  // options and those with a PrepareFunc).
  virtual Status PrepareOptions(const ConfigOptions& config_options);
  // Checks the object against a database's options.
  virtual Status ValidateOptions(const DBOptions& db_opts,
                                 const ColumnFamilyOptions& cf_opts) const;

  // Splits opt_value into an id and options: "X" gives id X; "a=1;id=X"
  // and "{id=X;a=1}" give id X and {a: 1}; default_id when none is named.
  static Status GetOptionsMap(const std::string& opt_value, const std::string& default_id,
                              std::string* id,
                              std::unordered_map<std::string, std::string>* options);

 protected:
  // The registered struct called name, or null.
  virtual const void* GetOptionsPtr(const std::string& name) const;
  virtual Status ParseStringOptions(const ConfigOptions& config_options,
                                    const std::string& opts_str);
  virtual Status ConfigureOptions(const ConfigOptions& config_options,
                                  const std::unordered_map<std::string, std::string>& opts_map,
                                  std::unordered_map<std::string, std::string>* unused);
  virtual Status ParseOption(const ConfigOptions& config_options, const OptionTypeInfo& opt_info,
                             const std::string& opt_name, const std::string& opt_value,
                             void* opt_ptr);
  virtual bool OptionsAreEqual(const ConfigOptions& config_options, const OptionTypeInfo& opt_info,
                               const std::string& name, const void* const this_ptr,
                               const void* const that_ptr, std::string* bad_name) const;
  virtual std::string SerializeOptions(const ConfigOptions& config_options,
                                       const std::string& header) const;
  // The short name of an option ("struct.option" -> as registered).
  virtual std::string GetOptionName(const std::string& long_name) const;

  // Registers the struct at opt_ptr (named T::kName(), or name) described
  // by opt_map. Both must outlive this object.
  template <typename T>
  void RegisterOptions(T* opt_ptr, const std::unordered_map<std::string, OptionTypeInfo>* opt_map) {
    RegisterOptions(T::kName(), opt_ptr, opt_map);
  }
  void RegisterOptions(const std::string& name, void* opt_ptr,
                       const std::unordered_map<std::string, OptionTypeInfo>* opt_map);

  inline bool HasRegisteredOptions() const { return !options_.empty(); }

 private:
  std::vector<RegisteredOptions> options_;
};

}  // namespace rocksdb
