// rocksdb/utilities/object_registry.h: ObjectLibrary, a set of factories
// keyed by the Type() of the base class they make and matched by name or
// pattern; and ObjectRegistry, a stack of libraries (searched newest
// first, then the parent registry) that makes objects by name and keeps
// "managed" shared objects by id.
//
// compat: a self-contained implementation (compat/object_registry.cc).
// ObjectLibrary::Default() and ObjectRegistry::Default() start empty: the
// factories RocksDB registers for its own classes (caches, filter policies,
// Envs, ...) are not there, since those classes are Strata's here; a
// program's own factories work as in RocksDB. Dump writes through Strata's
// Logger.
// Thread-safety: thread-safe (each library and registry locks its state).
// Invariant: a library's entries for a type are searched in the order added.
#pragma once

#include <cassert>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "rocksdb/status.h"

namespace strata {
class Logger;
}  // namespace strata

namespace rocksdb {
class Customizable;
using Logger = ::strata::Logger;
class ObjectLibrary;

// Makes an object for the name it was asked for. An object the caller must
// own is returned in *guard too (and as the result); a static one only as
// the result. On failure: null, and optionally a message in *errmsg.
template <typename T>
using FactoryFunc = std::function<T*(const std::string&, std::unique_ptr<T>*, std::string*)>;

// Adds factories to a library; returns how many (or a negative error).
using RegistrarFunc = std::function<int(ObjectLibrary&, const std::string&)>;

// Configures an object just made.
template <typename T>
using ConfigureFunc = std::function<Status(T*)>;

class ObjectLibrary {
 private:
  class Entry {
   public:
    virtual ~Entry() {}
    virtual bool Matches(const std::string& target) const = 0;
    virtual const char* Name() const = 0;
  };

 public:
  // A name pattern: a name (or one of its alternatives), then separators,
  // each followed by a run of characters that is any text (AddSeparator),
  // a number (AddNumber) or nothing (AddSuffix). With optional (the
  // default) the bare name matches too.
  // E.g. PatternEntry("A").AddSeparator("://") matches "A" and "A://x";
  // PatternEntry("B", false).AddNumber(":") matches "B:12" only.
  class PatternEntry : public Entry {
   private:
    enum Quantifier {
      kMatchZeroOrMore,  // any text, possibly empty
      kMatchAtLeastOne,  // at least one character
      kMatchExact,       // nothing
      kMatchInteger,     // an integer (leading '-' allowed)
      kMatchDecimal,     // a decimal number (one '.' allowed)
    };

   public:
    // The pattern of an individual id: "name", "name@x", "name@x#y".
    static PatternEntry AsIndividualId(const std::string& name) {
      PatternEntry entry(name, true);
      entry.AddSeparator("@");
      entry.AddSeparator("#");
      return entry;
    }

    explicit PatternEntry(const std::string& name, bool optional = true)
        : name_(name), optional_(optional), slength_(0) {
      nlength_ = name_.size();
    }

    // The text must continue with exactly suffix.
    PatternEntry& AddSuffix(const std::string& suffix) {
      separators_.emplace_back(suffix, kMatchExact);
      slength_ += suffix.size();
      return *this;
    }

    // separator, then at least one character (or any, possibly none).
    PatternEntry& AddSeparator(const std::string& separator, bool at_least_one = true) {
      slength_ += separator.size();
      if (at_least_one) {
        separators_.emplace_back(separator, kMatchAtLeastOne);
        ++slength_;
      } else {
        separators_.emplace_back(separator, kMatchZeroOrMore);
      }
      return *this;
    }

    // separator, then an integer (or a decimal number).
    PatternEntry& AddNumber(const std::string& separator, bool is_int = true) {
      separators_.emplace_back(separator, is_int ? kMatchInteger : kMatchDecimal);
      slength_ += separator.size() + 1;
      return *this;
    }

    // Another name the pattern may start with.
    PatternEntry& AnotherName(const std::string& alt) {
      names_.emplace_back(alt);
      return *this;
    }

