// GET /a11y, POST /a11y/find and POST /a11y/act on the real binary with
// --a11y: voxl starts its own Xvfb, AT-SPI's bus and a GTK form
// (a11y_form.py) or Chromium showing a web form in it; the tree shows the form's widgets with their
// roles, names, states and bounds in the agent's (scaled) picture, a
// password field's text never, and acting on elements changes the form
// as a person's input would. A frozen application costs a request its
// timeout, not voxl its life; without --a11y the endpoints say how to turn
// it on.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "http_client.h"
#include "voxl_process.h"

namespace voxl::testing {
namespace VOXL_TEST_FILE {

using json = nlohmann::json;
using namespace std::chrono_literals;

constexpr auto kLimit = 60s;

// Every node of a tree answer, depth first.
void each_node(const json& nodes, const std::function<void(const json&)>& f) {
  if (!nodes.is_array()) return;
  for (const json& n : nodes) {
    f(n);
    if (n.contains("children")) each_node(n["children"], f);
  }
}

// The first node with `role` whose name is `name`.
std::optional<json> node_named(const json& tree, const std::string& role, const std::string& name) {
  std::optional<json> found;
  each_node(tree.value("tree", json::array()), [&](const json& n) {
    if (!found && n.value("role", "") == role && n.value("name", "") == name) found = n;
  });
  return found;
}

bool has_state(const json& node, const std::string& state) {
  for (const json& s : node.value("states", json::array()))
    if (s == state) return true;
  return false;
}

class A11yTest : public ::testing::Test {
 protected:
  void start(const std::vector<std::string>& extra = {}) {
    std::vector<std::string> args{"--xvfb=800x600", "--a11y",
                                  std::string("--exec=exec /usr/bin/python3 ") + VOXL_SOURCE_DIR "/tests/stream/a11y_form.py"};
    args.insert(args.end(), extra.begin(), extra.end());
    voxl_.emplace("", args);
  }

  HttpAnswer call(const std::string& method, const std::string& target, const std::string& body = "",
                  std::vector<std::pair<std::string, std::string>> headers = {}) {
    return http_request(voxl_->port(), {method, target, std::move(headers)}, body, kLimit);
  }

  json ok_json(const HttpAnswer& a) {
    EXPECT_EQ(a.status, 200) << a.body;
    json j = json::parse(a.body, nullptr, false);
    EXPECT_TRUE(j.is_object()) << a.body;
    return j;
  }

  // The desktop's tree once the form's Submit button is in it (the
  // program starts, GTK connects to the bus).
  json wait_for_form(const std::string& query = "scope=desktop") {
    const auto deadline = std::chrono::steady_clock::now() + kLimit;
    json last;
    while (std::chrono::steady_clock::now() < deadline) {
      const HttpAnswer a = call("GET", "/a11y?" + query);
      if (a.status == 200) {
        last = json::parse(a.body, nullptr, false);
        if (node_named(last, "push button", "Submit")) return last;
      }
      std::this_thread::sleep_for(100ms);  // the program is starting: nothing to wait on but its tree
    }
    ADD_FAILURE() << "the form never showed in the tree: " << last.dump().substr(0, 2000) << "\n" << voxl_->log();
    return last;
  }

