// The accessibility tree as agents read it: bounds moved into the picture
// (a captured region's corner) and scaled as the agent sees it, clipped to
// the picture or left out when off it; secrets never shown; the search by
// role, name, text and states.
#include "endpoints/a11y_view.h"

#include <gtest/gtest.h>

namespace voxl::endpoints {
namespace VOXL_TEST_FILE {

using platform::A11yNode;
using platform::A11ySnapshot;

A11yNode node(std::string ref, int parent, std::string role, std::string name, std::optional<Rect> bounds = {}) {
  A11yNode n;
  n.ref = std::move(ref);
  n.parent = parent;
  n.role = std::move(role);
  n.name = std::move(name);
  n.bounds = bounds;
  return n;
}

// A window of a desktop whose picture is the region at 100, 50 of 400x300,
// seen at half size.
struct Fixture {
  A11ySnapshot s;
  A11yView view{{{100, 50}, {400, 300}}, Scaling::fit({400, 300}, ScaleSpec{0.5, 0, 0})};
  Fixture() {
    s.nodes.push_back(node("1.5/1", -1, "frame", "Form", Rect{100, 50, 400, 300}));
    s.nodes.back().application = "form.py";
    s.nodes.back().child_count = 4;
    s.nodes.push_back(node("1.5/2", 0, "push button", "Submit", Rect{140, 90, 80, 20}));
    s.nodes.back().states = platform::kA11yShowing | platform::kA11yEnabled;
    s.nodes.back().actions = {"click"};
    s.nodes.push_back(node("1.5/3", 0, "password text", "Password", Rect{450, 330, 100, 20}));
    s.nodes.back().secret = true;
    s.nodes.back().value = "hunter2";
    s.nodes.push_back(node("1.5/4", 0, "text", "Name", Rect{0, 0, 50, 20}));
    s.nodes.back().value = "Grüße";
    s.nodes.back().states = platform::kA11yEditable | platform::kA11yShowing;
  }
};

TEST(A11yView, BoundsAreInTheAgentsPicture) {
  Fixture f;
  const auto j = snapshot_json(f.s, f.view);
  ASSERT_EQ(j["tree"].size(), 1u);
  const auto& frame = j["tree"][0];
  EXPECT_EQ(frame["application"], "form.py");
  EXPECT_EQ(frame["bounds"], (nlohmann::json{{"x", 0}, {"y", 0}, {"width", 200}, {"height", 150}}));
  const auto& kids = frame["children"];
  ASSERT_EQ(kids.size(), 3u);
  EXPECT_EQ(kids[0]["bounds"], (nlohmann::json{{"x", 20}, {"y", 20}, {"width", 40}, {"height", 10}}));
  EXPECT_EQ(kids[0]["states"], (nlohmann::json{"enabled", "showing"}));
  EXPECT_EQ(kids[0]["actions"], (nlohmann::json{"click"}));
  // Half off the picture: clipped, and said so.
  EXPECT_EQ(kids[1]["bounds"], (nlohmann::json{{"x", 175}, {"y", 140}, {"width", 25}, {"height", 10}}));
  EXPECT_TRUE(kids[1]["clipped"]);
  // Off the picture: no bounds to click.
  EXPECT_FALSE(kids[2].contains("bounds"));
  EXPECT_FALSE(kids[2]["in_picture"]);
  EXPECT_EQ(frame["children_not_listed"], 1);
}

TEST(A11yView, APasswordsTextNeverShows) {
  Fixture f;
  const std::string text = snapshot_json(f.s, f.view).dump();
  EXPECT_EQ(text.find("hunter2"), std::string::npos);
  const auto one = node_json(f.s, 2, f.view, false);
  EXPECT_TRUE(one["secret"]);
  EXPECT_FALSE(one.contains("value"));
  EXPECT_EQ(node_json(f.s, 3, f.view, false)["value"], "Grüße");
}

TEST(A11yView, TheCoordinateSpaceIsSaid) {
  Fixture f;
  const auto c = coordinate_space_json(f.view);
  EXPECT_EQ(c, (nlohmann::json{{"width", 200},
                               {"height", 150},
                               {"picture_width", 400},
                               {"picture_height", 300},
                               {"scale", 0.5},
                               {"picture_origin", {{"x", 100}, {"y", 50}}}}));
  A11yView full{{{0, 0}, {400, 300}}, Scaling::fit({400, 300}, ScaleSpec{})};
  EXPECT_EQ(coordinate_space_json(full)["scale"], 1.0);
  EXPECT_EQ(coordinate_space_json(full)["picture_width"], 400);
}

TEST(A11yView, FindMatchesRoleNameTextAndStates) {
  Fixture f;
  A11yFindRequest q;
  q.role = "push button";
  EXPECT_EQ(find_nodes(f.s, q), (std::vector<size_t>{1}));
  q = {};
  q.name = "SUB";
  EXPECT_EQ(find_nodes(f.s, q), (std::vector<size_t>{1}));
  q.exact = true;
  EXPECT_TRUE(find_nodes(f.s, q).empty());
  q = {};
  q.text = "grüße";  // ASCII case only: ü is not folded, the rest is
  EXPECT_EQ(find_nodes(f.s, q), (std::vector<size_t>{3}));
  q.text = "hunter";  // a secret is not searched
  EXPECT_TRUE(find_nodes(f.s, q).empty());
  q = {};
  q.states = platform::kA11yShowing;
  EXPECT_EQ(find_nodes(f.s, q), (std::vector<size_t>{1, 3}));
  q.states |= platform::kA11yEditable;
  EXPECT_EQ(find_nodes(f.s, q), (std::vector<size_t>{3}));
  q = {};
  q.states = platform::kA11yShowing;
  q.max_results = 1;
  EXPECT_EQ(find_nodes(f.s, q), (std::vector<size_t>{1}));
}

TEST(A11yView, WhatWasCutIsSaid) {
  Fixture f;
  f.s.time_cut = true;
  f.s.count_cut = true;
  f.s.unanswered = {"form.py (:1.5)"};
  const auto j = snapshot_json(f.s, f.view);
  ASSERT_TRUE(j.contains("cut"));
  EXPECT_TRUE(j["cut"].contains("time"));
  EXPECT_TRUE(j["cut"].contains("count"));
  EXPECT_FALSE(j["cut"].contains("depth"));
  EXPECT_EQ(j["cut"]["unanswered"][0], "form.py (:1.5)");
  EXPECT_FALSE(snapshot_json(Fixture{}.s, f.view).contains("cut"));
}

}  // namespace VOXL_TEST_FILE
}  // namespace voxl::endpoints
