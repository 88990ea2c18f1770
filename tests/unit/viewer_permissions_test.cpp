// A viewer's permissions in the interaction (the rights a users file gave
// its sign-in): the clipboard each way, control, and the name it signed in
// with shown to every viewer.
#include <gtest/gtest.h>

#include <spdlog/spdlog.h>

#include "fake_input_injector.h"
#include "input/viewer_input.h"
#include "interaction_fakes.h"

namespace voxl::input {
namespace VOXL_TEST_FILE {

using json = nlohmann::json;

class ViewerPermissionsTest : public ::testing::Test {
 protected:
  voxl::testing::FakeInputInjector inj;
  voxl::testing::FakeClipboard clip;
  Interaction in{&inj, &clip, nullptr, {}, spdlog::default_logger()};
};

TEST_F(ViewerPermissionsTest, OnlyViewersWithClipboardOutReceiveTheDesktopsCopies) {
  voxl::testing::RecordingLink both, no_out;
  auto a = in.join(both, ViewerPermissions{}, 1, "alice");
  auto d = in.join(no_out, ViewerPermissions{true, true, false}, 2, "dave");
  EXPECT_EQ(both.of("interaction")[0]["clipboard"], "both");
  EXPECT_EQ(no_out.of("interaction")[0]["clipboard"], "in");
  clip.listener.copied({"text/plain", "copied"});
  ASSERT_EQ(both.of("clipboard").size(), 1u);
  EXPECT_EQ(both.of("clipboard")[0]["text"], "copied");
  EXPECT_TRUE(no_out.of("clipboard").empty());
}

TEST_F(ViewerPermissionsTest, APasteWithoutClipboardInIsRefusedAndNothingReachesTheDesktop) {
  voxl::testing::RecordingLink link;
  auto v = in.join(link, ViewerPermissions{true, false, true}, 1, "dave");
  EXPECT_EQ(link.of("interaction")[0]["clipboard"], "out");
  EXPECT_EQ(link.of("interaction")[0]["input"], true);
  EXPECT_TRUE(v->handle("clipboard", json{{"mime", "text/plain"}, {"text", "x"}}));
  EXPECT_TRUE(clip.offered.empty());
  const auto refused = link.of("refused");
  ASSERT_EQ(refused.size(), 1u);
  EXPECT_EQ(refused[0]["what"], "clipboard");
  EXPECT_NE(refused[0]["reason"].get<std::string>().find("clipboard-in"), std::string::npos) << refused[0];
}

TEST_F(ViewerPermissionsTest, EveryViewerSeesWhoSignedIn) {
  voxl::testing::RecordingLink one, two;
  auto a = in.join(one, ViewerPermissions{}, 1, "alice");
  auto b = in.join(two, ViewerPermissions::watching(), 2);
  const json list = one.of("viewers").back()["viewers"];
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0]["user"], "alice");
  EXPECT_EQ(list[0]["role"], "full");
  EXPECT_EQ(list[1]["user"], "");
  EXPECT_EQ(list[1]["role"], "view-only");
}

}  // namespace VOXL_TEST_FILE
}  // namespace voxl::input
