// Wide-column data types: WideColumn construction and comparison, and
// PinnableWideColumns reading plain values and RocksDB's serialized
// entities (well-formed, truncated at every byte, out of order, too new).

#include "strata/wide_columns.h"

#include <sstream>
#include <string>
#include <tuple>
#include <utility>

#include "gtest/gtest.h"
#include "test_util/testutil.h"
#include "util/coding.h"

namespace strata {
namespace {

// RocksDB's entity encoding of `columns` (names ascending), written here
// independently of the reader.
std::string Entity(const WideColumns& columns, uint32_t version = 1) {
  std::string out;
  PutVarint32(&out, version);
  PutVarint32(&out, static_cast<uint32_t>(columns.size()));
  for (const WideColumn& c : columns) {
    PutLengthPrefixedSlice(&out, c.name());
    PutVarint32(&out, static_cast<uint32_t>(c.value().size()));
  }
  for (const WideColumn& c : columns) out.append(c.value().data(), c.value().size());
  return out;
}

TEST(WideColumnsTest, WideColumn) {
  const std::string bar("bar");
  WideColumn a("foo", bar);
  EXPECT_EQ(a.name(), Slice("foo"));
  EXPECT_EQ(a.value(), Slice("bar"));
  WideColumn b(std::piecewise_construct, std::forward_as_tuple("foo_name", 3),
               std::forward_as_tuple("bar_value", 3));
  EXPECT_EQ(a, b);
  b.value() = Slice("baz");
  EXPECT_NE(a, b);
  std::ostringstream s;
  s << a;
  EXPECT_EQ(s.str(), "foo:bar");
  std::ostringstream h;
  h << std::hex << a;
  EXPECT_EQ(h.str(), "666F6F:626172");
  EXPECT_TRUE(kDefaultWideColumnName.empty());
  EXPECT_TRUE(kNoWideColumns.empty());
}

TEST(WideColumnsTest, PlainValue) {
  PinnableWideColumns p;
  std::string v = "value";
  p.SetPlainValue(v);
  v[0] = 'X';  // copied
  ASSERT_EQ(p.columns().size(), 1u);
  EXPECT_EQ(p.columns()[0].name(), kDefaultWideColumnName);
  EXPECT_EQ(p.columns()[0].value(), Slice("value"));
  EXPECT_EQ(p.serialized_size(), 5u);
  // Pinned: the cleanable's cleanup moves to p and runs at Reset.
  int cleaned = 0;
  {
    Cleanable owner;
    owner.RegisterCleanup([](void* arg, void*) { ++*static_cast<int*>(arg); }, &cleaned, nullptr);
    p.SetPlainValue(v, &owner);
  }
  EXPECT_EQ(cleaned, 0);
  EXPECT_EQ(p.columns()[0].value().data(), v.data());
  p.Reset();
  EXPECT_EQ(cleaned, 1);
  EXPECT_TRUE(p.columns().empty());
  EXPECT_EQ(p.serialized_size(), 0u);
}

TEST(WideColumnsTest, Entity) {
  const std::string zs(300, 'z');  // outlives the columns' Slices
  const WideColumns want{{"", "default"}, {"a", ""}, {"b", "bee"}, {"zz", zs}};
  PinnableWideColumns p;
  ASSERT_OK(p.SetWideColumnValue(Entity(want)));
  EXPECT_EQ(p.columns(), want);
  PinnableWideColumns q;
  ASSERT_OK(q.SetWideColumnValue(Entity(want)));
  EXPECT_EQ(p, q);
  ASSERT_OK(q.SetWideColumnValue(Entity({})));
  EXPECT_TRUE(q.columns().empty());
  EXPECT_NE(p, q);

  // Every truncation is an error, never a crash or a short read.
  const std::string full = Entity(want);
  for (size_t n = 0; n < full.size(); ++n) {
    Status s = q.SetWideColumnValue(Slice(full.data(), n));
    EXPECT_TRUE(s.IsCorruption()) << n << ": " << s.ToString();
  }
  EXPECT_EQ(q.SetWideColumnValue(Entity({{"b", "1"}, {"a", "2"}})).ToString(),
            "Corruption: Wide columns out of order");
  EXPECT_EQ(q.SetWideColumnValue(Entity({{"a", "1"}, {"a", "2"}})).ToString(),
            "Corruption: Wide columns out of order");
  EXPECT_EQ(q.SetWideColumnValue(Entity({{"a", "1"}}, 2)).ToString(),
            "Not implemented: Unsupported wide column version");
  EXPECT_EQ(q.SetWideColumnValue("").ToString(), "Corruption: Error decoding wide column version");
}

}  // namespace
}  // namespace strata
