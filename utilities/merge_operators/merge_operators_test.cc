// Tests of the MergeOperator defaults (util/merge_operator.cc), the
// CompactionFilter defaults (util/compaction_filter.cc) and the built-in
// operators, called directly (no DB).
#include "utilities/merge_operators/merge_operators.h"

#include <gtest/gtest.h>

#include <deque>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "strata/compaction_filter.h"
#include "strata/merge_operator.h"
#include "test_util/testutil.h"
#include "util/coding.h"

namespace strata {
namespace {

std::string U64(uint64_t v) {
  std::string s;
  PutFixed64(&s, v);
  return s;
}

uint64_t AsU64(const std::string& s) {
  EXPECT_EQ(8u, s.size());
  return s.size() == 8 ? DecodeFixed64(s.data()) : 0;
}

// One FullMergeV2 call as the engine makes it: output arrives empty and an
// existing_operand set by the operator takes precedence over new_value.
struct MergeResult {
  bool ok = false;
  std::string value;
  bool aliased = false;         // the result came through existing_operand
  const char* alias = nullptr;  // existing_operand.data() when aliased
};

MergeResult FullMerge(const MergeOperator& op, const std::optional<std::string>& base,
                      const std::vector<std::string>& operands) {
  const Slice key("key");
  Slice base_slice;
  if (base) base_slice = Slice(*base);
  std::vector<Slice> ops(operands.begin(), operands.end());
  std::string new_value;
  Slice existing_operand(nullptr, 0);
  MergeOperator::MergeOperationInput in(key, base ? &base_slice : nullptr, ops, nullptr);
  MergeOperator::MergeOperationOutput out(new_value, existing_operand);
  MergeResult r;
  r.ok = op.FullMergeV2(in, &out);
  if (existing_operand.data() != nullptr) {
    r.aliased = true;
    r.alias = existing_operand.data();
    r.value = existing_operand.ToString();
  } else {
    r.value = new_value;
  }
  return r;
}

bool PartialMulti(const MergeOperator& op, const std::vector<std::string>& operands,
                  std::string* out) {
  std::deque<Slice> ops(operands.begin(), operands.end());
  out->clear();
  return op.PartialMergeMulti(Slice("key"), ops, out, nullptr);
}

bool Partial(const MergeOperator& op, const std::string& left, const std::string& right,
             std::string* out) {
  out->clear();
  return op.PartialMerge(Slice("key"), left, right, out, nullptr);
}

// ---------------------------------------------------------------------------
// MergeOperator defaults.

// Overrides only the old FullMerge; records what it was handed.
class OldStyleConcat : public MergeOperator {
 public:
  const char* Name() const override { return "OldStyleConcat"; }
  bool FullMerge(const Slice& key, const Slice* existing_value,
                 const std::deque<std::string>& operand_list, std::string* new_value,
                 Logger* /*logger*/) const override {
    last_key = key.ToString();
    saw_base = existing_value != nullptr;
    new_value->assign(existing_value != nullptr ? existing_value->ToString() : "<none>");
    for (const std::string& o : operand_list) new_value->append("|" + o);
    return !fail;
  }
  mutable std::string last_key;
  mutable bool saw_base = false;
  bool fail = false;
};

class NameOnly : public MergeOperator {
 public:
  const char* Name() const override { return "NameOnly"; }
};

TEST(MergeOperatorDefaultsTest, FullMergeV2CallsFullMergeWithBase) {
  OldStyleConcat op;
  MergeResult r = FullMerge(op, std::string("base"), {"a", "b", "c"});
  ASSERT_TRUE(r.ok);
  EXPECT_FALSE(r.aliased);
  EXPECT_EQ("base|a|b|c", r.value);
  EXPECT_TRUE(op.saw_base);
  EXPECT_EQ("key", op.last_key);
}

TEST(MergeOperatorDefaultsTest, FullMergeV2CallsFullMergeWithoutBase) {
  OldStyleConcat op;
  MergeResult r = FullMerge(op, std::nullopt, {"x"});
  ASSERT_TRUE(r.ok);
  EXPECT_EQ("<none>|x", r.value);
  EXPECT_FALSE(op.saw_base);
  // An empty base is still a base.
  r = FullMerge(op, std::string(), {"", "y"});
  ASSERT_TRUE(r.ok);
  EXPECT_EQ("||y", r.value);
  EXPECT_TRUE(op.saw_base);
}

TEST(MergeOperatorDefaultsTest, FullMergeV2PropagatesFailure) {
  OldStyleConcat op;
  op.fail = true;
  EXPECT_FALSE(FullMerge(op, std::string("b"), {"a"}).ok);
}

TEST(MergeOperatorDefaultsTest, UnimplementedMergesFail) {
  NameOnly op;
  EXPECT_STREQ("NameOnly", op.Name());
  EXPECT_FALSE(FullMerge(op, std::string("b"), {"a"}).ok);
  EXPECT_FALSE(FullMerge(op, std::nullopt, {"a", "b"}).ok);
  std::string out;
  EXPECT_FALSE(Partial(op, "a", "b", &out));
  EXPECT_FALSE(PartialMulti(op, {"a", "b", "c"}, &out));
  std::deque<std::string> ops = {"a"};
  EXPECT_FALSE(op.FullMerge(Slice("k"), nullptr, ops, &out, nullptr));
  EXPECT_FALSE(op.AllowSingleOperand());
  EXPECT_FALSE(op.ShouldMerge({Slice("a")}));
}

// PartialMerge only: "(left+right)", so the fold order is visible. Fails
// when an operand is "bad".
class ParenPartial : public MergeOperator {
 public:
  const char* Name() const override { return "ParenPartial"; }
  bool PartialMerge(const Slice& /*key*/, const Slice& left, const Slice& right,
                    std::string* new_value, Logger* /*logger*/) const override {
    EXPECT_TRUE(new_value->empty()) << "PartialMerge output should arrive empty";
    calls++;
    if (left == Slice("bad") || right == Slice("bad")) return false;
    new_value->assign("(" + left.ToString() + "+" + right.ToString() + ")");
    return true;
  }
  mutable int calls = 0;
};

TEST(MergeOperatorDefaultsTest, PartialMergeMultiFoldsLeftToRight) {
  ParenPartial op;
  std::string out;
  ASSERT_TRUE(PartialMulti(op, {"a", "b"}, &out));
  EXPECT_EQ("(a+b)", out);
  EXPECT_EQ(1, op.calls);
  ASSERT_TRUE(PartialMulti(op, {"a", "b", "c", "d"}, &out));
  EXPECT_EQ("(((a+b)+c)+d)", out);
  EXPECT_EQ(4, op.calls);
  ASSERT_TRUE(PartialMulti(op, {"", "", ""}, &out));
  EXPECT_EQ("((+)+)", out);
}

TEST(MergeOperatorDefaultsTest, PartialMergeMultiNeedsTwoAndStopsOnFailure) {
  ParenPartial op;
  std::string out;
  EXPECT_FALSE(PartialMulti(op, {}, &out));
  EXPECT_FALSE(PartialMulti(op, {"a"}, &out));
  EXPECT_EQ(0, op.calls);
  EXPECT_FALSE(PartialMulti(op, {"bad", "a", "b"}, &out));
  EXPECT_EQ(1, op.calls);
  EXPECT_FALSE(PartialMulti(op, {"a", "b", "bad", "c"}, &out));
  EXPECT_EQ(3, op.calls);  // stopped at the failing step
}

// ---------------------------------------------------------------------------
// AssociativeMergeOperator.

// Merge = "[base]<value>" style that records whether a base was passed.
class BracketAssoc : public AssociativeMergeOperator {
 public:
  const char* Name() const override { return "BracketAssoc"; }
  bool Merge(const Slice& /*key*/, const Slice* existing_value, const Slice& value,
             std::string* new_value, Logger* /*logger*/) const override {
    EXPECT_TRUE(new_value->empty()) << "Merge output should arrive empty";
    calls++;
    if (value == Slice("bad")) return false;
    *new_value = (existing_value == nullptr ? std::string("_") : existing_value->ToString()) + "<" +
                 value.ToString() + ">";
    return true;
  }
  mutable int calls = 0;
};

TEST(AssociativeMergeOperatorTest, FullMergeFoldsOverBase) {
  BracketAssoc op;
  MergeResult r = FullMerge(op, std::string("B"), {"1", "2", "3"});
  ASSERT_TRUE(r.ok);
  EXPECT_FALSE(r.aliased);
  EXPECT_EQ("B<1><2><3>", r.value);
  EXPECT_EQ(3, op.calls);
}

TEST(AssociativeMergeOperatorTest, FullMergeWithoutBase) {
  BracketAssoc op;
  MergeResult r = FullMerge(op, std::nullopt, {"1"});
  ASSERT_TRUE(r.ok);
  EXPECT_EQ("_<1>", r.value);
  r = FullMerge(op, std::nullopt, {"1", "2"});
  ASSERT_TRUE(r.ok);
  EXPECT_EQ("_<1><2>", r.value);
  r = FullMerge(op, std::string(), {"", ""});
  ASSERT_TRUE(r.ok);
  EXPECT_EQ("<><>", r.value);
}

TEST(AssociativeMergeOperatorTest, FullMergeFailureStops) {
  BracketAssoc op;
  EXPECT_FALSE(FullMerge(op, std::string("B"), {"1", "bad", "3"}).ok);
  EXPECT_EQ(2, op.calls);
}

TEST(AssociativeMergeOperatorTest, PartialMergeIsMerge) {
  BracketAssoc op;
  std::string out;
  ASSERT_TRUE(Partial(op, "L", "R", &out));
  EXPECT_EQ("L<R>", out);
  // The inherited PartialMergeMulti folds the associative PartialMerge.
  ASSERT_TRUE(PartialMulti(op, {"a", "b", "c"}, &out));
  EXPECT_EQ("a<b><c>", out);
  EXPECT_FALSE(Partial(op, "L", "bad", &out));
}

// ---------------------------------------------------------------------------
// CompactionFilter defaults.

class KeepAllFilter : public CompactionFilter {
 public:
  const char* Name() const override { return "KeepAll"; }
};

// Removes values "rm", rewrites values "chg" to "new", removes operands "rm".
class ScriptedFilter : public CompactionFilter {
 public:
  const char* Name() const override { return "Scripted"; }
  bool Filter(int level, const Slice& /*key*/, const Slice& value, std::string* new_value,
              bool* value_changed) const override {
    last_level = level;
    if (value == Slice("rm")) return true;
    if (value == Slice("chg")) {
      *new_value = "new";
      *value_changed = true;
    }
    return false;
  }
  bool FilterMergeOperand(int level, const Slice& /*key*/, const Slice& operand) const override {
    last_level = level;
    return operand == Slice("rm");
  }
  mutable int last_level = -1;
};

class CountingFactory : public CompactionFilterFactory {
 public:
  std::unique_ptr<CompactionFilter> CreateCompactionFilter(
      const CompactionFilter::Context& /*context*/) override {
    made++;
    return std::make_unique<KeepAllFilter>();
  }
  const char* Name() const override { return "CountingFactory"; }
  int made = 0;
};

TEST(CompactionFilterTest, DefaultsKeepEverything) {
  KeepAllFilter f;
  std::string new_value, skip;
  bool changed = false;
  EXPECT_FALSE(f.Filter(1, "k", "v", &new_value, &changed));
  EXPECT_FALSE(changed);
  EXPECT_FALSE(f.FilterMergeOperand(1, "k", "op"));
  EXPECT_FALSE(f.FilterDuringFlush());
  using D = CompactionFilter::Decision;
  using T = CompactionFilter::ValueType;
  EXPECT_EQ(D::kKeep, f.FilterV2(0, "k", T::kValue, "v", &new_value, &skip));
  EXPECT_EQ(D::kKeep, f.FilterV2(0, "k", T::kMergeOperand, "v", &new_value, &skip));
  EXPECT_TRUE(new_value.empty());
  EXPECT_TRUE(skip.empty());
}

TEST(CompactionFilterTest, FilterV2RoutesToFilterAndFilterMergeOperand) {
  ScriptedFilter f;
  using D = CompactionFilter::Decision;
  using T = CompactionFilter::ValueType;
  std::string new_value, skip;
  EXPECT_EQ(D::kRemove, f.FilterV2(3, "k", T::kValue, "rm", &new_value, &skip));
  EXPECT_EQ(3, f.last_level);
  EXPECT_EQ(D::kKeep, f.FilterV2(2, "k", T::kValue, "keep", &new_value, &skip));
  EXPECT_EQ(2, f.last_level);
  EXPECT_EQ(D::kChangeValue, f.FilterV2(1, "k", T::kValue, "chg", &new_value, &skip));
  EXPECT_EQ("new", new_value);
  new_value.clear();
  EXPECT_EQ(D::kRemove, f.FilterV2(4, "k", T::kMergeOperand, "rm", &new_value, &skip));
  EXPECT_EQ(4, f.last_level);
  // An operand "chg" is not a value: FilterMergeOperand keeps it unchanged.
  EXPECT_EQ(D::kKeep, f.FilterV2(0, "k", T::kMergeOperand, "chg", &new_value, &skip));
  EXPECT_TRUE(new_value.empty());
  EXPECT_TRUE(skip.empty());
}

TEST(CompactionFilterTest, Factory) {
  CountingFactory factory;
  CompactionFilter::Context ctx;
  ctx.is_full_compaction = true;
  std::unique_ptr<CompactionFilter> f = factory.CreateCompactionFilter(ctx);
  ASSERT_NE(nullptr, f);
  EXPECT_STREQ("KeepAll", f->Name());
  EXPECT_EQ(1, factory.made);
  std::unique_ptr<CompactionFilterFactory> owned = std::make_unique<CountingFactory>();
  EXPECT_STREQ("CountingFactory", owned->Name());
}

// ---------------------------------------------------------------------------
// PutOperator.

TEST(PutOperatorTest, LastOperandWinsWithoutCopy) {
  auto op = MergeOperators::CreatePutOperator();
  EXPECT_STREQ("PutOperator", op->Name());
  const std::optional<std::string> base = std::string("base");
  for (const auto& b : {base, std::optional<std::string>()}) {
    std::vector<std::string> ops = {"a", "bb", "ccc"};
    std::vector<Slice> slices(ops.begin(), ops.end());
    std::string new_value;
    Slice existing(nullptr, 0);
    Slice base_slice = b ? Slice(*b) : Slice();
    MergeOperator::MergeOperationInput in("k", b ? &base_slice : nullptr, slices, nullptr);
    MergeOperator::MergeOperationOutput out(new_value, existing);
    ASSERT_TRUE(op->FullMergeV2(in, &out));
    EXPECT_EQ(slices.back().data(), existing.data());  // points at the operand
    EXPECT_EQ("ccc", existing.ToString());
    EXPECT_TRUE(new_value.empty());
  }
  MergeResult r = FullMerge(*op, std::string("base"), {"only"});
  ASSERT_TRUE(r.ok);
  EXPECT_TRUE(r.aliased);
  EXPECT_EQ("only", r.value);
  r = FullMerge(*op, std::string("base"), {"x", ""});
  ASSERT_TRUE(r.ok);
  EXPECT_EQ("", r.value);
}

TEST(PutOperatorTest, PartialMerges) {
  auto op = MergeOperators::CreatePutOperator();
  std::string out;
  ASSERT_TRUE(Partial(*op, "left", "right", &out));
  EXPECT_EQ("right", out);
  ASSERT_TRUE(Partial(*op, "left", "", &out));
  EXPECT_EQ("", out);
  ASSERT_TRUE(PartialMulti(*op, {"1", "2", "3"}, &out));
  EXPECT_EQ("3", out);
  // The old interface, for callers that still use it.
  std::deque<std::string> ops = {"p", "q"};
  ASSERT_TRUE(op->FullMerge("k", nullptr, ops, &out, nullptr));
  EXPECT_EQ("q", out);
}

// ---------------------------------------------------------------------------
// UInt64AddOperator.

TEST(UInt64AddOperatorTest, Sums) {
  auto op = MergeOperators::CreateUInt64AddOperator();
  EXPECT_STREQ("UInt64AddOperator", op->Name());
  EXPECT_NE(nullptr, dynamic_cast<const AssociativeMergeOperator*>(op.get()));
  MergeResult r = FullMerge(*op, U64(10), {U64(1), U64(2), U64(3)});
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(16u, AsU64(r.value));
  r = FullMerge(*op, std::nullopt, {U64(7)});
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(7u, AsU64(r.value));
  r = FullMerge(*op, std::nullopt, {U64(0), U64(0)});
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(0u, AsU64(r.value));
  r = FullMerge(*op, U64(5), {U64(0)});
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(5u, AsU64(r.value));
}

TEST(UInt64AddOperatorTest, WrapsAround) {
  auto op = MergeOperators::CreateUInt64AddOperator();
  const uint64_t max = ~uint64_t{0};
  MergeResult r = FullMerge(*op, U64(max), {U64(1)});
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(0u, AsU64(r.value));
  r = FullMerge(*op, std::nullopt, {U64(max), U64(max), U64(3)});
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(1u, AsU64(r.value));  // 2^64*2 - 2 + 3
  std::string out;
  ASSERT_TRUE(Partial(*op, U64(max), U64(2), &out));
  EXPECT_EQ(1u, AsU64(out));
  ASSERT_TRUE(PartialMulti(*op, {U64(max), U64(max), U64(max)}, &out));
  EXPECT_EQ(max - 2, AsU64(out));
}

TEST(UInt64AddOperatorTest, MalformedFails) {
  auto op = MergeOperators::CreateUInt64AddOperator();
  const std::string bad[] = {"", "1234567", "123456789", std::string(16, '\0')};
  for (const std::string& b : bad) {
    SCOPED_TRACE("size " + std::to_string(b.size()));
    EXPECT_FALSE(FullMerge(*op, b, {U64(1)}).ok);                // malformed base
    EXPECT_FALSE(FullMerge(*op, U64(1), {U64(1), b}).ok);        // malformed operand
    EXPECT_FALSE(FullMerge(*op, std::nullopt, {b}).ok);          // alone
    EXPECT_FALSE(FullMerge(*op, std::nullopt, {b, U64(2)}).ok);  // first of several
    std::string out;
    EXPECT_FALSE(Partial(*op, b, U64(1), &out));
    EXPECT_FALSE(Partial(*op, U64(1), b, &out));
    EXPECT_FALSE(PartialMulti(*op, {U64(1), U64(2), b}, &out));
    EXPECT_FALSE(op->PartialMerge("k", b, U64(1), &out, nullptr));
    auto* assoc = dynamic_cast<const AssociativeMergeOperator*>(op.get());
    ASSERT_NE(nullptr, assoc);
    Slice bs(b);
    EXPECT_FALSE(assoc->Merge("k", &bs, U64(1), &out, nullptr));
    EXPECT_FALSE(assoc->Merge("k", nullptr, b, &out, nullptr));
  }
}

TEST(UInt64AddOperatorTest, PartialAndMerge) {
  auto op = MergeOperators::CreateUInt64AddOperator();
  std::string out;
  ASSERT_TRUE(Partial(*op, U64(40), U64(2), &out));
  EXPECT_EQ(42u, AsU64(out));
  ASSERT_TRUE(PartialMulti(*op, {U64(1), U64(2), U64(3), U64(4)}, &out));
  EXPECT_EQ(10u, AsU64(out));
  auto* assoc = dynamic_cast<const AssociativeMergeOperator*>(op.get());
  ASSERT_NE(nullptr, assoc);
  out.clear();
  ASSERT_TRUE(assoc->Merge("k", nullptr, U64(9), &out, nullptr));
  EXPECT_EQ(9u, AsU64(out));
  out.clear();
  const std::string base_str = U64(1);
  const Slice base(base_str);
  ASSERT_TRUE(assoc->Merge("k", &base, U64(9), &out, nullptr));
  EXPECT_EQ(10u, AsU64(out));
}

// ---------------------------------------------------------------------------
// StringAppendOperator.

TEST(StringAppendOperatorTest, CharDelimiter) {
  auto op = MergeOperators::CreateStringAppendOperator(',');
  EXPECT_STREQ("StringAppendOperator", op->Name());
  MergeResult r = FullMerge(*op, std::string("base"), {"a", "b", "c"});
  ASSERT_TRUE(r.ok);
  EXPECT_EQ("base,a,b,c", r.value);
  r = FullMerge(*op, std::nullopt, {"a", "b"});
  ASSERT_TRUE(r.ok);
  EXPECT_EQ("a,b", r.value);
  r = FullMerge(*op, std::string("base"), {"a"});
  ASSERT_TRUE(r.ok);
  EXPECT_EQ("base,a", r.value);
  // An empty base is a base; empty operands still get delimiters.
  r = FullMerge(*op, std::string(), {"a"});
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(",a", r.value);
  r = FullMerge(*op, std::nullopt, {"", "", ""});
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(",,", r.value);
  r = FullMerge(*op, std::string(), {""});
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(",", r.value);
  // Default delimiter is ','.
  EXPECT_EQ("x,y", FullMerge(*MergeOperators::CreateStringAppendOperator(), "x", {"y"}).value);
  // A NUL delimiter is an ordinary byte.
  r = FullMerge(*MergeOperators::CreateStringAppendOperator('\0'), "x", {"y"});
  EXPECT_EQ(std::string("x\0y", 3), r.value);
}

TEST(StringAppendOperatorTest, SingleOperandWithoutBaseIsAliased) {
  auto op = MergeOperators::CreateStringAppendOperator(',');
  std::vector<std::string> ops = {"solo"};
  std::vector<Slice> slices(ops.begin(), ops.end());
  std::string new_value;
  Slice existing(nullptr, 0);
  MergeOperator::MergeOperationInput in("k", nullptr, slices, nullptr);
  MergeOperator::MergeOperationOutput out(new_value, existing);
  ASSERT_TRUE(op->FullMergeV2(in, &out));
  EXPECT_EQ(ops[0].data(), existing.data());
  EXPECT_EQ("solo", existing.ToString());
  MergeResult r = FullMerge(*op, std::nullopt, {""});
  ASSERT_TRUE(r.ok);
  EXPECT_EQ("", r.value);
}

TEST(StringAppendOperatorTest, StringDelimiters) {
  auto multi = MergeOperators::CreateStringAppendOperator(std::string("::"));
  MergeResult r = FullMerge(*multi, std::string("b"), {"x", "", "z"});
  ASSERT_TRUE(r.ok);
  EXPECT_EQ("b::x::::z", r.value);
  auto none = MergeOperators::CreateStringAppendOperator(std::string());
  r = FullMerge(*none, std::string("b"), {"x", "y", "z"});
  ASSERT_TRUE(r.ok);
  EXPECT_EQ("bxyz", r.value);
  r = FullMerge(*none, std::nullopt, {"", ""});
  ASSERT_TRUE(r.ok);
  EXPECT_EQ("", r.value);
  auto one = MergeOperators::CreateStringAppendOperator(std::string("-"));
  EXPECT_EQ("a-b", FullMerge(*one, "a", {"b"}).value);
  auto concrete = std::dynamic_pointer_cast<StringAppendOperator>(multi);
  ASSERT_NE(nullptr, concrete);
  EXPECT_EQ("::", concrete->delimiter());
}

TEST(StringAppendOperatorTest, PartialMerges) {
  auto op = MergeOperators::CreateStringAppendOperator(std::string("<>"));
  std::string out;
  ASSERT_TRUE(Partial(*op, "l", "r", &out));
  EXPECT_EQ("l<>r", out);
  ASSERT_TRUE(Partial(*op, "", "", &out));
  EXPECT_EQ("<>", out);
  ASSERT_TRUE(PartialMulti(*op, {"a", "b", "c"}, &out));
  EXPECT_EQ("a<>b<>c", out);
  ASSERT_TRUE(PartialMulti(*op, {"a", "", ""}, &out));
  EXPECT_EQ("a<><>", out);
  // Partial then full equals full alone (associativity).
  ASSERT_TRUE(PartialMulti(*op, {"b", "c"}, &out));
  EXPECT_EQ(FullMerge(*op, std::string("a"), {"b", "c"}).value,
            FullMerge(*op, std::string("a"), {out}).value);
  auto* assoc = dynamic_cast<const AssociativeMergeOperator*>(op.get());
  ASSERT_NE(nullptr, assoc);
  out.clear();
  ASSERT_TRUE(assoc->Merge("k", nullptr, "v", &out, nullptr));
  EXPECT_EQ("v", out);
  out.clear();
  Slice base("b");
  ASSERT_TRUE(assoc->Merge("k", &base, "v", &out, nullptr));
  EXPECT_EQ("b<>v", out);
}

// ---------------------------------------------------------------------------
// MaxOperator.

TEST(MaxOperatorTest, LargestWithoutCopy) {
  auto op = MergeOperators::CreateMaxOperator();
  EXPECT_STREQ("MaxOperator", op->Name());
  MergeResult r = FullMerge(*op, std::string("m"), {"a", "z", "c"});
  ASSERT_TRUE(r.ok);
  EXPECT_TRUE(r.aliased);
  EXPECT_EQ("z", r.value);
  r = FullMerge(*op, std::string("zz"), {"a", "z"});
  ASSERT_TRUE(r.ok);
  EXPECT_EQ("zz", r.value);  // the base can win
  r = FullMerge(*op, std::nullopt, {"b"});
  ASSERT_TRUE(r.ok);
  EXPECT_EQ("b", r.value);
  r = FullMerge(*op, std::nullopt, {"", ""});
  ASSERT_TRUE(r.ok);
  EXPECT_EQ("", r.value);
  r = FullMerge(*op, std::string(""), {"", "\x01"});
  ASSERT_TRUE(r.ok);
  EXPECT_EQ("\x01", r.value);
  // Bytes compare unsigned.
  r = FullMerge(*op, std::nullopt, {"\x7f", "\xff", "\x80"});
  EXPECT_EQ("\xff", r.value);
}

TEST(MaxOperatorTest, PrefixesAndTies) {
  auto op = MergeOperators::CreateMaxOperator();
  EXPECT_EQ("ab", FullMerge(*op, std::string("a"), {"ab"}).value);
  EXPECT_EQ("ab", FullMerge(*op, std::string("ab"), {"a"}).value);
  EXPECT_EQ("b", FullMerge(*op, std::string("abc"), {"b", "ab"}).value);
  // Equal values: the result is that value (whichever copy).
  std::vector<std::string> ops = {"same", "same"};
  std::vector<Slice> slices(ops.begin(), ops.end());
  std::string base_str = "same";
  Slice base(base_str);
  std::string new_value;
  Slice existing(nullptr, 0);
  MergeOperator::MergeOperationInput in("k", &base, slices, nullptr);
  MergeOperator::MergeOperationOutput out(new_value, existing);
  ASSERT_TRUE(op->FullMergeV2(in, &out));
  EXPECT_EQ("same", existing.ToString());
  EXPECT_TRUE(existing.data() == base.data() || existing.data() == slices[0].data() ||
              existing.data() == slices[1].data());
  std::string p;
  ASSERT_TRUE(Partial(*op, "a", "ab", &p));
  EXPECT_EQ("ab", p);
  ASSERT_TRUE(Partial(*op, "ab", "a", &p));
  EXPECT_EQ("ab", p);
  ASSERT_TRUE(Partial(*op, "x", "x", &p));
  EXPECT_EQ("x", p);
  ASSERT_TRUE(Partial(*op, "", "", &p));
  EXPECT_EQ("", p);
  ASSERT_TRUE(PartialMulti(*op, {"b", "abc", "c", "bb"}, &p));
  EXPECT_EQ("c", p);
  ASSERT_TRUE(PartialMulti(*op, {"a", "a"}, &p));
  EXPECT_EQ("a", p);
}

// ---------------------------------------------------------------------------
// Factories.

TEST(MergeOperatorsFactoryTest, CreateFromStringId) {
  const struct {
    const char* id;
    const char* name;
  } cases[] = {
      {"put", "PutOperator"},
      {"PutOperator", "PutOperator"},
      {"uint64add", "UInt64AddOperator"},
      {"UInt64AddOperator", "UInt64AddOperator"},
      {"stringappend", "StringAppendOperator"},
      {"StringAppendOperator", "StringAppendOperator"},
      {"max", "MaxOperator"},
      {"MaxOperator", "MaxOperator"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.id);
    auto op = MergeOperators::CreateFromStringId(c.id);
    ASSERT_NE(nullptr, op);
    EXPECT_STREQ(c.name, op->Name());
  }
  // The stringappend id uses ','.
  auto sa = MergeOperators::CreateFromStringId("stringappend");
  EXPECT_EQ("a,b", FullMerge(*sa, std::string("a"), {"b"}).value);
  // Each operator behaves as its id says.
  EXPECT_EQ("z", FullMerge(*MergeOperators::CreateFromStringId("max"), "a", {"z"}).value);
  EXPECT_EQ("q", FullMerge(*MergeOperators::CreateFromStringId("put"), "a", {"q"}).value);
  EXPECT_EQ(
      3u,
      AsU64(FullMerge(*MergeOperators::CreateFromStringId("uint64add"), U64(1), {U64(2)}).value));
  for (const char* unknown : {"", "Put", "PUT", "uint64", "string_append", "stringappendtest",
                              "maxoperator", "put ", "sortlist", "UInt64AddOperatorX"}) {
    SCOPED_TRACE(unknown);
    EXPECT_EQ(nullptr, MergeOperators::CreateFromStringId(unknown));
  }
}

// ---------------------------------------------------------------------------
// Randomized: uint64add and stringappend against simple models, with random
// splits into partial merges.

TEST(MergeOperatorsRandomTest, MatchesModel) {
  const uint64_t seed = test::RandomSeed();
  std::mt19937_64 rng(seed);
  auto add = MergeOperators::CreateUInt64AddOperator();
  const std::string delims[] = {",", "", "--", std::string(1, '\0')};
  for (int iter = 0; iter < 20000; iter++) {
    SCOPED_TRACE("seed " + std::to_string(seed) + " iter " + std::to_string(iter));
    const size_t n = 1 + rng() % 12;
    const bool has_base = rng() % 2 == 0;

    // uint64add: the sum mod 2^64. Values near the top make wrap-around common.
    std::vector<std::string> ops;
    uint64_t expected = 0;
    std::optional<std::string> base;
    auto draw = [&rng]() -> uint64_t {
      switch (rng() % 3) {
        case 0:
          return rng() % 100;
        case 1:
          return ~uint64_t{0} - rng() % 100;
        default:
          return rng();
      }
    };
    if (has_base) {
      uint64_t b = draw();
      expected += b;
      base = U64(b);
    }
    for (size_t i = 0; i < n; i++) {
      uint64_t v = draw();
      expected += v;
      ops.push_back(U64(v));
    }
    MergeResult r = FullMerge(*add, base, ops);
    ASSERT_TRUE(r.ok);
    ASSERT_EQ(expected, AsU64(r.value));
    // Collapse a random adjacent run with PartialMergeMulti, then merge.
    if (n >= 2) {
      size_t lo = rng() % (n - 1);
      size_t hi = lo + 2 + rng() % (n - lo - 1);  // exclusive, run length >= 2
      std::vector<std::string> run(ops.begin() + lo, ops.begin() + hi);
      std::string partial;
      ASSERT_TRUE(PartialMulti(*add, run, &partial));
      std::vector<std::string> collapsed(ops.begin(), ops.begin() + lo);
      collapsed.push_back(partial);
      collapsed.insert(collapsed.end(), ops.begin() + hi, ops.end());
      ASSERT_EQ(expected, AsU64(FullMerge(*add, base, collapsed).value));
    }
    // One malformed operand anywhere fails the merge.
    if (rng() % 4 == 0) {
      size_t len = rng() % 16;  // any size but 8
      if (len >= 8) len++;
      ops[rng() % n] = std::string(len, 'x');
      ASSERT_FALSE(FullMerge(*add, base, ops).ok);
    }

    // stringappend: a plain join.
    const std::string& delim = delims[rng() % std::size(delims)];
    auto sa = MergeOperators::CreateStringAppendOperator(delim);
    std::vector<std::string> strs;
    std::optional<std::string> sbase;
    if (has_base) sbase = test::RandomPrintable(&rng, rng() % 5);
    std::string model = sbase ? *sbase : std::string();
    for (size_t i = 0; i < n; i++) {
      strs.push_back(test::RandomBytes(&rng, rng() % 6));
      if (sbase || i > 0) model += delim;
      model += strs.back();
    }
    r = FullMerge(*sa, sbase, strs);
    ASSERT_TRUE(r.ok);
    ASSERT_EQ(model, r.value);
    if (n >= 2) {
      size_t lo = rng() % (n - 1);
      size_t hi = lo + 2 + rng() % (n - lo - 1);
      std::vector<std::string> run(strs.begin() + lo, strs.begin() + hi);
      std::string partial;
      ASSERT_TRUE(PartialMulti(*sa, run, &partial));
      std::vector<std::string> collapsed(strs.begin(), strs.begin() + lo);
      collapsed.push_back(partial);
      collapsed.insert(collapsed.end(), strs.begin() + hi, strs.end());
      ASSERT_EQ(model, FullMerge(*sa, sbase, collapsed).value);
      // Pairwise PartialMerge of the first two gives the same.
      std::string pair;
      ASSERT_TRUE(Partial(*sa, strs[0], strs[1], &pair));
      std::vector<std::string> paired = {pair};
      paired.insert(paired.end(), strs.begin() + 2, strs.end());
      ASSERT_EQ(model, FullMerge(*sa, sbase, paired).value);
    }
  }
}

}  // namespace
}  // namespace strata