    // Whether the bare name matches.
    PatternEntry& SetOptional(bool optional) {
      optional_ = optional;
      return *this;
    }

    bool Matches(const std::string& target) const override;
    const char* Name() const override { return name_.c_str(); }

   private:
    size_t MatchSeparatorAt(size_t start, Quantifier mode, const std::string& target, size_t tlen,
                            const std::string& pattern) const;
    bool MatchesTarget(const std::string& name, size_t nlen, const std::string& target,
                       size_t ylen) const;
    std::string name_;
    size_t nlength_;
    std::vector<std::string> names_;
    bool optional_;
    size_t slength_;  // the least length the separators need
    std::vector<std::pair<std::string, Quantifier>> separators_;
  };

 private:
  // A pattern with the factory it selects.
  template <typename T>
  class FactoryEntry : public Entry {
   public:
    FactoryEntry(Entry* e, FactoryFunc<T> f) : entry_(e), factory_(std::move(f)) {}
    bool Matches(const std::string& target) const override { return entry_->Matches(target); }
    const char* Name() const override { return entry_->Name(); }
    T* NewFactoryObject(const std::string& target, std::unique_ptr<T>* guard,
                        std::string* msg) const {
      return factory_(target, guard, msg);
    }
    const FactoryFunc<T>& GetFactory() const { return factory_; }

   private:
    std::unique_ptr<Entry> entry_;
    FactoryFunc<T> factory_;
  };

 public:
  explicit ObjectLibrary(const std::string& id) { id_ = id; }

  const std::string& GetID() const { return id_; }

  // The first factory of T::Type() whose pattern matches target; null if
  // none.
  template <typename T>
  FactoryFunc<T> FindFactory(const std::string& target) const {
    std::unique_lock<std::mutex> lock(mu_);
    auto factories = factories_.find(T::Type());
    if (factories != factories_.end()) {
      for (const auto& e : factories->second) {
        if (e->Matches(target)) {
          return static_cast<const FactoryEntry<T>*>(e.get())->GetFactory();
        }
      }
    }
    return nullptr;
  }

  // The number of factories (and, in *num_types, of types).
  size_t GetFactoryCount(size_t* num_types) const;
  size_t GetFactoryCount(const std::string& type) const;
  // Appends the names of the factories of type.
  void GetFactoryNames(const std::string& type, std::vector<std::string>* names) const;
  void GetFactoryTypes(std::unordered_set<std::string>* types) const;
  // Writes the library's factories to logger.
  void Dump(Logger* logger) const;

  // Adds a factory for objects of T::Type() called name (or matching entry).
  template <typename T>
  const FactoryFunc<T>& AddFactory(const std::string& name, const FactoryFunc<T>& func) {
    std::unique_ptr<Entry> entry(new FactoryEntry<T>(new PatternEntry(name), func));
    AddFactoryEntry(T::Type(), std::move(entry));
    return func;
  }
  template <typename T>
  const FactoryFunc<T>& AddFactory(const PatternEntry& entry, const FactoryFunc<T>& func) {
    std::unique_ptr<Entry> factory(new FactoryEntry<T>(new PatternEntry(entry), func));
    AddFactoryEntry(T::Type(), std::move(factory));
    return func;
  }

  // Runs registrar on this library.
  int Register(const RegistrarFunc& registrar, const std::string& arg) {
    return registrar(*this, arg);
  }

  // The process-wide library (never destroyed).
  static std::shared_ptr<ObjectLibrary>& Default();

 private:
  void AddFactoryEntry(const char* type, std::unique_ptr<Entry>&& entry) {
    std::unique_lock<std::mutex> lock(mu_);
    factories_[type].emplace_back(std::move(entry));
  }

  mutable std::mutex mu_;
  std::unordered_map<std::string, std::vector<std::unique_ptr<Entry>>> factories_;
  std::string id_;
};

class ObjectRegistry {
 public:
  // A registry over Default().
  static std::shared_ptr<ObjectRegistry> NewInstance();
  // A registry over parent.
  static std::shared_ptr<ObjectRegistry> NewInstance(const std::shared_ptr<ObjectRegistry>& parent);
  // The process-wide registry, over ObjectLibrary::Default() (never
  // destroyed).
  static std::shared_ptr<ObjectRegistry> Default();

