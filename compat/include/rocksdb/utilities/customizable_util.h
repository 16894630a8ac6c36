// rocksdb/utilities/customizable_util.h: the helpers a Customizable base
// class's CreateFromString is written with. Each Load* takes the text of
// an object ("Name", "{id=Name;opt=value}", "id=Name;opt=value", or ""
// for none), tries the program's own func first (true: it made the
// object), else makes the object through config_options.registry, then
// configures it with the remaining options. With
// config_options.ignore_unsupported_options a name no factory knows is not
// an error (the result is left as it was).
// Thread-safety: as the registry and the objects made.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <unordered_map>

#include "rocksdb/convenience.h"
#include "rocksdb/customizable.h"
#include "rocksdb/status.h"
#include "rocksdb/utilities/object_registry.h"

namespace rocksdb {

// Makes a built-in object for id into *result; false if id is not one.
template <typename T>
using SharedFactoryFunc = std::function<bool(const std::string&, std::shared_ptr<T>*)>;
template <typename T>
using UniqueFactoryFunc = std::function<bool(const std::string&, std::unique_ptr<T>*)>;
template <typename T>
using StaticFactoryFunc = std::function<bool(const std::string&, T**)>;

// Makes the object id names through the registry and configures it with
// opt_map; an empty id with no options resets *result ("Cannot reset
// object " with options).
template <typename T>
static Status NewSharedObject(const ConfigOptions& config_options, const std::string& id,
                              const std::unordered_map<std::string, std::string>& opt_map,
                              std::shared_ptr<T>* result) {
  if (id.empty()) {
    if (!opt_map.empty()) return Status::NotSupported("Cannot reset object ");
    result->reset();
    return Status::OK();
  }
  Status s = config_options.registry->NewSharedObject(id, result);
  if (config_options.ignore_unsupported_options && s.IsNotSupported()) return Status::OK();
  if (s.ok()) s = Customizable::ConfigureNewObject(config_options, result->get(), opt_map);
  return s;
}

// As NewSharedObject, through the registry's managed objects (one object
// per id, shared by every caller while it lives).
template <typename T>
static Status NewManagedObject(const ConfigOptions& config_options, const std::string& id,
                               const std::unordered_map<std::string, std::string>& opt_map,
                               std::shared_ptr<T>* result) {
  if (id.empty()) return Status::NotSupported("Cannot reset object ");
  Status s = config_options.registry->GetOrCreateManagedObject<T>(
      id, result, [config_options, opt_map](T* object) {
        return object->ConfigureFromMap(config_options, opt_map);
      });
  if (config_options.ignore_unsupported_options && s.IsNotSupported()) return Status::OK();
  return s;
}

template <typename T>
static Status LoadSharedObject(const ConfigOptions& config_options, const std::string& value,
                               const SharedFactoryFunc<T>& func, std::shared_ptr<T>* result) {
  std::string id;
  std::unordered_map<std::string, std::string> opt_map;
  Status s = Customizable::GetOptionsMap(config_options, result->get(), value, &id, &opt_map);
  if (!s.ok()) return s;
  if (func == nullptr || !func(id, result)) {
    return NewSharedObject(config_options, id, opt_map, result);
  }
  return Customizable::ConfigureNewObject(config_options, result->get(), opt_map);
}

template <typename T>
static Status LoadManagedObject(const ConfigOptions& config_options, const std::string& value,
                                std::shared_ptr<T>* result) {
  std::string id;
  std::unordered_map<std::string, std::string> opt_map;
  Status s = Customizable::GetOptionsMap(config_options, nullptr, value, &id, &opt_map);
  if (!s.ok()) return s;
  if (value.empty()) {
    *result = nullptr;
    return Status::OK();
  }
  return NewManagedObject(config_options, id, opt_map, result);
}

template <typename T>
static Status NewUniqueObject(const ConfigOptions& config_options, const std::string& id,
                              const std::unordered_map<std::string, std::string>& opt_map,
                              std::unique_ptr<T>* result) {
  if (id.empty()) {
    if (!opt_map.empty()) return Status::NotSupported("Cannot reset object ");
    result->reset();
    return Status::OK();
  }
  Status s = config_options.registry->NewUniqueObject(id, result);
  if (config_options.ignore_unsupported_options && s.IsNotSupported()) return Status::OK();
  if (s.ok()) s = Customizable::ConfigureNewObject(config_options, result->get(), opt_map);
  return s;
}

template <typename T>
static Status LoadUniqueObject(const ConfigOptions& config_options, const std::string& value,
                               const UniqueFactoryFunc<T>& func, std::unique_ptr<T>* result) {
  std::string id;
  std::unordered_map<std::string, std::string> opt_map;
  Status s = Customizable::GetOptionsMap(config_options, result->get(), value, &id, &opt_map);
  if (!s.ok()) return s;
  if (func == nullptr || !func(id, result)) {
    return NewUniqueObject(config_options, id, opt_map, result);
  }
  return Customizable::ConfigureNewObject(config_options, result->get(), opt_map);
}

template <typename T>
static Status NewStaticObject(const ConfigOptions& config_options, const std::string& id,
                              const std::unordered_map<std::string, std::string>& opt_map,
                              T** result) {
  if (id.empty()) {
    if (!opt_map.empty()) return Status::NotSupported("Cannot reset object ");
    *result = nullptr;
    return Status::OK();
  }
  Status s = config_options.registry->NewStaticObject(id, result);
  if (config_options.ignore_unsupported_options && s.IsNotSupported()) return Status::OK();
  if (s.ok()) s = Customizable::ConfigureNewObject(config_options, *result, opt_map);
  return s;
}

template <typename T>
static Status LoadStaticObject(const ConfigOptions& config_options, const std::string& value,
                               const StaticFactoryFunc<T>& func, T** result) {
  std::string id;
  std::unordered_map<std::string, std::string> opt_map;
  Status s = Customizable::GetOptionsMap(config_options, *result, value, &id, &opt_map);
  if (!s.ok()) return s;
  if (func == nullptr || !func(id, result)) {
    return NewStaticObject(config_options, id, opt_map, result);
  }
  return Customizable::ConfigureNewObject(config_options, *result, opt_map);
}

}  // namespace rocksdb
