// Tests of the `strata` command-line parsing and text helpers
// (tools/ldb/ldb_args.h) and of the dump --count_only histogram.

#include "tools/ldb/ldb_args.h"

#include <gtest/gtest.h>

#include "tools/ldb/ldb_histogram.h"

namespace strata::ldb {
namespace {

TEST(LdbArgsTest, SplitsOptionsFlagsCommandAndParams) {
  LdbArgs a = ParseLdbArgs({"--db=/x", "put", "--hex", "k", "v", "--from=a=b", "--to="});
  EXPECT_EQ("put", a.command);
  ASSERT_EQ(2u, a.params.size());
  EXPECT_EQ("k", a.params[0]);
  EXPECT_EQ("v", a.params[1]);
  EXPECT_EQ("/x", a.options["db"]);
  EXPECT_EQ("a=b", a.options["from"]);  // everything after the first '='
  EXPECT_EQ("", a.options["to"]);
  ASSERT_EQ(1u, a.flags.size());
  EXPECT_TRUE(HasFlag(a, "hex"));
  EXPECT_FALSE(HasFlag(a, "db"));
  ASSERT_NE(nullptr, FindOption(a, "db"));
  EXPECT_EQ(nullptr, FindOption(a, "hex"));
}

TEST(LdbArgsTest, NoCommand) {
  LdbArgs a = ParseLdbArgs({"--db=/x", "--hex"});
  EXPECT_TRUE(a.command.empty());
  EXPECT_TRUE(a.params.empty());
  // A single dash is a parameter, not an option.
  a = ParseLdbArgs({"get", "-k"});
  ASSERT_EQ(1u, a.params.size());
  EXPECT_EQ("-k", a.params[0]);
}

TEST(LdbArgsTest, Booleans) {
  bool b = false;
  ASSERT_TRUE(ParseBool("x", "TRUE", &b).ok());
  EXPECT_TRUE(b);
  ASSERT_TRUE(ParseBool("x", "False", &b).ok());
  EXPECT_FALSE(b);
  Status s = ParseBool("auto_compaction", "yes", &b);
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(std::string::npos, s.ToString().find("auto_compaction"));

  LdbArgs a = ParseLdbArgs({"--hex", "--key_hex=true", "--value_hex=false", "scan"});
  ASSERT_TRUE(FlagOrBool(a, "hex", false, &b).ok());
  EXPECT_TRUE(b);
  ASSERT_TRUE(FlagOrBool(a, "key_hex", false, &b).ok());
  EXPECT_TRUE(b);
  ASSERT_TRUE(FlagOrBool(a, "value_hex", true, &b).ok());
  EXPECT_FALSE(b);
  ASSERT_TRUE(FlagOrBool(a, "ttl", true, &b).ok());
  EXPECT_TRUE(b);  // the default
}

TEST(LdbArgsTest, IntegersLikeStoi) {
  int v = 0;
  ASSERT_TRUE(ParseInt("max_keys", "42", &v).ok());
  EXPECT_EQ(42, v);
  ASSERT_TRUE(ParseInt("max_keys", "  -7xyz", &v).ok());  // stoi stops at the first non-digit
  EXPECT_EQ(-7, v);
  Status s = ParseInt("max_keys", "abc", &v);
  EXPECT_EQ("max_keys has an invalid value.", std::string(s.getState()));
  s = ParseInt("max_keys", "99999999999", &v);
  EXPECT_EQ("max_keys has a value out-of-range.", std::string(s.getState()));
  EXPECT_FALSE(ParseInt("max_keys", "", &v).ok());
}

TEST(LdbArgsTest, HexBothWays) {
  EXPECT_EQ("0x", StringToHex(""));
  EXPECT_EQ("0x00FF61", StringToHex(Slice("\x00\xff"
                                          "a",
                                          3)));
  std::string out;
  ASSERT_TRUE(HexToString("0x00ff61", &out).ok());
  EXPECT_EQ(std::string("\x00\xff"
                        "a",
                        3),
            out);
  ASSERT_TRUE(HexToString("0x", &out).ok());
  EXPECT_EQ("", out);
  Status s = HexToString("abcd", &out);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(std::string::npos, s.ToString().find("Must start with 0x"));
  EXPECT_FALSE(HexToString("0x123", &out).ok());  // odd digits
  EXPECT_FALSE(HexToString("0xZZ", &out).ok());
  for (int c = 0; c < 256; ++c) {
    const std::string one(1, static_cast<char>(c));
    ASSERT_TRUE(HexToString(StringToHex(one), &out).ok());
    EXPECT_EQ(one, out);
  }
}

TEST(LdbArgsTest, KeyValueLines) {
  EXPECT_EQ("k ==> v", PrintKeyValue("k", "v", false, false));
  EXPECT_EQ("0x6B ==> v", PrintKeyValue("k", "v", true, false));
  EXPECT_EQ("k ==> 0x76", PrintKeyValue("k", "v", false, true));
  std::string k, v;
  Status s;
  ASSERT_TRUE(ParseKeyValue("a ==> b ==> c", false, false, &k, &v, &s));
  ASSERT_TRUE(s.ok());
  EXPECT_EQ("a", k);
  EXPECT_EQ("b ==> c", v);
  ASSERT_TRUE(ParseKeyValue("0x61 ==> 0x62", true, true, &k, &v, &s));
  ASSERT_TRUE(s.ok());
  EXPECT_EQ("a", k);
  EXPECT_EQ("b", v);
  EXPECT_FALSE(ParseKeyValue("no delimiter", false, false, &k, &v, &s));
  ASSERT_TRUE(ParseKeyValue("zz ==> 0x62", true, true, &k, &v, &s));
  EXPECT_FALSE(s.ok());
}

TEST(LdbArgsTest, UpToNul) {
  EXPECT_EQ("ab", UpToNul(std::string("ab\0cd", 5)));
  EXPECT_EQ("", UpToNul(std::string("\0x", 2)));
  EXPECT_EQ("abc", UpToNul("abc"));
}

TEST(SizeHistogramTest, RocksDbLayout) {
  SizeHistogram h;
  EXPECT_EQ(
      "Count: 0 Average: 0.0000  StdDev: 0.00\n"
      "Min: 0  Median: 0.0000  Max: 0\n"
      "Percentiles: P50: 0.00 P75: 0.00 P99: 0.00 P99.9: 0.00 P99.99: 0.00\n"
      "------------------------------------------------------\n",
      h.ToString());
  for (uint64_t v : {1, 2, 3, 10}) h.Add(v);
  // Buckets (0,1] (1,2] (2,3] and (6,10]: the limits go 1, 2, 3, 4, 6, 10, 15,
  // and percentiles interpolate inside a bucket (P99 = 6 + 4 * 0.96).
  EXPECT_EQ(
      "Count: 4 Average: 4.0000  StdDev: 3.54\n"
      "Min: 1  Median: 2.0000  Max: 10\n"
      "Percentiles: P50: 2.00 P75: 3.00 P99: 9.84 P99.9: 9.98 P99.99: 10.00\n"
      "------------------------------------------------------\n"
      "[       0,       1 ]        1  25.000%  25.000% #####\n"
      "(       1,       2 ]        1  25.000%  50.000% #####\n"
      "(       2,       3 ]        1  25.000%  75.000% #####\n"
      "(       6,      10 ]        1  25.000% 100.000% #####\n",
      h.ToString());
}

}  // namespace
}  // namespace strata::ldb
