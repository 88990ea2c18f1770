// /mcp's protocol part: the JSON-RPC envelope, version negotiation, the
// tool list a model reads, and tool arguments read into plans (the bodies
// they become are what POST /computer takes).
#include "endpoints/mcp_protocol.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

namespace voxl::endpoints::mcp {
namespace VOXL_TEST_FILE {

using json = nlohmann::json;
constexpr std::chrono::milliseconds kMaxWait{300000};

ToolPlan plan_ok(const std::string& name, const json& args) {
  net::ParamError e;
  auto p = plan_tool(name, args, kMaxWait, e);
  EXPECT_TRUE(p) << name << " " << args.dump() << " -> " << e.parameter << " " << e.message;
  return p ? *p : ToolPlan{};
}

std::string plan_bad(const std::string& name, const json& args) {
  net::ParamError e;
  EXPECT_FALSE(plan_tool(name, args, kMaxWait, e)) << name << " " << args.dump();
  EXPECT_FALSE(e.message.empty());
  return e.parameter;
}

TEST(McpProtocol, OneMessageABatchAndBadBodies) {
  Parsed p = parse_body(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})");
  ASSERT_FALSE(p.error);
  ASSERT_EQ(p.messages.size(), 1u);
  EXPECT_EQ(p.messages[0].kind, Message::Kind::kRequest);
  EXPECT_EQ(p.messages[0].id, 1);
  EXPECT_FALSE(p.batch);

  p = parse_body(R"([{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":"x","result":{}},
                    {"jsonrpc":"1.0","id":3,"method":"ping"}])");
  ASSERT_FALSE(p.error);
  EXPECT_TRUE(p.batch);
  ASSERT_EQ(p.messages.size(), 2u);
  EXPECT_EQ(p.messages[0].kind, Message::Kind::kNotification);
  EXPECT_EQ(p.messages[1].kind, Message::Kind::kResponse);
  ASSERT_EQ(p.errors.size(), 1u) << "the bad one is answered on its own";
  EXPECT_EQ(p.errors[0]["id"], 3);
  EXPECT_EQ(p.errors[0]["error"]["code"], kInvalidRequest);

  EXPECT_EQ((*parse_body("{nope").error)["error"]["code"], kParseError);
  EXPECT_EQ((*parse_body("[]").error)["error"]["code"], kInvalidRequest);
  EXPECT_EQ((*parse_body(std::string(200, '[')).error)["error"]["code"], kInvalidRequest);
  p = parse_body(R"({"jsonrpc":"2.0","id":{"a":1},"method":"ping"})");
  ASSERT_EQ(p.errors.size(), 1u);
  EXPECT_TRUE(p.errors[0]["id"].is_null());
  p = parse_body(R"({"jsonrpc":"2.0","id":1,"method":"ping","params":[1]})");
  ASSERT_EQ(p.errors.size(), 1u);
  EXPECT_EQ(p.errors[0]["error"]["code"], kInvalidParams);
}

TEST(McpProtocol, InitializeAnswersTheAskedVersionOrTheNewest) {
  EXPECT_EQ(initialize_result("2025-03-26", "1")["protocolVersion"], "2025-03-26");
  EXPECT_EQ(initialize_result("1999-01-01", "1")["protocolVersion"], kProtocolVersions[0]);
  const json r = initialize_result("2025-06-18", "0.1.0");
  EXPECT_TRUE(r["capabilities"].contains("tools"));
  EXPECT_EQ(r["serverInfo"]["name"], "voxl");
  EXPECT_TRUE(r["instructions"].is_string());
}

TEST(McpProtocol, ToolsHaveSchemasAndTellAModelToActThenObserve) {
  const json list = tools_list()["tools"];
  std::set<std::string> names;
  for (const json& t : list) {
    names.insert(t["name"].get<std::string>());
    EXPECT_EQ(t["inputSchema"]["type"], "object") << t["name"];
    EXPECT_FALSE(t["description"].get<std::string>().empty());
  }
  for (const char* n : {"screenshot", "click", "move_pointer", "drag", "scroll", "type_text", "press_keys", "computer",
                        "wait_for_settle", "wait_for_change", "cursor_position", "record_start", "record_stop"})
    EXPECT_TRUE(names.count(n)) << n;
  const json click = *std::find_if(list.begin(), list.end(), [](const json& t) { return t["name"] == "click"; });
  const std::string d = click["description"];
  EXPECT_NE(d.find("settled"), std::string::npos);
  EXPECT_NE(d.find("since"), std::string::npos);
}

