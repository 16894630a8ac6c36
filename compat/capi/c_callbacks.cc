// c_callbacks.cc: user callbacks (rocksdb/c.h): comparators, merge
// operators, compaction filters and their factories, slice transforms.
//
// Each handle is a subclass of the RocksDB interface it implements and
// calls the C function pointers given at creation, with the opaque `state`
// first. When the C++ side releases the object, the user's destructor is
// called with `state`. Who releases what is set out in c_internal.h.
#include "compat/capi/c_callbacks.h"

// ---- compaction filters ----

rocksdb_compactionfilter_t::~rocksdb_compactionfilter_t() {
  if (destructor != nullptr) destructor(state);
}

bool rocksdb_compactionfilter_t::Filter(int level, const rocksdb::Slice& key,
                                        const rocksdb::Slice& existing_value,
                                        std::string* new_value, bool* value_changed) const {
  char* changed_value = nullptr;
  size_t changed_length = 0;
  unsigned char changed = 0;
  unsigned char remove = filter(state, level, key.data(), key.size(), existing_value.data(),
                                existing_value.size(), &changed_value, &changed_length, &changed);
  if (changed) {
    // The new value stays owned by the callback (RocksDB's C API does not
    // free it either).
    new_value->assign(changed_value, changed_length);
    *value_changed = true;
  }
  return remove != 0;
}

const char* rocksdb_compactionfilter_t::Name() const { return name(state); }

rocksdb_compactionfilterfactory_t::~rocksdb_compactionfilterfactory_t() {
  if (destructor != nullptr) destructor(state);
}

std::unique_ptr<rocksdb::CompactionFilter>
rocksdb_compactionfilterfactory_t::CreateCompactionFilter(
    const rocksdb::CompactionFilter::Context& context) {
  rocksdb_compactionfiltercontext_t c_context;
  c_context.rep = context;
  return std::unique_ptr<rocksdb::CompactionFilter>(create(state, &c_context));
}

const char* rocksdb_compactionfilterfactory_t::Name() const { return name(state); }

// ---- comparators ----

namespace {

// Orders keys with the user's compare function.
class CComparator : public rocksdb::Comparator {
 public:
  CComparator(void* state, void (*destructor)(void*),
              int (*compare)(void*, const char*, size_t, const char*, size_t),
              const char* (*name)(void*))
      : state_(state), destructor_(destructor), compare_(compare), name_(name) {}
  ~CComparator() override {
    if (destructor_ != nullptr) destructor_(state_);
  }
  int Compare(const rocksdb::Slice& a, const rocksdb::Slice& b) const override {
    return compare_(state_, a.data(), a.size(), b.data(), b.size());
  }
  const char* Name() const override { return name_(state_); }
  // A C comparator cannot shorten keys; leaving them whole is always valid.
  void FindShortestSeparator(std::string*, const rocksdb::Slice&) const override {}
  void FindShortSuccessor(std::string*) const override {}

 private:
  void* state_;
  void (*destructor_)(void*);
  int (*compare_)(void*, const char*, size_t, const char*, size_t);
  const char* (*name_)(void*);
};

}  // namespace

// ---- merge operators ----

rocksdb_mergeoperator_t::~rocksdb_mergeoperator_t() {
  if (destructor != nullptr) destructor(state);
}

namespace {

// Hands the callback's result to `out` and releases it the way the caller
// asked: through delete_value when given, else with free().
void TakeResult(const rocksdb_mergeoperator_t* op, char* result, size_t len, std::string* out) {
  if (result != nullptr) out->assign(result, len);
  if (op->delete_value != nullptr) {
    op->delete_value(op->state, result, len);
  } else {
    free(result);
  }
}

}  // namespace

