// VoxlFixture plus what the tests of voxl's agent HTTP endpoints (/screenshot,
// /wait, /record, /input) share: a screen painted one known colour, requests
// to the voxl under test, and the check of a JSON error answer.
//
// Threads: the test's thread, like VoxlFixture; http_request itself is
// thread-safe, so a test may also call it from std::async with port().
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "http_client.h"
#include "voxl_fixture.h"

namespace voxl::testing {

class EndpointFixture : public VoxlFixture {
 protected:
  using Headers = std::vector<std::pair<std::string, std::string>>;

  static constexpr uint32_t kBackground = 0x203040;
  // Generous: sanitizers and a loaded 2-core machine make voxl slow.
  static constexpr std::chrono::milliseconds kRequestLimit = std::chrono::seconds(60);

  // A display painted kBackground, and voxl on it started with `args`.
  void start(const std::vector<std::string>& args = {}) {
    start_display(kBackground);
    start_voxl(args);
  }

  HttpAnswer call(const std::string& method, const std::string& target, Headers headers = {}) {
    return http_request(voxl_->port(), {method, target, std::move(headers)}, kRequestLimit);
  }
  HttpAnswer call(const std::string& method, const std::string& target, const std::string& body,
                  Headers headers = {}) {
    return http_request(voxl_->port(), {method, target, std::move(headers)}, body, kRequestLimit);
  }
  HttpAnswer get(const std::string& target) { return call("GET", target); }

  // The answer's body as JSON; a discarded value when it is not JSON.
  static nlohmann::json body_json(const HttpAnswer& a) { return nlohmann::json::parse(a.body, nullptr, false); }

  // `a` is a JSON error with `status`, naming `parameter` unless that is
  // empty.
  static void expect_error(const HttpAnswer& a, int status, const std::string& parameter) {
    EXPECT_EQ(a.status, status) << a.body;
    EXPECT_EQ(a.header("content-type"), "application/json");
    const nlohmann::json j = body_json(a);
    ASSERT_TRUE(j.is_object()) << a.body;
    EXPECT_TRUE(j.contains("error")) << a.body;
    if (!parameter.empty()) {
      EXPECT_EQ(j.value("parameter", ""), parameter) << a.body;
    }
  }
};

}  // namespace voxl::testing
