#include "table/format.h"

#include <string>

#include "test_util/testutil.h"
#include "util/coding.h"
#include "util/crc32c.h"
#include "util/hash.h"

namespace strata {
namespace {

TEST(FormatTest, BlockHandleRoundTrip) {
  for (uint64_t off : {0ull, 1ull, 127ull, 128ull, 967ull, 1ull << 40, ~0ull}) {
    for (uint64_t size : {0ull, 18ull, 300ull, ~0ull}) {
      std::string enc;
      BlockHandle(off, size).EncodeTo(&enc);
      ASSERT_LE(enc.size(), BlockHandle::kMaxEncodedLength);
      enc += "tail";
      Slice in(enc);
      BlockHandle h;
      ASSERT_OK(h.DecodeFrom(&in));
      ASSERT_EQ(h.offset(), off);
      ASSERT_EQ(h.size(), size);
      ASSERT_EQ(in.ToString(), "tail");
    }
  }
  Slice bad("\x80", 1);
  BlockHandle h;
  ASSERT_TRUE(h.DecodeFrom(&bad).IsCorruption());
}

std::string RealFooter() {
  // docs/format/footer.md: metaindex @967 len 32, index @68 len 18, kXXH3.
  std::string f("\x04\xc7\x07\x20\x44\x12", 6);
  f.resize(41, '\0');
  f += std::string("\x05\x00\x00\x00\xf7\xcf\xf4\x85\xb7\x41\xe2\x88", 12);
  return f;
}

TEST(FormatTest, RealFooter) {
  const std::string bytes = RealFooter();
  ASSERT_EQ(bytes.size(), Footer::kNewFooterLength);
  Footer f;
  ASSERT_OK(f.DecodeFrom("file contents before" + bytes));
  ASSERT_EQ(f.checksum_type(), kXXH3);
  ASSERT_EQ(f.format_version(), 5u);
  ASSERT_EQ(f.metaindex_handle().offset(), 967u);
  ASSERT_EQ(f.metaindex_handle().size(), 32u);
  ASSERT_EQ(f.index_handle().offset(), 68u);
  ASSERT_EQ(f.index_handle().size(), 18u);

  Footer g;
  g.set_checksum_type(kXXH3);
  g.set_metaindex_handle(BlockHandle(967, 32));
  g.set_index_handle(BlockHandle(68, 18));
  std::string enc;
  g.EncodeTo(&enc);
  ASSERT_EQ(enc, bytes);
}

TEST(FormatTest, FooterRoundTripMaxHandles) {
  for (ChecksumType t : {kNoChecksum, kCRC32c, kxxHash, kxxHash64, kXXH3}) {
    Footer f;
    f.set_checksum_type(t);
    f.set_metaindex_handle(BlockHandle(~0ull, ~0ull));
    f.set_index_handle(BlockHandle(~0ull - 1, 12345));
    std::string enc;
    f.EncodeTo(&enc);
    ASSERT_EQ(enc.size(), 53u);
    Footer g;
    ASSERT_OK(g.DecodeFrom(enc));
    ASSERT_EQ(g.checksum_type(), t);
    ASSERT_EQ(g.metaindex_handle().offset(), ~0ull);
    ASSERT_EQ(g.metaindex_handle().size(), ~0ull);
    ASSERT_EQ(g.index_handle().offset(), ~0ull - 1);
    ASSERT_EQ(g.index_handle().size(), 12345u);
  }
}

TEST(FormatTest, LegacyFooter) {
  std::string f;
  BlockHandle(100, 20).EncodeTo(&f);
  BlockHandle(5, 6).EncodeTo(&f);
  f.resize(40, '\0');
  PutFixed64(&f, kLegacyBlockBasedTableMagicNumber);
  ASSERT_EQ(f.size(), Footer::kLegacyFooterLength);
  Footer g;
  ASSERT_OK(g.DecodeFrom(f));
  ASSERT_EQ(g.checksum_type(), kCRC32c);
  ASSERT_EQ(g.format_version(), 0u);
  ASSERT_EQ(g.metaindex_handle().offset(), 100u);
  ASSERT_EQ(g.index_handle().size(), 6u);
}

TEST(FormatTest, BadFooters) {
  Footer g;
  const std::string good = RealFooter();
  Status s = g.DecodeFrom(good.substr(1));
  ASSERT_TRUE(s.IsCorruption());  // 52 bytes: magic fine, too short
  std::string bad = good;
  bad[52] ^= 1;
  s = g.DecodeFrom(bad);
  ASSERT_TRUE(s.IsCorruption());
  ASSERT_NE(s.ToString().find("magic"), std::string::npos) << s.ToString();
  bad = good;
  bad[41] = 6;
  s = g.DecodeFrom(bad);
  ASSERT_TRUE(s.IsCorruption());
  ASSERT_NE(s.ToString().find("format_version"), std::string::npos) << s.ToString();
  bad = good;
  bad[0] = 5;
  s = g.DecodeFrom(bad);
  ASSERT_TRUE(s.IsCorruption());
  ASSERT_NE(s.ToString().find("checksum type"), std::string::npos) << s.ToString();
  bad = good;
  for (int i = 1; i < 41; i++) bad[i] = '\x80';  // unterminated varints
  ASSERT_TRUE(g.DecodeFrom(bad).IsCorruption());
  ASSERT_TRUE(g.DecodeFrom("short").IsCorruption());
}

TEST(FormatTest, Checksums) {
  const std::string block = "some block contents of moderate length 0123456789";
  const char* d = block.data();
  const size_t n = block.size();
  ASSERT_EQ(ComputeBlockChecksum(kNoChecksum, d, n, 0), 0u);
  // kCRC32c: masked crc32c over contents followed by the type byte.
  const std::string with_type = block + std::string(1, '\x02');
  ASSERT_EQ(ComputeBlockChecksum(kCRC32c, d, n, 2),
            crc32c::Mask(crc32c::Value(with_type.data(), with_type.size())));
  // kXXH3: type folded in afterwards; for type 0 the low 32 bits of XXH3.
  const uint32_t low = static_cast<uint32_t>(XXH3_64(d, n));
  ASSERT_EQ(ComputeBlockChecksum(kXXH3, d, n, 0), low);
  ASSERT_EQ(ComputeBlockChecksum(kXXH3, d, n, 7), low ^ (7u * 0x6B9083D9u));
  ASSERT_EQ(ComputeBlockChecksum(kXXH3, d, 0, 0), 0u);
  // XXH32 / XXH64 hash contents|type (checked against Python below).
  ASSERT_NE(ComputeBlockChecksum(kxxHash, d, n, 0), ComputeBlockChecksum(kxxHash, d, n, 1));
  ASSERT_NE(ComputeBlockChecksum(kxxHash64, d, n, 0), ComputeBlockChecksum(kxxHash64, d, n, 1));
}

TEST(FormatTest, Crc32cCheckValue) {
  // crc32c("123456789") = e3069283, masked c78ab0e5 (docs/format/encoding.md (CRC32C and masking));
  // the last byte plays the type byte.
  ASSERT_EQ(ComputeBlockChecksum(kCRC32c, "12345678", 8, '9'), 0xc78ab0e5u);
}

TEST(FormatTest, XxHashReferenceValues) {
  // Published xxHash values for the input "a" (seed 0), given as empty
  // contents plus type byte 'a': XXH32("a") = 550d7456,
  // XXH64("a") = d24ec4f1a98c6e5b.
  ASSERT_EQ(ComputeBlockChecksum(kxxHash, "", 0, 'a'), 0x550d7456u);
  ASSERT_EQ(ComputeBlockChecksum(kxxHash64, "", 0, 'a'), 0xa98c6e5bu);
  // Released XXH3 of "" (docs/format/encoding.md (Hashes)).
  ASSERT_EQ(XXH3_64("", 0), 0x2d06800538d394c2ull);
}

TEST(FormatTest, VerifyBlockChecksum) {
  for (ChecksumType t : {kCRC32c, kxxHash, kxxHash64, kXXH3}) {
    std::string buf = "block payload bytes";
    const size_t n = buf.size();
    buf.push_back('\x00');
    PutFixed32(&buf, ComputeBlockChecksum(t, buf.data(), n, buf[n]));
    ASSERT_OK(VerifyBlockChecksum(t, buf.data(), n, "file 000001.sst offset 0"));
    for (size_t i = 0; i < buf.size(); i++) {
      std::string bad = buf;
      bad[i] ^= 0x10;
      Status s = VerifyBlockChecksum(t, bad.data(), n, "file 000001.sst offset 0");
      ASSERT_TRUE(s.IsCorruption()) << i;
      ASSERT_NE(s.ToString().find("block checksum mismatch"), std::string::npos);
      ASSERT_NE(s.ToString().find("000001.sst offset 0"), std::string::npos);
    }
  }
  std::string buf("x\x00\xde\xad\xbe\xef", 6);
  ASSERT_OK(VerifyBlockChecksum(kNoChecksum, buf.data(), 1, "ctx"));
}

// The footer of testdata/rocksdb-10.5.1/fv7/000009.sst, written by RocksDB
// 10.5.1 (testdata/README.md): kXXH3, base_context_checksum 0x78608114,
// metaindex of 131 bytes, footer at offset 17420.
std::string RocksDb1051Fv7Footer() {
  return std::string(
      "\x04\x3e\x00\x7a\x00\x8b\xa7\x22\x31\x14\x81\x60\x78\x83\x00\x00\x00"
      "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
      "\x00\x00\x00\x00\x00\x00\x00\x07\x00\x00\x00\xf7\xcf\xf4\x85\xb7\x41"
      "\xe2\x88",
      53);
}

TEST(FormatTest, RocksDbFv7FooterDecodesAndReencodes) {
  const std::string bytes = RocksDb1051Fv7Footer();
  ASSERT_EQ(bytes.size(), Footer::kNewFooterLength);
  constexpr uint64_t kFooterOffset = 17420;
  Footer f;
  ASSERT_OK(f.DecodeFrom(bytes, kFooterOffset));
  EXPECT_EQ(f.checksum_type(), kXXH3);
  EXPECT_EQ(f.format_version(), 7u);
  EXPECT_EQ(f.base_context_checksum(), 0x78608114u);
  EXPECT_EQ(f.metaindex_handle().offset(), kFooterOffset - 5 - 131);
  EXPECT_EQ(f.metaindex_handle().size(), 131u);

  // Our encoder produces the same 53 bytes, footer checksum included.
  Footer g;
  g.set_checksum_type(kXXH3);
  g.set_format_version(7);
  g.set_base_context_checksum(0x78608114u);
  g.set_metaindex_handle(BlockHandle(kFooterOffset - 5 - 131, 131));
  std::string enc;
  g.EncodeTo(&enc, kFooterOffset);
  EXPECT_EQ(Slice(enc).ToString(true), Slice(bytes).ToString(true));

  // The footer checksum includes the offset: the same bytes elsewhere fail.
  Footer h;
  Status s = h.DecodeFrom(bytes, kFooterOffset - 1);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(s.ToString().find("footer checksum mismatch at offset 17419"), std::string::npos);
}

TEST(FormatTest, ContextFooterRoundTripAndDamage) {
  for (ChecksumType t : {kNoChecksum, kCRC32c, kxxHash, kxxHash64, kXXH3}) {
    for (uint32_t fv : {6u, 7u}) {
      // A metaindex of 1000 bytes ending (trailer included) at 1u << 33.
      const uint64_t footer_offset = (uint64_t{1} << 33) + 17;
      Footer f;
      f.set_checksum_type(t);
      f.set_format_version(fv);
      f.set_base_context_checksum(0xdeadbeefu);
      f.set_metaindex_handle(BlockHandle(footer_offset - 5 - 1000, 1000));
      f.set_index_handle(BlockHandle(77, 88));  // not stored at 6+
      std::string enc;
      f.EncodeTo(&enc, footer_offset);
      ASSERT_EQ(enc.size(), Footer::kNewFooterLength);
      Footer d;
      ASSERT_OK(d.DecodeFrom("prefix" + enc, footer_offset - 6));
      EXPECT_EQ(d.checksum_type(), t);
      EXPECT_EQ(d.format_version(), fv);
      EXPECT_EQ(d.base_context_checksum(), 0xdeadbeefu);
      EXPECT_EQ(d.metaindex_handle().offset(), footer_offset - 1005);
      EXPECT_EQ(d.metaindex_handle().size(), 1000u);
      EXPECT_EQ(d.index_handle().size(), 0u);  // comes from the metaindex

      // Wrong offset: caught even without a checksum type (the context
      // modifier depends on the offset).
      ASSERT_TRUE(Footer().DecodeFrom(enc, footer_offset + 1).IsCorruption());
      // With a checksum type, every byte of the handles area is covered
      // (kNoChecksum: only the offset and the magic numbers).
      for (size_t i = 1; i < 41 && t != kNoChecksum; ++i) {
        std::string bad = enc;
        bad[i] ^= 0x01;
        Status s = Footer().DecodeFrom(bad, footer_offset);
        EXPECT_TRUE(s.IsCorruption()) << "byte " << i << ": " << s.ToString();
      }
      // Zero base: refused even with a matching checksum.
      Footer z = f;
      z.set_base_context_checksum(0);
      std::string zenc = enc;
      EncodeFixed32(zenc.data() + 9, 0);
      EXPECT_TRUE(Footer().DecodeFrom(zenc, footer_offset).IsCorruption());
      // Checked reserved bytes set, checksum fixed up: NotSupported.
      std::string future = enc;
      future[40] = 1;
      EncodeFixed32(future.data() + 5, 0);
      const uint32_t sum = ComputeBlockChecksum(t, future.data(), 52, future[52]) +
                           ChecksumModifierForContext(0xdeadbeefu, footer_offset);
      EncodeFixed32(future.data() + 5, sum);
      Status s = Footer().DecodeFrom(future, footer_offset);
      EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
      // A metaindex larger than what precedes the footer.
      Footer big = f;
      std::string benc;
      big.set_metaindex_handle(BlockHandle(0, 1000));
      big.EncodeTo(&benc, 1005);
      EXPECT_OK(Footer().DecodeFrom(benc, 1005));
      EXPECT_TRUE(Footer().DecodeFrom(benc, 1004).IsCorruption());
    }
  }
  // Versions above 7 are refused.
  std::string enc = RealFooter();
  EncodeFixed32(enc.data() + 41, 8);
  EXPECT_TRUE(Footer().DecodeFrom(enc).IsCorruption());
}

TEST(FormatTest, ChecksumModifierForContext) {
  EXPECT_EQ(ChecksumModifierForContext(0, 12345), 0u);
  EXPECT_EQ(ChecksumModifierForContext(0x12345678u, 0), 0x12345678u);
  EXPECT_EQ(ChecksumModifierForContext(0x12345678u, 0x100000001ull), 0x12345678u ^ 2u);
  EXPECT_EQ(ChecksumModifierForContext(1u, 0xffffffffull), 1u ^ 0xffffffffu);
  // Offsets 4 GiB apart differ too (the high word is added in).
  EXPECT_NE(ChecksumModifierForContext(7u, 100),
            ChecksumModifierForContext(7u, 100 + (1ull << 32)));
}

}  // namespace
}  // namespace strata
