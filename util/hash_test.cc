#include "util/hash.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "test_util/testutil.h"

namespace strata {
namespace {

uint64_t XXPH3(const std::string& s, uint64_t seed = 0) {
  return XXPH3_64(s.data(), s.size(), seed);
}

// docs/format/encoding.md (Hashes).
TEST(HashTest, XXPH3FormatVectors) {
  EXPECT_EQ(0x5342c3010fe1dd04ull, XXPH3(""));
  EXPECT_EQ(0x88d868bf607681c7ull, XXPH3("a"));
  EXPECT_EQ(0xd39eeb71bb5342e8ull, XXPH3("abc"));
  EXPECT_EQ(0xd01b7c7e779097a0ull, XXPH3("key00001"));
  EXPECT_EQ(0x527e8fcc4e3e44cfull, XXPH3("hello world!!!!"));
  EXPECT_EQ(0x61c637ab957e33d1ull, XXPH3(std::string(17, 'x')));
  EXPECT_EQ(0x93096ee9519d02e5ull, XXPH3(std::string(129, 'y')));
  EXPECT_EQ(0x63e221fd4e105856ull, XXPH3(std::string(241, 'z')));
  std::string all_bytes;
  for (int rep = 0; rep < 5; rep++) {
    for (int b = 0; b < 256; b++) all_bytes.push_back(static_cast<char>(b));
  }
  ASSERT_EQ(1280u, all_bytes.size());
  EXPECT_EQ(0xebd00ec206559bf1ull, XXPH3(all_bytes));
}

// Released XXH3 differs from the preview one (docs/format/encoding.md (Hashes)).
TEST(HashTest, ReleasedXXH3Vectors) {
  EXPECT_EQ(0x2d06800538d394c2ull, XXH3_64("", 0));
  EXPECT_EQ(0xe6c632b61e964e1full, XXH3_64("a", 1));
  EXPECT_EQ(0xbfbaf3ccfdf9c744ull, XXH3_64("key00001", 8));
}

// docs/format/encoding.md (Hashes).
TEST(HashTest, Hash32FormatVectors) {
  EXPECT_EQ(0xbc9f1d34u, Hash32("", 0, 0xbc9f1d34u));
  EXPECT_EQ(0x286e9db0u, Hash32("a", 1, 0xbc9f1d34u));
  EXPECT_EQ(0x760a495fu, Hash32("key00001", 8, 0xbc9f1d34u));
  EXPECT_EQ(0x5c8473b1u, Hash32("a", 1, 397));
  EXPECT_EQ(0xa9a30e7bu, Hash32("key00001", 8, 397));
}

// Deterministic test input; the values below were produced by librocksdb
// 7.8.3 (Hash64, Hash64 with seed, Hash) and libxxhash (XXH3_64bits) on the
// same bytes, via /work/shared/tools/rocksfmt/rlib.py.
std::string PatternBytes(size_t n) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; i++) {
    s[i] = static_cast<char>(((i * 131 + 7) ^ (i >> 8)) & 0xff);
  }
  return s;
}

struct OracleVector {
  size_t len;
  uint64_t xxph3;         // seed 0
  uint64_t xxph3_seeded;  // seed 0x123456789abcdef0
  uint64_t xxh3;
  uint32_t hash32;  // seed 0xbc9f1d34
};

constexpr uint64_t kOracleSeed = 0x123456789abcdef0ull;