TEST(McpProtocol, ActionToolsBecomeComputerBodies) {
  ToolPlan p = plan_ok("click", {{"x", 10}, {"y", 20}});
  EXPECT_EQ(p.kind, ToolPlan::Kind::kAction);
  EXPECT_EQ(json::parse(p.body), json({{"action", "left_click"}, {"coordinate", {10, 20}}}));
  EXPECT_TRUE(p.options.screenshot) << "actions answer with the settled picture unless told not to";
  EXPECT_EQ(json::parse(plan_ok("click", {{"x", 1}, {"y", 2}, {"count", 2}}).body)["action"], "double_click");
  EXPECT_EQ(json::parse(plan_ok("click", {{"x", 1}, {"y", 2}, {"button", "right"}}).body)["action"], "right_click");
  EXPECT_EQ(json::parse(plan_ok("click", {{"x", 1}, {"y", 2}, {"modifiers", "shift"}}).body)["text"], "shift");
  EXPECT_EQ(p.options.react.count(), 1000) << "an action gives the screen a second to start answering";
  p = plan_ok("click", {{"x", 1}, {"y", 2}, {"max_width", 640}, {"screenshot", false}, {"settle_ms", 50}, {"react_ms", 0}});
  EXPECT_EQ(p.options.react.count(), 0);
  EXPECT_EQ(p.options.scale.max_width, 640);
  EXPECT_FALSE(p.options.screenshot);
  EXPECT_EQ(p.options.settle_idle.count(), 50);
  EXPECT_EQ(json::parse(plan_ok("press_keys", {{"keys", "ctrl+s"}}).body),
            json({{"action", "key"}, {"text", "ctrl+s"}}));
  EXPECT_EQ(json::parse(plan_ok("type_text", {{"text", "hi"}}).body)["action"], "type");
  EXPECT_EQ(json::parse(plan_ok("drag", {{"path", {{0, 0}, {5, 6}}}}).body),
            json({{"type", "drag"}, {"path", {{{"x", 0}, {"y", 0}}, {{"x", 5}, {"y", 6}}}}}));
  EXPECT_EQ(json::parse(plan_ok("scroll", {{"direction", "down"}}).body),
            json({{"action", "scroll"}, {"scroll_direction", "down"}, {"scroll_amount", 3}}));
  EXPECT_EQ(json::parse(plan_ok("computer", {{"action", {{"type", "wait"}}}}).body), json({{"type", "wait"}}));
}

TEST(McpProtocol, WaitsCursorAndRecordings) {
  ToolPlan p = plan_ok("wait_for_change", {{"since", 5}, {"timeout_ms", 2000}, {"region", {{"x", 1}, {"y", 2}, {"width", 3}, {"height", 4}}}});
  EXPECT_EQ(p.kind, ToolPlan::Kind::kWait);
  EXPECT_TRUE(p.change);
  EXPECT_EQ(p.since, 5u);
  EXPECT_EQ(p.region, (Rect{1, 2, 3, 4}));
  EXPECT_FALSE(p.options.screenshot) << "a wait answers with a picture only when asked";
  p = plan_ok("wait_for_settle", {{"idle_ms", 100}, {"screenshot", true}});
  EXPECT_FALSE(p.change);
  EXPECT_EQ(p.idle.count(), 100);
  EXPECT_TRUE(p.options.screenshot);
  EXPECT_EQ(plan_ok("cursor_position", {{"max_width", 800}}).options.scale.max_width, 800);
  EXPECT_EQ(plan_ok("record_start", json::object()).kind, ToolPlan::Kind::kRecordStart);
  EXPECT_EQ(plan_ok("record_stop", {{"id", 4}}).record_id, 4u);
  EXPECT_EQ(plan_ok("screenshot", json()).kind, ToolPlan::Kind::kAction) << "no arguments at all is fine";
}

TEST(McpProtocol, BadArgumentsAreNamed) {
  EXPECT_EQ(plan_bad("fly", json::object()), "name");
  EXPECT_EQ(plan_bad("click", {{"x", 1}}), "arguments.y");
  EXPECT_EQ(plan_bad("click", {{"x", 1.5}, {"y", 1}}), "arguments.x");
  EXPECT_EQ(plan_bad("click", {{"x", 1}, {"y", 1}, {"button", "left"}, {"count", 4}}), "arguments.count");
  EXPECT_EQ(plan_bad("click", {{"x", 1}, {"y", 1}, {"button", "right"}, {"count", 2}}), "arguments.count");
  EXPECT_EQ(plan_bad("click", {{"x", 1}, {"y", 1}, {"speed", 2}}), "arguments.speed");
  EXPECT_EQ(plan_bad("screenshot", {{"scale", 0.5}, {"max_width", 100}}).rfind("arguments.", 0), 0u);
  EXPECT_EQ(plan_bad("wait_for_change", {{"idle_ms", 5}}), "arguments.idle_ms");
  EXPECT_EQ(plan_bad("wait_for_settle", {{"timeout_ms", 400000}}), "arguments.timeout_ms");
  EXPECT_EQ(plan_bad("record_stop", json::object()), "arguments.id");
  EXPECT_EQ(plan_bad("cursor_position", {{"settle_ms", 1}}), "arguments.settle_ms");
  EXPECT_EQ(plan_bad("screenshot", json::array()), "arguments.");
}

}  // namespace
}  // namespace voxl::endpoints::mcp