  std::optional<VoxlProcess> voxl_;
};

TEST_F(A11yTest, TheTreeShowsTheFormInThePicturesCoordinates) {
  start();
  const json tree = wait_for_form();
  EXPECT_EQ(tree.value("scope", ""), "desktop");
  EXPECT_TRUE(tree.contains("seq"));
  EXPECT_EQ(tree["coordinates"].value("width", 0), 800);
  EXPECT_EQ(tree["coordinates"].value("height", 0), 600);
  const auto frame = node_named(tree, "frame", "voxl form");
  ASSERT_TRUE(frame) << tree.dump();
  const auto submit = node_named(tree, "push button", "Submit");
  ASSERT_TRUE(submit);
  EXPECT_TRUE(has_state(*submit, "enabled")) << submit->dump();
  EXPECT_TRUE(has_state(*submit, "showing")) << submit->dump();
  ASSERT_TRUE(submit->contains("bounds")) << submit->dump();
  const json b = (*submit)["bounds"];
  // Inside the window, which GTK was asked to place at 40, 30.
  const json fb = (*frame)["bounds"];
  EXPECT_GE(b.value("x", -1), fb.value("x", 0));
  EXPECT_GE(b.value("y", -1), fb.value("y", 0));
  EXPECT_LE(b.value("x", 0) + b.value("width", 0), fb.value("x", 0) + fb.value("width", 0));
  EXPECT_GT(b.value("width", 0), 10);
  EXPECT_GT(b.value("height", 0), 5);
  EXPECT_NE(std::find((*submit)["actions"].begin(), (*submit)["actions"].end(), "click"), (*submit)["actions"].end())
      << submit->dump();

  // The password field is there, its text is not.
  std::optional<json> secret;
  each_node(tree["tree"], [&](const json& n) {
    if (n.value("role", "") == "password text") secret = n;
  });
  ASSERT_TRUE(secret) << tree.dump();
  EXPECT_TRUE(secret->value("secret", false));
  EXPECT_FALSE(secret->contains("value"));
  EXPECT_EQ(tree.dump().find("hunter2"), std::string::npos);

  // Scaled: the same button at half the size, in the half-size picture.
  const json half = ok_json(call("GET", "/a11y?scope=desktop&max_width=400"));
  EXPECT_EQ(half["coordinates"].value("width", 0), 400);
  EXPECT_DOUBLE_EQ(half["coordinates"].value("scale", 0.0), 0.5);
  const auto small = node_named(half, "push button", "Submit");
  ASSERT_TRUE(small);
  EXPECT_NEAR((*small)["bounds"].value("x", 0), b.value("x", 0) / 2, 1);
  EXPECT_NEAR((*small)["bounds"].value("y", 0), b.value("y", 0) / 2, 1);
  EXPECT_NEAR((*small)["bounds"].value("width", 0), b.value("width", 0) / 2, 2);

  // The active window by default: with no window manager to say which is
  // active, the largest one, and the answer says so.
  const json active = ok_json(call("GET", "/a11y"));
  EXPECT_EQ(active.value("scope", ""), "active");
  ASSERT_EQ(active["tree"].size(), 1u) << active.dump();
  EXPECT_EQ(active["tree"][0].value("name", ""), "voxl form");
  EXPECT_EQ(active["tree"][0].value("application", ""), "a11y_form.py");
  if (!has_state(active["tree"][0], "active")) {
    EXPECT_NE(active.value("note", "").find("largest"), std::string::npos) << active.dump();
  }

  // A subtree by its id.
  const json sub = ok_json(call("GET", "/a11y?root=" + (*frame)["id"].get<std::string>()));
  EXPECT_EQ(sub.value("scope", ""), "root");
  EXPECT_TRUE(node_named(sub, "push button", "Submit"));
  // Cut by depth, and said so.
  const json shallow = ok_json(call("GET", "/a11y?scope=desktop&max_depth=1"));
  EXPECT_FALSE(node_named(shallow, "push button", "Submit"));
  EXPECT_TRUE(shallow.contains("cut") && shallow["cut"].contains("depth")) << shallow.dump();
}

TEST_F(A11yTest, FindAndActChangeTheFormAndSayWhatChanged) {
  start();
  wait_for_form();
  const json found = ok_json(call("POST", "/a11y/find", R"({"role":"push button","name":"submit","scope":"desktop"})"));
  ASSERT_EQ(found["matches"].size(), 1u) << found.dump();
  const std::string submit = found["matches"][0]["id"];
  const json entry = ok_json(call("POST", "/a11y/find", R"({"name":"Name","states":["editable"],"scope":"desktop"})"));
  ASSERT_EQ(entry["matches"].size(), 1u) << entry.dump();
  const std::string name = entry["matches"][0]["id"];
  const json box = ok_json(call("POST", "/a11y/find", R"({"role":"check box","scope":"desktop"})"));
  ASSERT_EQ(box["matches"].size(), 1u) << box.dump();
  EXPECT_FALSE(has_state(box["matches"][0], "checked"));

  // Text outside any keyboard layout goes in whole.
  const std::string text = "Grüße 漢字";
  const json typed = ok_json(call("POST", "/a11y/act", json{{"id", name}, {"action", "set_text"}, {"text", text}}.dump()));
  EXPECT_EQ(typed.value("schema", ""), "a11y");
  EXPECT_EQ(typed.value("action", ""), "set_text");
  EXPECT_EQ(typed["element"].value("value", ""), text) << typed.dump();

  const json ticked = ok_json(call("POST", "/a11y/act", json{{"id", box["matches"][0]["id"]}, {"action", "click"}}.dump()));
  EXPECT_TRUE(has_state(ticked["element"], "checked")) << ticked.dump();

  const json pressed = ok_json(call("POST", "/a11y/act?screenshot", json{{"id", submit}, {"action", "click"}}.dump()));
  EXPECT_TRUE(pressed.value("changed", false)) << pressed.dump();
  EXPECT_TRUE(pressed.value("settled", false)) << pressed.dump();
  EXPECT_GT(pressed.value("seq", uint64_t(0)), pressed.value("before_seq", uint64_t(0)));
  ASSERT_TRUE(pressed.contains("screenshot")) << pressed.dump().substr(0, 500);
  EXPECT_EQ(pressed["screenshot"].value("media_type", ""), "image/png");
  const json after = ok_json(call("GET", "/a11y?scope=desktop"));
  EXPECT_TRUE(node_named(after, "label", "Submitted: " + text + ", subscribed")) << after.dump();

  // Focus moves to the field.
  const json focused = ok_json(call("POST", "/a11y/act", json{{"id", name}, {"action", "focus"}}.dump()));
  EXPECT_TRUE(has_state(focused["element"], "focused")) << focused.dump();
}

// A row of a list far below what its scroller shows: brought into view
// (GTK 3 scrolls nothing on request; the focus given to the row does) and
// selected, both asked of the row's label, as an agent finds it by name.
TEST_F(A11yTest, ARowOffScreenIsScrolledIntoViewAndSelected) {
  start();
  wait_for_form();
  const json found = ok_json(call("POST", "/a11y/find", R"({"name":"Colour 30","exact":true,"scope":"desktop"})"));
  ASSERT_EQ(found["matches"].size(), 1u) << found.dump();
  const json row = found["matches"][0];
  EXPECT_FALSE(has_state(row, "showing")) << row.dump();
  const json panes = ok_json(call("POST", "/a11y/find", R"({"role":"scroll pane","scope":"desktop"})"));
  ASSERT_EQ(panes["matches"].size(), 1u) << panes.dump();
  const json pane = panes["matches"][0]["bounds"];

  const json scrolled = ok_json(call("POST", "/a11y/act", json{{"id", row["id"]}, {"action", "scroll_into_view"}}.dump()));
  EXPECT_NE(scrolled.value("done", "").find("focused the list item"), std::string::npos) << scrolled.dump();
  const json now = scrolled["element"];
  EXPECT_TRUE(has_state(now, "showing")) << now.dump();
  ASSERT_TRUE(now.contains("bounds")) << now.dump();
  EXPECT_GE(now["bounds"].value("y", -1), pane.value("y", 0)) << now.dump() << pane.dump();
  EXPECT_LE(now["bounds"].value("y", 0) + now["bounds"].value("height", 0), pane.value("y", 0) + pane.value("height", 0))
      << now.dump() << pane.dump();

  const json selected = ok_json(call("POST", "/a11y/act", json{{"id", row["id"]}, {"action", "select"}}.dump()));
  EXPECT_NE(selected.value("done", "").find("list item"), std::string::npos) << selected.dump();
  const json rows = ok_json(call("POST", "/a11y/find", R"({"role":"list item","states":["selected"],"scope":"desktop"})"));
  ASSERT_EQ(rows["matches"].size(), 1u) << rows.dump();
  const json label = ok_json(call("GET", "/a11y?root=" + rows["matches"][0]["id"].get<std::string>()));
  EXPECT_TRUE(node_named(label, "label", "Colour 30")) << label.dump();

  // Something in no list: said so, nothing done.
  const json submit = ok_json(call("POST", "/a11y/find", R"({"role":"push button","name":"Submit","scope":"desktop"})"));
  const HttpAnswer refused = call("POST", "/a11y/act", json{{"id", submit["matches"][0]["id"]}, {"action", "select"}}.dump());
  EXPECT_EQ(refused.status, 409) << refused.body;
}

TEST_F(A11yTest, TheMcpToolsFindAndAct) {
  start();
  wait_for_form();
  const auto tool = [&](const std::string& name, const json& arguments) {
    const json rpc = {{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/call"},
                      {"params", {{"name", name}, {"arguments", arguments}}}};
    const json answer = ok_json(call("POST", "/mcp", rpc.dump()));
    return answer.value("result", json::object());
  };
  const json listed = ok_json(call("POST", "/mcp", R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})"));
  std::vector<std::string> names;
  for (const json& t : listed["result"]["tools"]) names.push_back(t.value("name", ""));
  for (const char* n : {"a11y_tree", "a11y_find", "a11y_act"})
    EXPECT_NE(std::find(names.begin(), names.end(), n), names.end()) << n;

  const json found = tool("a11y_find", {{"role", "check box"}, {"scope", "desktop"}, {"timeout_ms", 5000}});
  ASSERT_FALSE(found.value("isError", false)) << found.dump();
  const json matches = json::parse(found["content"][0].value("text", ""), nullptr, false)["matches"];
  ASSERT_EQ(matches.size(), 1u) << found.dump();
  const json acted = tool("a11y_act", {{"id", matches[0]["id"]}, {"action", "click"}, {"max_width", 400}});
  ASSERT_FALSE(acted.value("isError", false)) << acted.dump();
  ASSERT_EQ(acted["content"].size(), 2u) << "the settled screenshot comes as an image";
  EXPECT_EQ(acted["content"][1].value("type", ""), "image");
  const json info = json::parse(acted["content"][0].value("text", ""), nullptr, false);
  EXPECT_TRUE(has_state(info["element"], "checked")) << info.dump();
  EXPECT_EQ(info.value("width", 0), 400);

  const json tree = tool("a11y_tree", {{"scope", "desktop"}, {"max_depth", 2}});
  ASSERT_FALSE(tree.value("isError", false)) << tree.dump();
  EXPECT_NE(tree["content"][0].value("text", "").find("voxl form"), std::string::npos);
  const json bad = tool("a11y_act", {{"id", "1.2/3"}, {"action", "explode"}});
  EXPECT_TRUE(bad.value("isError", false)) << bad.dump();
}

TEST_F(A11yTest, BadRequestsAreRefusedClearly) {
  start({"--enable-basic-auth", "--basic-auth-password=s3cret", "--basic-auth-viewonly-password=look"});
  const std::vector<std::pair<std::string, std::string>> full{{"Authorization", basic_authorization("voxl", "s3cret")}};
  const std::vector<std::pair<std::string, std::string>> look{{"Authorization", basic_authorization("voxl", "look")}};
  const auto error_of = [](const HttpAnswer& a) { return json::parse(a.body, nullptr, false).value("parameter", ""); };
  HttpAnswer a = call("GET", "/a11y?scope=window", "", full);
  EXPECT_EQ(a.status, 400);
  EXPECT_EQ(error_of(a), "scope");
  a = call("GET", "/a11y?max_depth=1000", "", full);
  EXPECT_EQ(a.status, 400);
  a = call("GET", "/a11y?root=..%2F..%2Fetc", "", full);
  EXPECT_EQ(a.status, 400) << a.body;
  a = call("GET", "/a11y?root=1.99999%2F12", "", full);
  EXPECT_EQ(a.status, 404) << a.body;
  a = call("POST", "/a11y/find", "[]", full);
  EXPECT_EQ(a.status, 400);
  a = call("POST", "/a11y/find", R"({"colour":"red"})", full);
  EXPECT_EQ(error_of(a), "colour");
  a = call("POST", "/a11y/act", R"({"id":"1.2/3","action":"explode"})", full);
  EXPECT_EQ(error_of(a), "action");
  a = call("POST", "/a11y/act", R"({"id":"1.2/3","action":"set_text"})", full);
  EXPECT_EQ(error_of(a), "text");
  a = call("POST", "/a11y/act", R"({"id":"1.2/3","action":"click"})", look);
  EXPECT_EQ(a.status, 403) << a.body;
  a = call("GET", "/a11y", "", look);
  EXPECT_NE(a.status, 403) << "a view-only caller may look";
  EXPECT_EQ(call("GET", "/a11y").status, 401);
}

TEST_F(A11yTest, AFrozenApplicationCostsATimeoutNotVoxl) {
  start();
  wait_for_form();
  const json freezer = ok_json(call("POST", "/a11y/find", R"({"role":"push button","name":"Freeze","scope":"desktop"})"));
  ASSERT_EQ(freezer["matches"].size(), 1u);
  // react=0 settle=0: answered at once; the program then sleeps.
  ok_json(call("POST", "/a11y/act?react=0&settle=0", json{{"id", freezer["matches"][0]["id"]}, {"action", "click"}}.dump()));
  const auto start = std::chrono::steady_clock::now();
  const json cut = ok_json(call("GET", "/a11y?scope=desktop&timeout=1500"));
  const auto took = std::chrono::steady_clock::now() - start;
  EXPECT_LT(took, 30s);
  ASSERT_TRUE(cut.contains("cut")) << cut.dump();
  EXPECT_TRUE(cut["cut"].contains("time")) << cut.dump();
  EXPECT_FALSE(cut["cut"].value("unanswered", json::array()).empty()) << cut.dump();
  // voxl itself answers on.
  EXPECT_EQ(call("GET", "/healthz").status, 200);
}

// A web form in a browser, found and filled through its accessibility
// tree alone. `browser` is the command that shows the page at `url`.
void fill_web_form(const std::function<std::string(const std::string& dir, const std::string& url)>& browser) {
  char dir_template[] = "/tmp/voxl-a11y-web-XXXXXX";
  ASSERT_NE(mkdtemp(dir_template), nullptr);
  const std::string dir = dir_template;
  {
    std::ofstream page(dir + "/form.html");
    page << "<!doctype html><title>Web form</title><body>"
            "<label>Email <input id=email></label> <button id=send>Send</button><p id=status>Not sent</p>"
            "<script>document.getElementById('send').onclick = () => {"
            "document.getElementById('status').textContent = 'Sent: ' + document.getElementById('email').value; };"
            "</script></body>";
  }
  VoxlProcess voxl("", {"--xvfb=1024x768", "--a11y", "--exec=exec " + browser(dir, "file://" + dir + "/form.html")});
  const auto call = [&](const std::string& method, const std::string& target, const std::string& body) {
    return http_request(voxl.port(), {method, target, {}}, body, kLimit);
  };
  const auto matches = [&](const json& query) {
    const HttpAnswer a = call("POST", "/a11y/find", query.dump());
    const json j = json::parse(a.body, nullptr, false);
    return a.status == 200 && j.is_object() ? j.value("matches", json::array()) : json::array();
  };
  // The browser starts and lays the page out: nothing to wait on but its tree.
  json field;
  const auto deadline = std::chrono::steady_clock::now() + 120s;
  while (std::chrono::steady_clock::now() < deadline) {
    const json m = matches({{"role", "entry"}, {"name", "Email"}, {"scope", "desktop"}});
    if (m.size() == 1 && m[0].contains("bounds")) {
      field = m[0];
      break;
    }
    std::this_thread::sleep_for(200ms);
  }
  ASSERT_TRUE(field.is_object()) << "the page's field never showed in the tree\n" << voxl.log();
  // Chromium's fields take no text directly, Firefox's say they do and do
  // not: either way the text is typed, and the element says it holds it.
  const HttpAnswer typed =
      call("POST", "/a11y/act", json{{"id", field["id"]}, {"action", "set_text"}, {"text", "a@b.example"}}.dump());
  ASSERT_EQ(typed.status, 200) << typed.body;
  const json after = json::parse(typed.body, nullptr, false);
  // The answer describes the element once the screen has settled, and a
  // loaded Firefox can draw the first key before its tree has the rest: the
  // value the tree reports must become the text.
  std::string value = after.value("element", json::object()).value("value", "");
  for (const auto until = std::chrono::steady_clock::now() + 30s;
       value != "a@b.example" && std::chrono::steady_clock::now() < until;) {
    std::this_thread::sleep_for(100ms);  // a poll of the server's own answer: no event to wait on
    const json m = matches({{"role", "entry"}, {"name", "Email"}, {"scope", "desktop"}});
    if (m.size() == 1) value = m[0].value("value", "");
  }
  EXPECT_EQ(value, "a@b.example") << typed.body;
  EXPECT_NE(after.value("done", "").find("typed the text"), std::string::npos) << typed.body;
  const json send = matches({{"role", "push button"}, {"name", "Send"}, {"scope", "desktop"}});
  ASSERT_EQ(send.size(), 1u) << send.dump();
  const HttpAnswer pressed = call("POST", "/a11y/act", json{{"id", send[0]["id"]}, {"action", "click"}}.dump());
  EXPECT_EQ(pressed.status, 200) << pressed.body;
  // The page's answer is in its tree (Chromium names a text node with it,
  // Firefox gives it as the paragraph's text).
  json sent;
  const auto until = std::chrono::steady_clock::now() + 60s;
  while (sent.empty() && std::chrono::steady_clock::now() < until) {
    sent = matches({{"text", "Sent: a@b.example"}, {"scope", "desktop"}});
    if (sent.empty()) std::this_thread::sleep_for(100ms);
  }
  EXPECT_FALSE(sent.empty()) << "the page never said it was sent";
  voxl.stop();
  std::filesystem::remove_all(dir);
}

// Not headless: headless Chromium publishes no tree.
TEST(A11yBrowser, AWebFormInChromiumIsFoundFilledAndSent) {
  fill_web_form([](const std::string& dir, const std::string& url) {
    return "chromium --no-sandbox --no-first-run --force-renderer-accessibility --disable-gpu --user-data-dir=" + dir +
           "/profile " + url;
  });
}

TEST(A11yBrowser, AWebFormInFirefoxIsFoundFilledAndSent) {
  fill_web_form([](const std::string& dir, const std::string& url) {
    std::filesystem::create_directories(dir + "/profile");
    std::ofstream prefs(dir + "/profile/user.js");
    prefs << "user_pref(\"browser.shell.checkDefaultBrowser\", false);\n"
             "user_pref(\"browser.aboutwelcome.enabled\", false);\n"
             "user_pref(\"datareporting.policy.dataSubmissionEnabled\", false);\n";
    return "firefox-esr --no-remote --profile " + dir + "/profile " + url;
  });
}

TEST(A11yOff, TheEndpointsSayHowToTurnItOn) {
  VoxlProcess voxl("", {"--xvfb=320x240"});
  const HttpAnswer a = http_request(voxl.port(), {"GET", "/a11y", {}}, "", kLimit);
  EXPECT_EQ(a.status, 503);
  EXPECT_NE(a.body.find("--a11y"), std::string::npos) << a.body;
}

}  // namespace VOXL_TEST_FILE
}  // namespace voxl::testing
