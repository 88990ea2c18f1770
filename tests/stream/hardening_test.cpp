// Regressions for the attacks of the hardening work, against the real
// binary: parameters that are not UTF-8, client messages whose fields have
// the wrong JSON type, and DNS rebinding on a server that listens beyond
// loopback. Each of them once ended the daemon or let a foreign page in.
// After every attack voxl must still run and serve.
#include <gtest/gtest.h>

#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "animator.h"
#include "endpoint_fixture.h"
#include "hostile_input.h"
#include "proc_stats.h"
#include "viewer_checks.h"

namespace voxl::testing {
namespace VOXL_TEST_FILE {

using json = nlohmann::json;

constexpr char kFullPassword[] = "full-s3cret";
constexpr char kViewPassword[] = "watch-s3cret";
constexpr char kToken[] = "k9Qm2vTz7LwX4rB8nJd5";
constexpr Rect kAnimated{40, 40, 560, 400};

class HardeningTest : public EndpointFixture {
 protected:
  ClientOptions viewer(const std::string& password = {}) const {
    ClientOptions o = client_options();
    if (!password.empty()) o.authorization = basic_authorization("voxl", password);
    return o;
  }

  // Sends every wrong-typed client message from a viewer with `password`,
  // then a ping, and waits for its pong: voxl handled them all in order.
  void attack_with_wrong_types(const std::string& password) {
    start({"--enable-basic-auth", std::string("--basic-auth-password=") + kFullPassword,
           std::string("--basic-auth-viewonly-password=") + kViewPassword});
    StreamClient watcher(viewer(kFullPassword));
    ASSERT_TRUE(watcher.wait_until([&] { return watcher.picture().has_value(); })) << watcher.status();

    StreamClient attacker(viewer(password));
    ASSERT_TRUE(attacker.wait_until([&] { return !attacker.texts().empty(); })) << attacker.status();
    const auto messages = wrong_type_messages();
    for (const auto& m : messages) attacker.send_text(m);
    attacker.send_text(R"({"type":"ping","t":424242})");
    const bool ponged = attacker.wait_until(
        [&] {
          for (const auto& t : attacker.texts())
            if (t.is_object() && t.value("type", "") == "pong" && t.contains("t") && t["t"].is_number() &&
                t["t"].get<double>() == 424242)
              return true;
          return false;
        },
        std::chrono::seconds(120));
    ASSERT_TRUE(ponged) << "no pong after " << messages.size() << " wrong-typed messages; attacker: "
                        << attacker.status() << "; voxl running: " << process_alive(voxl_->pid());
    std::cout << messages.size() << " wrong-typed messages handled" << std::endl;
    ASSERT_TRUE(still_serving(*voxl_, basic_authorization("voxl", kFullPassword)));

    // The other viewer goes on receiving frames of a changing screen.
    Animator animator(display_->name(), kAnimated);
    EXPECT_TRUE(receives_frames(watcher, 10, std::chrono::seconds(10), "watcher after the attack"));
    EXPECT_FALSE(attacker.closed()) << attacker.status();
  }