// Every length class of XXPH3 and the boundaries between them, including
// the 1024-byte block boundaries of the long path.
const OracleVector kOracle[] = {
    {0, 0x5342c3010fe1dd04ull, 0x14c9f49e2ce257e2ull, 0x2d06800538d394c2ull, 0xbc9f1d34u},
    {1, 0xb71d295c7865c7e9ull, 0xcf01bc074b1a8a3aull, 0x4c5cca45d0f4811full, 0x528bb3b8u},
    {2, 0x777096a9131e825dull, 0x17dd705803051a0dull, 0x29c60963cbfa4e6eull, 0x7665b12du},
    {3, 0x8b93d65306b47960ull, 0x38078b3a96554a70ull, 0x6e3e2670e61106acull, 0x76b40f8au},
    {4, 0x640dfa78d9602caaull, 0x8c04f51d505a9888ull, 0x5c4c63133443d03full, 0x96b20e5fu},
    {5, 0x407604ac2e18c141ull, 0xb2e42d34b0ec039bull, 0x49f5eb3111280b63ull, 0xaa04b758u},
    {7, 0x238a82301009f53full, 0x53a2e51bd57b789full, 0x46a5c724d51fe43full, 0x797702c3u},
    {8, 0xe02bb0260ca2f426ull, 0x82a0922125a04552ull, 0xf9fd4dd0b04d78f5ull, 0x49d181acu},
    {9, 0x82e27d91ecbde0e3ull, 0xaa56eafc03418d58ull, 0x7c20df9712c26edfull, 0xe93f0431u},
    {15, 0x42742cff0156771eull, 0x12943d5b682d5641ull, 0xb345a7b2698ba575ull, 0xc5162e68u},
    {16, 0x808dc7f6a08e1828ull, 0xf8c2dd355f9d8af5ull, 0x86abf6baccea0858ull, 0x15e62df4u},
    {17, 0x6216c07c87bfe5d1ull, 0x45f36a9f2a97a256ull, 0xb58bf5dc5022d071ull, 0x656af32fu},
    {31, 0xbd66bc2da03a2366ull, 0x877765de12e79d5aull, 0x48442fcd5518b086ull, 0xa1da4574u},
    {32, 0xf1baab985ecf232eull, 0x099830622669c441ull, 0xe3712ed84c04a66eull, 0x80ba992cu},
    {33, 0x48c3ee9be5231873ull, 0xb23a40276e08a8d7ull, 0xa4dee99b093e1f73ull, 0x9bb1985eu},
    {63, 0x47c3b0964ac5935bull, 0x2adee8b52938be72ull, 0x30ca01f63dcc223bull, 0xacfba020u},
    {64, 0xec9764f4fa2586fdull, 0xdc7e3c449e29b6d3ull, 0x1291d2d4042330ddull, 0xd4813abbu},
    {65, 0x070482c3b1bc6389ull, 0x62f13599e2dee07eull, 0x97c6bf83217e5ec9ull, 0xefd8a67cu},
    {95, 0x0a9291e94bdd860dull, 0x01338f781f91baddull, 0x31bc916970f3868dull, 0x85e3d43eu},
    {96, 0x8bf55ea9f6da04e5ull, 0x2e716a1fdf259c1dull, 0x81296929fc063365ull, 0x6c0cd363u},
    {97, 0x682d0b1bfce2169dull, 0x730c2e1ec22d5501ull, 0xf145a45b658ab9ddull, 0xb36755aeu},
    {127, 0x95709ca17c3e6735ull, 0x98f2e2fb39994c65ull, 0xed4cf62104020db5ull, 0xc2f28318u},
    {128, 0xb885f0d2689835e1ull, 0x8e560a38fabf032dull, 0x10d17f72c0ccba41ull, 0x792d9747u},
    {129, 0xfe146eb2e99b1a68ull, 0xd49ecd2232f8c3f9ull, 0x1648bdc3db49d1a2ull, 0x4c6eafbfu},
    {135, 0x81eec8edc939b74bull, 0x7bf3622f90245314ull, 0xcd2a45f557070ffbull, 0x8bdf3aa0u},
    {136, 0xe3a2d084cb646874ull, 0x4c011d0d9bd1f09dull, 0xf6a2f1e8e3afe8a7ull, 0x5e6f2144u},
    {137, 0xe5e3275c7d129d26ull, 0x88e79e7ae4459bb7ull, 0x85fea6414de1d87dull, 0xb44f71cbu},
    {200, 0xdc07fbe307a7cb37ull, 0xb69bc425f7224544ull, 0xc0fbc0f4e181c826ull, 0x866bff11u},
    {239, 0xc3cece2158c77b46ull, 0x98b65e424745e24full, 0xf0d154819adb16cdull, 0xc47d814du},
    {240, 0xddce7abbd046abf1ull, 0x4e32519aaecaf7bbull, 0xb6cfaf343fab81e6ull, 0x76f21f7au},
    {241, 0xb1e53475de84b071ull, 0xee6bac38ed2bb229ull, 0x956cae592c67279eull, 0x24bfe8beu},
    {255, 0xdd49cac5ccf4b3d0ull, 0x5e478b2afd79450dull, 0x64a6073025eb7929ull, 0xbe168056u},
    {256, 0xd4e21b1ad9fad6c0ull, 0xd98b1fc463e4552bull, 0xb15e550733c5dfacull, 0x55908e90u},
    {257, 0x7a3dc55bdb0c3b93ull, 0xa9a39b42dec5868dull, 0x67ce5a3104c5c55cull, 0x344648bbu},
    {300, 0xf61ea3ee781905e1ull, 0x27e4f42449c76b33ull, 0x5ed68292bd7c60cbull, 0x5a76fae7u},
    {511, 0x79f90a0ec2c5b3b0ull, 0x98ba599cde2dee4eull, 0x5f7a0da3417107f7ull, 0xb3a57bbdu},
    {512, 0x1da598be6baf1daaull, 0x766192213a5f9ccaull, 0xf3daee1367be4526ull, 0x3d407eecu},
    {513, 0x5eaefd6ea979a950ull, 0x2bb7ff9cd73efc7cull, 0x2136c650e0cff516ull, 0x52d09d65u},
    {1023, 0x5568d217a8dbaea0ull, 0xa01d5cd5b4991be8ull, 0xdf6d4cdaf9acd422ull, 0x4c17a1c9u},
    {1024, 0x4ebc4ff7f0354124ull, 0x7588929356467f3bull, 0x9fb9947417c15b80ull, 0x6d0452e6u},
    {1025, 0xc613d046f027816eull, 0x9352d83ddd38a05dull, 0xfe1b47100b1d79d8ull, 0xdfb1d902u},
    {1088, 0xd3ed6284300f4f17ull, 0x3891161ce205b9ddull, 0xf8d459d5974f3cd7ull, 0x7f20693du},
    {2047, 0xae5b3b3d0a3f0cffull, 0x6ebab217be6874caull, 0x56e292894cea951dull, 0x8109f27au},
    {2048, 0xb82fdc1a10b1372full, 0x376bef58bbd33b7cull, 0x650cf45cdde6160aull, 0x533c3146u},
    {2049, 0x7c8625c9f766fbb5ull, 0x416cf51a5787d54eull, 0x8ea2bf53ff2e0a3aull, 0x49c33fe3u},
    {4096, 0x55118104bce22403ull, 0x796de94323aabac0ull, 0x0daed5401db51994ull, 0x93de02bbu},
    {5000, 0x2cd10c3780827e91ull, 0x3aff6dc386652057ull, 0x35597b69007b5f47ull, 0x20cfd404u},
    {10000, 0x5c42584bafd4362cull, 0x59ef924e1769eb32ull, 0x8cf4235729d63a12ull, 0x715f780cu},
};

