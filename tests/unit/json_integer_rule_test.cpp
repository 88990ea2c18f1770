// Every reader of JSON arguments takes the same numbers as integers: a
// viewer's messages (JsonFields, read_settings), POST /input, POST
// /computer and the MCP tools' arguments. One table of written numbers goes
// through each; they agree on what is whole (3, 3.0, -0.0 and 1e2 are;
// 3.5, true and "3" are not) and refuse what is out of range with the range.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/json_fields.h"
#include "endpoints/computer_action.h"
#include "endpoints/input_actions.h"
#include "endpoints/mcp_protocol.h"
#include "stream/viewer/viewer_settings.h"

namespace voxl {
namespace VOXL_TEST_FILE {

using json = nlohmann::json;

// What a reader made of one written number: its value, or why not.
struct Verdict {
  std::optional<int64_t> value;
  std::string message;  // "" when the reader gives none
};

enum class Refusal { kNone, kNotWhole, kOutOfRange };

struct Case {
  const char* text;  // as written in the JSON
  std::optional<int64_t> value;
  Refusal refusal = Refusal::kNone;
};

// Each reader below takes this table for a field whose range holds 0 to 100
// and nothing above 240 or below -100.
const std::vector<Case> kCases = {
    {"3", 3},
    {"3.0", 3},
    {"-0.0", 0},
    {"1e2", 100},
    {"0.5e1", 5},
    {"100.0", 100},
    {"3.5", std::nullopt, Refusal::kNotWhole},
    {"1e-300", std::nullopt, Refusal::kNotWhole},
    {"true", std::nullopt, Refusal::kNotWhole},
    {"false", std::nullopt, Refusal::kNotWhole},
    {"\"3\"", std::nullopt, Refusal::kNotWhole},
    {"null", std::nullopt, Refusal::kNotWhole},
    {"[3]", std::nullopt, Refusal::kNotWhole},
    {"1000", std::nullopt, Refusal::kOutOfRange},
    {"1e300", std::nullopt, Refusal::kOutOfRange},
    {"-1e300", std::nullopt, Refusal::kOutOfRange},
    {"9223372036854775807", std::nullopt, Refusal::kOutOfRange},
    {"9223372036854775808", std::nullopt, Refusal::kOutOfRange},
    {"18446744073709551615", std::nullopt, Refusal::kOutOfRange},
    {"-9223372036854775808", std::nullopt, Refusal::kOutOfRange},
    {"-9223372036854775809", std::nullopt, Refusal::kOutOfRange},
};

// Runs the table through `read`; `messages` when the reader explains its
// refusals (then a fraction says "whole number" and a range says "between").
template <typename Read>
void expect_the_rule(const char* reader, bool messages, Read read) {
  for (const Case& c : kCases) {
    const Verdict v = read(json::parse(c.text));
    if (c.value) {
      EXPECT_EQ(v.value, c.value) << reader << " should take " << c.text << " (" << v.message << ")";
      continue;
    }
    EXPECT_FALSE(v.value) << reader << " should refuse " << c.text << ", not read " << v.value.value_or(0);
    if (!messages) continue;
    const char* want = c.refusal == Refusal::kNotWhole ? "must be a whole number" : "between";
    EXPECT_NE(v.message.find(want), std::string::npos)
        << reader << " refuses " << c.text << " with \"" << v.message << "\", which does not say \"" << want << "\"";
  }
}

TEST(JsonIntegerRule, JsonFields) {
  expect_the_rule("JsonFields::integer", false, [](const json& value) {
    const json m = {{"n", value}};
    JsonFields f(m);
    const auto n = f.integer("n", 0, 100);
    EXPECT_EQ(f.ok(), n.has_value());
    return Verdict{n, ""};
  });
}

TEST(JsonIntegerRule, ViewerSettings) {
  expect_the_rule("read_settings", false, [](const json& value) {
    const json m = {{"max_fps", value}};
    JsonFields f(m);
    stream::ViewerSettings s;
    const char* bad = nullptr;
    if (!stream::read_settings(f, s, bad)) return Verdict{std::nullopt, ""};
    return Verdict{s.max_fps, ""};
  });
}

TEST(JsonIntegerRule, InputActionsScrollNotches) {
  expect_the_rule("POST /input dy", true, [](const json& value) {
    endpoints::ActionError e;
    const json body = {{"type", "scroll"}, {"dy", value}};
    const auto a = endpoints::parse_input_actions(body.dump(), {640, 480}, 100, e);
    if (!a) return Verdict{std::nullopt, e.message};
    EXPECT_EQ(e.parameter, "");
    return Verdict{(*a)[0].notches_y, ""};
  });
}

TEST(JsonIntegerRule, ComputerActionScrollAmount) {
  expect_the_rule("POST /computer scroll_amount", true, [](const json& value) {
    endpoints::ActionError e;
    const json body = {{"action", "scroll"}, {"scroll_direction", "down"}, {"scroll_amount", value}};
    const auto a = endpoints::parse_computer_action(body.dump(), {640, 480}, 100, e);
    if (!a) {
      EXPECT_EQ(e.parameter, "scroll_amount");
      return Verdict{std::nullopt, e.message};
    }
    return Verdict{a->input.at(0).notches_y, ""};
  });
}

TEST(JsonIntegerRule, McpScrollAmount) {
  expect_the_rule("MCP scroll amount", true, [](const json& value) {
    net::ParamError e;
    const auto p = endpoints::mcp::plan_tool("scroll", {{"direction", "down"}, {"amount", value}},
                                             std::chrono::milliseconds(300000), e);
    if (!p) {
      EXPECT_EQ(e.parameter, "arguments.amount");
      return Verdict{std::nullopt, e.message};
    }
    return Verdict{json::parse(p->body).at("scroll_amount").get<int64_t>(), ""};
  });
}

// Coordinates, counts and buttons of POST /input: 3.0 is 3 there too.
TEST(JsonIntegerRule, InputActionsCoordinatesCountsAndButtons) {
  endpoints::ActionError e;
  auto a = endpoints::parse_input_actions(R"({"type":"click","x":3.0,"y":-0.0,"count":2.0,"button":3.0})",
                                          {640, 480}, 100, e);
  ASSERT_TRUE(a) << e.message;
  EXPECT_EQ((*a)[0].x, 3);
  EXPECT_EQ((*a)[0].y, 0);
  EXPECT_EQ((*a)[0].count, 2);
  EXPECT_EQ((*a)[0].button, 3);
  a = endpoints::parse_input_actions(R"({"type":"drag","from":[1e1,2.0],"to":[3,4]})", {640, 480}, 100, e);
  ASSERT_TRUE(a) << e.message;
  EXPECT_EQ((*a)[0].x, 10);
  EXPECT_EQ((*a)[0].y, 2);

  EXPECT_FALSE(endpoints::parse_input_actions(R"({"type":"move","x":3.5,"y":1})", {640, 480}, 100, e));
  EXPECT_EQ(e.message, "x: must be a whole number of desktop pixels");
  EXPECT_FALSE(endpoints::parse_input_actions(R"({"type":"move","x":true,"y":1})", {640, 480}, 100, e));
  EXPECT_EQ(e.message, "x: must be a whole number of desktop pixels");
  EXPECT_FALSE(endpoints::parse_input_actions(R"({"type":"move","x":640.0,"y":1})", {640, 480}, 100, e));
  EXPECT_EQ(e.message, "x: outside the 640x480 desktop");
  EXPECT_FALSE(endpoints::parse_input_actions(R"({"type":"click","count":1.5})", {640, 480}, 100, e));
  EXPECT_EQ(e.message, "count: must be a whole number");
  EXPECT_FALSE(endpoints::parse_input_actions(R"({"type":"click","count":11})", {640, 480}, 100, e));
  EXPECT_EQ(e.message, "count: must be between 1 and 10");
  EXPECT_FALSE(endpoints::parse_input_actions(R"({"type":"click","button":true})", {640, 480}, 100, e));
  EXPECT_EQ(e.parameter, "button");
  EXPECT_FALSE(endpoints::parse_input_actions(R"({"type":"click","button":1.5})", {640, 480}, 100, e));
  EXPECT_EQ(e.parameter, "button");
}

TEST(JsonIntegerRule, ComputerActionMessages) {
  endpoints::ActionError e;
  const auto bad = [&](const char* amount) {
    const std::string body = std::string(R"({"action":"scroll","scroll_direction":"up","scroll_amount":)") + amount + "}";
    EXPECT_FALSE(endpoints::parse_computer_action(body, {640, 480}, 100, e)) << body;
    return e.message;
  };
  EXPECT_EQ(bad("2.5"), "scroll_amount: must be a whole number");
  EXPECT_EQ(bad("true"), "scroll_amount: must be a whole number");
  EXPECT_EQ(bad("101"), "scroll_amount: must be between 0 and 100");
  EXPECT_EQ(bad("1e300"), "scroll_amount: must be between 0 and 100");
}

// A rectangle and a position of the MCP tools: whole numbers by the same
// rule.
TEST(JsonIntegerRule, McpRegionAndPosition) {
  net::ParamError e;
  const auto max_wait = std::chrono::milliseconds(300000);
  auto p = endpoints::mcp::plan_tool(
      "wait_for_change", {{"since", 5.0}, {"region", {{"x", 1.0}, {"y", 2}, {"width", 3e0}, {"height", 4}}}}, max_wait, e);
  ASSERT_TRUE(p) << e.parameter << " " << e.message;
  EXPECT_EQ(p->since, 5u);
  EXPECT_EQ(p->region, (Rect{1, 2, 3, 4}));
  p = endpoints::mcp::plan_tool("click", {{"x", 7.0}, {"y", -0.0}}, max_wait, e);
  ASSERT_TRUE(p) << e.parameter << " " << e.message;
  EXPECT_EQ(json::parse(p->body).at("coordinate"), json::array({7, 0}));

  EXPECT_FALSE(endpoints::mcp::plan_tool("wait_for_change", {{"region", {{"x", 0.5}, {"y", 0}, {"width", 1}, {"height", 1}}}},
                                         max_wait, e));
  EXPECT_EQ(e.parameter, "arguments.region.x");
  EXPECT_EQ(e.message, "must be a whole number");
  EXPECT_FALSE(endpoints::mcp::plan_tool("wait_for_change", {{"region", {{"x", 0}, {"y", 0}, {"width", 0}, {"height", 1}}}},
                                         max_wait, e));
  EXPECT_EQ(e.parameter, "arguments.region.width");
  EXPECT_EQ(e.message, "must be between 1 and 1048576");
  EXPECT_FALSE(endpoints::mcp::plan_tool("click", {{"x", true}, {"y", 1}}, max_wait, e));
  EXPECT_EQ(e.parameter, "arguments.x");
  EXPECT_EQ(e.message, "must be a whole number");
}

// A seq keeps every digit: it is no double on the way.
TEST(JsonIntegerRule, McpSinceKeepsEveryDigit) {
  net::ParamError e;
  const auto max_wait = std::chrono::milliseconds(300000);
  for (const uint64_t since : {uint64_t(9007199254740993u), uint64_t(INT64_MAX)}) {
    const auto p = endpoints::mcp::plan_tool("wait_for_change", {{"since", since}}, max_wait, e);
    ASSERT_TRUE(p) << since << ": " << e.parameter << " " << e.message;
    EXPECT_EQ(p->since, since) << "every digit of the seq is kept";
  }
  EXPECT_FALSE(endpoints::mcp::plan_tool("wait_for_change", {{"since", uint64_t(INT64_MAX) + 1}}, max_wait, e));
  EXPECT_EQ(e.parameter, "arguments.since");
  EXPECT_FALSE(endpoints::mcp::plan_tool("wait_for_change", {{"since", 9.3e18}}, max_wait, e));
  EXPECT_EQ(e.parameter, "arguments.since");
}

}  // namespace
}  // namespace voxl
