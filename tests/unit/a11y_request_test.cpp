// The accessibility endpoints' requests read from untrusted text: GET
// /a11y's query, /a11y/find's and /a11y/act's bodies, each bad field named.
#include "endpoints/a11y_request.h"

#include <gtest/gtest.h>

namespace voxl::endpoints {
namespace VOXL_TEST_FILE {

using platform::A11yAction;
using Kind = platform::A11yScope::Kind;

std::optional<A11yTreeRequest> tree_of(const std::string& query, net::ParamError& e) {
  const auto q = net::Query::parse(query, e);
  if (!q) return std::nullopt;
  A11yTreeRequest t;
  if (!parse_a11y_query(*q, t, e)) return std::nullopt;
  return t;
}

TEST(A11yRequest, TheQueryTakesScopeRootAndLimits) {
  net::ParamError e;
  auto t = tree_of("", e);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->scope.kind, Kind::kActiveWindow);
  EXPECT_EQ(t->max_depth, kA11yDefaultDepth);
  EXPECT_EQ(t->max_nodes, kA11yDefaultNodes);
  EXPECT_EQ(t->timeout, kA11yDefaultTimeout);
  t = tree_of("scope=desktop&max_depth=0&max_nodes=1&timeout=30000&max_width=640", e);
  ASSERT_TRUE(t) << e.message;
  EXPECT_EQ(t->scope.kind, Kind::kDesktop);
  EXPECT_EQ(t->max_depth, 0);
  EXPECT_EQ(t->max_nodes, 1);
  EXPECT_EQ(t->timeout.count(), 30000);
  EXPECT_EQ(t->scale.max_width, 640);
  t = tree_of("root=1.42%2F12", e);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->scope.kind, Kind::kNode);
  EXPECT_EQ(t->scope.ref, "1.42/12");
}

TEST(A11yRequest, BadQueriesNameTheParameter) {
  const std::pair<const char*, const char*> bad[] = {
      {"scope=window", "scope"},      {"root=", "root"},          {"root=1.2%2F3&scope=active", "scope"},
      {"max_depth=65", "max_depth"},  {"max_nodes=0", "max_nodes"}, {"max_nodes=20001", "max_nodes"},
      {"timeout=0", "timeout"},       {"timeout=30001", "timeout"}, {"scale=2", "scale"},
  };
  for (const auto& [query, parameter] : bad) {
    net::ParamError e;
    EXPECT_FALSE(tree_of(query, e)) << query;
    EXPECT_EQ(e.parameter, parameter) << query;
    EXPECT_FALSE(e.message.empty());
  }
}

TEST(A11yRequest, FindTakesWhatToMatch) {
  ActionError e;
  auto f = parse_a11y_find(
      R"({"role":"push button","name":"ok","text":"Grüße","exact":true,"states":["showing","enabled"],
          "root":"1.2/3","max_results":2,"max_depth":5,"max_nodes":99,"timeout":100,"max_width":320})",
      e);
  ASSERT_TRUE(f) << e.message;
  EXPECT_EQ(*f->role, "push button");
  EXPECT_EQ(*f->name, "ok");
  EXPECT_EQ(*f->text, "Grüße");
  EXPECT_TRUE(f->exact);
  EXPECT_EQ(f->states, platform::kA11yShowing | platform::kA11yEnabled);
  EXPECT_EQ(f->tree.scope.kind, Kind::kNode);
  EXPECT_EQ(f->max_results, 2);
  EXPECT_EQ(f->tree.max_depth, 5);
  EXPECT_EQ(f->tree.max_nodes, 99);
  EXPECT_EQ(f->tree.timeout.count(), 100);
  EXPECT_EQ(f->tree.scale.max_width, 320);
  f = parse_a11y_find(R"({"states":["focused"],"scope":"desktop"})", e);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->tree.scope.kind, Kind::kDesktop);
}

