// A viewer's own settings: what a settings message may say, and how the
// caps of several viewers sharing one encode combine.
#include "stream/viewer/viewer_settings.h"

#include <gtest/gtest.h>

#include <vector>

#include <nlohmann/json.hpp>

#include "base/json_fields.h"

namespace voxl::stream {
namespace VOXL_TEST_FILE {

using json = nlohmann::json;

// Reads `m` into `s`; the bad field's name, or "" when it was taken.
std::string read(const json& m, ViewerSettings& s) {
  JsonFields f(m);
  const char* bad = nullptr;
  const bool ok = read_settings(f, s, bad);
  EXPECT_EQ(ok, bad == nullptr);
  return bad ? bad : "";
}

TEST(ViewerSettings, EveryFieldIsOptional) {
  ViewerSettings s;
  EXPECT_EQ(read(json{{"max_fps", 30}}, s), "");
  EXPECT_EQ(read(json{{"max_kbps", 5000}}, s), "");
  EXPECT_EQ(read(json{{"name", "Ada"}}, s), "");
  EXPECT_EQ(s.max_fps, 30);
  EXPECT_EQ(s.max_kbps, 5000);
  EXPECT_EQ(s.name, "Ada");
  EXPECT_EQ(read(json{{"max_fps", 0}, {"max_kbps", 0}, {"name", ""}}, s), "");
  EXPECT_EQ(s.max_fps, 0);
  EXPECT_EQ(s.max_kbps, 0);
  EXPECT_EQ(s.name, "");
}

TEST(ViewerSettings, OutOfRangeValuesChangeNothing) {
  ViewerSettings s;
  s.max_fps = 24;
  for (const json& bad : {json{{"max_fps", 241}}, json{{"max_fps", -1}}, json{{"max_fps", 2.5}},
                          json{{"max_fps", "30"}}, json{{"max_kbps", 99}}, json{{"max_kbps", 1000001}},
                          json{{"max_kbps", true}}, json{{"name", 7}}})
    EXPECT_NE(read(bad, s), "") << bad.dump();
  // A bad field spoils the message: its good fields are not taken either.
  EXPECT_EQ(read(json{{"max_fps", 10}, {"max_kbps", 50}}, s), "max_kbps");
  EXPECT_EQ(s.max_fps, 24);
  EXPECT_EQ(read(json{{"max_fps", 240}, {"max_kbps", 100}}, s), "");
  EXPECT_EQ(read(json{{"max_kbps", 1000000}}, s), "");
}

TEST(ViewerSettings, NamesAreShortPrintableUtf8) {
  EXPECT_TRUE(valid_viewer_name(""));
  EXPECT_TRUE(valid_viewer_name("Zoë at the desk"));
  EXPECT_TRUE(valid_viewer_name(std::string(40, 'a')));
  EXPECT_FALSE(valid_viewer_name(std::string(41, 'a')));
  // 40 characters of two bytes each are 40 characters.
  std::string umlauts;
  for (int i = 0; i < 40; ++i) umlauts += "ü";
  EXPECT_TRUE(valid_viewer_name(umlauts));
  EXPECT_FALSE(valid_viewer_name(umlauts + "ü"));
  EXPECT_TRUE(valid_viewer_name("\xf0\x9f\x98\x80"));  // an emoji
  EXPECT_FALSE(valid_viewer_name("tab\there"));
  EXPECT_FALSE(valid_viewer_name("new\nline"));
  EXPECT_FALSE(valid_viewer_name("del\x7f"));
  EXPECT_FALSE(valid_viewer_name("c1\xc2\x85"));         // NEL
  EXPECT_FALSE(valid_viewer_name("\xe2\x80\xa8"));       // line separator
  EXPECT_FALSE(valid_viewer_name("\xff"));               // not UTF-8
  EXPECT_FALSE(valid_viewer_name("\xc0\xaf"));           // overlong
  EXPECT_FALSE(valid_viewer_name("\xed\xa0\x80"));       // a surrogate
  EXPECT_FALSE(valid_viewer_name("\xe2\x82"));           // cut short
  ViewerSettings s;
  EXPECT_EQ(read(json{{"name", "a\u0001b"}}, s), "name");
  EXPECT_EQ(read(json{{"name", std::string(41, 'x')}}, s), "name");
}

TEST(ViewerSettings, AMotionChoiceIsOneOfThree) {
  ViewerSettings s;
  EXPECT_EQ(s.motion, std::nullopt) << "no choice: the server's";
  EXPECT_EQ(read(json{{"motion", "smooth"}}, s), "");
  EXPECT_EQ(s.motion, Motion::kSmooth);
  EXPECT_EQ(read(json{{"max_fps", 30}}, s), "");
  EXPECT_EQ(s.motion, Motion::kSmooth) << "a message without it keeps it";
  for (const json& bad : {json{{"motion", "fast"}}, json{{"motion", ""}}, json{{"motion", 1}},
                          json{{"motion", "smooth-and-sharp"}}, json{{"motion", nullptr}}})
    EXPECT_EQ(read(bad, s), "motion") << bad.dump();
  EXPECT_EQ(s.motion, Motion::kSmooth);
}

TEST(ViewerSettings, TheStreamRunsAtTheHighestRateAnyViewerAllows) {
  EXPECT_EQ(combined_max_fps(std::vector<int>{}, 60), 60) << "nobody: the server's maximum";
  EXPECT_EQ(combined_max_fps(std::vector<int>{30}, 60), 30);
  EXPECT_EQ(combined_max_fps(std::vector<int>{15, 30}, 60), 30) << "one cap never slows another viewer";
  EXPECT_EQ(combined_max_fps(std::vector<int>{15, 0}, 60), 60) << "no cap counts as the server's maximum";
  EXPECT_EQ(combined_max_fps(std::vector<int>{240}, 60), 60) << "never above the server's maximum";
  EXPECT_EQ(combined_max_fps(std::vector<int>{5, 5}, 30), 5);
}

TEST(ViewerSettings, AFullViewersCapIsItsLinkLimit) {
  EXPECT_EQ(capped_target_kbps(0, 0), 0) << "neither measured nor capped: no say";
  EXPECT_EQ(capped_target_kbps(8000, 0), 8000);
  EXPECT_EQ(capped_target_kbps(0, 3000), 3000) << "the cap holds before the first measurement";
  EXPECT_EQ(capped_target_kbps(8000, 3000), 3000);
  EXPECT_EQ(capped_target_kbps(2000, 3000), 2000);
}

}  // namespace
}  // namespace voxl::stream
