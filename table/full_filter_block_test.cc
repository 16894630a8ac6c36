#include "table/full_filter_block.h"

#include <gtest/gtest.h>

#include <string>

#include "strata/filter_policy.h"

namespace strata {
namespace {

TEST(FullFilterBlockTest, RoundTrip) {
  std::shared_ptr<const FilterPolicy> policy = NewBloomFilterPolicy(10);
  FullFilterBlockBuilder builder(NewFilterBitsBuilder(policy.get()));
  for (int i = 0; i < 1000; ++i) builder.Add("user" + std::to_string(i));
  builder.Add("user999");  // adjacent duplicate
  EXPECT_EQ(builder.NumAdded(), 1000u);
  const Slice contents = builder.Finish();
  // 1000 keys at 10 bits/key: 1250 bytes rounded up to 1280, plus trailer.
  EXPECT_EQ(contents.size(), 1285u);

  FullFilterBlockReader reader(contents);
  FullFilterBlockReader owning(contents.ToString());
  int fp = 0;
  for (int i = 0; i < 1000; ++i) {
    EXPECT_TRUE(reader.KeyMayMatch("user" + std::to_string(i)));
    EXPECT_TRUE(owning.KeyMayMatch("user" + std::to_string(i)));
    fp += reader.KeyMayMatch("other" + std::to_string(i));
  }
  EXPECT_LT(fp, 50);
}

TEST(FullFilterBlockTest, EmptyContents) {
  FullFilterBlockReader reader{Slice()};
  EXPECT_FALSE(reader.KeyMayMatch("a"));
}

}  // namespace
}  // namespace strata