bool rocksdb_mergeoperator_t::FullMergeV2(const MergeOperationInput& in,
                                          MergeOperationOutput* out) const {
  std::vector<const char*> ptrs;
  std::vector<size_t> lens;
  for (const rocksdb::Slice& operand : in.operand_list) {
    ptrs.push_back(operand.data());
    lens.push_back(operand.size());
  }
  const char* existing = nullptr;
  size_t existing_len = 0;
  if (in.existing_value != nullptr) {
    existing = in.existing_value->data();
    existing_len = in.existing_value->size();
  }
  unsigned char success = 0;
  size_t new_len = 0;
  char* result =
      full_merge(state, in.key.data(), in.key.size(), existing, existing_len, ptrs.data(),
                 lens.data(), static_cast<int>(ptrs.size()), &success, &new_len);
  TakeResult(this, result, new_len, &out->new_value);
  return success != 0;
}

bool rocksdb_mergeoperator_t::PartialMergeMulti(const rocksdb::Slice& key,
                                                const std::deque<rocksdb::Slice>& operands,
                                                std::string* new_value,
                                                rocksdb::Logger* logger) const {
  if (partial_merge == nullptr) return false;
  std::vector<const char*> ptrs;
  std::vector<size_t> lens;
  for (const rocksdb::Slice& operand : operands) {
    ptrs.push_back(operand.data());
    lens.push_back(operand.size());
  }
  unsigned char success = 0;
  size_t new_len = 0;
  char* result = partial_merge(state, key.data(), key.size(), ptrs.data(), lens.data(),
                               static_cast<int>(ptrs.size()), &success, &new_len);
  TakeResult(this, result, new_len, new_value);
  return success != 0;
}

const char* rocksdb_mergeoperator_t::Name() const { return name(state); }

// ---- slice transforms ----

rocksdb_slicetransform_t::~rocksdb_slicetransform_t() {
  if (destructor != nullptr) destructor(state);
}

const char* rocksdb_slicetransform_t::Name() const {
  return builtin != nullptr ? builtin->Name() : name(state);
}

rocksdb::Slice rocksdb_slicetransform_t::Transform(const rocksdb::Slice& src) const {
  if (builtin != nullptr) return builtin->Transform(src);
  size_t len = 0;
  char* dst = transform(state, src.data(), src.size(), &len);
  return rocksdb::Slice(dst, len);
}

bool rocksdb_slicetransform_t::InDomain(const rocksdb::Slice& src) const {
  if (builtin != nullptr) return builtin->InDomain(src);
  return in_domain(state, src.data(), src.size()) != 0;
}

bool rocksdb_slicetransform_t::InRange(const rocksdb::Slice& src) const {
  if (builtin != nullptr) return builtin->InRange(src);
  return in_range != nullptr && in_range(state, src.data(), src.size()) != 0;
}

namespace strata_capi {

const rocksdb::Comparator* ComparatorOf(rocksdb_comparator_t* cmp) {
  return cmp != nullptr ? cmp->rep.get() : rocksdb::BytewiseComparator();
}

const rocksdb::CompactionFilter* CompactionFilterOf(rocksdb_compactionfilter_t* filter) {
  return filter;
}

bool CompactionFilterIgnoresSnapshots(rocksdb_compactionfilter_t* filter) {
  return filter == nullptr || filter->ignore_snapshots;
}

std::shared_ptr<rocksdb::CompactionFilterFactory> TakeCompactionFilterFactory(
    rocksdb_compactionfilterfactory_t* factory) {
  return std::shared_ptr<rocksdb::CompactionFilterFactory>(factory);
}

std::shared_ptr<rocksdb::MergeOperator> TakeMergeOperator(rocksdb_mergeoperator_t* op) {
  return std::shared_ptr<rocksdb::MergeOperator>(op);
}

std::shared_ptr<const rocksdb::SliceTransform> TakeSliceTransform(rocksdb_slicetransform_t* st) {
  return std::shared_ptr<const rocksdb::SliceTransform>(st);
}

}  // namespace strata_capi

