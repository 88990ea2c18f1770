// A client that leaves while its /wait is pending frees its waiter in
// every case: after sending bytes ahead (a pipelined request, garbage),
// after too many of them, and over TLS, where what arrives is TLS records
// (close_notify) rather than plain bytes. Bytes sent ahead by a client
// that stays are answered after the first request.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>

#include "endpoint_fixture.h"
#include "raw_connection.h"
#include "tls_client.h"

namespace voxl::testing {
namespace VOXL_TEST_FILE {

using namespace std::chrono_literals;

constexpr auto kLogLimit = 30s;

class HangUpTest : public EndpointFixture {
 protected:
  void start(std::vector<std::string> args = {}) {
    args.push_back("--log-level=debug");
    EndpointFixture::start(args);
  }

  void TearDown() override {
    EndpointFixture::TearDown();
    if (!cert_dir_.empty()) std::filesystem::remove_all(cert_dir_);
  }

  // voxl over TLS with a self-made certificate.
  void start_tls() {
    char dir[] = "/tmp/voxl-hangup-XXXXXX";
    ASSERT_NE(::mkdtemp(dir), nullptr);
    cert_dir_ = dir;
    make_self_signed_cert(cert_dir_);
    start({"--enable-https", "--https-cert=" + cert_dir_ + "/cert.pem", "--https-key=" + cert_dir_ + "/key.pem"});
  }

  std::string request(const std::string& target, const std::string& extra_headers = "") const {
    return "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(voxl_->port()) + "\r\n" +
           extra_headers + "\r\n";
  }

  // Waits until voxl logs that `n` waits are pending after a start.
  void await_waiting(size_t n) {
    ASSERT_TRUE(voxl_->wait_for_log("(" + std::to_string(n) + " waiting)", kLogLimit)) << voxl_->log();
  }
  void await_freed() {
    EXPECT_TRUE(voxl_->wait_for_log("its client left (0 waiting)", kLogLimit)) << voxl_->log();
  }

  std::string cert_dir_;
};

TEST_F(HangUpTest, AClientThatSentGarbageFirstFreesItsWaiter) {
  start();
  RawConnection s(voxl_->port());
  ASSERT_TRUE(s.send(request("/wait?change&timeout=60000") + "garbage that is no request"));
  await_waiting(1);
  s.close();
  await_freed();
}

TEST_F(HangUpTest, AClientThatPipelinedARequestFreesItsWaiter) {
  start();
  RawConnection s(voxl_->port());
  ASSERT_TRUE(s.send(request("/wait?change&timeout=60000") + request("/wait?idle=0")));
  await_waiting(1);
  s.close();
  await_freed();
  // The server carries on.
  EXPECT_EQ(get("/wait?idle=0").status, 200);
}

TEST_F(HangUpTest, APipelinedRequestIsAnsweredAfterThePendingOne) {
  start();
  RawConnection s(voxl_->port());
  ASSERT_TRUE(s.send(request("/wait?change&timeout=1500") + request("/wait?idle=0", "Connection: close\r\n")));
  s.read_until_closed(60s);
  const std::string answers = s.received();
  const size_t first = answers.find("HTTP/1.1 200");
  ASSERT_NE(first, std::string::npos) << answers;
  EXPECT_NE(answers.find("\"timed_out\":true"), std::string::npos) << answers;
  const size_t second = answers.find("HTTP/1.1 200", first + 1);
  ASSERT_NE(second, std::string::npos) << answers;
  EXPECT_NE(answers.find("\"timed_out\":false", second), std::string::npos) << answers;
}

TEST_F(HangUpTest, TooManyBytesAheadCloseTheConnectionAndFreeTheWaiter) {
  start();
  RawConnection s(voxl_->port());
  ASSERT_TRUE(s.send(request("/wait?change&timeout=60000")));
  await_waiting(1);
  s.send(std::string(64 * 1024, 'x'));  // may fail part way once voxl has closed
  EXPECT_TRUE(s.read_until_closed(kLogLimit));
  await_freed();
}

TEST_F(HangUpTest, ATlsClientThatLeavesFreesItsWaiter) {
  start_tls();
  {
    // The client itself works: an answer over TLS.
    TlsClient c(voxl_->port());
    ASSERT_TRUE(c.write(request("/wait?idle=0", "Connection: close\r\n")));
    EXPECT_NE(c.read_for(60s).find("HTTP/1.1 200"), std::string::npos);
  }
  TlsClient c(voxl_->port());
  ASSERT_TRUE(c.write(request("/wait?change&timeout=60000") + "bytes ahead"));
  await_waiting(1);
  c.close_notify();
  c.close();
  await_freed();
}

TEST_F(HangUpTest, ATlsCloseNotifyAloneFreesTheWaiter) {
  start_tls();
  TlsClient c(voxl_->port());
  ASSERT_TRUE(c.write(request("/wait?change&timeout=60000")));
  await_waiting(1);
  c.close_notify();  // the TCP connection stays open
  await_freed();
}

}  // namespace
}  // namespace voxl::testing
