// to_json(StreamFigures): the exact text /stats answers and a viewer's stats
// message starts from. The web client and the tests read these keys, so
// their names, their order (nlohmann sorts them) and the value types (whole
// numbers as integers, times and rate factors always with a decimal point)
// are pinned here.
#include "stream/fanout/stream_figures.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "base/json_text.h"

namespace voxl::stream {
namespace VOXL_TEST_FILE {

RungFigures sample_rung() {
  RungFigures r;
  r.fps = 30;
  r.kbps = 2400;
  r.key_frames = 1;
  r.frames_total = 1234;
  r.size = {1920, 1080};
  r.codec = "avc1.42C028";
  r.frame_rate = 60;
  r.rate_factor = 23.5;
  r.encoder_threads = 2;
  r.stripes = 1;
  r.stage_ms = {1.5, 0.25, 4.0, 7.125};
  return r;
}

TEST(StreamFigures, TheStreamAloneHasItsKeysAndNoLadder) {
  const StreamFigures f{sample_rung(), std::nullopt};
  EXPECT_EQ(json_text(to_json(f)),
            R"({"codec":"avc1.42C028","encoder_threads":2,"fps":30,"frame_rate":60,"frames_total":1234,)"
            R"("height":1080,"kbps":2400,"key_frames":1,"motion":"sharp","rate_factor":23.5,)"
            R"("stage_ms":{"capture":1.5,"convert":0.25,"encode":4.0,"to_loop":7.125},"stripes":1,"width":1920})");
}

TEST(StreamFigures, NothingMeasuredYetIsZerosWithDecimalPointsForTimes) {
  EXPECT_EQ(json_text(to_json(StreamFigures{})),
            R"({"codec":"","encoder_threads":0,"fps":0,"frame_rate":0,"frames_total":0,"height":0,"kbps":0,)"
            R"("key_frames":0,"motion":"sharp","rate_factor":0.0,"stage_ms":{"capture":0.0,"convert":0.0,"encode":0.0,"to_loop":0.0},)"
            R"("stripes":1,"width":0})");
}

TEST(StreamFigures, TheLadderListsEachRungsOwnFigures) {
  StreamFigures f{sample_rung(), LadderFigures{}};
  f.ladder->max_encodes = 2;
  f.ladder->affordable = 2;
  f.ladder->work_pct = 55;
  f.ladder->moves = 3;
  f.ladder->rule = "a rule";
  RungFigures low = sample_rung();
  low.kbps = 1500;
  low.size = {960, 540};
  low.rate_factor = 28;
  low.stage_ms.encode = 2.5;
  f.ladder->rungs.push_back({1, 1, 3000, low});
  const nlohmann::json j = to_json(f);
  EXPECT_EQ(json_text(j["ladder"]),
            R"({"affordable":2,"max_encodes":2,"moves":3,"rule":"a rule","rungs":[{"consumers":1,"encode_ms":2.5,)"
            R"("fps":30,"frame_rate":60,"height":540,"kbps":1500,"rate_factor":28.0,"rung":1,"target_kbps":3000,)"
            R"("width":960}],"work_pct":55})");
  // The stream's own keys are there as without a ladder.
  nlohmann::json without = j;
  without.erase("ladder");
  EXPECT_EQ(without, to_json(StreamFigures{sample_rung(), std::nullopt}));
}

}  // namespace
}  // namespace voxl::stream