extern "C" {

rocksdb_compactionfilter_t* rocksdb_compactionfilter_create(
    void* state, void (*destructor)(void*),
    unsigned char (*filter)(void*, int level, const char* key, size_t key_length,
                            const char* existing_value, size_t value_length, char** new_value,
                            size_t* new_value_length, unsigned char* value_changed),
    const char* (*name)(void*)) {
  auto* f = new rocksdb_compactionfilter_t;
  f->state = state;
  f->destructor = destructor;
  f->filter = filter;
  f->name = name;
  return f;
}

void rocksdb_compactionfilter_set_ignore_snapshots(rocksdb_compactionfilter_t* filter,
                                                   unsigned char whether_ignore) {
  filter->ignore_snapshots = whether_ignore;
}

void rocksdb_compactionfilter_destroy(rocksdb_compactionfilter_t* filter) { delete filter; }

unsigned char rocksdb_compactionfiltercontext_is_full_compaction(
    rocksdb_compactionfiltercontext_t* context) {
  return context->rep.is_full_compaction;
}

unsigned char rocksdb_compactionfiltercontext_is_manual_compaction(
    rocksdb_compactionfiltercontext_t* context) {
  return context->rep.is_manual_compaction;
}

rocksdb_compactionfilterfactory_t* rocksdb_compactionfilterfactory_create(
    void* state, void (*destructor)(void*),
    rocksdb_compactionfilter_t* (*create_compaction_filter)(
        void*, rocksdb_compactionfiltercontext_t* context),
    const char* (*name)(void*)) {
  auto* f = new rocksdb_compactionfilterfactory_t;
  f->state = state;
  f->destructor = destructor;
  f->create = create_compaction_filter;
  f->name = name;
  return f;
}

void rocksdb_compactionfilterfactory_destroy(rocksdb_compactionfilterfactory_t* factory) {
  delete factory;
}

rocksdb_comparator_t* rocksdb_comparator_create(void* state, void (*destructor)(void*),
                                                int (*compare)(void*, const char* a, size_t alen,
                                                               const char* b, size_t blen),
                                                const char* (*name)(void*)) {
  auto* c = new rocksdb_comparator_t;
  c->rep = std::make_unique<CComparator>(state, destructor, compare, name);
  return c;
}

void rocksdb_comparator_destroy(rocksdb_comparator_t* cmp) { delete cmp; }

rocksdb_mergeoperator_t* rocksdb_mergeoperator_create(
    void* state, void (*destructor)(void*),
    char* (*full_merge)(void*, const char* key, size_t key_length, const char* existing_value,
                        size_t existing_value_length, const char* const* operands_list,
                        const size_t* operands_list_length, int num_operands,
                        unsigned char* success, size_t* new_value_length),
    char* (*partial_merge)(void*, const char* key, size_t key_length,
                           const char* const* operands_list, const size_t* operands_list_length,
                           int num_operands, unsigned char* success, size_t* new_value_length),
    void (*delete_value)(void*, const char* value, size_t value_length),
    const char* (*name)(void*)) {
  auto* m = new rocksdb_mergeoperator_t;
  m->state = state;
  m->destructor = destructor;
  m->full_merge = full_merge;
  m->partial_merge = partial_merge;
  m->delete_value = delete_value;
  m->name = name;
  return m;
}

void rocksdb_mergeoperator_destroy(rocksdb_mergeoperator_t* merge_operator) {
  delete merge_operator;
}

rocksdb_slicetransform_t* rocksdb_slicetransform_create(
    void* state, void (*destructor)(void*),
    char* (*transform)(void*, const char* key, size_t length, size_t* dst_length),
    unsigned char (*in_domain)(void*, const char* key, size_t length),
    unsigned char (*in_range)(void*, const char* key, size_t length), const char* (*name)(void*)) {
  auto* t = new rocksdb_slicetransform_t;
  t->state = state;
  t->destructor = destructor;
  t->transform = transform;
  t->in_domain = in_domain;
  t->in_range = in_range;
  t->name = name;
  return t;
}

rocksdb_slicetransform_t* rocksdb_slicetransform_create_fixed_prefix(size_t prefix_len) {
  auto* t = new rocksdb_slicetransform_t;
  t->builtin.reset(rocksdb::NewFixedPrefixTransform(prefix_len));
  return t;
}

rocksdb_slicetransform_t* rocksdb_slicetransform_create_noop(void) {
  auto* t = new rocksdb_slicetransform_t;
  t->builtin.reset(rocksdb::NewNoopTransform());
  return t;
}

void rocksdb_slicetransform_destroy(rocksdb_slicetransform_t* st) { delete st; }

}  // extern "C"