  explicit ObjectRegistry(const std::shared_ptr<ObjectRegistry>& parent) : parent_(parent) {}
  explicit ObjectRegistry(const std::shared_ptr<ObjectLibrary>& library);

  // Adds a new library (searched before the earlier ones) and returns it.
  std::shared_ptr<ObjectLibrary> AddLibrary(const std::string& id) {
    auto library = std::make_shared<ObjectLibrary>(id);
    AddLibrary(library);
    return library;
  }
  void AddLibrary(const std::shared_ptr<ObjectLibrary>& library) {
    std::unique_lock<std::mutex> lock(library_mutex_);
    libraries_.push_back(library);
  }
  void AddLibrary(const std::string& id, const RegistrarFunc& registrar, const std::string& arg) {
    auto library = AddLibrary(id);
    library->Register(registrar, arg);
  }

  // Makes the object target names with the first matching factory of
  // T::Type(). NotSupported ("Could not load <Type>: <target>") if no
  // factory matches; InvalidArgument if the factory fails.
  template <typename T>
  Status NewObject(const std::string& target, T** object, std::unique_ptr<T>* guard) {
    assert(guard != nullptr);
    guard->reset();
    auto factory = FindFactory<T>(target);
    if (factory == nullptr) {
      return Status::NotSupported(std::string("Could not load ") + T::Type(), target);
    }
    std::string errmsg;
    *object = factory(target, guard, &errmsg);
    if (*object != nullptr) return Status::OK();
    if (errmsg.empty()) {
      return Status::InvalidArgument(std::string("Could not load ") + T::Type(), target);
    }
    return Status::InvalidArgument(errmsg, target);
  }

  // As NewObject, for a factory that gives an owned object.
  template <typename T>
  Status NewUniqueObject(const std::string& target, std::unique_ptr<T>* result) {
    T* ptr = nullptr;
    std::unique_ptr<T> guard;
    Status s = NewObject(target, &ptr, &guard);
    if (!s.ok()) return s;
    if (!guard) {
      return Status::InvalidArgument(
          std::string("Cannot make a unique ") + T::Type() + " from unguarded one ", target);
    }
    result->reset(guard.release());
    return Status::OK();
  }

  template <typename T>
  Status NewSharedObject(const std::string& target, std::shared_ptr<T>* result) {
    T* ptr = nullptr;
    std::unique_ptr<T> guard;
    Status s = NewObject(target, &ptr, &guard);
    if (!s.ok()) return s;
    if (!guard) {
      return Status::InvalidArgument(
          std::string("Cannot make a shared ") + T::Type() + " from unguarded one ", target);
    }
    result->reset(guard.release());
    return Status::OK();
  }

  // As NewObject, for a factory that gives a static (unowned) object.
  template <typename T>
  Status NewStaticObject(const std::string& target, T** result) {
    T* ptr = nullptr;
    std::unique_ptr<T> guard;
    Status s = NewObject(target, &ptr, &guard);
    if (!s.ok()) return s;
    if (guard) {
      return Status::InvalidArgument(
          std::string("Cannot make a static ") + T::Type() + " from a guarded one ", target);
    }
    *result = ptr;
    return Status::OK();
  }

  // Keeps object (weakly) under its id; InvalidArgument ("Object already
  // exists: ") if another live object has that id here or in a parent.
  template <typename T>
  Status SetManagedObject(const std::shared_ptr<T>& object) {
    assert(object != nullptr);
    return SetManagedObject(object->GetId(), object);
  }
  template <typename T>
  Status SetManagedObject(const std::string& id, const std::shared_ptr<T>& object) {
    const auto c = std::static_pointer_cast<Customizable>(object);
    return SetManagedObject(T::Type(), id, c);
  }

  // The live managed object of type T with id (here or in a parent); null
  // if none.
  template <typename T>
  std::shared_ptr<T> GetManagedObject(const std::string& id) const {
    auto c = GetManagedObject(T::Type(), id);
    return std::static_pointer_cast<T>(c);
  }

