// compat/object_registry.cc: ObjectLibrary and ObjectRegistry
// (rocksdb/utilities/object_registry.h), and ConfigOptions' constructors
// (their registry is ObjectRegistry::Default(), as in RocksDB).
#include "rocksdb/utilities/object_registry.h"

#include <cctype>

#include "rocksdb/convenience.h"
#include "rocksdb/customizable.h"
#include "rocksdb/env.h"
#include "rocksdb/options.h"
#include "strata/env.h"

namespace rocksdb {

ConfigOptions::ConfigOptions() : registry(ObjectRegistry::Default()) {}

ConfigOptions::ConfigOptions(const DBOptions& db_options)
    : env(db_options.env), registry(ObjectRegistry::Default()) {}

namespace {

// target[start, end) is an integer (a leading '-' allowed).
bool IsInteger(const std::string& target, size_t start, size_t end) {
  if (start < end && target[start] == '-') ++start;
  if (start >= end) return false;
  for (size_t i = start; i < end; ++i) {
    if (!isdigit(static_cast<unsigned char>(target[i]))) return false;
  }
  return true;
}

// target[start, end) is a decimal number (one '.' allowed).
bool IsDecimal(const std::string& target, size_t start, size_t end) {
  if (start < end && target[start] == '-') ++start;
  int digits = 0;
  bool point = false;
  for (size_t i = start; i < end; ++i) {
    if (target[i] == '.') {
      if (point) return false;
      point = true;
    } else if (!isdigit(static_cast<unsigned char>(target[i]))) {
      return false;
    } else {
      ++digits;
    }
  }
  return digits > 0;
}

}  // namespace

// Where the text after a separator ends: for kMatchExact the separator must
// come next; otherwise it is searched from start + 1 (at least one
// character of the previous run), and that run is checked for numbers.
size_t ObjectLibrary::PatternEntry::MatchSeparatorAt(size_t start, Quantifier mode,
                                                     const std::string& target, size_t tlen,
                                                     const std::string& separator) const {
  const size_t slen = separator.size();
  if (tlen < start + slen) return std::string::npos;
  if (mode == kMatchExact) {
    return target.compare(start, slen, separator) == 0 ? start + slen : std::string::npos;
  }
  size_t pos = start + 1;
  if (!separator.empty()) pos = target.find(separator, pos);
  if (pos == std::string::npos) return pos;
  if (mode == kMatchInteger && !IsInteger(target, start, pos)) return std::string::npos;
  if (mode == kMatchDecimal && !IsDecimal(target, start, pos)) return std::string::npos;
  return pos + slen;
}

bool ObjectLibrary::PatternEntry::MatchesTarget(const std::string& name, size_t nlen,
                                                const std::string& target, size_t tlen) const {
  if (separators_.empty()) return nlen == tlen && name == target;
  if (nlen == tlen) return optional_ && name == target;
  if (tlen < nlen + slength_) return false;
  if (target.compare(0, nlen, name) != 0) return false;
  // Each separator in turn; the run before it follows the previous
  // separator's quantifier (the first comes right after the name).
  size_t start = nlen;
  Quantifier mode = kMatchExact;
  for (const auto& [separator, quantifier] : separators_) {
    start = MatchSeparatorAt(start, mode, target, tlen, separator);
    if (start == std::string::npos) return false;
    mode = quantifier;
  }
  // The rest of the target is the last run.
  if (mode == kMatchExact) return start == tlen;
  if (start > tlen || (start == tlen && mode != kMatchZeroOrMore)) return false;
  if (mode == kMatchInteger) return IsInteger(target, start, tlen);
  if (mode == kMatchDecimal) return IsDecimal(target, start, tlen);
  return true;
}

bool ObjectLibrary::PatternEntry::Matches(const std::string& target) const {
  const size_t tlen = target.size();
  if (MatchesTarget(name_, nlength_, target, tlen)) return true;
  for (const std::string& alt : names_) {
    if (MatchesTarget(alt, alt.size(), target, tlen)) return true;
  }
  return false;
}

size_t ObjectLibrary::GetFactoryCount(size_t* types) const {
  std::unique_lock<std::mutex> lock(mu_);
  *types = factories_.size();
  size_t n = 0;
  for (const auto& e : factories_) n += e.second.size();
  return n;
}

size_t ObjectLibrary::GetFactoryCount(const std::string& type) const {
  std::unique_lock<std::mutex> lock(mu_);
  auto it = factories_.find(type);
  return it == factories_.end() ? 0 : it->second.size();
}

void ObjectLibrary::GetFactoryNames(const std::string& type,
                                    std::vector<std::string>* names) const {
  std::unique_lock<std::mutex> lock(mu_);
  auto it = factories_.find(type);
  if (it == factories_.end()) return;
  for (const auto& f : it->second) names->push_back(f->Name());
}

void ObjectLibrary::GetFactoryTypes(std::unordered_set<std::string>* types) const {
  std::unique_lock<std::mutex> lock(mu_);
  for (const auto& e : factories_) types->insert(e.first);
}

void ObjectLibrary::Dump(Logger* logger) const {
  std::unique_lock<std::mutex> lock(mu_);
  if (logger == nullptr || factories_.empty()) return;
  ::strata::Log(::strata::InfoLogLevel::kHeader, logger, "    Registered Library: %s\n",
                id_.c_str());
  for (const auto& [type, entries] : factories_) {
    std::string line = "    Registered factories for type[" + type + "] ";
    bool first = true;
    for (const auto& e : entries) {
      line += first ? ": " : ", ";
      line += e->Name();
      first = false;
    }
    ::strata::Log(::strata::InfoLogLevel::kHeader, logger, "%s", line.c_str());
  }
}

std::shared_ptr<ObjectLibrary>& ObjectLibrary::Default() {
  // Never destroyed: objects made from it may outlive static destruction.
  static auto* const instance =
      new std::shared_ptr<ObjectLibrary>(std::make_shared<ObjectLibrary>("default"));
  return *instance;
}

std::unordered_map<std::string, RegistrarFunc> ObjectRegistry::builtins_;

ObjectRegistry::ObjectRegistry(const std::shared_ptr<ObjectLibrary>& library) {
  libraries_.push_back(library);
  for (const auto& [name, func] : builtins_) RegisterPlugin(name, func);
}

std::shared_ptr<ObjectRegistry> ObjectRegistry::Default() {
  static auto* const instance = new std::shared_ptr<ObjectRegistry>(
      std::make_shared<ObjectRegistry>(ObjectLibrary::Default()));
  return *instance;
}

std::shared_ptr<ObjectRegistry> ObjectRegistry::NewInstance() {
  return std::make_shared<ObjectRegistry>(Default());
}

std::shared_ptr<ObjectRegistry> ObjectRegistry::NewInstance(
    const std::shared_ptr<ObjectRegistry>& parent) {
  return std::make_shared<ObjectRegistry>(parent);
}

Status ObjectRegistry::SetManagedObject(const std::string& type, const std::string& id,
                                        const std::shared_ptr<Customizable>& object) {
  const std::string key = ToManagedObjectKey(type, id);
  std::shared_ptr<Customizable> current;
  if (parent_ != nullptr) current = parent_->GetManagedObject(type, id);
  if (current != nullptr) {
    return current == object ? Status::OK()
                             : Status::InvalidArgument("Object already exists: ", key);
  }
  std::unique_lock<std::mutex> lock(objects_mutex_);
  auto it = managed_objects_.find(key);
  if (it != managed_objects_.end()) {
    current = it->second.lock();
    if (current != nullptr && current != object) {
      return Status::InvalidArgument("Object already exists: ", key);
    }
    it->second = object;
  } else {
    managed_objects_[key] = object;
  }
  return Status::OK();
}

std::shared_ptr<Customizable> ObjectRegistry::GetManagedObject(const std::string& type,
                                                               const std::string& id) const {
  {
    std::unique_lock<std::mutex> lock(objects_mutex_);
    auto it = managed_objects_.find(ToManagedObjectKey(type, id));
    if (it != managed_objects_.end()) return it->second.lock();
  }
  return parent_ != nullptr ? parent_->GetManagedObject(type, id) : nullptr;
}

Status ObjectRegistry::ListManagedObjects(
    const std::string& type, const std::string& name,
    std::vector<std::shared_ptr<Customizable>>* results) const {
  {
    const std::string key = ToManagedObjectKey(type, name);
    std::unique_lock<std::mutex> lock(objects_mutex_);
    for (auto it = managed_objects_.lower_bound(key);
         it != managed_objects_.end() && it->first.compare(0, key.size(), key) == 0; ++it) {
      auto shared = it->second.lock();
      if (shared != nullptr && (name.empty() || shared->IsInstanceOf(name))) {
        results->emplace_back(shared);
      }
    }
  }
  return parent_ != nullptr ? parent_->ListManagedObjects(type, name, results) : Status::OK();
}

size_t ObjectRegistry::GetFactoryCount(const std::string& type) const {
  size_t n = parent_ != nullptr ? parent_->GetFactoryCount(type) : 0;
  std::unique_lock<std::mutex> lock(library_mutex_);
  for (const auto& library : libraries_) n += library->GetFactoryCount(type);
  return n;
}

void ObjectRegistry::GetFactoryNames(const std::string& type,
                                     std::vector<std::string>* names) const {
  names->clear();
  if (parent_ != nullptr) parent_->GetFactoryNames(type, names);
  std::unique_lock<std::mutex> lock(library_mutex_);
  for (const auto& library : libraries_) library->GetFactoryNames(type, names);
}

void ObjectRegistry::GetFactoryTypes(std::unordered_set<std::string>* types) const {
  if (parent_ != nullptr) parent_->GetFactoryTypes(types);
  std::unique_lock<std::mutex> lock(library_mutex_);
  for (const auto& library : libraries_) library->GetFactoryTypes(types);
}

void ObjectRegistry::Dump(Logger* logger) const {
  if (logger != nullptr) {
    std::unique_lock<std::mutex> lock(library_mutex_);
    if (!plugins_.empty()) {
      std::string line = "    Registered Plugins:";
      bool first = true;
      for (const std::string& p : plugins_) {
        line += first ? " " : ", ";
        line += p;
        first = false;
      }
      ::strata::Log(::strata::InfoLogLevel::kHeader, logger, "%s", line.c_str());
    }
    for (auto it = libraries_.crbegin(); it != libraries_.crend(); ++it) (*it)->Dump(logger);
  }
  if (parent_ != nullptr) parent_->Dump(logger);
}

int ObjectRegistry::RegisterPlugin(const std::string& name, const RegistrarFunc& func) {
  if (name.empty() || func == nullptr) return -1;
  plugins_.push_back(name);
  return AddLibrary(name)->Register(func, name);
}

}  // namespace rocksdb
