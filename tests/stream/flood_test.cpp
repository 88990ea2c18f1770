// A few thousand malformed HTTP requests and WebSocket messages, generated
// from fixed seeds, against one voxl: afterwards it must still run, have
// logged no crash, and stream a changing screen to a fresh viewer at a
// healthy rate.
#include <gtest/gtest.h>

#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <thread>

#include "animator.h"
#include "endpoint_fixture.h"
#include "hostile_input.h"
#include "proc_stats.h"
#include "raw_connection.h"
#include "viewer_checks.h"

namespace voxl::testing {
namespace VOXL_TEST_FILE {

using namespace std::chrono_literals;

constexpr uint64_t kHttpSeed = 0x68747470;  // "http"
constexpr uint64_t kWsSeed = 0x77730001;
constexpr int kHttpRequests = 3000;
constexpr int kWsMessages = 1500;
constexpr size_t kPerConnection = 50;            // well-formed frames sent on one connection
constexpr size_t kMaxIncoming = 12 * 1024 * 1024;  // voxl's WebSocket message limit
constexpr Rect kAnimated{40, 40, 560, 400};
constexpr char kFullPassword[] = "full-s3cret";
constexpr char kViewPassword[] = "watch-s3cret";

class FloodTest : public EndpointFixture {
 protected:
  // A fresh viewer sees a picture, then frames at a healthy rate while the
  // screen animates at 60 Hz: at least 20 in 5 s (a loaded machine with
  // sanitizers manages far more; the bound only catches a starved stream).
  void expect_full_rate_viewer(const ClientOptions& o) {
    ASSERT_TRUE(still_serving(*voxl_, o.authorization));
    StreamClient fresh(o);
    ASSERT_TRUE(fresh.wait_until([&] { return fresh.picture().has_value(); }, 60s)) << fresh.status();
    Animator animator(display_->name(), kAnimated);
    EXPECT_TRUE(receives_frames(fresh, 20, 5s, "fresh viewer after the flood"));
    EXPECT_EQ(fresh.decode_errors(), 0) << fresh.status();
    EXPECT_TRUE(still_serving(*voxl_, o.authorization));
  }
};

TEST_F(FloodTest, MalformedHttpRequestsLeaveVoxlServing) {
  start();
  const auto cases = malformed_http_requests(kHttpSeed, kHttpRequests, voxl_->port());
  std::map<std::string, int> outcomes;  // "<kind>: <what came back>"
  // Four clients at a time, each its share of the cases in order: the same
  // bytes every run, whatever the interleaving.
  constexpr size_t kClients = 4;
  std::vector<std::map<std::string, int>> seen(kClients);
  std::vector<std::thread> clients;
  for (size_t k = 0; k < kClients; ++k)
    clients.emplace_back([&, k] {
      for (size_t i = k; i < cases.size(); i += kClients) {
        const HttpCase& c = cases[i];
        std::string what;
        try {
          RawConnection conn(voxl_->port(), 30s);
          conn.send(c.bytes, 10s);  // may fail: voxl can close before it has read everything
          if (c.then == HttpCase::Then::kReadAnswer) {
            const auto status = conn.read_status(10s);
            what = status ? std::to_string(*status) : conn.peer_closed() ? "closed" : "no answer in 10 s";
          } else {
            conn.close(c.then == HttpCase::Then::kResetEarly);
            what = "given up";
          }
        } catch (const std::exception& e) {
          what = std::string("failed: ") + e.what();
        }
        ++seen[k][c.kind + ": " + what];
      }
    });
  for (auto& t : clients) t.join();
  for (const auto& s : seen)
    for (const auto& [k, n] : s) outcomes[k] += n;
  std::cout << cases.size() << " malformed HTTP requests:\n";
  for (const auto& [k, n] : outcomes) std::cout << "  " << k << ": " << n << "\n";
  std::cout << std::flush;
  for (const auto& [k, n] : outcomes) EXPECT_EQ(k.find("failed: connect"), std::string::npos) << k << " " << n;
  expect_full_rate_viewer(client_options());
}

TEST_F(FloodTest, MalformedWebSocketMessagesLeaveVoxlServing) {
  start({"--enable-basic-auth", std::string("--basic-auth-password=") + kFullPassword,
         std::string("--basic-auth-viewonly-password=") + kViewPassword});
  const auto cases = malformed_websocket_messages(kWsSeed, kWsMessages, kMaxIncoming);
  const std::string host = "127.0.0.1:" + std::to_string(voxl_->port());
  int connection = 0;
  std::map<std::string, int> outcomes;
  size_t sent_messages = 0;

  // Opens a viewer connection (full and view-only in turn) on a raw socket.
  const auto open = [&]() -> std::unique_ptr<RawConnection> {
    const char* password = connection++ % 2 ? kViewPassword : kFullPassword;
    auto conn = std::make_unique<RawConnection>(voxl_->port(), 30s);
    conn->send(websocket_upgrade_request(host, "Authorization: " + basic_authorization("voxl", password) + "\r\n"));
    const auto status = conn->read_status(30s);
    if (status != 101) {
      ADD_FAILURE() << "WebSocket upgrade answered " << (status ? std::to_string(*status) : "nothing")
                    << "; voxl running: " << process_alive(voxl_->pid());
      return nullptr;
    }
    conn->consume(conn->received().find("\r\n\r\n") + 4);
    return conn;
  };
  // Pings with `t` and reads (dropping video) until the pong: voxl has
  // handled everything sent before it. Closing the connection instead is
  // allowed (voxl may close a viewer that misbehaves); not answering is not.
  enum class Synced { kPong, kClosed, kNothing };
  const auto sync = [&](RawConnection& conn, int t) {
    conn.send(websocket_frame(1, R"({"type":"ping","t":)" + std::to_string(t) + "}"), 60s);
    const std::string want = "\"t\":" + std::to_string(t);
    const bool pong = conn.read_until(
        [&](const std::string&) {
          size_t at = 0;
          bool found = false;
          while (auto f = next_server_frame(conn.received(), at))
            if (f->opcode == 1 && f->payload.find("\"pong\"") != std::string::npos &&
                f->payload.find(want) != std::string::npos)
              found = true;
          conn.consume(at);
          return found;
        },
        120s);
    return pong ? Synced::kPong : conn.peer_closed() ? Synced::kClosed : Synced::kNothing;
  };
  const auto synced_name = [](Synced s) {
    return s == Synced::kPong ? "pong" : s == Synced::kClosed ? "closed by voxl" : "no answer in 120 s";
  };

  std::unique_ptr<RawConnection> shared;
  size_t on_shared = 0;
  for (size_t i = 0; i < cases.size(); ++i) {
    const WebSocketCase& c = cases[i];
    ++sent_messages;
    if (c.effect == WebSocketCase::Effect::kNone) {
      if (!shared) {
        shared = open();
        ASSERT_TRUE(shared) << "before case " << i << " (" << c.kind << ")";
      }
      shared->send(c.frames, 60s);
      ++outcomes[c.kind + ": sent on a shared connection"];
      if (++on_shared == kPerConnection || i + 1 == cases.size()) {
        const Synced got = sync(*shared, int(i));
        ++outcomes[std::string("shared connection: ") + synced_name(got)];
        ASSERT_TRUE(process_alive(voxl_->pid())) << "voxl ended by case " << i << " or before";
        ASSERT_NE(got, Synced::kNothing) << "no pong after case " << i << " (" << c.kind << ")";
        shared.reset();
        on_shared = 0;
      }
      continue;
    }
    auto own = open();
    ASSERT_TRUE(own) << "before case " << i << " (" << c.kind << ")";
    own->send(c.frames, 60s);
    if (c.effect == WebSocketCase::Effect::kMayClose) {
      const Synced got = sync(*own, int(i));
      ++outcomes[c.kind + ": " + synced_name(got)];
      ASSERT_TRUE(process_alive(voxl_->pid())) << "voxl ended by case " << i << " (" << c.kind << ")";
      ASSERT_NE(got, Synced::kNothing) << "case " << i << " (" << c.kind << ")";
    } else if (c.effect == WebSocketCase::Effect::kServerCloses) {
      // voxl's close frame (or the connection's end) is the answer; its
      // close handshake would then wait for ours, which never comes.
      const bool closed = own->read_until(
          [&](const std::string& r) {
            size_t at = 0;
            while (auto f = next_server_frame(r, at))
              if (f->opcode == 8) return true;
            return false;
          },
          30s);
      ++outcomes[c.kind + (closed || own->peer_closed() ? ": closed by voxl" : ": still open after 30 s")];
    } else {
      own->close(i % 2 != 0);
      ++outcomes[c.kind + ": given up"];
    }
  }
  std::cout << sent_messages << " malformed WebSocket messages on " << connection << " connections:\n";
  for (const auto& [k, n] : outcomes) std::cout << "  " << k << ": " << n << "\n";
  std::cout << std::flush;
  ClientOptions o = client_options();
  o.authorization = basic_authorization("voxl", kFullPassword);
  expect_full_rate_viewer(o);
}

}  // namespace
}  // namespace voxl::testing