  // The live managed objects of type T whose id starts with id.
  template <typename T>
  Status ListManagedObjects(const std::string& id, std::vector<std::shared_ptr<T>>* results) const {
    std::vector<std::shared_ptr<Customizable>> customizables;
    results->clear();
    Status s = ListManagedObjects(T::Type(), id, &customizables);
    if (s.ok()) {
      for (const auto& c : customizables) results->push_back(std::static_pointer_cast<T>(c));
    }
    return s;
  }
  template <typename T>
  Status ListManagedObjects(std::vector<std::shared_ptr<T>>* results) const {
    return ListManagedObjects("", results);
  }

  // The managed object with id, made (NewSharedObject(id), then cfunc) and
  // kept if there is none.
  template <typename T>
  Status GetOrCreateManagedObject(const std::string& id, std::shared_ptr<T>* result,
                                  const ConfigureFunc<T>& cfunc = nullptr) {
    if (parent_ != nullptr) {
      auto object = parent_->GetManagedObject(T::Type(), id);
      if (object != nullptr) {
        *result = std::static_pointer_cast<T>(object);
        return Status::OK();
      }
    }
    std::unique_lock<std::mutex> lock(objects_mutex_);
    auto key = ToManagedObjectKey(T::Type(), id);
    auto it = managed_objects_.find(key);
    if (it != managed_objects_.end()) {
      auto object = it->second.lock();
      if (object != nullptr) {
        *result = std::static_pointer_cast<T>(object);
        return Status::OK();
      }
    }
    std::shared_ptr<T> object;
    Status s = NewSharedObject(id, &object);
    if (s.ok() && cfunc != nullptr) s = cfunc(object.get());
    if (s.ok()) {
      auto c = std::static_pointer_cast<Customizable>(object);
      if (id != c->Name()) managed_objects_[key] = c;
      if (id != c->GetId() && c->GetId() != c->Name()) {
        managed_objects_[ToManagedObjectKey(T::Type(), c->GetId())] = c;
      }
      *result = object;
    }
    return s;
  }

  // Over this registry and its parents.
  size_t GetFactoryCount(const std::string& type) const;
  void GetFactoryNames(const std::string& type, std::vector<std::string>* names) const;
  void GetFactoryTypes(std::unordered_set<std::string>* types) const;
  void Dump(Logger* logger) const;

  // Adds a library called name filled by func; returns func's answer, or
  // -1 for an empty name or null func.
  int RegisterPlugin(const std::string& name, const RegistrarFunc& func);

 private:
  static std::string ToManagedObjectKey(const std::string& type, const std::string& id) {
    return type + "://" + id;
  }

  std::shared_ptr<Customizable> GetManagedObject(const std::string& type,
                                                 const std::string& id) const;
  Status ListManagedObjects(const std::string& type, const std::string& pattern,
                            std::vector<std::shared_ptr<Customizable>>* results) const;
  Status SetManagedObject(const std::string& type, const std::string& id,
                          const std::shared_ptr<Customizable>& c);

  template <typename T>
  const FactoryFunc<T> FindFactory(const std::string& name) const {
    {
      std::unique_lock<std::mutex> lock(library_mutex_);
      for (auto it = libraries_.crbegin(); it != libraries_.crend(); ++it) {
        const auto factory = it->get()->FindFactory<T>(name);
        if (factory != nullptr) return factory;
      }
    }
    return parent_ == nullptr ? nullptr : parent_->FindFactory<T>(name);
  }

  std::vector<std::shared_ptr<ObjectLibrary>> libraries_;
  std::vector<std::string> plugins_;
  static std::unordered_map<std::string, RegistrarFunc> builtins_;
  std::map<std::string, std::weak_ptr<Customizable>> managed_objects_;
  std::shared_ptr<ObjectRegistry> parent_;
  mutable std::mutex objects_mutex_;  // guards managed_objects_
  mutable std::mutex library_mutex_;  // guards libraries_ and plugins_
};

}  // namespace rocksdb
