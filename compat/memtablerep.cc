// rocksdb/memtablerep.h over Strata: the factories are names Open checks
// (options_convert.cc accepts a SkipListFactory, refuses the others); no
// MemTableRep is ever created. See the header.
#include "rocksdb/memtablerep.h"

#include <cstdlib>
#include <memory>
#include <string>

#include "rocksdb/convenience.h"

namespace rocksdb {

Slice GetLengthPrefixedSlice(const char* data) {
  // A varint32 of at most 5 bytes; the caller vouches for the bytes.
  uint32_t len = 0;
  const unsigned char* p = reinterpret_cast<const unsigned char*>(data);
  for (int shift = 0; shift <= 28; shift += 7, ++p) {
    len |= static_cast<uint32_t>(*p & 0x7f) << shift;
    if ((*p & 0x80) == 0) {
      ++p;
      break;
    }
  }
  return Slice(reinterpret_cast<const char*>(p), len);
}

KeyHandle MemTableRep::Allocate(const size_t /*len*/, char** buf) {
  *buf = nullptr;
  return nullptr;
}

void MemTableRep::InsertConcurrently(KeyHandle handle) { Insert(handle); }

void MemTableRep::Get(const LookupKey& /*k*/, void* /*callback_args*/,
                      bool (* /*callback_func*/)(void* arg, const char* entry)) {}

Slice MemTableRep::UserKey(const char* key) const {
  Slice slice = GetLengthPrefixedSlice(key);
  return Slice(slice.data(), slice.size() >= 8 ? slice.size() - 8 : 0);
}

SkipListFactory::SkipListFactory(size_t lookahead) : lookahead_(lookahead) {}

std::string SkipListFactory::GetId() const {
  return std::string(Name()) + ":" + std::to_string(lookahead_);
}

MemTableRep* SkipListFactory::CreateMemTableRep(const MemTableRep::KeyComparator&, Allocator*,
                                                const SliceTransform*, Logger* /*logger*/) {
  return nullptr;
}

VectorRepFactory::VectorRepFactory(size_t count) : count_(count) {}

MemTableRep* VectorRepFactory::CreateMemTableRep(const MemTableRep::KeyComparator&, Allocator*,
                                                 const SliceTransform*, Logger* /*logger*/) {
  (void)count_;
  return nullptr;
}

namespace {

// The hash-based factories: a name for Open to refuse.
class NamedRepFactory final : public MemTableRepFactory {
 public:
  NamedRepFactory(const char* name, const char* nick) : name_(name), nick_(nick) {}
  using MemTableRepFactory::CreateMemTableRep;
  MemTableRep* CreateMemTableRep(const MemTableRep::KeyComparator&, Allocator*,
                                 const SliceTransform*, Logger* /*logger*/) override {
    return nullptr;
  }
  const char* Name() const override { return name_; }
  const char* NickName() const override { return nick_; }

 private:
  const char* const name_;
  const char* const nick_;
};

// The factory an id names, or nullptr (with *ok = false) if none.
MemTableRepFactory* FactoryFromId(const std::string& id, bool* ok) {
  *ok = true;
  const size_t colon = id.find(':');
  const std::string name = id.substr(0, colon);
  const size_t arg =
      colon == std::string::npos ? 0 : std::strtoull(id.c_str() + colon + 1, nullptr, 10);
  if (name == "skip_list" || name == "SkipListFactory") return new SkipListFactory(arg);
  if (name == "vector" || name == "VectorRepFactory") return new VectorRepFactory(arg);
  if (name == "prefix_hash" || name == "HashSkipListRepFactory") {
    return NewHashSkipListRepFactory();
  }
  if (name == "hash_linkedlist" || name == "HashLinkListRepFactory") {
    return NewHashLinkListRepFactory();
  }
  *ok = false;
  return nullptr;
}

}  // namespace

Status MemTableRepFactory::CreateFromString(const ConfigOptions& /*config_options*/,
                                            const std::string& id,
                                            std::unique_ptr<MemTableRepFactory>* factory) {
  if (id.empty() || id == "nullptr") {
    factory->reset();
    return Status::OK();
  }
  bool ok = false;
  std::unique_ptr<MemTableRepFactory> f(FactoryFromId(id, &ok));
  if (!ok) return Status::NotSupported("MemTableRepFactory " + id + " is not supported by Strata");
  *factory = std::move(f);
  return Status::OK();
}

Status MemTableRepFactory::CreateFromString(const ConfigOptions& config_options,
                                            const std::string& id,
                                            std::shared_ptr<MemTableRepFactory>* factory) {
  std::unique_ptr<MemTableRepFactory> f;
  Status s = CreateFromString(config_options, id, &f);
  if (s.ok()) *factory = std::move(f);
  return s;
}

MemTableRepFactory* NewHashSkipListRepFactory(size_t /*bucket_count*/, int32_t /*skiplist_height*/,
                                              int32_t /*skiplist_branching_factor*/) {
  return new NamedRepFactory("HashSkipListRepFactory", "prefix_hash");
}

MemTableRepFactory* NewHashLinkListRepFactory(size_t /*bucket_count*/,
                                              size_t /*huge_page_tlb_size*/,
                                              int /*bucket_entries_logging_threshold*/,
                                              bool /*if_log_bucket_dist_when_flash*/,
                                              uint32_t /*threshold_use_skiplist*/) {
  return new NamedRepFactory("HashLinkListRepFactory", "hash_linkedlist");
}

}  // namespace rocksdb
