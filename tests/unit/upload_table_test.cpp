#include "files/upload_table.h"

#include <gtest/gtest.h>

namespace voxl::files {
namespace VOXL_TEST_FILE {

using namespace std::chrono_literals;
using Clock = UploadTable::Clock;
using Verdict = UploadTable::Verdict;

Upload make(const std::string& id, uint64_t size, Clock::time_point at) {
  Upload u;
  u.id = id;
  u.target = "Downloads/" + id;
  u.partial = "Downloads/.voxl-upload-" + id + ".part";
  u.size = size;
  u.touched = at;
  return u;
}

TEST(UploadTable, ChunksMustComeInOrderAndWithinTheSize) {
  UploadTable t(4, 1h);
  const auto t0 = Clock::time_point{} + 1000h;
  ASSERT_TRUE(t.add(make("a", 100, t0)));
  EXPECT_EQ(t.check_chunk("a", 0, 40), Verdict::kOk);
  EXPECT_EQ(t.check_chunk("a", 10, 40), Verdict::kWrongOffset);
  EXPECT_EQ(t.check_chunk("a", 0, 101), Verdict::kPastEnd);
  EXPECT_EQ(t.check_chunk("b", 0, 1), Verdict::kUnknown);
  Upload* u = t.find("a");
  t.advance(*u, 40, t0 + 1s);
  EXPECT_EQ(u->offset, 40u);
  EXPECT_EQ(t.check_chunk("a", 0, 40), Verdict::kWrongOffset);  // a repeat of a confirmed chunk
  EXPECT_EQ(t.check_chunk("a", 40, 60), Verdict::kOk);
  EXPECT_EQ(t.check_chunk("a", 40, 61), Verdict::kPastEnd);
  EXPECT_EQ(t.check_chunk("a", 40, 0), Verdict::kOk);  // an empty chunk is harmless
  u->busy = true;
  EXPECT_EQ(t.check_chunk("a", 40, 60), Verdict::kBusy);
  u->busy = false;
  u->cancelled = true;
  EXPECT_EQ(t.check_chunk("a", 40, 60), Verdict::kUnknown);
}

TEST(UploadTable, BoundedInCountAndIdsAreUnique) {
  UploadTable t(2, 1h);
  const auto t0 = Clock::time_point{} + 1000h;
  EXPECT_TRUE(t.add(make("a", 1, t0)));
  EXPECT_FALSE(t.add(make("a", 1, t0)));
  EXPECT_TRUE(t.add(make("b", 1, t0)));
  EXPECT_TRUE(t.full());
  EXPECT_FALSE(t.add(make("c", 1, t0)));
  t.remove("a");
  EXPECT_TRUE(t.add(make("c", 1, t0)));
}

TEST(UploadTable, OutstandingBytesCountWhatIsStillToCome) {
  UploadTable t(4, 1h);
  const auto t0 = Clock::time_point{} + 1000h;
  t.add(make("a", 100, t0));
  t.add(make("b", 50, t0));
  t.advance(*t.find("a"), 30, t0);
  EXPECT_EQ(t.outstanding_bytes(), 120u);
}

TEST(UploadTable, UntouchedUploadsExpireButNotBusyOnes) {
  UploadTable t(4, 1h);
  const auto t0 = Clock::time_point{} + 1000h;
  t.add(make("old", 10, t0));
  t.add(make("busy", 10, t0));
  t.add(make("fresh", 10, t0));
  t.find("busy")->busy = true;
  t.advance(*t.find("fresh"), 1, t0 + 50min);
  EXPECT_EQ(t.next_expiry(), t0 + 1h);
  EXPECT_TRUE(t.expire(t0 + 59min).empty());
  const auto gone = t.expire(t0 + 1h);
  ASSERT_EQ(gone.size(), 1u);
  EXPECT_EQ(gone[0].id, "old");
  EXPECT_NE(t.find("busy"), nullptr);
  EXPECT_EQ(t.next_expiry(), t0 + 1h);  // the busy one, due but held
  const auto later = t.expire(t0 + 2h);
  ASSERT_EQ(later.size(), 1u);
  EXPECT_EQ(later[0].id, "fresh");
}

}  // namespace
}  // namespace voxl::files
