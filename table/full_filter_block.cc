#include "table/full_filter_block.h"

#include <cassert>
#include <utility>

namespace strata {

FullFilterBlockBuilder::FullFilterBlockBuilder(std::unique_ptr<FilterBitsBuilder> bits_builder)
    : bits_builder_(std::move(bits_builder)) {
  assert(bits_builder_ != nullptr);
}

FullFilterBlockBuilder::FullFilterBlockBuilder(std::unique_ptr<FilterBitsBuilder> bits_builder,
                                               const SliceTransform* prefix_extractor,
                                               bool whole_key_filtering)
    : bits_builder_(std::move(bits_builder)),
      prefix_extractor_(prefix_extractor),
      whole_key_filtering_(whole_key_filtering) {
  assert(bits_builder_ != nullptr);
  assert(whole_key_filtering_ || prefix_extractor_ != nullptr);
}

void FullFilterBlockBuilder::AddWithPrefix(const Slice& user_key) {
  const bool in_domain = prefix_extractor_->InDomain(user_key);
  if (!whole_key_filtering_ && prev_in_domain_ && !empty_prefix_added_) {
    // RocksDB 7.8.3 quirk kept for identical bytes: with prefixes only, the
    // key after the first in-domain key adds the empty string once (its
    // "last prefix" is never recorded in this mode).
    bits_builder_->AddKey(Slice());
    empty_prefix_added_ = true;
  }
  prev_in_domain_ = in_domain;
  if (whole_key_filtering_) {
    if (!in_domain) {
      // No prefix interleaves with this key: the bits builder's check of
      // the previous hash catches a repeat.
      bits_builder_->AddKey(user_key);
    } else if (!have_last_whole_key_ || Slice(last_whole_key_) != user_key) {
      bits_builder_->AddKey(user_key);
      last_whole_key_.assign(user_key.data(), user_key.size());
      have_last_whole_key_ = true;
    }
  }
  if (!in_domain) return;
  const Slice prefix = prefix_extractor_->Transform(user_key);
  if (!whole_key_filtering_) {
    // Only prefixes: repeats are adjacent, the bits builder drops them.
    bits_builder_->AddKey(prefix);
  } else if (!have_last_prefix_ || Slice(last_prefix_) != prefix) {
    bits_builder_->AddKey(prefix);
    last_prefix_.assign(prefix.data(), prefix.size());
    have_last_prefix_ = true;
  }
}

Slice FullFilterBlockBuilder::Finish() { return bits_builder_->Finish(&buf_); }

}  // namespace strata
