// GetAllKeyVersions (strata/utilities/debug.h): every stored version of a
// key range, from the memtable and the tables together, with sequence
// numbers and RocksDB's type codes and names; bounds, limits and errors.

#include <memory>
#include <string>
#include <vector>

#include "strata/db.h"
#include "strata/utilities/debug.h"
#include "test_util/db_test_base.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

class DBDebugTest : public DBTestBase {
 protected:
  DBDebugTest() : DBTestBase("db_debug_test") {}

  std::string Dump(ColumnFamilyHandle* cf, const Slice& begin, const Slice& end, size_t max) {
    std::vector<KeyVersion> v;
    EXPECT_OK(GetAllKeyVersions(db_.get(), cf, begin, end, max, &v));
    std::string r;
    for (const KeyVersion& k : v) {
      r += k.user_key + "@" + std::to_string(k.sequence) + ":" + k.GetTypeName() + "=" + k.value +
           " ";
    }
    return r;
  }
};

TEST_F(DBDebugTest, VersionsFromMemtableAndTables) {
  Options o = SmallOptions();
  o.disable_auto_compactions = true;
  DestroyAndReopen(o);
  ASSERT_OK(Put("a", "1"));  // 1
  ASSERT_OK(Put("b", "2"));  // 2
  ASSERT_OK(Flush());
  ASSERT_OK(Put("a", "3"));      // 3
  ASSERT_OK(Delete("b"));        // 4
  ASSERT_OK(SingleDelete("c"));  // 5
  ASSERT_OK(Put("d", "4"));      // 6
  ColumnFamilyHandle* cf = db_->DefaultColumnFamily();
  EXPECT_EQ(Dump(cf, "", "", 100),
            "a@3:TypeValue=3 a@1:TypeValue=1 b@4:TypeDeletion= b@2:TypeValue=2 "
            "c@5:TypeSingleDeletion= d@6:TypeValue=4 ");
  // Bounds (both inclusive) and the limit.
  EXPECT_EQ(Dump(cf, "b", "c", 100), "b@4:TypeDeletion= b@2:TypeValue=2 c@5:TypeSingleDeletion= ");
  EXPECT_EQ(Dump(cf, "a", "", 3), "a@3:TypeValue=3 a@1:TypeValue=1 b@4:TypeDeletion= ");
  EXPECT_EQ(Dump(cf, "e", "", 100), "");
  // The default-family overload.
  std::vector<KeyVersion> v;
  ASSERT_OK(GetAllKeyVersions(db_.get(), "d", "d", 10, &v));
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].type, 1);
  // After a compaction the older versions are gone.
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  EXPECT_EQ(Dump(cf, "", "", 100), "a@3:TypeValue=3 d@6:TypeValue=4 ");
}

TEST_F(DBDebugTest, Errors) {
  Open();
  std::vector<KeyVersion> v;
  EXPECT_EQ(GetAllKeyVersions(nullptr, "", "", 1, &v).ToString(),
            "Invalid argument: db cannot be null.");
  EXPECT_EQ(GetAllKeyVersions(db_.get(), nullptr, "", "", 1, &v).ToString(),
            "Invalid argument: Column family handle cannot be null.");
  EXPECT_EQ(GetAllKeyVersions(db_.get(), "", "", 1, nullptr).ToString(),
            "Invalid argument: key_versions cannot be null.");
  EXPECT_EQ(KeyVersion("k", "", 1, 2).GetTypeName(), "TypeMerge");
  EXPECT_EQ(KeyVersion("k", "", 1, 0x17).GetTypeName(), "TypeColumnFamilyWideColumnEntity");
  EXPECT_EQ(KeyVersion("k", "", 1, 0x18).GetTypeName(), "Invalid");
  EXPECT_EQ(KeyVersion("k", "", 1, -1).GetTypeName(), "Invalid");
}

}  // namespace
}  // namespace strata