TEST(HashTest, MatchesLibrocksdbAtEveryLengthClass) {
  for (const OracleVector& v : kOracle) {
    const std::string s = PatternBytes(v.len);
    EXPECT_EQ(v.xxph3, XXPH3(s)) << "len " << v.len;
    EXPECT_EQ(v.xxph3_seeded, XXPH3(s, kOracleSeed)) << "len " << v.len;
    EXPECT_EQ(v.xxh3, XXH3_64(s.data(), s.size())) << "len " << v.len;
    EXPECT_EQ(v.hash32, Hash32(s.data(), s.size(), 0xbc9f1d34u)) << "len " << v.len;
  }
}

TEST(HashTest, DefaultSeedIsZero) {
  const std::string s = PatternBytes(300);
  for (size_t n = 0; n <= s.size(); n++) {
    ASSERT_EQ(XXPH3_64(s.data(), n), XXPH3_64(s.data(), n, 0)) << n;
  }
}

TEST(HashTest, ReadsOnlyItsInputAndSeesEveryByte) {
  std::mt19937_64 rng(test::RandomSeed());
  for (size_t n = 1; n <= 600; n++) {
    std::string s = test::RandomBytes(&rng, n);
    // The same bytes at a different address (and with different neighbours)
    // hash the same.
    std::string padded = "\x01\x02\x03" + s + "\x04\x05\x06";
    ASSERT_EQ(XXPH3(s), XXPH3_64(padded.data() + 3, n)) << n;
    ASSERT_EQ(Hash32(s.data(), n, 397), Hash32(padded.data() + 3, n, 397)) << n;
    // Flipping any one bit changes the 64-bit hash.
    const uint64_t before = XXPH3(s);
    const size_t pos = rng() % n;
    s[pos] = static_cast<char>(s[pos] ^ (1 << (rng() % 8)));
    ASSERT_NE(before, XXPH3(s)) << "len " << n << " pos " << pos;
  }
}

}  // namespace
}  // namespace strata