  // A page of evil.example whose name now resolves to this machine: its
  // requests carry Host and Origin of evil.example.
  void expect_rebinding_refused(const std::string& authorization) {
    Headers evil{{"Host", "evil.example"}, {"Origin", "http://evil.example"}};
    if (!authorization.empty()) evil.emplace_back("Authorization", authorization);
    const HttpAnswer page = call("GET", "/", evil);
    EXPECT_EQ(page.status, 403) << page.body;
    Headers post = evil;
    post.emplace_back("Content-Type", "application/json");
    const HttpAnswer input = call("POST", "/input", R"({"actions":[{"type":"move","x":5,"y":5}]})", post);
    EXPECT_EQ(input.status, 403) << input.body;
    ClientOptions ws = client_options();
    ws.host = "evil.example";
    ws.origin = "http://evil.example";
    ws.authorization = authorization;
    EXPECT_EQ(handshake_status(ws), 403);
    // Without a credential off loopback voxl may refuse the screenshot
    // too; that it still runs is what counts then.
    if (!authorization.empty()) {
      EXPECT_TRUE(still_serving(*voxl_, authorization));
    } else {
      EXPECT_TRUE(process_alive(voxl_->pid()));
      EXPECT_EQ(crash_reports_in(voxl_->log()), "");
    }
  }
};

TEST_F(HardeningTest, InvalidUtf8QueryGetsJson400AndVoxlKeepsServing) {
  start();
  for (const std::string target : {"/screenshot?%ff", "/wait?%ff"}) {
    SCOPED_TRACE(target);
    const HttpAnswer a = get(target);
    expect_error(a, 400, "");
    ASSERT_TRUE(process_alive(voxl_->pid())) << "voxl ended on GET " << target;
  }
  EXPECT_EQ(get("/screenshot").status, 200);
  EXPECT_TRUE(still_serving(*voxl_));
}

TEST_F(HardeningTest, InvalidUtf8NamesAndValuesAcrossEndpoints) {
  start();
  const Headers json_body{{"Content-Type", "application/json"}};
  struct Call {
    std::string method, target;
  };
  const std::vector<Call> calls{
      {"GET", "/screenshot?region=%ff"},       {"GET", "/screenshot?%c3%28=1"},
      {"GET", "/screenshot?region=0,0,%e2%82,1"}, {"GET", "/wait?timeout=%ff%fe"},
      {"GET", "/wait?idle=%ed%a0%80"},          {"GET", "/wait?change=%c0%af&timeout=1"},
      {"GET", "/wait?%f4%90%80%80=1"},          {"GET", "/wait?since=%ff"},
      {"GET", "/record?seconds=%ff"},           {"GET", "/record?%ff=%ff"},
      {"GET", "/?%ff"},                         {"GET", "/app.js?%ff=%fe"},
      {"GET", "/nope?%ff"},                     {"GET", "/%ff"},
      {"GET", "/ws?%ff"},                       {"POST", "/input?%ff"},
      {"POST", "/record/start?%ff=1"},          {"POST", "/record/stop?seconds=%f0%9f%98"},
  };
  for (const auto& c : calls) {
    SCOPED_TRACE(c.method + " " + c.target);
    const HttpAnswer a = c.method == "POST" ? call(c.method, c.target, "{}", json_body) : call(c.method, c.target);
    EXPECT_LT(a.status, 500) << a.body;
    if (a.header("content-type") == "application/json") {
      EXPECT_TRUE(body_json(a).is_object()) << "not a JSON object: " << a.body;
    }
    ASSERT_TRUE(process_alive(voxl_->pid())) << "voxl ended";
  }
  EXPECT_TRUE(still_serving(*voxl_));
}

TEST_F(HardeningTest, WrongTypedMessagesFromAFullViewerLeaveVoxlRunning) {
  attack_with_wrong_types(kFullPassword);
}

TEST_F(HardeningTest, WrongTypedMessagesFromAViewOnlyViewerLeaveVoxlRunning) {
  attack_with_wrong_types(kViewPassword);
}

TEST_F(HardeningTest, DnsRebindingIsRefusedEvenWithTheToken) {
  listen_address_ = "0.0.0.0";
  start({std::string("--auth-token=") + kToken});
  const std::string bearer = std::string("Bearer ") + kToken;
  expect_rebinding_refused(bearer);

  // The same requests under this machine's own name are served.
  const std::string own = "127.0.0.1:" + std::to_string(voxl_->port());
  const Headers good{{"Host", own}, {"Authorization", bearer}};
  EXPECT_EQ(call("GET", "/", good).status, 200);
  Headers post = good;
  post.emplace_back("Content-Type", "application/json");
  const HttpAnswer input = call("POST", "/input", R"({"actions":[{"type":"move","x":5,"y":5}]})", post);
  EXPECT_EQ(input.status, 200) << input.body;
  ClientOptions ws = client_options();
  ws.authorization = bearer;
  EXPECT_EQ(handshake_status(ws), 101);
}

TEST_F(HardeningTest, DnsRebindingIsRefusedWithoutAToken) {
  listen_address_ = "0.0.0.0";
  start();
  expect_rebinding_refused("");
}

TEST_F(HardeningTest, DnsRebindingIsRefusedWithAuthenticationTurnedOff) {
  listen_address_ = "0.0.0.0";
  start({"--insecure-no-auth"});
  expect_rebinding_refused("");
  EXPECT_EQ(call("GET", "/", Headers{{"Host", "127.0.0.1:" + std::to_string(voxl_->port())}}).status, 200);
}

}  // namespace
}  // namespace voxl::testing