TEST(A11yRequest, BadFindBodiesNameTheField) {
  const std::pair<const char*, const char*> bad[] = {
      {"", "body"},
      {"[1]", "body"},
      {"{}", "body"},
      {R"({"colour":"red"})", "colour"},
      {R"({"role":7})", "role"},
      {R"({"name":"ok","exact":"yes"})", "exact"},
      {R"({"states":["hungry"]})", "states"},
      {R"({"states":"focused"})", "states"},
      {R"({"name":"a","scope":"window"})", "scope"},
      {R"({"name":"a","root":""})", "root"},
      {R"({"name":"a","root":"1.2/3","scope":"desktop"})", "scope"},
      {R"({"name":"a","max_results":0})", "max_results"},
      {R"({"name":"a","max_depth":65})", "max_depth"},
      {R"({"name":"a","scale":0.5,"max_width":10})", "scale"},
      {"{\"name\":[[[[[[[[[[[[1]]]]]]]]]]]]}", "body"},
  };
  for (const auto& [body, field] : bad) {
    ActionError e;
    EXPECT_FALSE(parse_a11y_find(body, e)) << body;
    EXPECT_EQ(e.parameter, field) << body << ": " << e.message;
    EXPECT_FALSE(e.message.empty());
  }
  ActionError e;
  EXPECT_FALSE(parse_a11y_find("{\"name\":\"" + std::string(1025, 'x') + "\"}", e));
  EXPECT_EQ(e.parameter, "name");
}

TEST(A11yRequest, ActTakesAnIdAnActionAndTextForSetText) {
  ActionError e;
  auto a = parse_a11y_act(R"({"id":"1.42/12","action":"set_text","text":"漢字"})", e);
  ASSERT_TRUE(a) << e.message;
  EXPECT_EQ(a->id, "1.42/12");
  EXPECT_EQ(a->action, A11yAction::kSetText);
  EXPECT_EQ(a->text, "漢字");
  for (const auto& [name, action] : {std::pair{"click", A11yAction::kClick}, {"focus", A11yAction::kFocus},
                                     {"select", A11yAction::kSelect}, {"scroll_into_view", A11yAction::kScrollIntoView}}) {
    a = parse_a11y_act(std::string(R"({"id":"1.2/3","action":")") + name + "\"}", e);
    ASSERT_TRUE(a) << name;
    EXPECT_EQ(a->action, action);
    EXPECT_STREQ(a11y_action_name(action), name);
  }
  // set_text with "" clears the field.
  a = parse_a11y_act(R"({"id":"1.2/3","action":"set_text","text":""})", e);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->text, "");
}

TEST(A11yRequest, BadActBodiesNameTheField) {
  const std::pair<const char*, const char*> bad[] = {
      {"nope", "body"},
      {R"({"action":"click"})", "id"},
      {R"({"id":"","action":"click"})", "id"},
      {R"({"id":5,"action":"click"})", "id"},
      {R"({"id":"1.2/3"})", "action"},
      {R"({"id":"1.2/3","action":"explode"})", "action"},
      {R"({"id":"1.2/3","action":"set_text"})", "text"},
      {R"({"id":"1.2/3","action":"click","text":"x"})", "text"},
      {R"({"id":"1.2/3","action":"set_text","text":1})", "text"},
      {R"({"id":"1.2/3","action":"click","button":"left"})", "button"},
  };
  for (const auto& [body, field] : bad) {
    ActionError e;
    EXPECT_FALSE(parse_a11y_act(body, e)) << body;
    EXPECT_EQ(e.parameter, field) << body << ": " << e.message;
  }
  ActionError e;
  EXPECT_FALSE(parse_a11y_act(R"({"id":"1.2/3","action":"set_text","text":")" + std::string(kA11yMaxText + 1, 'x') +
                                  "\"}",
                              e));
  EXPECT_EQ(e.parameter, "text");
}

}  // namespace VOXL_TEST_FILE
}  // namespace voxl::endpoints
