#include "table/full_filter_block.h"

#include <cassert>
#include <utility>

namespace strata {

FullFilterBlockBuilder::FullFilterBlockBuilder(std::unique_ptr<FilterBitsBuilder> bits_builder)
    : bits_builder_(std::move(bits_builder)) {
  assert(bits_builder_ != nullptr);
}

Slice FullFilterBlockBuilder::Finish() { return bits_builder_->Finish(&buf_); }

}  // namespace strata
