#include "stream/video/rung_planner.h"

#include <gtest/gtest.h>

#include <vector>

namespace voxl::stream {
namespace VOXL_TEST_FILE {

using namespace std::chrono_literals;
using Time = RungPlanner::Time;

RungSeat seat(int kbps, int rung = 0) {
  RungSeat s;
  s.link_kbps = kbps;
  s.rung = rung;
  return s;
}

std::vector<int> rungs_of(const std::vector<RungSeat>& seats) {
  std::vector<int> out;
  for (const auto& s : seats) out.push_back(s.rung);
  return out;
}

TEST(RungPlanner, GroupsViewersByLinkFastestFirst) {
  RungPlanner p;
  std::vector<int> g;
  // A LAN viewer, a 2 Mbit/s one, one not measured yet and a second fast one.
  const std::vector<RungSeat> seats{seat(30000), seat(2000), seat(0), seat(25000)};
  p.groups(seats, 2, g);
  EXPECT_EQ(g, (std::vector<int>{0, 1, 0, 0})) << "25000 is within the dead band of 30000; 2000 is not";
  p.groups(seats, 1, g);
  EXPECT_EQ(g, (std::vector<int>{0, 0, 0, 0})) << "one rung: everyone shares it";
}

TEST(RungPlanner, MoreGroupsThanRungsShareTheSlowestRung) {
  RungPlanner p;
  std::vector<int> g;
  const std::vector<RungSeat> seats{seat(1000), seat(30000), seat(8000), seat(3000)};
  p.groups(seats, 2, g);
  EXPECT_EQ(g, (std::vector<int>{1, 0, 1, 1}));
  p.groups(seats, 4, g);
  EXPECT_EQ(g, (std::vector<int>{3, 0, 1, 2})) << "each a rung of its own with four";
}

TEST(RungPlanner, ARecordingAndUnmeasuredViewersTakeTheTopRungWithoutSettingIt) {
  RungPlanner p;
  std::vector<int> g;
  RungSeat recorder = seat(0);
  recorder.pinned_top = true;
  // Only slow viewers: they head rung 0 themselves, with the recording.
  std::vector<RungSeat> seats{recorder, seat(2000), seat(0)};
  p.groups(seats, 2, g);
  EXPECT_EQ(g, (std::vector<int>{0, 0, 0}));
  seats.push_back(seat(30000));
  p.groups(seats, 2, g);
  EXPECT_EQ(g, (std::vector<int>{0, 1, 0, 0}));
}

TEST(RungPlanner, TheDeadBandDependsOnWhereAViewerIsNow) {
  RungPlanner p;
  std::vector<int> g;
  // 18000 of 30000 is 60%: above the share to stay, below the share to join.
  p.groups(std::vector<RungSeat>{seat(30000), seat(18000, 0)}, 2, g);
  EXPECT_EQ(g, (std::vector<int>{0, 0})) << "on rung 0 it stays";
  p.groups(std::vector<RungSeat>{seat(30000), seat(18000, 1)}, 2, g);
  EXPECT_EQ(g, (std::vector<int>{0, 1})) << "on rung 1 it does not come up";
  p.groups(std::vector<RungSeat>{seat(30000), seat(22000, 1)}, 2, g);
  EXPECT_EQ(g, (std::vector<int>{0, 0})) << "past the share to join it does";
}

TEST(RungPlanner, MovesDownOnlyAfterTheDownHold) {
  RungPlanner p;
  const Time t0{std::chrono::hours(1)};
  std::vector<RungSeat> seats{seat(30000), seat(0)};
  EXPECT_FALSE(p.plan(seats, 2, t0));
  seats[1].link_kbps = 2000;  // measured: a slow link
  EXPECT_FALSE(p.plan(seats, 2, t0 + 10ms)) << "not at the first sign";
  EXPECT_EQ(seats[1].leaning_to, 1);
  EXPECT_FALSE(p.plan(seats, 2, t0 + 10ms + RungPlanner::kDownHold - 1ms));
  EXPECT_TRUE(p.plan(seats, 2, t0 + 10ms + RungPlanner::kDownHold));
  EXPECT_EQ(rungs_of(seats), (std::vector<int>{0, 1}));
  EXPECT_EQ(seats[1].leaning_to, -1);
}

TEST(RungPlanner, ABriefDipDoesNotMoveAViewer) {
  RungPlanner p;
  const Time t0{std::chrono::hours(1)};
  std::vector<RungSeat> seats{seat(30000), seat(28000)};
  seats[1].link_kbps = 5000;
  p.plan(seats, 2, t0);
  seats[1].link_kbps = 27000;  // recovered within the hold
  p.plan(seats, 2, t0 + 500ms);
  seats[1].link_kbps = 5000;  // and dips again: the hold starts over
  p.plan(seats, 2, t0 + 900ms);
  EXPECT_FALSE(p.plan(seats, 2, t0 + 1200ms));
  EXPECT_EQ(rungs_of(seats), (std::vector<int>{0, 0}));
  EXPECT_TRUE(p.plan(seats, 2, t0 + 900ms + RungPlanner::kDownHold));
  EXPECT_EQ(rungs_of(seats), (std::vector<int>{0, 1}));
}

TEST(RungPlanner, MovesUpOnlyAfterTheLongerUpHold) {
  RungPlanner p;
  const Time t0{std::chrono::hours(1)};
  std::vector<RungSeat> seats{seat(30000, 0), seat(2000, 1)};
  EXPECT_FALSE(p.plan(seats, 2, t0));
  seats[1].link_kbps = 29000;  // its link got better
  EXPECT_FALSE(p.plan(seats, 2, t0 + 1ms));
  EXPECT_FALSE(p.plan(seats, 2, t0 + 1ms + RungPlanner::kDownHold));
  EXPECT_FALSE(p.plan(seats, 2, t0 + 1ms + RungPlanner::kUpHold - 1ms));
  EXPECT_TRUE(p.plan(seats, 2, t0 + 1ms + RungPlanner::kUpHold));
  EXPECT_EQ(rungs_of(seats), (std::vector<int>{0, 0}));
}

TEST(RungPlanner, ARungTakenAwayMovesItsViewersAtOnce) {
  RungPlanner p;
  const Time t0{std::chrono::hours(1)};
  std::vector<RungSeat> seats{seat(30000, 0), seat(2000, 1)};
  EXPECT_TRUE(p.plan(seats, 1, t0)) << "the ladder shrank to one rung";
  EXPECT_EQ(rungs_of(seats), (std::vector<int>{0, 0}));
}

TEST(RungPlanner, TheLastFastViewerLeavingLetsTheSlowOneUpAfterTheHold) {
  RungPlanner p;
  const Time t0{std::chrono::hours(1)};
  std::vector<RungSeat> seats{seat(2000, 1)};
  EXPECT_FALSE(p.plan(seats, 2, t0));
  EXPECT_TRUE(p.plan(seats, 2, t0 + RungPlanner::kUpHold)) << "alone, it heads rung 0";
  EXPECT_EQ(seats[0].rung, 0);
}

TEST(RungPlanner, APinnedSeatMovesAtOnce) {
  RungPlanner p;
  RungSeat rec = seat(0, 1);
  rec.pinned_top = true;
  std::vector<RungSeat> seats{seat(30000), seat(2000, 1), rec};
  EXPECT_TRUE(p.plan(seats, 2, Time{std::chrono::hours(1)}));
  EXPECT_EQ(rungs_of(seats), (std::vector<int>{0, 1, 0}));
}

}  // namespace
}  // namespace voxl::stream
