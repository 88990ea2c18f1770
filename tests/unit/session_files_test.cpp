// What a recorded session leaves on the disk, read back: ids, segment
// names, heads, sidecars and events, and what the readers refuse.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "sessions/session_files.h"

namespace voxl::sessions {
namespace {

TEST(SessionFiles, IdsAreTheUtcTimeAndARandomSuffix) {
  const std::string id = session_id(1764929700123, 0xabc123);
  EXPECT_EQ(id, "20251205T101500Z-abc123");
  EXPECT_TRUE(valid_session_id(id));
  for (const char* bad : {"", "20251205T101500Z-abc12", "20251205T101500Z-ABC123", "../../etc/passwd0000000",
                          "20251205T101500Z/abc123", "2025120XT101500Z-abc123", "20251205T101500Z-abc1234"})
    EXPECT_FALSE(valid_session_id(bad)) << bad;
}

TEST(SessionFiles, SegmentNamesCarryTheirIndexOnly) {
  EXPECT_EQ(segment_video(7), "0007.mp4");
  EXPECT_EQ(segment_part(7), "0007.mp4.part");
  EXPECT_EQ(segment_sidecar(12345), "12345.json");
  EXPECT_EQ(segment_index("0007.mp4", ".mp4"), 7);
  EXPECT_EQ(segment_index("12345.json", ".json"), 12345);
  for (const char* bad : {"7.mp4", "0000.mp4", "00007.mp4", "0007.mp4.part", "-007.mp4", "0007.json", ".mp4"})
    EXPECT_FALSE(segment_index(bad, ".mp4")) << bad;
  EXPECT_EQ(segment_index("0007.mp4.part", ".mp4.part"), 7);
}

TEST(SessionFiles, HeadsAndSidecarsReadBackWhatWasWritten) {
  std::string error;
  const auto head = parse_head(head_text({"20251205T101500Z-abc123", 1764929700123}), error);
  ASSERT_TRUE(head) << error;
  EXPECT_EQ(head->started_ms, 1764929700123);

  SegmentInfo s;
  s.index = 3;
  s.start_ms = 240000;
  s.duration_ms = 119967;
  s.bytes = 5 << 20;
  s.frames = 3000;
  s.width = 1920;
  s.height = 1080;
  s.users = {"", "alice", "bö"};
  s.ended = "length";
  const auto back = parse_sidecar(sidecar_text(s), error);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(back->index, 3);
  EXPECT_EQ(back->start_ms, 240000);
  EXPECT_EQ(back->duration_ms, 119967);
  EXPECT_EQ(back->bytes, uint64_t(5) << 20);
  EXPECT_EQ(back->users, s.users);
  EXPECT_EQ(back->ended, "length");
}

TEST(SessionFiles, EditedFilesAreRefusedWithAReason) {
  std::string error;
  EXPECT_FALSE(parse_head(R"({"id":"../x","started_ms":1})", error));
  EXPECT_FALSE(parse_head("[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]", error));
  EXPECT_EQ(error, "nested too deeply");
  EXPECT_FALSE(parse_sidecar(R"({"index":0,"start_ms":0,"duration_ms":0,"bytes":0,"frames":0,"width":0,"height":0})",
                             error));
  EXPECT_FALSE(parse_sidecar(R"({"index":1,"start_ms":0,"duration_ms":0,"bytes":0,"frames":0,"width":0,"height":0,)"
                             R"("users":[1]})",
                             error));
  EXPECT_FALSE(parse_sidecar(R"({"index":1,"start_ms":-5,"duration_ms":0,"bytes":0,"frames":0,"width":0,"height":0})",
                             error));
  EXPECT_FALSE(parse_sidecar(std::string(300 * 1024, ' '), error));
}

TEST(SessionFiles, EventsReadInOrderPastATornLastLine) {
  std::string text = event_line(0, "connect", nlohmann::json{{"user", "alice"}, {"viewer", 1}});
  text += event_line(1500, "keys", nlohmann::json{{"user", "alice"}, {"count", 12}, {"t_ms", 99}});
  text += "not json\n";
  text += R"({"event":"leave","t_ms":)";
  const EventsRead r = parse_events(text, 10);
  ASSERT_EQ(r.events.size(), 2u);
  EXPECT_EQ(r.events[1]["t_ms"], 1500) << "the line's own time wins over a field of that name";
  EXPECT_EQ(r.events[1]["count"], 12);
  EXPECT_EQ(r.skipped, 2u);
  EXPECT_FALSE(r.truncated);
  EXPECT_TRUE(parse_events(text, 1).truncated);
}

TEST(SessionFiles, AnEventWithBadUtf8IsWrittenNotThrown) {
  const std::string line = event_line(5, "clipboard", nlohmann::json{{"mime", std::string("text/\xff")}});
  EXPECT_EQ(parse_events(line, 1).events.size(), 1u);
}

}  // namespace
}  // namespace voxl::sessions
